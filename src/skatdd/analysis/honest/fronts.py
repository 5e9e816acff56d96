"""Sets of worlds as bit masks, and the Pareto fronts of them the honest search builds (:mod:`.api`).

A set of worlds is an int, bit *i* for world *i* of the root's list; a front is the list of maximal
sets some strategy wins.  :func:`maximal` keeps the maximal sets, :func:`heaviest` the :data:`BEAM`
heaviest of a front for the narrow search, and :class:`Weigher` weighs a set by its worlds' weights.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["BEAM", "Front", "Weigher", "Worlds", "heaviest", "maximal"]


#: A set of worlds, bit *i* for world *i* of the root's list.
Worlds = int
#: A Pareto front: the maximal sets of worlds some strategy wins.
Front = list[Worlds]


def maximal(sets: Sequence[Worlds]) -> Front:
    """The sets of *sets* that no other set contains (duplicates once)."""
    ordered = sorted(set(sets), key=lambda m: -m.bit_count())
    out: Front = []
    if len(ordered) <= _SMALL:
        for s in ordered:
            if not any(s | t == t for t in out):
                out.append(s)
        return out
    # Large lists (products of fronts run to hundreds of thousands of sets): per world, the kept sets holding
    # it as a bit mask over their indices, so a set is tested against every kept set at once, one world at a
    # time, instead of one kept set at a time (the quadratic test took minutes at a few thousand sets).
    holders: dict[Worlds, int] = {}
    everyone = 0
    for s in ordered:
        candidates = everyone
        m = s
        while m and candidates:
            low = m & -m
            candidates &= holders.get(low, 0)
            m ^= low
        if candidates:
            continue  # a kept set holds every world of s
        bit = 1 << len(out)
        out.append(s)
        everyone |= bit
        m = s
        while m:
            low = m & -m
            holders[low] = holders.get(low, 0) | bit
            m ^= low
    return out


#: Up to this many sets :func:`maximal` compares them pairwise.
_SMALL = 64


#: How many sets :meth:`skatdd.analysis.honest.api._Search.beam` keeps at a node.
BEAM = 8


def heaviest(front: Front, weight: Callable[[Worlds], float]) -> Front:
    """The :data:`BEAM` heaviest sets of *front*."""
    return sorted(front, key=weight, reverse=True)[:BEAM] if len(front) > BEAM else front


class Weigher:
    """The weight of a set of worlds: a sum of table entries, one per byte of the mask (bit counts for weights all 1)."""

    def __init__(self, weights: Sequence[float]) -> None:
        self.everyone: Worlds = (1 << len(weights)) - 1
        self.unit = all(w == 1.0 for w in weights)
        self.tables: list[list[float]] = []
        for start in range(0, len(weights), 8):
            chunk = weights[start:start + 8]
            table = [0.0] * 256
            for m in range(1, 256):
                low = (m & -m).bit_length() - 1
                table[m] = table[m & (m - 1)] + (chunk[low] if low < len(chunk) else 0.0)
            self.tables.append(table)

    def __call__(self, mask: Worlds) -> float:
        if self.unit:
            return float(mask.bit_count())
        total = 0.0
        i = 0
        while mask:
            total += self.tables[i][mask & 255]
            mask >>= 8
            i += 1
        return total
