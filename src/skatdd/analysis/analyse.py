"""Card-by-card double-dummy analysis of a played game (docs/cli.md, ``skatdd analyse``).

Given a game as it was played -- an ISS record (:mod:`skatdd.formats.iss`) or a JSON
deal with ``played`` (:mod:`skatdd.formats.readers`) -- every card is judged by what it
did to the double-dummy result:

Values
    Suit and grand: the *value* of a position is the declarer's final card
    points (skat or discard included) under double-dummy play from there
    (docs/cli.md).  Null: 1 when the declarer wins double-dummy (he can avoid
    every trick), 0 when he loses.

Per card (:class:`CardAnalysis`)
    ``value_before`` is the value of the position the card was played from,
    ``value_after`` the value of the position it led to.  The value after a
    card *is* the value before the next one: each position is valued once
    and the two numbers are the same object.  ``cost`` is what the card lost
    for its own side and is never negative: ``value_before - value_after``
    for a declarer's card, ``value_after - value_before`` for a defender's
    (so in null a cost of 1 means the card turned a win into a loss for its
    side).  ``best`` lists every legal card whose value equals the best
    value for the player to move; ``cost == 0`` exactly when the card played
    is in ``best``.

How the values are found (:func:`analyse_cards`)
    One :class:`~skatdd.engine.solve.Solver` serves the whole game, so its
    transposition table (exact keys, valid across positions) carries from
    each position to the next.  Suit and grand: the start is valued exactly
    once; after that the value *v* of the current position is known (it is
    the previous card's ``value_after``), and every child needs only
    null-window questions, since a declarer's child is worth at most *v* and
    a defender's child at least *v*: a declarer's card is optimal iff its
    child still reaches *v*, a defender's iff its child does not reach
    *v* + 1.  Only the child of a card that was actually played and was a
    mistake is valued exactly (it is the next position's value).  A forced
    card (one legal card) costs no search; cards that are equivalent (same
    holder, same follow group, same card points, no live card of another
    holder between them in rank) share one search.  Null: the engine's
    :meth:`~skatdd.engine.solve.Solver.card_values` gives every card's win or loss.

The result at stake and ``first_decisive``
    Suit and grand: the *stake* of a position is what the declared game's
    score would say if the position were played out double-dummy: score the
    declaration (:func:`skatdd.core.scoring.score_game`, with the game's matadors
    and bid) with points = the position's value and tricks = 10 when the
    declarer can take every remaining trick and the defenders have none
    (asked only when the value is 120), 0 when the defenders can keep him
    from taking any (asked only when the declarer has no trick and the value
    is the skat's points alone).  That gives three results: the win (61, 90
    after announcing schneider, every trick after announcing schwarz or
    playing ouvert, the overbid rule included), schneider (either side) and
    schwarz (either side).  ``first_decisive`` is the index in ``plays`` of
    the first card after which the *win* differs from before it; when no card
    changed the win, the first card that changed schneider; when none
    changed that, the first that changed schwarz; else ``None``.
    ``decisive_stake`` names which of the three it was.  Null: the first
    card with cost 1 (stake ``win``).

Claims (``summary.claim``)
    Reported for an ISS game in which the declarer claimed (``SC``) and
    whose play stopped before its end -- normally because both defenders
    then resigned and the ending gave him the untaken tricks; a claim after
    which the game was played out settled nothing and is not reported.  The
    first ``SC`` is judged, from the claim position: the position after the
    cards played before the ``SC`` move (cards played after it, before the
    resignations, do not change what was claimed).
    In suit and grand the claim says "I take every remaining trick", the
    trick in progress included; it is *correct* when the declarer can force
    that against best defence from the claim position
    (:meth:`~skatdd.engine.solve.Solver.declarer_takes_all`, asked about the tricks
    still to be played whatever the defenders took before).  In null the
    claim says "I take no further trick"; it is correct when the declarer
    wins double-dummy from the claim position.

Results (``result``)
    An ISS record is replayed with :func:`skatdd.formats.iss.replay`, so
    ``declarer_points``, ``declarer_tricks``, ``declarer_wins`` and
    ``score`` are the server's (``score`` equals ``v:``); a game that ended
    early includes what its ending gave (like ``p:`` and ``t:``).  A JSON
    deal is scored with :func:`skatdd.core.scoring.score_game` from its
    declaration (``hand``, ``announce``, ``bid``); points include the skat or
    discard (in null too, as ISS counts them).  A JSON game whose ``played``
    stops before the end has ``declarer_wins`` and ``score`` ``None``, unless
    the tricks taken already decided it (a null declarer's trick, the
    defenders' trick against announced schwarz): then it is scored as lost.

Contract review (``contract_review``)
    :func:`skatdd.analysis.best.best_contracts` for the declarer with the same twelve
    cards and the game's bid: the record's hands and skat as dealt (ISS), or
    for a JSON deal -- whose hands are those after the discard -- the
    declarer's ten cards with ``skat`` taken as the skat.  Skipped with
    ``review=False``.

Files of many games
    :func:`analyse_lines` analyses ``(line_number, raw_line)`` items, each an
    ISS record or a JSON deal object, on one process or on worker processes
    with one Solver each, and hands back one record per line in input order
    (like :mod:`skatdd.runner.lines`).  A record in which no game was played
    (everyone passed, or a penalty in the bidding) is not an error there: it
    yields ``{"line": N, "id": ..., "skipped": "..."}``.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from skatdd.core.cards import CARD_POINTS, Card, Mask, card_name, cards_of, display_sorted, mask_of, points_of
from skatdd.core.errors import DealFormatError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game, follow_group, group_mask, power
from skatdd.core.scoring import Declaration, score_game
from skatdd.core.scoring import matadors as count_matadors
from skatdd.engine.solve import Solver
from skatdd.formats.files import strip_comments
from skatdd.formats.iss import IssGame, Replay, parse_iss, replay, replay_warnings
from skatdd.formats.readers import DealInput, parse_input
from skatdd.formats.spec import GameSpec, replay_cards
from skatdd.runner.game_lines import game_line_id, handle_line
from skatdd.runner.lines import BatchSummary, LineOutcome, run_lines

from .best import SeatReport, best_contracts

if TYPE_CHECKING:
    from .advise import SingleDummyGame

__all__ = [
    "STAKES", "CardAnalysis", "Claim", "ContractReview", "GameAnalysis", "GameResult", "PlayLine", "Stake",
    "analyse_cards", "analyse_input", "analyse_iss", "analyse_line", "analyse_lines", "analyse_spec",
    "analyse_text", "first_decisive", "game_line_id", "stakes",
]

#: What a decisive card can change, in order of importance.
STAKES = ("win", "schneider", "schwarz")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CardAnalysis:
    """One card of the game, judged double-dummy (see the module docstring).

    Attributes:
        index: position in the game's plays, from 0.
        trick: the trick the card belongs to, from 1.
        seat: the seat that played it.
        card: the card.
        value_before, value_after: the value of the position before and after
            the card (suit/grand: declarer's final card points; null: 1 the
            declarer wins, 0 he loses).
        cost: what the card lost for its own side, ``>= 0``; 0 exactly when
            *card* is in *best*.
        best: every legal card of the position worth the best value for the
            player to move, in display order.
        declarer: the card was the declarer's.
    """

    index: int
    trick: int
    seat: int
    card: Card
    value_before: int
    value_after: int
    cost: int
    best: tuple[Card, ...]
    declarer: bool

    @property
    def optimal(self) -> bool:
        """The card kept the value (cost 0)."""
        return self.cost == 0

    def to_json(self) -> dict[str, Any]:
        """``{trick, seat, card, value_before, value_after, cost, best}`` with canonical codes."""
        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_name(self.card),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "cost": self.cost,
            "best": [card_name(c) for c in self.best],
        }


@dataclass
class PlayLine:
    """What :func:`analyse_cards` finds: the start value, one :class:`CardAnalysis` per card, search effort.

    ``values[i]`` is the value of the position before card *i*
    (``values[len(plays)]`` the one after the last card), so
    ``plays[i].value_before == values[i]`` and ``plays[i].value_after ==
    values[i + 1]``.
    """

    start_value: int
    plays: list[CardAnalysis]
    values: list[int]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class GameResult:
    """The game's actual result.

    ``declarer_points`` include the skat or discard (as ISS's ``p:``) and,
    for a game that ended early, what the ending gave; ``declarer_wins`` and
    ``score`` are ``None`` for a JSON game that stops before its end.
    ``complete``: every card was played (or a null declarer took a trick).
    ``game_value`` and ``overbid``: the declared game's value as played and
    whether it fell short of the bid (ISkO 5.4), ``None`` when unscored.
    """

    declarer_points: int
    declarer_tricks: int
    declarer_wins: bool | None
    score: int | None
    complete: bool
    game_value: int | None = None
    overbid: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """``{declarer_points, declarer_tricks, declarer_wins, score, overbid}``."""
        return {
            "declarer_points": self.declarer_points,
            "declarer_tricks": self.declarer_tricks,
            "declarer_wins": self.declarer_wins,
            "score": self.score,
            "overbid": self.overbid,
        }


class Stake(NamedTuple):
    """The result at stake in a position: what the game's score would say after double-dummy play from there.

    ``wins``: the declarer wins as scored; ``schneider`` and ``schwarz``:
    ``'declarer'``, ``'defenders'`` or ``None`` as in :class:`~skatdd.core.scoring.Score`
    (always ``None`` in null).
    """

    wins: bool
    schneider: str | None
    schwarz: str | None


@dataclass(frozen=True)
class Claim:
    """The declarer's claim (``SC``) that ended an ISS game, judged double-dummy.

    Attributes:
        seat: the claimer (the declarer).
        correct: see the module docstring ("Claims").
        index: cards played before the claim (the claim position is before ``plays[index]``).
        value: double-dummy value of the claim position.
    """

    seat: int
    correct: bool
    index: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "correct": self.correct, "index": self.index, "value": self.value}


@dataclass
class ContractReview:
    """The declarer's best contract with the same twelve cards, beside the contract played.

    ``report`` is :func:`skatdd.analysis.best.best_contracts`'s answer; ``declaration``
    and ``discard`` (``None`` for a hand game) the contract played, ``score``
    its score (``None`` when the game is unfinished).
    """

    report: SeatReport
    declaration: Declaration
    discard: list[Card] | None
    score: int | None

    def to_json(self) -> dict[str, Any]:
        """The best option's fields at the top level (docs/cli.md: "as in best"), plus ``played``."""
        out = self.report.best.to_json()
        out["played"] = {
            "game": self.declaration.game.label,
            "hand": self.declaration.hand,
            "announce": list(self.declaration.announce),
            "discard": None if self.discard is None else [card_name(c) for c in self.discard],
            "score": self.score,
        }
        return out


@dataclass
class GameAnalysis:
    """Everything ``skatdd analyse`` reports for one game (see :meth:`to_json`).

    Attributes:
        id: the record's ``ID`` or the JSON ``id``.
        declaration: the contract played (game, hand, announcements).
        declarer: the declarer's seat.
        bid: the bid, when known.
        start: the position before the first card (for rendering; not in JSON).
        line: the card-by-card analysis.
        result: the actual result.
        costs: total cost per seat.
        stakes: the :class:`Stake` of every position, ``stakes[i]`` before
            card *i* (the last one after the last card).
        first_decisive, decisive_stake: see the module docstring.
        claim: the judged claim, or ``None``.
        ending: ``(kind, seat, awarded)`` of an early ending (``SC``, ``RE``,
            ``TI``, ``LE``; *awarded* is the side given the rest), or ``None``.
        review: the contract review, or ``None`` when skipped.
        players: player names by seat (ISS), else empty strings.
        discard: the declarer's discard (picked-up games), else ``None``.
        source: ``'iss'`` or ``'json'``.
        date: the record's ``DT`` (ISS), else ``None``.
        nodes, seconds: search effort for the whole analysis, review included.
        single_dummy: every card judged from its player's view
            (:func:`skatdd.analysis.advise.single_dummy_game`), or ``None``; when set,
            :meth:`to_json` adds its ``sd_*`` fields.
        warnings: what is wrong with the record but did not stop the
            analysis (:func:`skatdd.formats.iss.replay_warnings`: a ``v:`` or ``p:``
            its moves do not give), one line each; in JSON only when there are any.
    """

    id: Any
    declaration: Declaration
    declarer: int
    bid: int | None
    start: Position
    line: PlayLine
    result: GameResult
    costs: list[int]
    stakes: list[Stake]
    first_decisive: int | None
    decisive_stake: str | None
    claim: Claim | None
    ending: tuple[str, int, str | None] | None
    review: ContractReview | None
    players: list[str] = field(default_factory=lambda: ["", "", ""])
    discard: list[Card] | None = None
    source: str = "json"
    date: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    single_dummy: SingleDummyGame | None = None
    warnings: list[str] = field(default_factory=list)
    bids: tuple[tuple[int, str], ...] = ()  # the auction (ISS records), for the single-dummy inference; not in JSON

    @property
    def game(self) -> Game:
        return self.declaration.game

    @property
    def plays(self) -> list[CardAnalysis]:
        return self.line.plays

    @property
    def start_value(self) -> int:
        return self.line.start_value

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``skatdd analyse`` (docs/cli.md).

        Beside the documented fields: ``id``, ``date`` (ISS ``DT``, else
        ``null``), ``players`` (names by seat, ``""`` when unknown), ``hand``,
        ``bid``, ``decisive_stake`` and ``ending``; ``warnings`` only when
        there are any (so a record that agrees with itself keeps its output).
        """
        ending = None
        if self.ending is not None:
            kind, seat, awarded = self.ending
            ending = {"kind": kind, "seat": seat, "awarded": awarded}
        out = {
            "id": self.id,
            "date": self.date,
            "players": list(self.players),
            "game": self.game.label,
            "declarer": self.declarer,
            "hand": self.declaration.hand,
            "bid": self.bid,
            "start_value": self.start_value,
            "plays": [p.to_json() for p in self.plays],
            "result": self.result.to_json(),
            "summary": {
                "costs": list(self.costs),
                "first_decisive": self.first_decisive,
                "decisive_stake": self.decisive_stake,
                "claim": None if self.claim is None else self.claim.to_json(),
                "ending": ending,
            },
            "contract_review": None if self.review is None else self.review.to_json(),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.single_dummy is not None:
            self.single_dummy.add_to(out)
        return out


# --------------------------------------------------------------------------- card by card


def _live(pos: Position) -> Mask:
    """Cards still in a hand or on the table: the ones that decide who wins what."""
    return pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)


def _representatives(pos: Position, legal: list[Card]) -> dict[Card, Card]:
    """Map each legal card to the representative of its equivalence class.

    Two cards of the player to move are equivalent when they are in the same
    follow group, carry the same card points and no live card of anybody
    else lies between them in that group's order: swapping them changes no
    trick's winner or points, so they have the same value.
    """
    game = pos.game
    hand = pos.hands[pos.to_move]
    live = _live(pos)
    reps: dict[Card, Card] = {}
    groups = {follow_group(c, game) for c in legal}
    for group in groups:
        members = sorted(cards_of(live & group_mask(group, game)), key=lambda c: power(c, game))
        rep: Card | None = None
        for card in members:
            if not hand >> card & 1:
                rep = None
                continue
            if rep is None or CARD_POINTS[card] != CARD_POINTS[rep]:
                rep = card
            reps[card] = rep
    return {c: reps.get(c, c) for c in legal}


def _cost(declarer_moves: bool, before: int, after: int) -> int:
    return before - after if declarer_moves else after - before


class _Walk:
    """Values positions for :func:`analyse_cards`; one instance per game, sharing *solver*."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    # Suit and grand ------------------------------------------------------
    def optimal(self, child: Position, v: int, declarer_moves: bool) -> bool:
        """Is the child worth *v* (the parent's value)?  One null-window question."""
        if declarer_moves:
            return self.solver.reaches(child, v)
        return not self.solver.reaches(child, v + 1)

    def points_step(self, pos: Position, v: int, card: Card) -> tuple[int, list[Card]]:
        """``(value after card, best cards)`` at *pos* whose value is *v*; *pos* ends after *card*."""
        legal = pos.legal_moves()
        declarer_moves = pos.to_move == pos.declarer
        if len(legal) == 1:
            pos.play(card)
            return v, legal
        reps = _representatives(pos, legal)
        verdict: dict[Card, bool] = {}
        for c in legal:
            rep = reps[c]
            if rep in verdict or rep == reps[card]:
                continue
            pos.play(c)
            verdict[rep] = self.optimal(pos, v, declarer_moves)
            pos.undo()
        pos.play(card)
        after = v if self.optimal(pos, v, declarer_moves) else self.solver.value(pos)
        assert after is not None
        verdict[reps[card]] = after == v
        return after, [c for c in legal if verdict[reps[c]]]

    # Null -----------------------------------------------------------------
    def null_step(self, pos: Position, v: int | None, card: Card) -> tuple[int, int, list[Card]]:
        """``(value before, value after, best cards)`` in null; *pos* ends after *card*.

        *v* is the position's value when already known (the previous card's
        value after), else ``None`` (the first position).
        """
        declarer_moves = pos.to_move == pos.declarer
        values = {c: int(cv.declarer_wins) for c, cv in self.solver.card_values(pos).items()}
        if v is None:
            v = max(values.values()) if declarer_moves else min(values.values())
        pos.play(card)
        return v, values[card], [c for c, value in values.items() if value == v]


def analyse_cards(start: Position, cards: Sequence[Card], *, solver: Solver | None = None,
                  tt_mb: int = 128) -> PlayLine:
    """Judge every card of *cards*, played in order from *start* (which is left unchanged).

    Returns a :class:`PlayLine`; see the module docstring for the values,
    costs and ``best``.  *solver* (reused, with its table) or a new one of
    *tt_mb* MiB does the searching.  Trick numbers count the tricks completed
    before *start* (an endgame keeps the game's numbering).

    Raises :class:`~skatdd.core.errors.IllegalPlayError` naming the card and its
    index when a card is not held by the seat to move, does not follow suit,
    or comes after the end of the game.
    """
    replay_cards(start.copy(), cards, where=lambda i, card: f"card {i + 1} {card_name(card)!r}")  # check first
    solver = solver if solver is not None else Solver(tt_mb=tt_mb)
    started = time.perf_counter()
    nodes0 = solver.nodes
    walk = _Walk(solver)
    pos = start.copy()
    null = pos.game.is_null
    value: int | None = None if null else solver.value(pos)
    values: list[int] = []
    plays: list[CardAnalysis] = []
    for index, card in enumerate(cards):
        seat = pos.to_move
        declarer_moves = seat == pos.declarer
        trick = (30 - pos.cards_left - len(pos.trick)) // 3 + 1  # tricks completed before, plus one
        if null:
            before, after, best = walk.null_step(pos, value, card)
        else:
            assert value is not None
            before = value
            after, best = walk.points_step(pos, value, card)
        values.append(before)
        plays.append(CardAnalysis(
            index=index, trick=trick, seat=seat, card=card, value_before=before, value_after=after,
            cost=_cost(declarer_moves, before, after), best=tuple(display_sorted(best)), declarer=declarer_moves,
        ))
        value = after
    if value is None:  # null, no card played: value the start itself
        value = int(solver.declarer_wins(pos))
    values.append(value)
    return PlayLine(
        start_value=values[0], plays=plays, values=values, nodes=solver.nodes - nodes0,
        seconds=time.perf_counter() - started,
    )


# --------------------------------------------------------------------------- the stake


class _StakeOf:
    """The :class:`Stake` of a suit or grand position (module docstring, "The result at stake")."""

    def __init__(self, solver: Solver, declaration: Declaration, matadors: int, bid: int | None) -> None:
        self.solver = solver
        self.declaration = declaration
        self.matadors = matadors
        self.bid = bid

    def __call__(self, pos: Position, value: int) -> Stake:
        """The stake of *pos*, whose value is *value*: schwarz is asked only where the value allows it."""
        tricks: int | None = None
        if value == 120 and pos.defender_tricks == 0 and self.solver.declarer_takes_all(pos):
            tricks = 10
        elif pos.declarer_tricks == 0 and value == pos.skat_points and self.solver.defenders_take_all(pos):
            tricks = 0
        score = score_game(self.declaration, matadors=self.matadors, points=value, tricks=tricks, bid=self.bid)
        return Stake(score.declarer_wins, score.schneider, score.schwarz)


def stakes(start: Position, line: PlayLine, *, declaration: Declaration, matadors: int, bid: int | None,
           solver: Solver) -> list[Stake]:
    """The :class:`Stake` of every position of *line*: before each card, then after the last.

    Suit and grand: scored with *declaration*, *matadors* and *bid* (the
    overbid rule included); *solver* answers the few schwarz questions.
    Null: the declarer wins when the position's value is 1.
    """
    if start.game.is_null:
        return [Stake(bool(value), None, None) for value in line.values]
    stake_of = _StakeOf(solver, declaration, matadors, bid)
    pos = start.copy()
    out = [stake_of(pos, line.values[0])]
    for play in line.plays:
        pos.play(play.card)
        out.append(stake_of(pos, play.value_after))
    return out


def first_decisive(line: PlayLine, stakes_: Sequence[Stake]) -> tuple[int | None, str | None]:
    """``(index, stake)`` of the first decisive card of *line*, or ``(None, None)`` (module docstring).

    The first card that changed the win; else the first that changed
    schneider; else the first that changed schwarz.  *stakes_* are
    :func:`stakes` of *line*.  In null this is the first card with cost 1.
    """
    for level, name in enumerate(STAKES):
        for play in line.plays:
            if stakes_[play.index][level] != stakes_[play.index + 1][level]:
                return play.index, name
    return None, None


def _costs(plays: Iterable[CardAnalysis]) -> list[int]:
    costs = [0, 0, 0]
    for play in plays:
        costs[play.seat] += play.cost
    return costs


# --------------------------------------------------------------------------- ISS records


def _claim(record: IssGame, start: Position, line: PlayLine, solver: Solver, complete: bool) -> Claim | None:
    """Judge the declarer's claim that ended *record* early (module docstring), or ``None``."""
    claims = [e for e in record.events if e.kind == "SC"]
    if not claims or complete:
        return None
    event = claims[0]
    index = sum(1 for move in record.play_moves if move < event.move)
    pos = start.copy()
    for play in line.plays[:index]:
        pos.play(play.card)
    if pos.game.is_null:
        correct = solver.declarer_wins(pos)
    else:
        # "Every remaining trick": whatever the defenders took before the claim.
        pos.defender_tricks = 0
        correct = solver.declarer_takes_all(pos)
    return Claim(seat=event.seat, correct=correct, index=index, value=line.values[index])


def _review(hands: list[Mask], skat: Mask, declarer: int, bid: int | None, solver: Solver,
            declaration: Declaration, discard: list[Card] | None, score: int | None) -> ContractReview:
    report = best_contracts(hands, skat, declarer, bid=bid, solver=solver)
    return ContractReview(report=report, declaration=declaration, discard=discard, score=score)


def analyse_iss(record: IssGame | str, *, solver: Solver | None = None, tt_mb: int = 128,
                review: bool = True) -> GameAnalysis:
    """Analyse one ISS game record (an :class:`~skatdd.formats.iss.IssGame` or its text).

    The cards are those of the record as far as they were played; the result
    is :func:`skatdd.formats.iss.replay`'s, so ``result.score`` equals the record's
    ``v:`` (when it does not, ``warnings`` says so).  *review* adds the
    contract review over the hands and skat as dealt (when the record hides
    some of them: the declarer's ten cards and the discard).

    Raises :class:`~skatdd.core.errors.ISSFormatError` for a malformed record, one
    in which no game was played (passed, or a penalty in the bidding), one
    that hides cards that matter, has an illegal card play, or stops early
    without an ending that settles the rest.
    """
    started = time.perf_counter()
    if isinstance(record, str):
        record = parse_iss(record)
    solver = solver if solver is not None else Solver(tt_mb=tt_mb)
    nodes0 = solver.nodes
    played: Replay = replay(record)  # checks every play and the claims; raises for passed games
    declaration = record.declaration
    declarer = record.declarer
    assert declaration is not None and declarer is not None  # replay() checked both
    start = record.start_position()
    line = analyse_cards(start, [card for _, card in record.plays], solver=solver)
    stake_list = stakes(start, line, declaration=declaration, matadors=played.matadors, bid=record.bid,
                        solver=solver)
    first, stake = first_decisive(line, stake_list)
    result = GameResult(
        declarer_points=played.declarer_points, declarer_tricks=played.declarer_tricks,
        declarer_wins=played.declarer_wins, score=played.score.score, complete=played.complete,
        game_value=played.score.game_value, overbid=played.score.overbid,
    )
    ending = None
    if record.ending is not None and not played.complete:
        ending = (record.ending[0], record.ending[1], played.awarded)
    claim = _claim(record, start, line, solver, played.complete)
    contract_review = None
    if review:
        if record.hidden_cards == 0:
            hands, skat = [mask_of(h) for h in record.hands], mask_of(record.skat)
        else:
            hands, skat = record.start_hands(), record.skat_for_declarer()
        contract_review = _review(hands, skat, declarer, record.bid, solver, declaration, record.discard,
                                  result.score)
    return GameAnalysis(
        id=record.id, declaration=declaration, declarer=declarer, bid=record.bid, start=start, line=line,
        result=result, costs=_costs(line.plays), stakes=stake_list, first_decisive=first, decisive_stake=stake,
        claim=claim, ending=ending, review=contract_review, players=list(record.players),
        discard=list(record.discard) if record.discard is not None else None, source="iss", date=record.date,
        nodes=solver.nodes - nodes0, seconds=time.perf_counter() - started,
        warnings=replay_warnings(record, played), bids=tuple(record.bids),
    )


# --------------------------------------------------------------------------- JSON deals


def analyse_spec(spec: GameSpec, *, solver: Solver | None = None, tt_mb: int = 128,
                 review: bool = True) -> GameAnalysis:
    """Analyse a JSON deal: ``hands`` at the start, ``skat``, ``played`` and the declaration.

    The spec must describe a game from its first card: ten-card hands (with
    or without ``played``).  The result is scored from the spec's
    declaration and bid when the play reached the end.  *review* adds the
    contract review over the declarer's ten cards plus ``skat`` (skipped for
    a null deal without skat, whose twelve cards are unknown).

    Raises :class:`~skatdd.core.errors.DealFormatError` for a position that does
    not start at the first card, and the spec's own validation errors
    (:class:`~skatdd.core.errors.IllegalPlayError` for a bad card in ``played``,
    :class:`~skatdd.core.errors.ScoringError` for a declaration that cannot be
    scored).
    """
    started = time.perf_counter()
    solver = solver if solver is not None else Solver(tt_mb=tt_mb)
    nodes0 = solver.nodes
    start = spec.start_position()  # validates the spec, played cards included
    if start.trick or any(h.bit_count() != 10 for h in start.hands):
        raise DealFormatError(
            "analyse needs a whole game: 'hands' must be the ten-card hands before the first card, "
            "with the cards played since in 'played'"
        )
    declaration = spec.declaration()
    declarer = spec.declarer
    twelve = start.hands[declarer] | spec.skat
    matadors = 0 if spec.game.is_null or twelve.bit_count() != 12 else count_matadors(spec.game, twelve)
    line = analyse_cards(start, spec.played, solver=solver)
    final = start.copy()
    for card in spec.played:
        final.play(card)
    # Announced schwarz is lost with the defenders' first trick: the play may stop there, as on ISS.
    decided = declaration.decided(final.declarer_tricks, final.defender_tricks) and not final.is_over()
    complete = final.is_over() or decided
    points = final.declarer_points + points_of(spec.skat)
    scored = None
    if complete:
        if spec.game.is_null:
            scored = score_game(declaration, tricks=final.declarer_tricks, bid=spec.bid)
        else:
            scored = score_game(declaration, matadors=matadors, points=points,
                                tricks=None if decided else final.declarer_tricks, bid=spec.bid)
    elif spec.game.is_null and spec.bid is not None:
        score_game(declaration, tricks=0, bid=spec.bid)  # a null below the bid cannot be declared
    stake_list = stakes(start, line, declaration=declaration, matadors=matadors, bid=spec.bid, solver=solver)
    first, stake = first_decisive(line, stake_list)
    result = GameResult(
        declarer_points=points, declarer_tricks=final.declarer_tricks, complete=complete,
        declarer_wins=None if scored is None else scored.declarer_wins,
        score=None if scored is None else scored.score,
        game_value=None if scored is None else scored.game_value,
        overbid=None if scored is None else scored.overbid,
    )
    contract_review = None
    if review and spec.skat.bit_count() == 2:
        discard = None if declaration.hand else display_sorted(cards_of(spec.skat))
        contract_review = _review(list(start.hands), spec.skat, declarer, spec.bid, solver, declaration, discard,
                                  result.score)
    return GameAnalysis(
        id=spec.id, declaration=declaration, declarer=declarer, bid=spec.bid, start=start, line=line,
        result=result, costs=_costs(line.plays), stakes=stake_list, first_decisive=first, decisive_stake=stake,
        claim=None, ending=None, review=contract_review,
        discard=None if declaration.hand or not spec.skat else display_sorted(cards_of(spec.skat)),
        source="json", nodes=solver.nodes - nodes0, seconds=time.perf_counter() - started,
    )


def analyse_input(found: DealInput, *, solver: Solver | None = None, tt_mb: int = 128,
                  review: bool = True) -> GameAnalysis:
    """Analyse one game as a reader returned it (:func:`skatdd.formats.readers.parse_input`): an ISS record or JSON deal.

    Raises :class:`~skatdd.core.errors.DealFormatError` for deal text (it holds
    no play) and the errors of :func:`analyse_iss` / :func:`analyse_spec`.
    """
    if found.record is not None:
        return analyse_iss(found.record, solver=solver, review=review, tt_mb=tt_mb)
    if found.kind == "json":
        return analyse_spec(found.require_spec(), solver=solver, review=review, tt_mb=tt_mb)
    raise DealFormatError(
        "deal text is not a game to analyse: expected an ISS game record '(;GM[Skat]...;)' "
        "or a JSON deal object with 'played'"
    )


def analyse_text(text: str, *, solver: Solver | None = None, tt_mb: int = 128, review: bool = True) -> GameAnalysis:
    """Analyse one game given as text: an ISS record (``(;`` first) or a JSON deal object (``{`` first).

    Blank lines and lines starting with ``#`` are ignored.  Raises a
    :class:`~skatdd.core.errors.SkatddError` subclass for bad input, and
    :class:`~skatdd.core.errors.DealFormatError` for text that is neither form.
    """
    body = strip_comments(text).strip().lstrip("\ufeff")
    if not body.startswith(("(;", "{")):
        raise DealFormatError(
            f"{quote(body)} is not a game to analyse: expected an ISS game record '(;GM[Skat]...;)' "
            "or a JSON deal object with 'played'"
        )
    return analyse_input(parse_input(body), solver=solver, review=review, tt_mb=tt_mb)


# --------------------------------------------------------------------------- many games


def analyse_line(solver: Solver, line: int, raw: bytes | str, review: bool = True, worlds: int | None = None,
                 seed: int = 1, inference: str = "none", honest: int | None = None) -> LineOutcome:
    """Analyse one line of a file of games and return its record; never raises for bad input.

    With *worlds*, every card is also judged single-dummy
    (:func:`skatdd.analysis.advise.judge_analysis`, with the same *solver*; each
    game's worlds come from its own ``generator(seed)`` (:mod:`skatdd.core.seeds`), so a game gets
    the same numbers alone or in a file, whatever the number of workers;
    *inference* and *honest* as there).
    The record is :meth:`GameAnalysis.to_json` for an analysed game, and
    otherwise as :func:`skatdd.runner.game_lines.handle_line` describes.
    """

    def analyse(found: DealInput) -> dict[str, Any]:
        analysis = analyse_input(found, solver=solver, review=review)
        if worlds is not None:
            from .advise import WorldRunner, judge_analysis
            from .inference import input_auction

            if inference in ("bids", "all") and not analysis.bids:  # a JSON deal's auction
                analysis.bids = input_auction(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
            judge_analysis(analysis, worlds=worlds, seed=seed, runner=WorldRunner(solver=solver), inference=inference,
                           honest=honest)
        return analysis.to_json()

    return handle_line(line, raw, analyse)


def analyse_lines(items: Iterable[tuple[int, bytes | str]], *, jobs: int = 1, tt_mb: int = 128, review: bool = True,
                  emit: Callable[[LineOutcome], None], worlds: int | None = None, seed: int = 1,
                  dask: str | None = None, total: int | None = None, inference: str = "none",
                  honest: int | None = None) -> BatchSummary:
    """Analyse every ``(line_number, raw_line)`` of *items*, calling *emit* once per line in input order.

    Each line is an ISS record or a JSON deal object (:func:`analyse_line`,
    single-dummy too with *worlds*, *seed*, *inference* and *honest*).
    *jobs* ``1`` works in this process with one Solver; more uses that many
    worker processes, one Solver (of *tt_mb* MiB) each.  *emit* gets each
    record as soon as it and every earlier one are done; *dask* runs the
    lines on a Dask cluster instead (:func:`skatdd.runner.lines.run_lines`).  Returns the
    counts (``exit_code`` 2 when a line had bad input, 1 for an internal
    failure); raises ``ValueError`` for *jobs* < 1 and re-raises
    :class:`KeyboardInterrupt` after stopping the workers.
    """
    handler = functools.partial(analyse_line, review=review, worlds=worlds, seed=seed, inference=inference,
                                honest=honest)
    return run_lines(items, handler=handler, jobs=jobs, tt_mb=tt_mb, emit=emit, dask=dask, total=total)
