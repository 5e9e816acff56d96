"""The null-ouvert search's safe-suit reductions against the general engine.

A suit in which the declarer's i-th lowest card has at most i other live
cards below it is *safe*: with a defender on lead he never takes a trick of
it.  The double-dummy table writes such a suit in a canonical form (his cards
lowest), and the count of worlds merges the classes whose safe suits agree
in that form.  Both are exact only if the reductions are; these tests check
them on hands rich in safe suits, against the general engine (skatdd.engine.solve,
which shares no null-ouvert code) position by position and world by world.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import nullouvert_brute as brute
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine._nullouvert import WorldClasses
from skatdd.engine.nullouvert import NullOuvertAnalyser
from skatdd.engine.solve import Solver


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
    assert (first is None) == (lost == 0)
    if first is not None:
        assert not engine.declarer_wins(Position(Game.NULL, decl, list(first.hands)))


def unmerged_count(analyser: NullOuvertAnalyser, hand: int, pool: int, k: int,
                   decl: int) -> tuple[int, int, int, tuple[int, int]]:
    """The count over the plain rank-normalised classes: ``(worlds, lost, classes, first lost (skat, left))``."""
    pats = [analyser.suit_patterns(hand, pool, k, s) for s in range(4)]
    plan = WorldClasses([[[(*p[:6], i)] for i, p in enumerate(suit)] for suit in pats], k, hand.bit_count())
    worlds, lost, classes, first = analyser.solver.count_worlds(plan, decl)
    if first is None:
        return worlds, lost, classes, (0, 0)
    return worlds, lost, classes, (sum(pats[s][first[s]][6] for s in range(4)), sum(pats[s][first[s]][7] for s in range(4)))


def full_game(hand: str, skat: str, decl: int) -> tuple[int, int, int, int]:
    """A ten-card hand with a known skat, as ``(hand, pool, k, declarer)``."""
    hand_mask, skat_mask = mask_of(parse_cards(hand)), mask_of(parse_cards(skat))
    return hand_mask, ((1 << 32) - 1) & ~hand_mask & ~skat_mask, 0, decl


def merging_games(seed: int, count: int) -> list[tuple[int, int, int, int]]:
    """Small hand games (4-5 cards a hand, 3-4 suits, unknown skat) whose declarer does not lead: classes merge."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        suits = rng.sample(range(4), rng.choice([3, 4]))
        hand, pool = low_biased_deal(rng, suits, rng.choice([4, 5]), 2)
        out.append((sum(1 << c for c in hand), pool, 2, rng.choice([1, 2])))
    return out


def test_merged_classes_give_the_same_count_and_counterexample(shared: NullOuvertAnalyser) -> None:
    """Merging classes by their safe suits changes neither the count nor the first lost world reported.

    The reported world is the first lost one in the order of the unmerged
    classes (a merged pattern keeps its first member's representative).
    """
    games = merging_games(23, 300) + [full_game("C7 C8 CT S7 S9 H7 H8 HT D7 DJ", "CA SA", 2),
                                      full_game("CA C8 C9 S7 S8 S9 H7 H8 D7 D8", "CT SA", 1)]
    merged_with_losses = 0
    for hand, pool, k, decl in games:
        worlds, lost, classes, first = shared.count_worlds(hand, pool, k, decl)
        plain_worlds, plain_lost, plain_classes, (plain_skat, plain_left) = unmerged_count(shared, hand, pool, k, decl)
        assert (worlds, lost) == (plain_worlds, plain_lost) and classes <= plain_classes
        if first is not None:
            assert (first.skat, first.hands[(decl + 1) % 3]) == (plain_skat, plain_left)
        merged_with_losses += classes < plain_classes and 0 < lost < worlds
    assert merged_with_losses >= 20   # the games exercise the merge where it could go wrong
