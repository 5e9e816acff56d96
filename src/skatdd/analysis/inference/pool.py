"""The bidding model's weights of a whole pool of worlds at once, in C: :func:`auction_pool_weigher`.

The PIMC player weighs a pool of ``max(8 N, 64)`` worlds at every decision
(:func:`skatdd.analysis.inference.api.bid_weighted_worlds`); one by one in
Python (:func:`skatdd.analysis.inference.bids.auction_weigher`) that cost as
much as the decision itself.  The kernel (``_weigh.PoolWeigher``) sums the
same tables in the same order and gives the same floats, bit for bit
(tests/test_inference.py).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from skatdd.core.cards import Mask
from skatdd.core.rules import ALL_GAMES
from skatdd.core.scoring import BASE_VALUES, NULL_VALUES, trump_order

from ._weigh import PoolTables, PoolWeigher
from .bids import _FLAT, _LOGIT_CLIP, _LOGIT_THRESHOLD, FLOOR, SHARPNESS, Auction, _weigher_specs

__all__ = ["auction_pool_weigher"]

#: The model's tables (:data:`skatdd.analysis.inference.bids._FLAT`), the trumps from the top and the base values,
#: as C arrays, built once.
_POOL_TABLES = PoolTables(_FLAT, [trump_order(g) for g in ALL_GAMES], [0 if g.is_null else BASE_VALUES[g] for g in ALL_GAMES],
                          (NULL_VALUES[False, False], NULL_VALUES[False, True]), _LOGIT_CLIP, _LOGIT_THRESHOLD, SHARPNESS)


def auction_pool_weigher(auction: Auction, seats: Sequence[int], *,
                         floor: float = FLOOR) -> Callable[[list[Any], tuple[Mask, Mask, Mask]], list[float]]:
    """``(worlds, played) -> likelihoods``: :func:`~skatdd.analysis.inference.bids.auction_weigher` of many worlds at once.

    Each world's ``world[0]`` is its three hands as held now, *played* each
    seat's cards played so far; the answer is, for each world in order,
    ``auction_weigher(auction, seats, floor=floor)`` of the hands plus what
    their seats played: the same floats (``_weigh.PoolWeigher``), several
    times faster for a pool of worlds.
    """
    specs = _weigher_specs(auction, seats)
    weigher = PoolWeigher(_POOL_TABLES, specs, auction.hand_game, floor)
    return weigher.weigh
