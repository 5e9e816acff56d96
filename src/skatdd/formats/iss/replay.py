"""Replaying an ISS record by the rules and scoring it as the server did.

:func:`replay` plays every recorded card of an
:class:`~skatdd.formats.iss.model.IssGame` through
:class:`skatdd.core.position.Position`, settles a game that ended early the way
the server does, and scores it with :func:`skatdd.core.scoring.score_game`, so
that a complete record reproduces its ``R[...]`` fields ``p: t: s: z: m: v:``,
win/loss and ``bidok``/``overbid`` (:class:`Replay`); :func:`replay_warnings`
says when a record's ``v:`` or ``p:`` does not.

Server conventions followed by :func:`replay` (docs/iss.md, checked against
the fixture records):

* ``p:`` is the declarer's card points *including* the skat or discard, in
  null games too (a null ouvert that put away HA HQ and won shows ``p:14``).
* A game ends early when the declarer resigns (``RE``), when both defenders
  have resigned (usually after the declarer's claim ``SC``), or when a seat
  times out (``TI.n``) or leaves (``LE.n``).  The untaken tricks -- the trick
  in progress included -- then go to the side that did not give up: to the
  declarer when both defenders resigned or a defender timed out or left, to
  the defenders when the declarer resigned, timed out or left.  ``p:`` and
  ``t:`` include what the ending gave.  In a null game the tricks given to the
  declarer are tricks the defenders concede, so the declarer wins with the
  tricks actually taken (normally none); a null declarer who gives up loses.
  A lone claim (``SC``) without the defenders' resignation settles nothing:
  play continues.
* A trailing hidden card play (``??``, as the server logs the move of a seat
"""
from __future__ import annotations

from dataclasses import dataclass

from skatdd.core.cards import mask_of, points_of
from skatdd.core.errors import ISSFormatError, SkatddError, quote
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS
from skatdd.core.scoring import Score, score_game
from skatdd.core.scoring import matadors as count_matadors

from .model import IssGame, play_through

__all__ = ["Replay", "replay", "replay_warnings"]


@dataclass
class Replay:
    """The outcome of a replayed record (see :func:`replay`).

    Attributes:
        declarer_points: the declarer's card points including the skat or
            discard (ISS counts them in null too), with whatever an early
            ending gave.
        declarer_tricks: tricks the declarer took, with whatever an early ending gave.
        complete: all ten tricks were played, or the tricks taken decided the
            game before that (:meth:`~skatdd.core.scoring.Declaration.decided`: a
            null declarer took a trick, or the defenders took one against
            announced schwarz); then ``declarer_points`` and ``declarer_tricks``
            are what was taken.
        declarer_wins: the declarer won the game as scored (an overbid game is lost).
        matadors: "with" (positive) or "without" (negative) for suit and grand, 0 for null.
        score: :func:`skatdd.core.scoring.score_game` with the record's bid, overbid included.
        schneider, schwarz: one side reached that level (ISS ``s:``/``z:``); false in null.
        awarded: ``'declarer'`` or ``'defenders'``, the side an early ending gave
            the untaken tricks to; ``None`` for a complete game.
    """

    declarer_points: int
    declarer_tricks: int
    complete: bool
    declarer_wins: bool
    matadors: int
    score: Score
    schneider: bool = False
    schwarz: bool = False
    awarded: str | None = None


def _awarded_side(game: IssGame, declarer: int) -> str | None:
    """The side an early ending gives the untaken tricks to, from the events in MV order."""
    resigned: set[int] = set()
    for event in game.events:
        if event.kind == "RE":
            if event.seat == declarer:
                return "defenders"
            resigned.add(event.seat)
            if len(resigned) == 2:
                return "declarer"
        elif event.kind in ("TI", "LE"):
            return "defenders" if event.seat == declarer else "declarer"
    return None


def replay(game: IssGame) -> Replay:
    """Replay *game* by the rules and score it as the server did.

    Every visible card is played through :class:`Position` (an unheld,
    illegal or out-of-turn card raises :class:`ISSFormatError` naming the card
    and its MV move).  A game that stops before its end is settled by the
    first event that decides it (module docstring): the untaken tricks go to
    the declarer or to the defenders.  The declared game is then valued with
    :func:`skatdd.core.scoring.score_game`, matadors from the declarer's twelve
    cards and the record's bid (so an overbid game is lost and valued as ISS
    does).  For a complete server record the result matches its ``R[...]``:
    ``declarer_points == p``, ``declarer_tricks == t``, ``score.score == v``,
    ``matadors == m``, ``score.overbid`` for ``overbid``, ``schneider == s``,
    ``schwarz == z`` and ``declarer_wins`` for ``win``.

    Raises :class:`ISSFormatError` when no game was played (passed or
    penalty records), when the record hides cards that matter, or when it
    stops early without an event that settles the rest.
    """
    declarer, declaration = game.require_game()
    position = play_through(game)
    skat = position.skat
    points = position.declarer_points + points_of(skat)
    tricks = position.declarer_tricks
    # A game the tricks already settled (null, schwarz announced) ends at that trick on the server.
    decided = declaration.decided(position.declarer_tricks, position.defender_tricks) and not position.is_over()
    complete = position.is_over() or decided
    awarded = None
    if not complete:
        awarded = _awarded_side(game, declarer)
        if awarded is None:
            done = position.declarer_tricks + position.defender_tricks
            raise ISSFormatError(
                f"ISS record {quote(game.id or '?', bare=True)} stops after {done} of 10 tricks with no resignation, timeout "
                "or departure that settles the rest; its result cannot be replayed"
            )
        if awarded == "declarer" and not declaration.game.is_null:
            remaining = mask_of(position.trick)
            for hand in position.hands:
                remaining |= hand
            points += points_of(remaining)
            tricks = 10 - position.defender_tricks
    twelve = game.declarer_cards() | skat
    matadors = 0 if declaration.game.is_null else count_matadors(declaration.game, twelve)
    try:
        if declaration.game.is_null:
            # A null declarer who gives up loses although no trick was taken.
            scored_tricks = max(tricks, 1) if awarded == "defenders" else tricks
            score = score_game(declaration, matadors=0, tricks=scored_tricks, bid=game.bid)
        else:
            # Stopped early, neither side is schwarz, whatever the tricks so far.
            score = score_game(declaration, matadors=matadors, points=points, tricks=None if decided else tricks,
                               bid=game.bid)
    except SkatddError as exc:
        raise ISSFormatError(
            f"ISS record {quote(game.id or '?', bare=True)}: the declared game cannot be scored: {exc}"
        ) from None
    if declaration.game.is_null:
        schneider = schwarz = False
    elif decided:
        # The server reports what the play reached (s:0 z:0 after a lost first trick).
        schneider, schwarz = points >= SCHNEIDER_POINTS, False
    else:
        schneider = points >= SCHNEIDER_POINTS or points <= SCHNEIDERED_POINTS
        schwarz = tricks in (0, 10)
    return Replay(
        declarer_points=points,
        declarer_tricks=tricks,
        complete=complete,
        declarer_wins=bool(score.declarer_wins) and not score.overbid,
        matadors=matadors,
        score=score,
        schneider=schneider,
        schwarz=schwarz,
        awarded=awarded,
    )


def replay_warnings(game: IssGame, played: Replay | None = None) -> list[str]:
    """What the record's ``R[...]`` claims that its replay does not give: ``[]``, or one message naming it.

    Compared: ``v:`` (the score, :attr:`Replay.score`) and ``p:`` (the
    declarer's card points with the skat, :attr:`Replay.declarer_points`),
    each when the record gives it.  A disagreement does not stop the
    record from being read -- the cards are what is analysed, and they are
    checked card by card -- but it means the result was edited or the
    record comes from another source, so every reader of the record warns
    (where a ``d:`` that names another declarer is refused by
    :func:`parse_iss`).  *played* is the record's :func:`replay` when the
    caller has it.  A record that cannot be replayed (no game, hidden cards,
    stopped with nothing that settles the rest) gives ``[]``: it has no
    result of its own to compare.
    """
    if played is None:
        try:
            played = replay(game)
        except SkatddError:
            return []
    result = game.result
    found = []
    if result.value is not None and result.value != played.score.score:
        found.append(f"v:{result.value}, but the replay scores {played.score.score}")
    if result.points is not None and result.points != played.declarer_points:
        found.append(f"p:{result.points}, but the replay gives the declarer {played.declarer_points} card points "
                     "(skat included)")
    if not found:
        return []
    return [f"ISS record {quote(game.id or '?', bare=True)}: the result disagrees with the moves: R[...] says "
            + "; ".join(found)]
