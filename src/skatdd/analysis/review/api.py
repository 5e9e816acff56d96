"""The review of the decisions before the first card (``analyse``'s ``decisions``, docs/cli.md).

For a game whose auction is known (an ISS record, or a JSON deal with ``bids``), :func:`review_decisions`
judges what each seat decided before the first card by what it could know, in expected ISkO list points:

Each seat's bidding
    ``bid`` (:func:`skatdd.analysis.bid.api.bid`) on the seat's ten dealt cards alone, at the review's
    budget (*skats*, *worlds*, *seed*: ``bid``'s options of the same names, so ``bid`` repeats the
    verdict).  Its limit is ``bid``'s ``max_bid`` (list and tournament scoring); ``said`` the highest
    value the seat said or held, ``refused`` the value it passed on
    (:func:`skatdd.analysis.inference.bids.bid_intervals`).  The verdict, in list scoring: *overbid* when
    it said more than its limit (by the ladder steps above the limit), *passed below its limit* when it
    passed on a value no higher than its limit, else *within its limit*.

    The cost model: at its last move the seat chooses between declaring at that move's value (a bid or
    hold: the value said; a pass: the value it refused) and passing.  Declaring at a bid *b* is worth
    ``E(b)``, the mean list score of ``bid``'s best declaration there (the pick-up or a hand game, over
    the same worlds; :func:`skatdd.analysis.bid.api.declarations_at`); passing is worth 0.  The cost is
    the better of the two minus the move made: ``max(0, -E(b))`` after a bid or hold, ``max(0, E(b))``
    after a pass.  The model ignores that a seat which holds may not end up declaring, and how the other
    seats would go on: it prices the move, not the rest of the auction.

The declarer's hand or pick-up
    At the final bid, from his ten dealt cards and ``bid``'s worlds (the skat unseen): the honest pick-up
    (game and discard chosen on each skat's worlds) against the best hand declaration; the cost is the
    better one's mean minus the one chosen.

The declaration
    A picked-up game: ``odds --skat`` (:func:`skatdd.analysis.odds.api.odds`) on the ten dealt cards and
    the skat found, at the final bid, with the review's *worlds* and *seed*: every game with its best
    discard and the next two, over the worlds the declarer could not tell apart; with
    ``inference="bids"`` those worlds are weighed by the auction (``odds --inference bids``).  The
    choice made is evaluated on the same worlds when it is not among them.  A hand game: ``bid``'s
    hand declarations at the final bid (announcements included), over its worlds, unweighed.  The cost
    is the best alternative's mean minus the choice's.

The summary per seat and the verdict
    Bidding and declaration costs in expected list points, the card play's double-dummy cost in card
    points (``analyse``'s ``summary.costs``).  The verdict: a game the declarer lost although it was
    won double-dummy at the first card was *lost in the play*; one lost from the first card on was *lost
    in the bidding* when his bidding cost something, else *in the declaration* when the pick-up or the
    declaration did, else *in the cards*.  A game won although lost double-dummy at the first card was
    *won in the play*.

Every figure is double-dummy within each world, as ``bid`` and ``odds`` are (docs/cli.md says how that
flatters the declarer), and every random choice comes from the one seed, so the review is the same
whatever *jobs*.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Sequence

from skatdd.analysis.analyse.results import GameAnalysis
from skatdd.analysis.best.bands import Probe
from skatdd.analysis.bid.api import PICK_UP, BidReport, Pick, bid, bid_ladder, declarations_at
from skatdd.analysis.inference.bids import bid_intervals
from skatdd.analysis.odds.api import MAX_KNOWN_SKAT_WORLDS, odds
from skatdd.analysis.odds.discard_ranking import settle_band
from skatdd.analysis.odds.draw import bid_weighted_draw, world_draw
from skatdd.analysis.odds.input import read_view
from skatdd.analysis.odds.results import world_outcome
from skatdd.analysis.worlds.space import World
from skatdd.core.cards import Card, Mask, cards_of, display_sorted, mask_of
from skatdd.core.declaration import Declaration
from skatdd.core.position import Position
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver, solver_or_default

from .results import DecisionReview, DeclarationReview, Option, PickupReview, SeatBidding, SeatSummary

__all__ = ["ALTERNATIVES", "REVIEW_SEED", "REVIEW_SKATS", "REVIEW_WORLDS", "add_decisions", "decide", "review_decisions"]

#: The review's default budget: skats drawn and worlds per skat for each seat's ``bid`` (the
#: declaration review of a picked-up game takes *worlds* worlds too).  benchmarks/review_decisions.py
#: measures it; docs/cli.md gives the figures.
REVIEW_SKATS = 8
REVIEW_WORLDS = 10
REVIEW_SEED = 0
#: The alternatives a declaration review lists (best first), the choice made added when not among them.
ALTERNATIVES = 5


def _best_score(picks: Sequence[Pick]) -> float:
    return max(p.score for p in picks)


def _last_moves(bids: Sequence[tuple[int, str]]) -> dict[int, str]:
    """Each seat's last bidding move."""
    return {seat: move for seat, move in bids}


def _steps(low: int | None, high: int) -> int:
    """How many bids of the ladder lie above *low* (nothing: from 18) up to *high*."""
    return sum(1 for v in bid_ladder() if (low is None or v > low) and v <= high)


def _seat_bidding(seat: int, report: BidReport, interval: tuple[int, int | None] | None,
                  last: str | None) -> SeatBidding:
    """One seat's verdict and cost (module docstring: the cost model)."""
    limit, limit_t = report.max_bid(False), report.max_bid(True)
    said, refused = interval if interval is not None else (0, None)
    if said > (limit or 0):
        verdict, steps = "overbid", _steps(limit, said)
    elif refused is not None and limit is not None and refused <= limit:
        verdict, steps = "passed-below", _steps(refused - 1, limit)
    else:
        verdict, steps = "within", 0
    if last is None:
        return SeatBidding(seat, limit, limit_t, said, refused, verdict, steps, None, 0.0, 0.0)
    if last == "p":
        moment = refused if refused is not None else said
        value = _best_score(declarations_at(report, moment))
        return SeatBidding(seat, limit, limit_t, said, refused, verdict, steps, moment, 0.0, max(0.0, value))
    value = _best_score(declarations_at(report, said))
    return SeatBidding(seat, limit, limit_t, said, refused, verdict, steps, said, value, max(0.0, value))


def _pickup(report: BidReport, final: int, hand_game: bool) -> PickupReview:
    """The hand or pick-up at the final bid over the declarer's ``bid`` worlds."""
    picks = declarations_at(report, final)
    up = next(p for p in picks if p.label == PICK_UP)
    hands = [p for p in picks if p.decl is not None]
    best_hand = max(hands, key=lambda p: (p.score, -hands.index(p))) if hands else None
    hand = None
    if best_hand is not None:
        assert best_hand.decl is not None
        hand = Option(best_hand.decl, None, best_hand.win, best_hand.score, chosen=hand_game)
    return PickupReview(final, "hand" if hand_game else "pickup", hand, up.win, up.score, up.games)


def _rank(options: list[Option], chosen: Option) -> list[Option]:
    """The best :data:`ALTERNATIVES` of *options* and *chosen* (best first), with *chosen* marked, added when lower."""
    marked = [Option(o.declaration, o.discard, o.win, o.score, chosen=o.same(chosen.declaration, chosen.discard))
              for o in options]
    if not any(o.chosen for o in marked):
        marked.append(chosen)
    # Best first; among equal scores the choice made first, so that a choice as good as the best shows so.
    ranked = sorted(marked, key=lambda o: (-o.score, not o.chosen))[:ALTERNATIVES]
    if not any(o.chosen for o in ranked):
        ranked.append(next(o for o in marked if o.chosen))
    return ranked


def _hand_declaration(report: BidReport, final: int, declared: Declaration) -> DeclarationReview:
    """A hand game's declaration against ``bid``'s hand declarations at the final bid."""
    picks = [p for p in declarations_at(report, final, include=(declared,)) if p.decl is not None]
    options = [Option(p.decl, None, p.win, p.score) for p in picks if p.decl is not None]
    chosen = next(o for o in options if o.declaration == declared)
    chosen = Option(chosen.declaration, None, chosen.win, chosen.score, chosen=True)
    return DeclarationReview(final, "unseen", "none", chosen, _rank(options, chosen), len(report.skats) * report.worlds)


def _worlds_of(hand: Mask, seat: int, skat: Mask, worlds: int, seed: int, inference: str,
               bids: Sequence[tuple[int, str]]) -> list[World]:
    """The worlds ``odds --skat`` ranks its discards over for these arguments, a world drawn k times k times."""
    view = read_view(hand, seat, skat)
    rng = generator(seed)
    limit = {"limit": MAX_KNOWN_SKAT_WORLDS, "rule": ""}
    if inference == "bids":
        weighed = bid_weighted_draw(view, bids, worlds, rng, **limit)  # type: ignore[arg-type]
        return [w for w, k in zip(weighed.worlds, weighed.weights, strict=True) for _ in range(round(k))]
    return list(world_draw(view, worlds, rng, **limit))  # type: ignore[arg-type]


def _evaluate(solver: Solver, seat: int, twelve: Mask, declared: Declaration, discard: Mask, final: int,
              worlds: Sequence[World]) -> Option:
    """The declared game with this discard on *worlds*, scored at the final bid as ``odds`` scores a discard."""
    wins = total = 0
    for world in worlds:
        hands = list(world.hands)
        hands[seat] = twelve & ~discard
        pos = Position(declared.game, seat, hands, discard, leader=0)
        result = [solver.declarer_wins(pos)] if declared.game.is_null else [settle_band(Probe(solver, pos))]
        outcome = world_outcome((declared.game, declared.ouvert), False, twelve, final, result)
        wins += outcome.wins
        total += outcome.score
    n = len(worlds)
    return Option(declared, tuple(display_sorted(cards_of(discard))), wins / n, total / n, chosen=True)


def _picked_declaration(hand: Mask, seat: int, skat: Mask, final: int, declared: Declaration,
                        discard: Sequence[Card], *, worlds: int, seed: int, inference: str,
                        bids: Sequence[tuple[int, str]], jobs: int | None, solver: Solver) -> DeclarationReview:
    """A picked-up game's declaration: ``odds --skat`` at the final bid, the choice made among the options."""
    report = odds(hand, seat=seat, skat=skat, worlds=worlds, seed=seed, bid=final, jobs=jobs, solver=solver,
                  inference=inference, bids=bids if inference == "bids" else ())
    options: list[Option] = []
    for option in report.options:
        decl = option.declaration
        assert option.discard is not None
        options.append(Option(decl, tuple(option.discard), option.win, option.mean_score))
        options += [Option(decl, tuple(a.discard), a.win, a.mean_score) for a in option.alternatives or []]
    chosen_key = tuple(discard)
    listed = next((o for o in options if o.same(declared, chosen_key)), None)
    if listed is not None:
        chosen = Option(listed.declaration, listed.discard, listed.win, listed.score, chosen=True)
    else:
        drawn = _worlds_of(hand, seat, skat, worlds, seed, inference, bids)
        chosen = _evaluate(solver, seat, hand | skat, declared, mask_of(discard), final, drawn)
    return DeclarationReview(final, "skat", inference, chosen, _rank(options, chosen), report.evaluated)


def _verdict(analysis: GameAnalysis, bidding: Sequence[SeatBidding], declaration_cost: float) -> str:
    """Where the game was lost or won (module docstring)."""
    result = analysis.result
    won_dd = analysis.stakes[0].wins
    if result.declarer_wins is None:
        return "the game is unfinished"
    declarer = bidding[analysis.declarer]
    if not result.declarer_wins:
        if won_dd:
            return "the game was lost in the play"
        if declarer.cost > 0 or declarer.verdict == "overbid":
            return "the game was lost in the bidding"
        if declaration_cost > 0:
            return "the game was lost in the declaration"
        return "the game was lost in the cards: no better bid or declaration by the tables"
    if not won_dd:
        return "the game was won in the play: the defenders gave it away"
    return "the game was won: no decision before the first card lost it"


def review_decisions(analysis: GameAnalysis, *, skats: int = REVIEW_SKATS, worlds: int = REVIEW_WORLDS,
                     seed: int = REVIEW_SEED, inference: str = "none", jobs: int | None = 1,
                     solver: Solver | None = None) -> DecisionReview | None:
    """The review of *analysis*'s decisions before the first card (module docstring), or ``None``.

    ``None`` when the auction (``analysis.bids``) or the dealt cards (``analysis.dealt``) are not known.
    *inference* ``"bids"`` (or ``"all"``) weighs the worlds of a picked-up game's declaration review by
    the auction; *jobs* worker processes run each ``bid`` and ``odds`` (the review does not depend on it).
    Raises :class:`~skatdd.core.errors.SkatddError` subclasses for a bad auction or budget.
    """
    if not analysis.bids or analysis.dealt is None:
        return None
    started = time.perf_counter()
    solver = solver_or_default(solver)
    hands, skat = analysis.dealt
    intervals = bid_intervals(analysis.bids)
    last = _last_moves(analysis.bids)
    reports = [bid(hands[s], seat=s, skats=skats, worlds=worlds, seed=seed, jobs=jobs, solver=solver)
               for s in range(3)]
    bidding = [_seat_bidding(s, reports[s], intervals.get(s), last.get(s)) for s in range(3)]
    declarer = analysis.declarer
    final = analysis.bid if analysis.bid is not None else max(b.said for b in bidding)
    declared = analysis.declaration
    inference = "bids" if inference in ("bids", "all") else "none"
    pickup = _pickup(reports[declarer], final, declared.hand)
    notes = []
    if declared.hand:
        declaration = _hand_declaration(reports[declarer], final, declared)
        if inference != "none":
            notes.append("a hand game's declaration is judged over bid's worlds, not weighed by the auction")
    else:
        discard = analysis.discard if analysis.discard is not None else display_sorted(cards_of(skat))
        declaration = _picked_declaration(hands[declarer], declarer, skat, final, declared, discard, worlds=worlds,
                                          seed=seed, inference=inference, bids=analysis.bids, jobs=jobs,
                                          solver=solver)
    declaration_cost = pickup.cost + declaration.cost
    summary = [SeatSummary(s, bidding[s].cost, declaration_cost if s == declarer else None, analysis.costs[s])
               for s in range(3)]
    if analysis.source == "json":
        notes.append("a JSON deal's hands are those after the discard: the declarer's ten cards are taken as "
                     "dealt and 'skat' as the skat he found")
    return DecisionReview(seed, skats, worlds, declarer, bidding, pickup, declaration, summary,
                          _verdict(analysis, bidding, declaration_cost), time.perf_counter() - started, notes)


def add_decisions(analysis: GameAnalysis, solver: Solver, *, skats: int = REVIEW_SKATS,
                  worlds: int = REVIEW_WORLDS, seed: int = REVIEW_SEED, inference: str = "none") -> None:
    """Set ``analysis.decisions`` (one process, *solver*): the step ``analyse`` runs on each game of a file.

    Picklable with :func:`functools.partial` (:func:`decide`), as the workers of a file need it.
    """
    analysis.decisions = review_decisions(analysis, skats=skats, worlds=worlds, seed=seed, inference=inference,
                                          jobs=1, solver=solver)


def decide(*, skats: int = REVIEW_SKATS, worlds: int = REVIEW_WORLDS, seed: int = REVIEW_SEED,
           inference: str = "none") -> functools.partial[None]:
    """:func:`add_decisions` with this budget, for :func:`skatdd.analysis.analyse.api.analyse_lines`' *decide*."""
    return functools.partial(add_decisions, skats=skats, worlds=worlds, seed=seed, inference=inference)
