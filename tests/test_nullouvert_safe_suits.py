"""The null-ouvert search's safe-suit reductions against the general engine.

A suit in which the declarer's i-th lowest card has at most i other live
cards below it is *safe*: with a defender on lead he never takes a trick of
it.  The double-dummy table writes such a suit in a canonical form (his cards
lowest), and the count of worlds merges the classes whose safe suits agree
in that form.  Both are exact only if the reductions are; these tests check
them on hands rich in safe suits, against the general engine (skatdd.solve,
which shares no null-ouvert code) position by position and world by world.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import nullouvert_brute as brute
from skatdd.nullouvert import NullOuvertAnalyser
from skatdd.position import Position
from skatdd.rules import Game
from skatdd.solve import Solver


def low_biased_deal(rng: random.Random, suits: list[int], n: int, extra: int) -> tuple[list[int], int]:
    """A declarer hand of *n* cards drawn mostly from the low ranks of *suits*, and the pool of the 2n + extra others."""
    deck = [s * 8 + r for s in suits for r in range(8)]
    rng.shuffle(deck)
    deck.sort(key=lambda c: (c & 7) + rng.random() * 5)
    hand = deck[:n]
    rest = deck[n:]
    rng.shuffle(rest)
    return hand, sum(1 << c for c in rest[:2 * n + extra])


def random_prefix(rng: random.Random, pos: Position, cards: int) -> None:
    """Play up to *cards* random legal cards, stopping before the declarer would take a trick."""
    for _ in range(cards):
        moves = pos.legal_moves()
        if not moves:
            return
        card = rng.choice(moves)
        pos.play(card)
        if pos.declarer_tricks:
            pos.undo()
            return


@pytest.fixture(scope="module")
def shared() -> NullOuvertAnalyser:
    """One analyser for the whole module: its table mixes every position below, as in a real count."""
    return NullOuvertAnalyser(16)


@pytest.mark.parametrize("seed", range(8))
def test_positions_agree_with_engine(shared: NullOuvertAnalyser, seed: int) -> None:
    """Full deals and positions after random play, every seat declaring: dd_lose equals the engine's answer."""
    rng = random.Random(seed)
    engine = Solver(16)
    for _ in range(60):
        hand, pool = low_biased_deal(rng, [0, 1, 2, 3], 10, 2)
        unseen = [c for c in range(32) if pool >> c & 1]
        skat = rng.sample(unseen, 2)
        left = rng.sample([c for c in unseen if c not in skat], 10)
        decl = rng.randrange(3)
        hands = [0, 0, 0]
        hands[decl] = sum(1 << c for c in hand)
        hands[(decl + 1) % 3] = sum(1 << c for c in left)
        hands[(decl + 2) % 3] = pool & ~hands[(decl + 1) % 3] & ~sum(1 << c for c in skat)
        pos = Position(Game.NULL, decl, hands)
        random_prefix(rng, pos, rng.randrange(0, 20))
        lost = shared.solver.dd_lose(pos.hands, decl, pos.leader, tuple(pos.trick))
        assert lost == (not engine.declarer_wins(pos)), (pos.hands, decl, pos.leader, pos.trick)


def reduced_games(seed: int, count: int) -> list[tuple[int, int, int, int]]:
    """Small games (3-4 cards a hand over 2-4 suits, skat known or not), declarer hands mostly low."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice([3, 4])
        suits = rng.sample(range(4), rng.choice([2, 3, 4]))
        k = rng.choice([0, 2])
        hand, pool = low_biased_deal(rng, suits, n, k)
        out.append((sum(1 << c for c in hand), pool, k, rng.randrange(3)))
    return out


@pytest.mark.parametrize("hand,pool,k,decl", reduced_games(21, 24))
def test_world_count_agrees_with_engine_world_by_world(shared: NullOuvertAnalyser, hand: int, pool: int, k: int,
                                                      decl: int) -> None:
    """The count over merged classes equals the engine's verdict summed over every single world."""
    engine = Solver(16)
    ws = brute.worlds(hand, pool, k, decl)
    lost_by_world = [not engine.declarer_wins(Position(Game.NULL, decl, list(w[0]))) for w in ws]
    worlds, lost, classes, first = shared.count_worlds(hand, pool, k, decl)
    assert worlds == len(ws) and classes <= worlds
    assert lost == sum(lost_by_world)
    # the counterexample is the first lost world in the order of the unmerged classes
    assert (first is None) == (lost == 0)
    if first is not None:
        assert not engine.declarer_wins(Position(Game.NULL, decl, list(first.hands)))
