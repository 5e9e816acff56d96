"""Which hand games prove blocks of classes at once, and in which order of suits.

The count of worlds (solver/nullouvert_worlds.pxi) fixes one pattern per
suit, the last suit innermost.  A *block* is every class that shares the
patterns of the first three suits; the relaxed game of
solver/nullouvert_block.pxi proves a whole block won at once, its last
suit's unseen cards pooled.  It pays only where blocks hold many classes
(a won block's relaxed game costs about what its classes' searches do,
docs/engine.md), so the decision is taken once per hand game, from the
counts of the enumeration alone: the last suit is the one that makes the
blocks largest, and blocks are used only when they hold at least
:data:`BLOCK_MIN_CLASSES` classes on average and a defender leads the
first trick (forehand's classes are split by his leads, and blocks never
paid there).  Answers do not depend on it: the first lost world is compared
in the caller's suit order whatever the order of the enumeration.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

#: The least mean number of classes a block (of two or more) for the relaxed game to be tried.
BLOCK_MIN_CLASSES = 10.0

#: One suit's ``(patterns, groups)`` as NullOuvertAnalyser.suit_groups gives them.
SuitGroups = tuple[list[tuple[Any, ...]], list[list[int]]]


def _counts(suit: SuitGroups) -> Counter[tuple[int, int]]:
    """How many groups of the suit have each ``(skat cards, left defender's cards)``."""
    pats, groups = suit
    return Counter((pats[g[0]][0], pats[g[0]][1]) for g in groups)


def classes_per_block(suits: Sequence[SuitGroups], k: int, n: int) -> float:
    """The mean classes of a block of two or more classes, the suits enumerated in the order given (0 when none)."""
    first: Counter[tuple[int, int]] = Counter({(0, 0): 1})
    for suit in suits[:3]:
        step: Counter[tuple[int, int]] = Counter()
        for (ka, la), ca in first.items():
            for (kb, lb), cb in _counts(suit).items():
                if ka + kb <= k and la + lb <= n:
                    step[ka + kb, la + lb] += ca * cb
        first = step
    last = _counts(suits[3])
    blocks = classes = 0
    for (kf, lf), count in first.items():
        size = last.get((k - kf, n - lf), 0)
        if size >= 2:
            blocks += count
            classes += count * size
    return classes / blocks if blocks else 0.0


def safe_positions(his: Sequence[int]) -> bool:
    """Whether the declarer is safe in a suit where his cards are the live cards at positions *his* (lowest
    first, 0 the suit's lowest live card): his i-th lowest card has at most i other live cards below it."""
    return all(pos <= 2 * i for i, pos in enumerate(his))


def poolable(hand: int, pool: int, suit: int) -> bool:
    """Whether the relaxed game may pool *suit*: the declarer is void in it, safe in it against every unseen
    card (his i-th lowest card has at most i of them below it), or holds a single card with at most one below."""
    live = [c for c in range(8 * suit, 8 * suit + 8) if (hand | pool) >> c & 1]
    his = [pos for pos, c in enumerate(live) if hand >> c & 1]
    return safe_positions(his) or (len(his) == 1 and his[0] <= 1)


def block_order(suits: Sequence[SuitGroups], hand: int, pool: int, k: int, declarer: int,
                force: bool = False) -> tuple[int, ...] | None:
    """The order of suits to count in with blocks (suit j of the count is the caller's ``order[j]``), or None.

    The last suit (pooled in a block's relaxed game) is one :func:`poolable`
    allows: where the declarer is not safe in it, he must mostly know how
    its cards lie, and the relaxed game, which hides that, is lost (a
    singleton nine over two unseen lower cards: 106,178 blocks tried, 48
    won), but a singleton with one card below it he throws at his first
    chance.  Of those suits, the one that makes the blocks largest.  None
    (no blocks) for forehand, when no suit is poolable, and when the blocks
    hold fewer than :data:`BLOCK_MIN_CLASSES` classes on average.  With
    *force* the largest blocks' order whatever the seat, the suit and the
    size.
    """
    if declarer == 0 and not force:
        return None
    n = hand.bit_count()
    best, order = -1.0, None
    for last in range(4):
        if not force and not poolable(hand, pool, last):
            continue
        cand = tuple(s for s in range(4) if s != last) + (last,)
        size = classes_per_block([suits[s] for s in cand], k, n)
        if size > best:
            best, order = size, cand
    return order if force or best >= BLOCK_MIN_CLASSES else None


def permute_mask(mask: int, order: Sequence[int]) -> int:
    """*mask* with the caller's suit ``order[j]`` moved to suit j."""
    return sum(((mask >> (8 * src)) & 0xFF) << (8 * j) for j, src in enumerate(order))


def permute_suits(suits: Sequence[SuitGroups], order: Sequence[int]) -> list[SuitGroups]:
    """The suits' patterns in the count's order: the declarer's, left's and right's masks moved to their new byte."""
    out: list[SuitGroups] = []
    for j, src in enumerate(order):
        pats, groups = suits[src]
        shift = 8 * (j - src)
        moved = [(*p[:2], *(m << shift if shift >= 0 else m >> -shift for m in p[2:5]), *p[5:]) for p in pats]
        out.append((moved, groups))
    return out
