"""Adaptive PIMC: a decision's cards judged by expected game score, its worlds solved until the choice is settled.

What a card is worth in a world is the score the declared game gets after it
(:func:`skatdd.core.scoring.score_game`: won or lost, schneider, schwarz and
the bid), and that depends only on the *band* the world ends in
(:mod:`skatdd.analysis.best.bands`).  The band is found by threshold
questions alone (:func:`world_bands`: 61, then 90 or 31, then the trick fact
there), never by the exact card points.  The mover maximises the mean
score of the declarer's side (a defender the negative of it); exact points
are searched only to break a tie between cards of equal mean score, over
the worlds already used (the declarer maximises them, a defender minimises).

The worlds (:func:`decide`) are the *N* a full evaluation would solve, in
the order drawn (all of them, in a random order, when the view has at most
*N*): the first *n* are a uniform sample without replacement of those *N*.
They are solved in batches of :data:`BATCH`, and after each batch the
*stopping rule* (:func:`loss_bound`) is checked.

The stopping rule.  Let *a* be the card with the highest score summed over
the *n* worlds solved (the *leader*) and, for every other card *b*, ``d_i =
u_i(a) - u_i(b)`` the paired difference of the mover's scores in world *i*,
``S`` its sum, ``g`` the number of worlds with ``d_i < 0`` and *R* the
largest ``|d_i|`` any world can give (:func:`score_spread`).  Among the *N*
worlds let *G* be the number where *b* scores more.  The hypergeometric
upper bound ``U(g)`` (:func:`count_bound`) is the largest *G* under which
seeing at most *g* such worlds in *n* draws has probability at least δ, so
``G <= U(g)`` fails with probability below δ; and then over all *N*
worlds *b*'s total exceeds *a*'s by at most ``R (U(g) - g) - S``.  The
decision stops when that excess, divided by ``N R``, is at most ρ for
every *b* (:data:`DEFAULT_RHO`): with probability at least ``1 - δ`` per
comparison (``1 - (cards - 1) looks δ`` for the decision, by the union
bound) no card's mean score over the *N* worlds beats the chosen card's by
more than ``ρ R``.  With ``S > R (U(g) - g)`` the leader is strictly best
over the *N* worlds ("settled"); with no difference seen, the cards are
equivalent up to ρ.  After *N* worlds the choice is the full evaluation's.

Everything random comes from the *rng* given, in the calling thread, and
the stopping rule only reads results, so a seed gives the same choice and
the same count of worlds whatever the number of jobs.
"""
from __future__ import annotations

import functools
import math
import random
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice

from skatdd.analysis.best.bands import ALL_TRICKS, BAND_SAMPLES, LOST, NO_TRICK, SCHNEIDER, SCHNEIDERED, WON
from skatdd.analysis.worlds.draw import sample_indices
from skatdd.analysis.worlds.space import View, World, space_of
from skatdd.analysis.worlds.values import WinRule, card_results_many, world_position
from skatdd.core.cards import CARDS, Card
from skatdd.core.position import Position
from skatdd.core.rules import OUT_OF_SCHNEIDER_POINTS, SCHNEIDER_POINTS, WIN_POINTS
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.solve import Solver

__all__ = ["BATCH", "DEFAULT_DELTA", "DEFAULT_RHO", "Choice", "count_bound", "decide", "decide_weighted", "loss_bound",
           "score_spread", "tied_points", "world_bands"]

#: Worlds solved between two checks of the stopping rule.
BATCH = 8
#: The stopping rule's error per comparison and check.
DEFAULT_DELTA = 0.05
#: The stopping rule's tolerance: a fraction of the score spread R.
DEFAULT_RHO = 0.3


@dataclass(frozen=True)
class Choice:
    """One decision: the ``best`` cards, each card's ``score`` (the declarer's mean over the worlds used),
    ``used`` worlds solved of ``population`` (the *N* a full evaluation solves), and why it ``stopped``:
    ``"settled"`` (the rule), ``"all"`` (every one of the *N* worlds solved) or ``"one"`` (one legal card)."""

    best: list[Card]
    score: dict[Card, float]
    used: int
    population: int
    stopped: str


# --------------------------------------------------------------------------- the stopping rule


@functools.lru_cache(maxsize=65536)
def count_bound(seen: int, n: int, population: int, delta: float) -> int:
    """``U``: the largest count *G* of marked worlds among *population* with P(at most *seen* marked in *n*
    draws without replacement) >= *delta*; *population* - *n* + *seen* at most, *seen* when every world is drawn."""
    top = population - n + seen
    total = math.comb(population, n)
    for marked in range(seen, top + 1):
        tail = sum(math.comb(marked, j) * math.comb(population - marked, n - j) for j in range(seen + 1))
        if tail < delta * total:
            return marked - 1
    return top


def loss_bound(utilities: Mapping[Card, Sequence[float]], population: int, spread: float,
               delta: float = DEFAULT_DELTA) -> tuple[Card, float]:
    """The leader and the most any other card's mean over *population* worlds may beat it by, over *spread*.

    *utilities* holds, per card, the mover's score in each world solved so
    far (the same worlds for every card); the bound holds with probability at
    least 1 - *delta* per card (module docstring).  0 when there is one card.
    """
    cards = list(utilities)
    sums = {card: sum(values) for card, values in utilities.items()}
    leader = max(cards, key=lambda card: sums[card])
    n = len(utilities[leader])
    worst = 0.0
    for card in cards:
        if card == leader:
            continue
        diffs = [x - y for x, y in zip(utilities[leader], utilities[card], strict=True)]
        behind = sum(d < 0 for d in diffs)
        excess = spread * (count_bound(behind, n, population, delta) - behind) - sum(diffs)
        worst = max(worst, excess / (population * spread) if spread > 0 else 0.0)
    return leader, worst


# --------------------------------------------------------------------------- scores by band


@functools.lru_cache(maxsize=4096)
def _band_scores(declaration: Declaration, mats: int, bid: int | None) -> tuple[int, ...]:
    """The declared game's score in each band (:data:`~skatdd.analysis.best.bands.BAND_SAMPLES`) with *mats*."""
    return tuple(score_game(declaration, matadors=mats, points=p, tricks=t, bid=bid).score for p, t in BAND_SAMPLES)


@functools.lru_cache(maxsize=1024)
def score_spread(declaration: Declaration, bid: int | None) -> int:
    """R: the largest difference between two bands' scores of the declared game, over every matador count."""
    if declaration.game.is_null:
        won = score_game(declaration, tricks=0, bid=bid).score
        return abs(won - score_game(declaration, tricks=1, bid=bid).score)
    top = 11 if declaration.game.is_suit else 4
    spreads = [max(s) - min(s) for m in range(1, top + 1) for s in (_band_scores(declaration, m, bid),
                                                                    _band_scores(declaration, -m, bid))]
    return max(spreads)


def world_bands(pos: Position, worlds: Sequence[World], solver: Solver) -> list[dict[Card, int]]:
    """Per world, every legal card's band (suit and grand), by threshold questions only.

    61 for every world; 90 where a card reached 61 and 31 where one did not;
    then, where a card reached 90 (31 not), whether the declarer takes every
    trick left (none), when the tricks so far allow it.  Each question is
    one engine call over the worlds that need it.
    """
    rows61 = _ask(pos, worlds, range(len(worlds)), solver, "points", WIN_POINTS)
    need90 = [w for w in range(len(worlds)) if 1 in rows61[w]]
    need31 = [w for w in range(len(worlds)) if 0 in rows61[w]]
    rows90 = _ask(pos, worlds, need90, solver, "points", SCHNEIDER_POINTS)
    rows31 = _ask(pos, worlds, need31, solver, "points", OUT_OF_SCHNEIDER_POINTS)
    all_rows = _ask(pos, worlds, [w for w in need90 if 1 in rows90[w]] if pos.defender_tricks == 0 else [],
                    solver, "takes_rest")
    none_rows = _ask(pos, worlds, [w for w in need31 if 0 in rows31[w]] if pos.declarer_tricks == 0 else [],
                     solver, "takes_a_trick")
    out: list[dict[Card, int]] = []
    for w in range(len(worlds)):
        row = rows61[w]
        bands: dict[Card, int] = {}
        for card, reach in enumerate(row):
            if reach < 0:
                continue
            if reach:
                band = SCHNEIDER if rows90[w][card] else WON
                if band == SCHNEIDER and w in all_rows and all_rows[w][card]:
                    band = ALL_TRICKS
            else:
                band = LOST if rows31[w][card] else SCHNEIDERED
                if band == SCHNEIDERED and w in none_rows and not none_rows[w][card]:
                    band = NO_TRICK
            bands[CARDS[card]] = band
        out.append(bands)
    return out


def _ask(pos: Position, worlds: Sequence[World], which: Sequence[int], solver: Solver, question: str,
         target: int = 0) -> dict[int, array[int]]:
    """The rows of one threshold question for the worlds numbered *which* (an empty dict for none)."""
    if not which:
        return {}
    hands = array("I", [mask for w in which for mask in worlds[w].hands])
    skats = array("I", [worlds[w].skat for w in which])
    out = solver.card_reaches_many(pos, hands, skats, question, target)
    return {w: out[32 * i:32 * i + 32] for i, w in enumerate(which)}


# --------------------------------------------------------------------------- one decision


#: Per band, the true bounds on the declarer's final card points it gives an exact search.
_BAND_WINDOW = {NO_TRICK: (0, 30), SCHNEIDERED: (0, 30), LOST: (31, 60), WON: (61, 89), SCHNEIDER: (90, 120),
                ALL_TRICKS: (120, 120)}


def tied_points(pos: Position, worlds: Sequence[World], bands: Sequence[dict[Card, int]], cards: Sequence[Card],
                solver: Solver) -> list[dict[Card, int]]:
    """Per world, the declarer's final card points after each of *cards* (suit and grand).

    One exact search per card and world, its window the card's band there
    (*bands*, from :func:`world_bands`): only the cards tied on score are
    searched, each within the band the threshold questions already proved.
    """
    out = []
    for world, world_bands_ in zip(worlds, bands, strict=True):
        solver.clear()
        here = world_position(pos, world)
        points: dict[Card, int] = {}
        for card in cards:
            low, high = _BAND_WINDOW[world_bands_[card]]
            if low == high:
                points[card] = low
                continue
            here.play(card)
            value = solver.value(here, lower=low, upper=high)
            here.undo()
            assert value is not None
            points[card] = value
        out.append(points)
    return out


def _world_scores(pos: Position, declaration: Declaration, bid: int | None, declarer_played: int,
                  worlds: Sequence[World], solver: Solver, bands_of: list[dict[Card, int]]) -> list[dict[Card, int]]:
    """Per world, every legal card's score of the declared game (the declarer's side's); the bands go to *bands_of*."""
    if pos.game.is_null:
        won = score_game(declaration, tricks=0, bid=bid).score
        lost = score_game(declaration, tricks=1, bid=bid).score
        results, _ = card_results_many(pos, WinRule.of(declaration), worlds, solver=solver)
        return [{card: won if wins else lost for card, (_, wins) in world.items()} for world in results]
    out = []
    bands_list = world_bands(pos, worlds, solver)
    bands_of.extend(bands_list)
    for world, bands in zip(worlds, bands_list, strict=True):
        twelve = world.hands[pos.declarer] | world.skat | declarer_played
        table = _band_scores(declaration, matadors(pos.game, twelve), bid)
        out.append({card: table[band] for card, band in bands.items()})
    return out


def decide(pos: Position, declaration: Declaration, view: View, n: int, rng: random.Random, *, solver: Solver,
           bid: int | None = None, declarer_played: int = 0, adaptive: bool = True, delta: float = DEFAULT_DELTA,
           rho: float = DEFAULT_RHO) -> Choice:
    """The best cards of the mover at *pos* over at most *n* worlds of *view* (module docstring).

    *pos* gives the public state (its hands are not used); *declarer_played*
    is the mask of the cards the declarer has played (for his matadors),
    *bid* the auction's bid (the overbid check), *rng* draws the worlds.
    *adaptive* False solves all *n* (the full evaluation, the same worlds).
    """
    space = space_of(view)
    population = min(n, len(space))
    indices = sample_indices(len(space), population, rng)  # a random order of all of them when at most n

    def take(count: int) -> list[tuple[int, World]]:
        # A batch's indices are drawn from *rng* when the batch is asked for, as one by one, then unranked together.
        batch = list(islice(indices, count))
        return list(zip(batch, space.worlds_at(batch), strict=True))

    return _sequential(pos, declaration, take, population, None, solver=solver, bid=bid,
                       declarer_played=declarer_played, adaptive=adaptive, delta=delta, rho=rho)


def decide_weighted(pos: Position, declaration: Declaration, worlds: Sequence[World], weights: Sequence[float],
                    rng: random.Random, *, solver: Solver, bid: int | None = None, declarer_played: int = 0,
                    adaptive: bool = True, delta: float = DEFAULT_DELTA, rho: float = DEFAULT_RHO) -> Choice:
    """:func:`decide` over given *worlds* with *weights* (the weighted mean score decides).

    Whole-number weights (a world drawn *k* times from a resampled pool)
    make a population of ``sum(weights)`` draws, taken in an order drawn
    from *rng*, each world solved once: the stopping rule applies to it as
    to uniform worlds, and ``population`` is that sum.  Other weights (a
    likelihood) are evaluated in full, every world with its weight.
    """
    counts = [int(w) for w in weights]
    if all(w == k and k >= 0 for w, k in zip(weights, counts, strict=True)):
        order = [i for i, k in enumerate(counts) for _ in range(k)]
        rng.shuffle(order)
        return _sequential(pos, declaration, _taker((i, worlds[i]) for i in order), len(order), None,
                           solver=solver, bid=bid, declarer_played=declarer_played, adaptive=adaptive, delta=delta,
                           rho=rho)
    return _sequential(pos, declaration, _taker(enumerate(worlds)), len(worlds), list(weights), solver=solver,
                       bid=bid, declarer_played=declarer_played, adaptive=False, delta=delta, rho=rho)


def _taker(draws: Iterator[tuple[int, World]]) -> Callable[[int], list[tuple[int, World]]]:
    """The next *count* of *draws*, as :func:`_sequential` takes them."""
    return lambda count: list(islice(draws, count))


def _sequential(pos: Position, declaration: Declaration, take: Callable[[int], list[tuple[int, World]]],
                population: int, weights: list[float] | None, *, solver: Solver, bid: int | None,
                declarer_played: int, adaptive: bool, delta: float, rho: float) -> Choice:
    """Solve the draws ``take(k)`` gives, *k* at a time (``(key, world)``; a key seen before is not solved
    again), in batches until the rule stops; no more than the *population* draws are taken.

    *weights* (by key, ``None``: each draw weighs 1) weigh the draws; only
    unweighted draws may stop early.
    """
    declarer_moves = pos.to_move == pos.declarer
    sign = 1 if declarer_moves else -1
    spread = score_spread(declaration, bid)
    solved: dict[int, tuple[World, dict[Card, int], dict[Card, int] | None]] = {}
    keys: list[int] = []
    stopped = "all"
    while len(keys) < population:
        batch = take(min(BATCH, population - len(keys)))
        fresh = {key: world for key, world in batch if key not in solved}
        worlds = list(fresh.values())
        bands_of: list[dict[Card, int]] = []
        scores = _world_scores(pos, declaration, bid, declarer_played, worlds, solver, bands_of)
        for i, (key, world) in enumerate(fresh.items()):
            solved[key] = (world, scores[i], bands_of[i] if bands_of else None)
        keys.extend(key for key, _ in batch)
        if adaptive and weights is None and len(keys) < population:
            utilities = {card: [sign * solved[key][1][card] for key in keys] for card in solved[keys[0]][1]}
            _, bound = loss_bound(utilities, population, spread, delta)
            if bound <= rho:
                stopped = "settled"
                break
    weight = [1.0 if weights is None else weights[key] for key in keys]
    total = sum(weight)
    cards = list(solved[keys[0]][1])
    sums = {card: sum(w * solved[key][1][card] for w, key in zip(weight, keys, strict=True)) for card in cards}
    target = max(sign * v for v in sums.values())
    best = [card for card, v in sums.items() if sign * v == target]
    if len(best) > 1 and not pos.game.is_null:
        # Equal scores: the exact card points decide, over the same worlds (the only exact search here).
        unique = list(dict.fromkeys(keys))
        found = tied_points(pos, [solved[k][0] for k in unique], [solved[k][2] or {} for k in unique], best, solver)
        per_key = dict(zip(unique, found, strict=True))
        points = {card: sum(w * per_key[key][card] for w, key in zip(weight, keys, strict=True)) for card in best}
        top = max(sign * v for v in points.values())
        best = [card for card in best if sign * points[card] == top]
    return Choice(best, {card: v / total for card, v in sums.items()}, len(keys), population, stopped)
