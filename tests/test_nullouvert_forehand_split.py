"""The count of worlds with the declarer on lead: classes split by suits, against solving the worlds one by one.

With the declarer leading the first trick (forehand), the count groups the
patterns of a suit that agree in its canonical form (safe suits, his cards
lowest) and solves such a class of worlds by splitting his first leads: the
leads in suits whose group has one pattern once for the whole class, then
the leads in each other suit pattern by pattern (nullouvert_worlds.pxi).
These tests check that the split gives the count and the first lost world
of the plain classes, and of the general engine world by world; that
merging the classes as if a defender led (sound only then) gives wrong
counts on the same games, so they can tell; and that the threads of
``jobs`` change nothing but the node count.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import nullouvert_brute as brute
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine._nullouvert import WorldClasses
from skatdd.engine.nullouvert import NullOuvertAnalyser, analyse
from skatdd.engine.solve import Solver
from test_nullouvert_safe_suits import low_biased_deal, unmerged_count


@pytest.fixture(scope="module")
def shared() -> NullOuvertAnalyser:
    """One analyser for the module: its table mixes every position below, as in a real count."""
    return NullOuvertAnalyser(16)


def forehand_games(seed: int, count: int, sizes: tuple[int, ...] = (4, 5)) -> list[tuple[int, int]]:
    """Small hand games (unknown skat) over 3-4 suits, the declarer's hand mostly low: ``(hand, pool)``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        suits = rng.sample(range(4), rng.choice([3, 4]))
        hand, pool = low_biased_deal(rng, suits, rng.choice(sizes), 2)
        out.append((sum(1 << c for c in hand), pool))
    return out


def defender_lead_merge(analyser: NullOuvertAnalyser, hand: int, pool: int) -> tuple[int, int]:
    """The unsound variant: forehand's classes merged by safe suits as if a defender led, ``(worlds, lost)``."""
    pats = [analyser.suit_patterns(hand, pool, 2, s, defender_leads=True) for s in range(4)]
    plan = WorldClasses([[[(*p[:6], i)] for i, p in enumerate(suit)] for suit in pats], 2, hand.bit_count())
    worlds, lost, _classes, _first = analyser.solver.count_worlds(plan, 0)
    return worlds, lost


@pytest.mark.parametrize("hand,pool", forehand_games(31, 10, sizes=(3, 4)))
def test_split_count_agrees_with_engine_world_by_world(shared: NullOuvertAnalyser, hand: int, pool: int) -> None:
    """The split count equals the general engine's verdict (no null-ouvert code) summed over every world."""
    engine = Solver(16)
    ws = brute.worlds(hand, pool, 2, 0)
    lost_by_world = [not engine.declarer_wins(Position(Game.NULL, 0, list(w[0]))) for w in ws]
    worlds, lost, classes, first = shared.count_worlds(hand, pool, 2, 0)
    assert worlds == len(ws) and classes <= worlds
    assert lost == sum(lost_by_world)
    assert (first is None) == (lost == 0)
    if first is not None:
        assert (first.hands, first.skat) in {w for w, lw in zip(ws, lost_by_world, strict=True) if lw}


def test_split_classes_give_the_plain_count_and_counterexample(shared: NullOuvertAnalyser) -> None:
    """Splitting forehand's classes changes neither the count nor the first lost world (that of the plain classes).

    Also the unsound variant: the merge by safe suits that is exact when a
    defender leads (his lead from a safe suit may change how the suit
    plays) gets some of these games wrong, so the games can tell.
    """
    split_with_losses = wrong_variant = 0
    for hand, pool in forehand_games(37, 1000):
        worlds, lost, classes, first = shared.count_worlds(hand, pool, 2, 0)
        plain_worlds, plain_lost, plain_classes, (plain_skat, plain_left) = unmerged_count(shared, hand, pool, 2, 0)
        assert (worlds, lost) == (plain_worlds, plain_lost) and classes <= plain_classes
        assert (first is None) == (lost == 0)
        if first is not None:
            assert (first.skat, first.hands[1]) == (plain_skat, plain_left)
        split_with_losses += classes < plain_classes and 0 < lost < worlds
        wrong_variant += defender_lead_merge(shared, hand, pool) != (plain_worlds, plain_lost)
    assert split_with_losses >= 60   # the games exercise the split where it could go wrong (78)
    assert wrong_variant >= 15       # (26)


@pytest.mark.parametrize("jobs", [2, 3])
def test_threads_give_the_same_counts(jobs: int) -> None:
    """Every figure of the count but the nodes is the same whatever the number of threads, on every seat."""
    one, many = NullOuvertAnalyser(4), NullOuvertAnalyser(4)
    for i, (hand, pool) in enumerate(forehand_games(41, 24)):
        assert one.count_worlds(hand, pool, 2, i % 3) == many.count_worlds(hand, pool, 2, i % 3, jobs=jobs)


@pytest.mark.parametrize("hand,skat,seat", [
    ("C7 C9 S7 S9 SJ H7 H8 HT D7 DA", None, "R"),       # a hand game with lost worlds
    ("C7 C9 CJ S7 S9 SJ H7 H9 D7 D9", None, "F"),       # forehand: split classes, a few worlds lost
    ("C7 C9 S7 S9 ST SA H7 H9 D7 D9", "HJ SQ", "F"),     # every world won, but a guess (a known skat: one thread)
])
def test_analysis_is_the_same_with_threads(hand: str, skat: str | None, seat: str) -> None:
    """The whole report (counterexample, guess, classes) but for nodes and seconds, jobs 1 against 2."""
    reports = []
    for jobs in (1, 2):
        out = analyse(hand, declarer=seat, skat=skat, jobs=jobs, exhaustive=True).to_json()
        del out["nodes"], out["seconds"]
        reports.append(out)
    assert reports[0] == reports[1]
