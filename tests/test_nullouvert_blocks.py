"""Blocks of classes proved at once (solver/nullouvert_block.pxi) change no count.

With ``NullOuvertAnalyser.blocks`` on, the count of worlds searches a relaxed
game over every split of the last suit's unseen cards before solving a block
of classes one by one; a win there counts the block as won.  The counts
(worlds, lost worlds, classes, the first lost world) must equal those of
the plain count, and the lost worlds the brute force's.
"""
from __future__ import annotations

import random

import pytest

import nullouvert_brute as brute
from skatdd.core.cards import mask_of, parse_cards
from skatdd.engine._nullouvert import NullSolver
from skatdd.engine.nullouvert import NullOuvertAnalyser
from skatdd.engine.nullouvert_blocks import SuitGroups, block_order, classes_per_block, poolable


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def cases(n: int, count: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Random small games over the last suit (clubs) and one or two others, so that blocks have classes."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        k = rng.choice([0, 2])
        suits = [3, *rng.sample(range(3), rng.choice([1, 2]))]
        deck = [s * 8 + r for s in suits for r in range(8)]
        rng.shuffle(deck)
        if rng.random() < 0.7:
            deck.sort(key=lambda c: (c & 7) + rng.random() * 6)
        out.append((mask_of(deck[:n]), mask_of(deck[n:3 * n + k]), k, rng.randrange(3)))
    return out


@pytest.mark.parametrize("hand,pool,k,decl", cases(3, 30, 21) + cases(4, 4, 22))
def test_blocks_change_no_count(hand: int, pool: int, k: int, decl: int) -> None:
    plain = NullOuvertAnalyser(8)
    plain.blocks = False
    blocks = NullOuvertAnalyser(8)
    blocks.blocks = True
    got = blocks.count_worlds(hand, pool, k, decl)
    assert got == plain.count_worlds(hand, pool, k, decl)
    assert got[1] == sum(brute.dd_lose(w[0], decl) for w in brute.worlds(hand, pool, k, decl))


def test_adjacent_unseen_cards_may_meet_in_a_trick() -> None:
    """Left (forehand) leads CJ, right overtakes with CA and leads H8: the declarer takes the trick.

    Trying only the top card of each run of unseen clubs (CA) would miss it
    and call the block won.
    """
    solver = NullSolver(8)
    assert not solver.block_wins(2, m("HJ HK C9"), 0, m("H8 HA"), m("CJ CQ CK CA"), 3, 1, 0)


def test_the_cases_enumerate_suits_in_other_orders() -> None:
    """The counts above are compared with the suits relabelled (the first lost world in the caller's order)."""
    orders = set()
    for hand, pool, k, decl in cases(3, 30, 21) + cases(4, 4, 22):
        suits = [NullOuvertAnalyser.suit_groups(hand, pool, k, s, declarer_leads=decl == 0) for s in range(4)]
        orders.add(block_order(suits, hand, pool, k, decl, force=True))
    assert len(orders - {(0, 1, 2, 3)}) >= 2


def _suits(hand: int, seat: int) -> list[SuitGroups]:
    pool = ((1 << 32) - 1) & ~hand
    return [NullOuvertAnalyser.suit_groups(hand, pool, 2, s, declarer_leads=seat == 0) for s in range(4)]


def test_classes_per_block_counts_the_enumeration() -> None:
    """The mean size of the blocks (two classes or more) against a plain walk over the groups."""
    hand = m("SJ C8 ST SK S9 S8 S7 HT H7 D7")
    suits = _suits(hand, 2)
    sizes: dict[tuple[int, int, int], int] = {}
    keys = [[(pats[g[0]][0], pats[g[0]][1]) for g in groups] for pats, groups in suits]
    last: dict[tuple[int, int], int] = {}
    for key in keys[3]:
        last[key] = last.get(key, 0) + 1
    for i, a in enumerate(keys[0]):
        for j, b in enumerate(keys[1]):
            for c_, c in enumerate(keys[2]):
                size = last.get((2 - a[0] - b[0] - c[0], 10 - a[1] - b[1] - c[1]), 0)
                if size >= 2:
                    sizes[i, j, c_] = size
    assert classes_per_block(suits, 2, 10) == pytest.approx(sum(sizes.values()) / len(sizes))


def test_block_order_pools_a_safe_suit() -> None:
    """The last suit is one the declarer is safe in (or a singleton with one card below); never for forehand."""
    # void in clubs: clubs last, as they are
    assert block_order(_suits(m("SJ S9 S8 S7 H9 H8 H7 DQ D9 D8"), 2), m("SJ S9 S8 S7 H9 H8 H7 DQ D9 D8"),
                       ((1 << 32) - 1) & ~m("SJ S9 S8 S7 H9 H8 H7 DQ D9 D8"), 2, 2) == (0, 1, 2, 3)
    # the singleton D9 (two unseen diamonds below it) makes the largest blocks, but is not safe: S7 instead
    hand = m("C8 C7 S7 HT HK HQ H9 H8 H7 D9")
    pool = ((1 << 32) - 1) & ~hand
    assert block_order(_suits(hand, 1), hand, pool, 2, 1, force=True)[3] == 0
    assert block_order(_suits(hand, 1), hand, pool, 2, 1) == (0, 1, 3, 2)
    assert block_order(_suits(hand, 0), hand, pool, 2, 0) is None
    assert not poolable(hand, pool, 0) and poolable(hand, pool, 2)
    # the singleton C8 over C7 is poolable and makes the largest blocks
    hand = m("SJ C8 ST SK S9 S8 S7 HT H7 D7")
    pool = ((1 << 32) - 1) & ~hand
    assert poolable(hand, pool, 3) and not poolable(hand, pool, 1)
    assert block_order(_suits(hand, 2), hand, pool, 2, 2) == (0, 1, 2, 3)
