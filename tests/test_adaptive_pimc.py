"""Adaptive PIMC (skatdd.analysis.advise.adaptive): bands by threshold questions, the stopping rule, the players.

* every card's band from threshold questions equals the band of its exact
  value and trick facts (the plain solver's), in suit and grand positions;
* the hypergeometric count bound is the largest count its tail allows;
* the stopping rule, by brute force: on enumerable populations of worlds
  (synthetic scores, and the worlds of real positions), whenever it stops
  the chosen card's mean over all the worlds is within the stated tolerance
  of the best card's, in at least the stated share of the runs;
* ``pimc:N`` is reproducible and records its worlds (``pimc:N,full`` against
  the reference solver: tests/test_match_players.py).
"""
from __future__ import annotations

import itertools
import math
import random

import pytest

from skatdd.analysis.advise.adaptive import (
    BATCH,
    DEFAULT_DELTA,
    DEFAULT_RHO,
    count_bound,
    decide,
    loss_bound,
    score_spread,
    world_bands,
)
from skatdd.analysis.best.bands import band_of
from skatdd.analysis.worlds.space import WorldSpace
from skatdd.analysis.worlds.values import world_position
from skatdd.core.errors import SkatddError
from skatdd.core.rules import ALL_GAMES, SUIT_GAMES, Game
from skatdd.core.scoring import Declaration
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver
from skatdd.play.loading import load_player
from skatdd.play.players import PimcPlayer
from skatdd.play.state import state_for
from test_advise import random_position

SUIT_AND_GRAND = [*SUIT_GAMES, Game.GRAND]


@pytest.mark.parametrize("seed", range(8))
def test_bands_from_threshold_questions_match_exact_values(seed: int) -> None:
    rng = random.Random(300 + seed)
    game = SUIT_AND_GRAND[seed % len(SUIT_AND_GRAND)]
    pos = random_position(rng, game, 12 + 3 * (seed % 4))
    state = state_for(pos, Declaration(game))
    space = WorldSpace(state.view)
    worlds = [space[i] for i in sorted(rng.sample(range(len(space)), min(6, len(space))))]
    solver = Solver(tt_mb=16)
    for world, bands in zip(worlds, world_bands(world_position(pos, worlds[0]), worlds, solver), strict=True):
        here = world_position(pos, world)
        assert set(bands) == set(here.legal_moves())
        for card, band in bands.items():
            here.play(card)
            want = band_of(solver.value(here) or 0, solver.declarer_takes_all(here), solver.defenders_take_all(here))
            here.undo()
            assert band == want, (card, band, want)


def hypergeometric_tail(seen: int, n: int, population: int, marked: int) -> float:
    return sum(math.comb(marked, j) * math.comb(population - marked, n - j)
               for j in range(seen + 1)) / math.comb(population, n)


@pytest.mark.parametrize(("seen", "n", "population"), [(0, 8, 30), (1, 8, 30), (0, 16, 50), (3, 16, 20), (2, 8, 8)])
def test_count_bound_is_the_largest_count_the_tail_allows(seen: int, n: int, population: int) -> None:
    bound = count_bound(seen, n, population, DEFAULT_DELTA)
    assert hypergeometric_tail(seen, n, population, bound) >= DEFAULT_DELTA
    if bound < population - n + seen:
        assert hypergeometric_tail(seen, n, population, bound + 1) < DEFAULT_DELTA
    assert count_bound(seen, population, population, DEFAULT_DELTA) == seen


def run_rule(table: list[list[float]], order: list[int], spread: float) -> tuple[int, int] | None:
    """The leader where the rule first stops over worlds in *order*, and the worlds used (None: never)."""
    population = len(order)
    for n in range(BATCH, population, BATCH):
        used = order[:n]
        utilities = {card: [table[w][card] for w in used] for card in range(len(table[0]))}
        leader, bound = loss_bound(utilities, population, spread)
        if bound <= DEFAULT_RHO:
            return int(leader), n
    return None


@pytest.mark.parametrize("seed", range(6))
def test_stopping_rule_by_brute_force_on_synthetic_worlds(seed: int) -> None:
    """Whenever the rule stops, the leader's mean over every world is within rho*R of the best, but for delta."""
    rng = random.Random(seed)
    population, cards, spread = rng.choice([(30, 3, 4.0), (50, 4, 4.0), (24, 2, 2.0)])
    scores = [-2.0, -1.0, 0.0, 1.0, 2.0][:int(spread) + 1]
    # Cards alike in most worlds, one of them better or worse in a few: the decisions PIMC meets most.
    table = [[rng.choice(scores)] * cards for _ in range(population)]
    for row in table:
        for card in range(cards):
            if rng.random() < 0.15 * (card + 1) / cards:
                row[card] = rng.choice(scores)
    means = [sum(row[card] for row in table) / population for card in range(cards)]
    best = max(means)
    runs = stops = wrong = 0
    for trial in range(300):
        order = list(range(population))
        random.Random(trial).shuffle(order)
        runs += 1
        stopped = run_rule(table, order, spread)
        if stopped is None:
            continue
        stops += 1
        if means[stopped[0]] < best - DEFAULT_RHO * spread - 1e-9:
            wrong += 1
    looks = (population - 1) // BATCH
    assert wrong <= runs * DEFAULT_DELTA * (cards - 1) * looks
    assert wrong <= max(1, runs // 100)  # in practice far below the union bound


@pytest.mark.parametrize("seed", range(6))
def test_stopping_rule_by_brute_force_on_enumerable_worlds(seed: int) -> None:
    """Real positions with every world enumerable: adaptive over 40 random orders against the full evaluation."""
    rng = random.Random(700 + seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    while True:
        pos = random_position(rng, game, 18 + seed % 3)
        if len(pos.legal_moves()) > 1:
            break
    declaration = Declaration(game)
    state = state_for(pos, declaration)
    solver = Solver(tt_mb=16)
    played = sum(1 << card for seat, card in pos.history if seat == pos.declarer)
    full = decide(pos, declaration, state.view, 10_000, generator(0), solver=solver, adaptive=False,
                  declarer_played=played)
    assert full.used == full.population == len(WorldSpace(state.view))
    sign = 1 if pos.to_move == pos.declarer else -1
    best = max(sign * v for v in full.score.values())
    tolerance = DEFAULT_RHO * score_spread(declaration, None)
    wrong = 0
    for trial in range(40):
        choice = decide(pos, declaration, state.view, 10_000, generator(trial), solver=solver, declarer_played=played)
        assert choice.population == full.population
        if choice.stopped == "all":
            assert choice.best == full.best
        elif any(sign * full.score[card] < best - tolerance for card in choice.best):
            wrong += 1
    assert wrong <= 2


def test_pimc_is_reproducible_and_records_its_worlds() -> None:
    rng = random.Random(5)
    pos = random_position(rng, Game.GRAND, 8)
    state = state_for(pos, Declaration(Game.GRAND))
    first, second = PimcPlayer(pos.to_move, 3, worlds=40), PimcPlayer(pos.to_move, 3, worlds=40)
    assert first.play(state) == second.play(state)
    assert first.used == second.used and len(first.used) == 1 and BATCH <= first.used[0] <= 40
    full = PimcPlayer(pos.to_move, 3, worlds=40, full=True)
    full.play(state)
    assert full.used == [min(40, len(WorldSpace(state.view)))]


def test_full_option_loads_and_bad_options_are_refused() -> None:
    assert load_player("pimc:30,full").name == "pimc:30,full"
    assert load_player("pimc:30").name == "pimc:30"
    with pytest.raises(SkatddError, match="',fast'"):
        load_player("pimc:30,fast")


@pytest.mark.parametrize("seed", range(12))
def test_decide_solves_the_worlds_drawn_one_by_one(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worlds unranked a batch at a time are the ones ``space[i]`` gave for the indices drawn one by one,
    in the same order, and the generator is left exactly where drawing only those indices leaves it."""
    import skatdd.analysis.advise.adaptive as adaptive
    from skatdd.analysis.worlds.draw import sample_indices

    seen: list = []

    def scores(pos, declaration, bid, declarer_played, worlds, solver, bands_of):  # type: ignore[no-untyped-def]
        # Scores that depend on the world alone, so that the stopping rule stops after varying numbers of batches.
        seen.extend(worlds)
        return [{card: hash((world, card, seed)) % 3 * 30 for card in pos.legal_moves()} for world in worlds]

    monkeypatch.setattr(adaptive, "_world_scores", scores)
    monkeypatch.setattr(adaptive, "tied_points", lambda pos, worlds, bands, cards, solver: [
        dict.fromkeys(cards, 0) for _ in worlds])
    rng = random.Random(900 + seed)
    stops = set()
    for trial in range(10):
        game = SUIT_AND_GRAND[(seed + trial) % len(SUIT_AND_GRAND)]
        pos = random_position(rng, game, rng.randrange(0, 27))
        if len(pos.legal_moves()) < 2:
            continue
        view = state_for(pos, Declaration(game)).view
        space = WorldSpace(view)
        for n in (10, 30, 50):
            seen.clear()
            draws, twin = generator(trial), generator(trial)
            choice = decide(pos, Declaration(game), view, n, draws, solver=None,  # type: ignore[arg-type]
                            adaptive=trial % 4 != 0)
            stops.add(choice.stopped)
            population = min(n, len(space))
            one_by_one = [space[i] for i in itertools.islice(sample_indices(len(space), population, twin), choice.used)]
            assert seen == one_by_one
            assert draws.getstate() == twin.getstate()
    assert stops == {"all", "settled"}
