"""Honest endgames (skatdd.analysis.honest.api) against a plain brute force over every declarer strategy."""
from __future__ import annotations

import random
import signal

import pytest

from honest_brute import brute_honest, brute_pimc, pareto_honest
from skatdd.analysis.advise.api import WinRule, mover_view, world_position
from skatdd.analysis.honest.api import HonestBudgetExceeded, honest_card_values
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import World, WorldSpace
from skatdd.core.cards import CARD_POINTS
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver


def endgame(rng: random.Random, game: Game, tricks: int, hand: bool, schneider: bool = False) -> tuple[Position, Declaration]:
    """A random endgame with *tricks* tricks left, the declarer to move, and points that leave the game open.

    The cards already on the table were played legally, so the voids they show fit the hands.
    """
    cards = list(range(32))
    rng.shuffle(cards)
    declarer = rng.randrange(3)
    on_table = rng.randrange(3)
    leader = (declarer - on_table) % 3
    hands = [sum(1 << c for c in cards[i * tricks:(i + 1) * tricks]) for i in range(3)]
    skat = sum(1 << c for c in cards[3 * tricks:3 * tricks + 2])
    in_play = sum(CARD_POINTS[c] for c in range(32) if (hands[0] | hands[1] | hands[2] | skat) >> c & 1)
    target = 90 if schneider else 61
    low, high = max(0, target - in_play), min(target - 1, 120 - in_play)
    points = rng.randint(low, high) if low <= high else 0
    won = 0 if game.is_null else 10 - tricks - 1  # a null declarer still in the game has no trick
    pos = Position(game, declarer, hands, skat, leader, [], points, won, 10 - tricks - won)
    for _ in range(on_table):
        pos.play(rng.choice(pos.legal_moves()))
    pos = Position(game, declarer, list(pos.hands), skat, leader, list(pos.trick), points, won, 10 - tricks - won)
    pos.validate()
    return pos, Declaration(game, hand=hand or schneider, schneider=schneider)


def views_worlds(pos: Position, decl: Declaration) -> list[World]:
    return list(WorldSpace(mover_view(pos, decl)))


def check_against_brute(pos: Position, decl: Declaration, worlds: list[World], weights: list[float],
                        solver: Solver) -> bool:
    """Assert honest == brute force (when the brute force is small enough) and pimc == plain minimax."""
    result = honest_card_values(pos, decl, worlds, 4, weights=weights, solver=solver)
    positions = [world_position(pos, w) for w in worlds]
    rule = WinRule.of(decl)
    pimc = brute_pimc(positions, weights, rule)
    for card in result.cards:
        assert card.pimc_win == pytest.approx(pimc[card.card])
    brute = brute_honest(positions, weights, rule, limit=2000)
    if brute is None:
        return False
    for card in result.cards:
        assert card.honest_win == pytest.approx(brute[card.card]), (pos, worlds, card)
    return True


@pytest.mark.parametrize(("game", "schneider"), [(Game.CLUBS, False), (Game.GRAND, False), (Game.HEARTS, True),
                                                 (Game.NULL, False)])
def test_honest_equals_brute_force_on_random_subsets(solver: Solver, game: Game, schneider: bool) -> None:
    rng = random.Random(int(game) + 10)
    checked = 0
    for _ in range(8):
        pos, decl = endgame(rng, game, 3, hand=rng.random() < 0.4, schneider=schneider)
        worlds = views_worlds(pos, decl)
        chosen = rng.sample(worlds, min(len(worlds), rng.randint(2, 5)))
        weights = [float(rng.randint(1, 4)) for _ in chosen]
        checked += check_against_brute(pos, decl, chosen, weights, solver)
    assert checked >= 5


def _fused(pos: Position, decl: Declaration, worlds: list[World], solver: Solver) -> bool:
    result = honest_card_values(pos, decl, worlds, 4, solver=solver)
    return any(c.honest_win < c.pimc_win - 1e-9 for c in result.cards)


@pytest.mark.parametrize("tricks", [3, 4])
def test_honest_equals_brute_force_where_pimc_fuses(solver: Solver, tricks: int) -> None:
    """Positions where honest < PIMC, shrunk to the fewest worlds that keep it, then brute-forced."""
    rng = random.Random(7 + tricks)
    found = 0
    for _ in range(300):
        game = rng.choice([Game.CLUBS, Game.GRAND, Game.SPADES, Game.NULL])
        pos, decl = endgame(rng, game, tricks, hand=rng.random() < 0.5)
        worlds = views_worlds(pos, decl)
        if len(worlds) > 10 * tricks or not _fused(pos, decl, worlds, solver):
            continue
        i = 0
        while i < len(worlds):
            fewer = worlds[:i] + worlds[i + 1:]
            if len(fewer) >= 2 and _fused(pos, decl, fewer, solver):
                worlds = fewer
            else:
                i += 1
        found += check_against_brute(pos, decl, worlds, [1.0] * len(worlds), solver)
        if found >= 5 - tricks:
            break
    assert found >= 5 - tricks


def test_honest_never_above_pimc_and_equal_for_one_world(solver: Solver) -> None:
    rng = random.Random(99)
    below = 0
    for trial in range(40):
        game = rng.choice([Game.CLUBS, Game.GRAND, Game.DIAMONDS, Game.NULL])
        pos, decl = endgame(rng, game, 3 + trial % 2, hand=rng.random() < 0.5)
        worlds = views_worlds(pos, decl)[:60]
        result = honest_card_values(pos, decl, worlds, 4, solver=solver)
        for card in result.cards:
            assert card.honest_win <= card.pimc_win + 1e-12
            below += card.honest_win < card.pimc_win
        one = honest_card_values(pos, decl, worlds[:1], 4, solver=solver)
        for card in one.cards:
            assert card.honest_win == card.pimc_win
            after = world_position(pos, worlds[0])
            after.play(card.card)
            assert card.pimc_win == float(solver.declarer_wins(after) if decl.game.is_null
                                          else solver.reaches(after, 61))
    assert below > 0  # the positions do show strategy fusion somewhere


def test_bad_calls_raise(solver: Solver) -> None:
    rng = random.Random(5)
    pos, decl = endgame(rng, Game.CLUBS, 3, hand=False)
    worlds = views_worlds(pos, decl)
    with pytest.raises(DealFormatError, match="at most 2 tricks"):
        honest_card_values(pos, decl, worlds, 2, solver=solver)
    with pytest.raises(DealFormatError, match="at least one world"):
        honest_card_values(pos, decl, [], 3, solver=solver)
    with pytest.raises(DealFormatError, match="weight"):
        honest_card_values(pos, decl, worlds, 3, weights=[1.0], solver=solver)
    pos.play(pos.legal_moves()[0])
    if not pos.is_over() and pos.to_move != pos.declarer:
        with pytest.raises(DealFormatError, match="defender"):
            honest_card_values(pos, decl, worlds, 3, solver=solver)


def test_budget_stops_the_search(solver: Solver) -> None:
    rng = random.Random(3)
    for _ in range(50):
        pos, decl = endgame(rng, Game.GRAND, 4, hand=True)
        worlds = views_worlds(pos, decl)[:40]
        if honest_card_values(pos, decl, worlds, 4, solver=solver).nodes > 2:
            with pytest.raises(HonestBudgetExceeded):
                honest_card_values(pos, decl, worlds, 4, solver=solver, budget=1)
            return
    raise AssertionError("no position needed more than two nodes")


def _four_card_positions(seed: int, count: int) -> list[tuple[Position, Declaration]]:
    """Synthetic endgames of four cards a hand, suit and grand, the declarer to move (bench_honest --synthetic)."""
    rng = random.Random(seed)
    games = [Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.GRAND]
    return [endgame(rng, rng.choice(games), 4, hand=rng.random() < 0.5) for _ in range(count)]


@pytest.mark.parametrize("seed", [1, 2])
def test_honest_equals_brute_force_four_cards_weighted(solver: Solver, seed: int) -> None:
    """Four cards a hand, a few worlds with uneven weights: the pruned fronts lose no strategy."""
    rng = random.Random(seed)
    checked = 0
    for pos, decl in _four_card_positions(seed + 40, 10):
        worlds = views_worlds(pos, decl)
        chosen = rng.sample(worlds, min(len(worlds), rng.randint(2, 4)))
        weights = [rng.choice([0.5, 1.0, 1.7, 3.25]) for _ in chosen]
        checked += check_against_brute(pos, decl, chosen, weights, solver)
    assert checked >= 5


def test_many_independent_guesses_stay_small(solver: Solver) -> None:
    """A position whose front after the declarer's lead held 4,096 sets (each defender card led to its own
    guess) needed 4,465 nodes; bounding the fronts by the best set known keeps it under 2,000."""
    rng = random.Random(7)
    for _ in range(47):
        game = rng.choice([Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.GRAND])
        pos, decl = endgame(rng, game, 4, hand=rng.random() < 0.5)
    worlds, _ = choose_worlds(mover_view(pos, decl), 200, random.Random(46))
    result = honest_card_values(pos, decl, worlds, 4, solver=solver, budget=2000)
    assert [round(c.honest_win * 70) for c in result.cards] == [24, 30, 40, 42]


def test_pareto_reference_equals_brute_force(solver: Solver) -> None:
    """The plain Pareto-front recursion the four-card tests compare with agrees with the strategy enumeration."""
    rng = random.Random(21)
    checked = 0
    for pos, decl in _four_card_positions(61, 12):
        worlds = views_worlds(pos, decl)
        chosen = rng.sample(worlds, min(len(worlds), 3))
        weights = [rng.choice([0.5, 1.0, 1.7, 3.25]) for _ in chosen]
        positions = [world_position(pos, w) for w in chosen]
        brute = brute_honest(positions, weights, WinRule.of(decl), limit=300)
        if brute is None:
            continue
        assert pareto_honest(positions, weights, WinRule.of(decl)) == pytest.approx(brute)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(("seed", "uneven"), [(5, False), (6, True)])
def test_honest_equals_pareto_reference_on_synthetic_four_cards(solver: Solver, seed: int, uneven: bool) -> None:
    """bench_honest.py --synthetic's positions (four cards a hand, suit and grand games), 24 of advise's worlds:
    where the declarer must guess (honest below PIMC for some card, so the floors, bounds and cuts prune), the
    search equals the plain Pareto-front recursion of tests/honest_brute.py."""
    rng = random.Random(seed)
    checked: list[bool] = []
    for i, (pos, decl) in enumerate(_four_card_positions(seed, 60)):
        worlds, _ = choose_worlds(mover_view(pos, decl), 24, random.Random(i))
        weights = [rng.choice([0.5, 1.0, 1.7, 3.25]) if uneven else 1.0 for _ in worlds]
        result = honest_card_values(pos, decl, worlds, 4, weights=weights, solver=solver)
        if all(c.honest_win == c.pimc_win for c in result.cards):
            continue
        reference = pareto_honest([world_position(pos, w) for w in worlds], weights, WinRule.of(decl))
        for card in result.cards:
            assert card.honest_win == pytest.approx(reference[card.card]), (i, card)
        checked.append(decl.game == Game.GRAND)
        if len(checked) >= 3 and len(set(checked)) == 2:
            break
    assert set(checked) == {False, True}  # suit and grand games both checked


def test_two_defender_nodes_in_a_row_answer_at_once(solver: Solver) -> None:
    """bench_honest.py --synthetic 800 --seed 5, position 534 (clubs hand, 200 worlds, the declarer third to a
    trick, then both defenders): the fronts of the first defender's cards (up to 3,672 sets) were combined
    with floors near zero and a quadratic maximal test, past 150 s of CPU; now about 2 s.  Stopped at 60 s."""
    pos, decl = _four_card_positions(5, 535)[534]
    worlds, _ = choose_worlds(mover_view(pos, decl), 200, random.Random(534))

    def stop(_signum: int, _frame: object) -> None:
        raise TimeoutError("the honest search took more than 60 s of CPU")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, 60.0)
    try:
        result = honest_card_values(pos, decl, worlds, 4, solver=solver, budget=10**9)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    assert [(str(c.card), round(c.honest_win * 200), round(c.pimc_win * 200)) for c in result.cards] == [
        ("DJ", 79, 114)]
