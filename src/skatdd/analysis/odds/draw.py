"""The worlds ``skatdd odds`` solves: uniform, conditioned by a caller's test, or weighed by the bidding.

:func:`world_draw` gives the worlds lazily (:class:`~skatdd.analysis.worlds.draw.WorldDraw`):
every world consistent with the seat's view counts the same, all of them
when there are at most *n*, else *n* different ones drawn from one seeded
generator.  A caller's ``accept(world) -> bool`` conditions them by rejection
sampling: worlds are drawn one by one, without repeats, until *n* pass; after
*max_draws* draws (default ``max(10,000, 200 x n)``) without enough the run
stops with :class:`WorldConditionError`; when the consistent worlds are no
more than *max_draws* all are tested instead.

:func:`bid_weighted_draw` weighs the worlds by what the auction showed
(``odds --inference bids``): :func:`skatdd.analysis.inference.api.weighted_worlds`
draws a uniform pool and resamples it by the bidding model's likelihood, a
world drawn *k* times weighing *k*.
"""
from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from skatdd.analysis.inference.api import Evidence, weighted_worlds
from skatdd.analysis.worlds.draw import MAX_WORLDS, WorldDraw, check_world_count, sample_indices
from skatdd.analysis.worlds.space import View, World, WorldSpace
from skatdd.core.errors import DealFormatError, SkatddError
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

__all__ = ["BidWeightedDraw", "WorldConditionError", "bid_weighted_draw", "draw_worlds", "world_draw"]


class WorldConditionError(SkatddError):
    """Too few drawn worlds passed the caller's ``accept`` condition."""


def draw_worlds(view: View, n: int, rng: random.Random, accept: Callable[[World], bool] | None = None,
                max_draws: int | None = None) -> tuple[list[World], bool, int]:
    """The worlds to evaluate as one list: ``(worlds, exact, consistent)`` (see :func:`world_draw`)."""
    draw = world_draw(view, n, rng, accept, max_draws)
    return list(draw), draw.exact, draw.consistent


def world_draw(view: View, n: int, rng: random.Random, accept: Callable[[World], bool] | None = None,
               max_draws: int | None = None, *, limit: int = MAX_WORLDS, rule: str = "") -> WorldDraw:
    """The worlds to evaluate, produced lazily (:class:`~skatdd.analysis.worlds.draw.WorldDraw`).

    Without *accept*: all consistent worlds when at most *n*, else *n*
    drawn uniformly.  With it, rejection sampling as the module docstring
    describes (every random choice from *rng*); the accepted worlds are
    found before any is solved, so a condition too rare fails at once, and
    kept as indices (a few bytes each).  ``consistent`` counts the worlds
    consistent with *view*, before the condition.  Raises
    :class:`~skatdd.analysis.worlds.draw.WorldCountError` when more than *limit* worlds
    could be solved (*rule* names the limit).
    """
    if n < 1:
        raise DealFormatError(f"the number of worlds must be at least 1, not {n}")
    if accept is None:
        return WorldDraw(view, n, rng, limit=limit, rule=rule)
    space = WorldSpace(view)
    check_world_count(n, len(space), limit, rule)
    cap = max_draws if max_draws is not None else max(10_000, 200 * n)
    accepted = array("Q")
    if len(space) <= cap:
        accepted.extend(index for index, world in enumerate(space) if accept(world))
        if not accepted:
            raise WorldConditionError(f"none of the {len(space):,} consistent worlds passes the condition")
        if len(accepted) <= n:
            return WorldDraw.of_indices(space, accepted, len(accepted), exact=True)
        picks = sample_indices(len(accepted), n, rng)
        return WorldDraw.of_indices(space, (accepted[i] for i in picks), n, exact=False)
    seen = bytearray((len(space) + 7) // 8)
    draws = 0
    while len(accepted) < n:
        if draws >= cap:
            raise WorldConditionError(
                f"only {len(accepted)} of {draws:,} drawn worlds passed the condition ({n} needed): "
                "it is too rare for rejection sampling; relax it or ask for fewer worlds"
            )
        index = rng.randrange(len(space))
        if seen[index >> 3] >> (index & 7) & 1:
            continue
        seen[index >> 3] |= 1 << (index & 7)
        draws += 1
        if accept(space[index]):
            accepted.append(index)
    return WorldDraw.of_indices(space, accepted, n, exact=False)



@dataclass
class BidWeightedDraw:
    """Worlds weighed by the bidding: the distinct worlds, their weights (they sum to the worlds drawn), and sizes.

    Attributes:
        worlds, weights: the distinct worlds to solve and what each weighs.
        consistent: worlds consistent with the view.
        count: the worlds drawn (the sum of the weights).
        exact: the pool held every consistent world and no resampling was done.
        ess: effective sample size of the weights.
        pool, pool_ess: the uniform pool's size and the bidding weights' effective size over it.
    """

    worlds: list[World]
    weights: list[float]
    consistent: int
    count: int
    exact: bool
    ess: float
    pool: int
    pool_ess: float


def bid_weighted_draw(view: View, bids: Sequence[tuple[int, str]], n: int, rng: random.Random, *,
                      limit: int = MAX_WORLDS, rule: str = "") -> BidWeightedDraw:
    """*n* worlds of *view* (a seat before the first card) weighed by the auction *bids* (``(seat, move)``).

    The asking seat is the would-be declarer, so only the other two seats'
    bidding weighs (:func:`skatdd.analysis.inference.bids.auction_likelihood`).
    The pool is :func:`~skatdd.analysis.inference.api.weighted_worlds`'
    (``max(8 n, 64)`` uniform worlds); the *n* draws from it are systematic
    (one uniform number from *rng*).  When the pool holds every consistent
    world and at most *n* of them, each keeps its likelihood, scaled so that
    the weights sum to the worlds' number.  Raises
    :class:`~skatdd.analysis.worlds.draw.WorldCountError` beyond *limit* worlds and
    :class:`~skatdd.core.errors.DealFormatError` when no world has any weight.
    """
    check_world_count(n, len(WorldSpace(view)), limit, rule)
    # The contract is the asking seat's to choose: it only matters for the declarer's own likelihood,
    # which is not counted (the asking seat's cards are known).
    evidence = Evidence(Game.GRAND, view.seat, Declaration(Game.GRAND), tuple(bids))
    weighed = weighted_worlds(view, evidence, n, rng, inference="bids")
    total = weighed.total
    if total <= 0:
        raise DealFormatError("no world fits the bidding: every world has weight 0")
    weights = weighed.weights
    count = round(total) if not weighed.exact else len(weighed.worlds)
    if weighed.exact:
        weights = [w * len(weights) / total for w in weights]
    return BidWeightedDraw(weighed.worlds, weights, weighed.count, count, weighed.exact, weighed.ess,
                           weighed.pool, weighed.pool_ess)
