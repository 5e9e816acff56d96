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
