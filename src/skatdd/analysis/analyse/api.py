"""Card-by-card double-dummy analysis of a played game (docs/cli.md, ``skatdd analyse``): the entry points.

Given a game as it was played -- an ISS record (:mod:`skatdd.formats.iss`) or a JSON
deal with ``played`` (:mod:`skatdd.formats.readers`) -- every card is judged by what it
did to the double-dummy result.  :func:`analyse` takes the game in any form
(an :class:`~skatdd.formats.iss.IssGame`, a :class:`~skatdd.formats.spec.GameSpec`,
a :class:`~skatdd.formats.deal_input.DealInput`, a record's or JSON object's
text, a JSON object as a ``dict``, a path) and returns a :class:`GameAnalysis`;
:func:`analyse_iss`, :func:`analyse_spec`, :func:`analyse_input` and
:func:`analyse_text` are its variants for one form each.  The pieces live in
modules of their own, and their names are re-exported here:

* :mod:`skatdd.analysis.analyse.results`: the result classes (``GameAnalysis``,
  ``CardAnalysis``, ``PlayLine``, ``GameResult``, ``Stake``, ``Claim``,
  ``ContractReview``) and their JSON;
* :mod:`skatdd.analysis.analyse.card_walk`: :func:`analyse_cards`, the card-by-card
  walk (what a card's values, cost and ``best`` are, and how they are found);
* :mod:`skatdd.analysis.analyse.stakes`: the result at stake in each position and
  ``first_decisive``.

This module adds what is about a whole game:

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
    :func:`skatdd.analysis.best.api.best_contracts` for the declarer with the same twelve
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
import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from skatdd.analysis.best.api import best_contracts
from skatdd.core.cards import Card, Mask, cards_of, display_sorted, mask_of, points_of
from skatdd.core.errors import DealFormatError, SkatddError, quote, with_context
from skatdd.core.position import Position
from skatdd.core.scoring import Declaration, score_game
from skatdd.core.scoring import matadors as count_matadors
from skatdd.core.seeds import DEFAULT_SEED
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.deal_input import DealInput
from skatdd.formats.files import looks_like_path, missing_file, read_source, strip_comments
from skatdd.formats.iss import IssGame, Replay, parse_iss, replay, replay_warnings
from skatdd.formats.json_object import deal_from_json
from skatdd.formats.readers import parse_input
from skatdd.formats.spec import GameSpec
from skatdd.runner.game_lines import game_line_id, handle_line
from skatdd.runner.lines import BatchSummary, LineOutcome, run_lines

from .card_walk import analyse_cards
from .results import CardAnalysis, Claim, ContractReview, GameAnalysis, GameResult, PlayLine, Stake
from .stakes import STAKES, first_decisive, stakes

__all__ = [
    "STAKES", "CardAnalysis", "Claim", "ContractReview", "GameAnalysis", "GameResult", "PlayLine", "Stake",
    "analyse", "analyse_cards", "analyse_input", "analyse_iss", "analyse_line", "analyse_lines", "analyse_spec",
    "analyse_text", "first_decisive", "game_line_id", "stakes",
]

#: Every form :func:`analyse` takes a game in.
GameSource = IssGame | GameSpec | DealInput | str | os.PathLike[str] | Mapping[str, Any]


def _costs(plays: Iterable[CardAnalysis]) -> list[int]:
    """The total cost of *plays* per seat."""
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
    """The contract review (module docstring) of the deal *hands*, *skat* beside the contract played."""
    report = best_contracts(hands, skat, declarer, bid=bid, solver=solver)
    return ContractReview(report=report, declaration=declaration, discard=discard, score=score)


def analyse_iss(record: IssGame | str, *, solver: Solver | None = None, review: bool = True) -> GameAnalysis:
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
    solver = solver_or_default(solver)
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
    if record.hidden_cards == 0:
        hands, skat = [mask_of(h) for h in record.hands], mask_of(record.skat)
    else:
        hands, skat = record.start_hands(), record.skat_for_declarer()
    if review:
        contract_review = _review(hands, skat, declarer, record.bid, solver, declaration, record.discard,
                                  result.score)
    return GameAnalysis(
        id=record.id, declaration=declaration, declarer=declarer, bid=record.bid, start=start, line=line,
        result=result, costs=_costs(line.plays), stakes=stake_list, first_decisive=first, decisive_stake=stake,
        claim=claim, ending=ending, review=contract_review, players=list(record.players),
        discard=list(record.discard) if record.discard is not None else None, source="iss", date=record.date,
        nodes=solver.nodes - nodes0, seconds=time.perf_counter() - started,
        warnings=replay_warnings(record, played), bids=tuple(record.bids),
        dealt=((hands[0], hands[1], hands[2]), skat),
    )


# --------------------------------------------------------------------------- JSON deals


def analyse_spec(spec: GameSpec, *, solver: Solver | None = None, review: bool = True) -> GameAnalysis:
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
    solver = solver_or_default(solver)
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
        # As the contract review: the declarer's ten cards taken as dealt, ``skat`` as the skat found.
        dealt=(tuple(start.hands), spec.skat) if spec.skat.bit_count() == 2 else None,  # type: ignore[arg-type]
    )


def analyse_input(found: DealInput, *, solver: Solver | None = None, review: bool = True) -> GameAnalysis:
    """Analyse one game as a reader returned it (:func:`skatdd.formats.readers.parse_input`): an ISS record or JSON deal.

    Raises :class:`~skatdd.core.errors.DealFormatError` for deal text (it holds
    no play) and the errors of :func:`analyse_iss` / :func:`analyse_spec`.
    """
    if found.record is not None:
        return analyse_iss(found.record, solver=solver, review=review)
    if found.kind == "json":
        analysis = analyse_spec(found.require_spec(), solver=solver, review=review)
        analysis.bids = found.bids
        return analysis
    raise DealFormatError(
        "deal text is not a game to analyse: expected an ISS game record '(;GM[Skat]...;)' "
        "or a JSON deal object with 'played'"
    )


def analyse_text(text: str, *, solver: Solver | None = None, review: bool = True) -> GameAnalysis:
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
    return analyse_input(parse_input(body), solver=solver, review=review)


def analyse(game: GameSource, *, solver: Solver | None = None, review: bool = True) -> GameAnalysis:
    """Analyse one played game, given in any form: the one entry point (``skatdd.analyse``).

    *game* is one of

    * an :class:`~skatdd.formats.iss.IssGame` (:func:`analyse_iss`);
    * a :class:`~skatdd.formats.spec.GameSpec` of a whole game, its cards in
      ``played`` (:func:`analyse_spec`);
    * a :class:`~skatdd.formats.deal_input.DealInput` as a reader returned it
      (:func:`analyse_input`);
    * text: an ISS record (``(;`` first) or a JSON deal object (``{`` first),
      ``#`` lines and blank lines ignored (:func:`analyse_text`); text that is
      a lone word (no space, as a path is) names a file holding the game;
    * a ``dict`` (any mapping): the JSON deal object itself;
    * a :class:`~pathlib.Path` (any path-like): a file holding one game as text.

    *solver* (``None``: a new default one) does every search and keeps its
    table; *review* adds the contract review.  Returns a :class:`GameAnalysis`.

    Raises a :class:`~skatdd.core.errors.SkatddError` subclass whose message
    names the offending token for bad input: :class:`~skatdd.core.errors.DealFormatError`
    for something that is no game to analyse (deal text without play, a
    number, a missing file; an error inside a file names the file), and the
    readers' and the variants' errors otherwise.
    """
    if isinstance(game, IssGame):
        return analyse_iss(game, solver=solver, review=review)
    if isinstance(game, GameSpec):
        return analyse_spec(game, solver=solver, review=review)
    if isinstance(game, DealInput):
        return analyse_input(game, solver=solver, review=review)
    if isinstance(game, Mapping):
        return analyse_input(deal_from_json(dict(game)), solver=solver, review=review)
    if isinstance(game, os.PathLike):
        return _analyse_file(os.fspath(game), solver=solver, review=review)
    if isinstance(game, str):
        body = strip_comments(game).strip().lstrip("\ufeff")
        if not body.startswith(("(;", "{")) and looks_like_path(body):
            return _analyse_file(body, solver=solver, review=review)
        return analyse_text(game, solver=solver, review=review)
    raise DealFormatError(
        f"{quote(game)} is not a game to analyse: expected an ISS record or JSON deal object (as text, a dict "
        f"or a file), an IssGame, a GameSpec or a DealInput, not a {type(game).__name__}"
    )


def _analyse_file(path: str, *, solver: Solver | None, review: bool) -> GameAnalysis:
    """:func:`analyse_text` of the file *path*; errors name the file (a missing one too)."""
    if not os.path.isfile(path):
        raise missing_file(path)
    text, _ = read_source(path)
    found = parse_input(text, path=path)  # its errors name the file already
    try:
        return analyse_input(found, solver=solver, review=review)
    except SkatddError as exc:
        raise with_context(exc, path) from None


# --------------------------------------------------------------------------- many games


#: A step run on each game of a file after its analysis (the decisions review, a family above this one).
Decide = Callable[[GameAnalysis, Solver], None]


def analyse_line(solver: Solver, line: int, raw: bytes | str, review: bool = True, worlds: int | None = None,
                 seed: int = DEFAULT_SEED, inference: str = "none", honest: int | None = None,
                 decide: Decide | None = None) -> LineOutcome:
    """Analyse one line of a file of games and return its record; never raises for bad input.

    With *worlds*, every card is also judged single-dummy
    (:func:`skatdd.analysis.advise.api.judge_analysis`, with the same *solver*; each
    game's worlds come from its own ``generator(seed)`` (:mod:`skatdd.core.seeds`), so a game gets
    the same numbers alone or in a file, whatever the number of workers;
    *inference* and *honest* as there).  *decide* (a picklable function) then adds to the analysis
    what a family above this one computes: ``analyse`` passes the decisions review
    (:func:`skatdd.analysis.review.api.add_decisions`).
    The record is :meth:`GameAnalysis.to_json` for an analysed game, and
    otherwise as :func:`skatdd.runner.game_lines.handle_line` describes.
    """

    def analyse(found: DealInput) -> dict[str, Any]:
        analysis = analyse_input(found, solver=solver, review=review)
        if worlds is not None:
            from skatdd.analysis.advise.api import judge_analysis
            from skatdd.analysis.inference.api import input_auction

            if inference in ("bids", "all"):
                input_auction(analysis.bids)  # a bad auction fails the line before any world is drawn
            judge_analysis(analysis, worlds=worlds, seed=seed, solver=solver, inference=inference, honest=honest)
        if decide is not None:
            decide(analysis, solver)
        return analysis.to_json()

    return handle_line(line, raw, analyse)


def analyse_lines(items: Iterable[tuple[int, bytes | str]], *, jobs: int = 1, solver: Solver | None = None,
                  review: bool = True, emit: Callable[[LineOutcome], None], worlds: int | None = None, seed: int = DEFAULT_SEED,
                  dask: str | None = None, total: int | None = None, inference: str = "none",
                  honest: int | None = None, decide: Decide | None = None) -> BatchSummary:
    """Analyse every ``(line_number, raw_line)`` of *items*, calling *emit* once per line in input order.

    Each line is an ISS record or a JSON deal object (:func:`analyse_line`,
    single-dummy too with *worlds*, *seed*, *inference* and *honest*; *decide* as there).
    *jobs* ``1`` works in this process with one Solver; more uses that many
    worker processes, each with its own copy of *solver* (a Solver of the same
    table size; ``None``: the default).  *emit* gets each
    record as soon as it and every earlier one are done; *dask* runs the
    lines on a Dask cluster instead (:func:`skatdd.runner.lines.run_lines`).  Returns the
    counts (``exit_code`` 2 when a line had bad input, 1 for an internal
    failure); raises ``ValueError`` for *jobs* < 1 and re-raises
    :class:`KeyboardInterrupt` after stopping the workers.
    """
    handler = functools.partial(analyse_line, review=review, worlds=worlds, seed=seed, inference=inference,
                                honest=honest, decide=decide)
    return run_lines(items, handler=handler, jobs=jobs, solver=solver, emit=emit, dask=dask, total=total)
