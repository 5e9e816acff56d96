"""Benchmarks of single-dummy advice (``skatdd advise``, ``skatdd analyse --worlds``) over real ISS games.

Measures, all wall-clock times of what the command does (the worlds drawn in
the parent, solved on ``--jobs`` workers: a fresh pool and a fresh 128 MiB
solver per worker each run):

* ``advise`` before the first card, 200 worlds, median over the played
  fixture games (``tests/data/iss-games.txt``; target <= 0.09 s with two
  workers) or over the harder held-out set (``benchmarks/data/iss-held-out.txt``,
  ``--set held-out``; target <= 0.3 s);
* ``advise`` at a late decision (the first with three cards a hand) over all
  its worlds (target <= 5 ms);
* ``analyse --worlds 100 --no-review`` of the full 30-card games (target <= 30 s).

CPU is that of this process and its worker processes (``RUSAGE_CHILDREN``:
each run's pool ends with it), a figure a loaded machine shifts far less
than the wall time.  Each measure runs the ways given with ``--ways``, interleaved game by game
in the same run (A/B): ``many`` is what the runner does (each chunk's worlds
in one ``Solver.card_values_many`` call), ``loop`` the world-by-world Python
loop it replaced (a cleared table and ``Solver.card_values`` a world), put
back for the measurement only.  Both give the same numbers (checked on every
run).  Not part of the normal test run::

    python benchmarks/bench_advise.py [--jobs 2] [--set fixtures|held-out] [--only advise|late|analyse]
                                      [--ways many,loop] [--rounds 3]

or with pytest-benchmark (``many`` only)::

    python -m pytest benchmarks/bench_advise.py -o python_files='bench_*.py' --benchmark-only

Set ``SKATDD_BENCH_ASSERT=1`` to make the pytest benchmarks fail when a median
misses its target (off by default: a shared, loaded machine measures the load).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import skatdd.analysis.advise.runner as world_runner
from skatdd.analysis.advise.api import advise, judge_analysis
from skatdd.analysis.analyse.api import analyse_iss
from skatdd.analysis.worlds.values import card_results_each
from skatdd.core.position import Position
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame, iter_iss

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "iss-games.txt"
HELD_OUT = ROOT / "benchmarks" / "data" / "iss-held-out.txt"
SETS = {"fixtures": FIXTURES, "held-out": HELD_OUT}
ADVISE_TARGET = {"fixtures": 0.09, "held-out": 0.3}   # seconds, median advise at the first lead, 200 worlds
LATE_TARGET = 0.005     # seconds, a late decision over all its worlds
ANALYSE_TARGET = 30.0   # seconds, median analyse --worlds 100 of a full game, two workers
TT_MB = 128
LATE_CARDS = 3


def played_games(path: Path = FIXTURES) -> list[IssGame]:
    """The records of *path* in which a game was declared."""
    return [g for _, g in iter_iss(path.read_text()) if isinstance(g, IssGame) and g.declaration is not None]


GAMES = played_games()
FULL = [g for g in GAMES if len(g.plays) == 30]


def late_position(game: IssGame) -> Position | None:
    """The first position with LATE_CARDS cards a hand (a trick's start), or None when the game ended before it."""
    pos = game.start_position()
    for _, card in game.plays:
        if pos.trick == [] and pos.cards_left <= 3 * LATE_CARDS:
            return pos
        pos.play(card)
    return None


#: The old world-by-world loop, B against the one engine call A.
world_by_world = card_results_each

WAYS = {"many": world_runner.card_results_many, "loop": world_by_world}


def use_way(way: str) -> None:
    """Make the world runner solve its chunks *way* (the workers fork from this process, so they follow)."""
    world_runner.card_results_many = WAYS[way]  # type: ignore[assignment]


Measured = tuple[float, float, int, list[object]]


def cpu_seconds() -> float:
    """CPU time of this process and of its ended children (a run's worker pool ends with the run)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def time_advise(game: IssGame, worlds: int, jobs: int, seed: int = 1, pos: Position | None = None) -> Measured:
    """``(wall s, CPU s of this process and its workers, nodes, the cards' numbers)`` of advise at *pos*.

    *pos* defaults to the first lead.
    """
    assert game.declaration is not None
    pos = game.start_position() if pos is None else pos
    wall, cpu = time.perf_counter(), cpu_seconds()
    advice = advise(pos, game.declaration, worlds=worlds, seed=seed, jobs=jobs, solver=Solver(tt_mb=TT_MB))
    return time.perf_counter() - wall, cpu_seconds() - cpu, advice.nodes, [c.to_json() for c in advice.cards]


def time_late(game: IssGame, jobs: int) -> Measured | None:
    """advise at the first decision with three cards a hand, over all its worlds (None when the game ends before)."""
    pos = late_position(game)
    return None if pos is None else time_advise(game, 10**6, jobs, pos=pos)


def time_analyse(game: IssGame, worlds: int, jobs: int, seed: int = 1) -> Measured:
    """``(wall s, CPU s of this process and its workers, single-dummy nodes, numbers)`` of ``analyse --worlds``."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    analysis = judge_analysis(analyse_iss(game, review=False, solver=Solver(tt_mb=TT_MB)), worlds=worlds, seed=seed,
                              jobs=jobs, solver=Solver(tt_mb=TT_MB))
    assert analysis.single_dummy is not None
    numbers: list[object] = [p.to_json() for p in analysis.single_dummy.plays]
    return time.perf_counter() - wall, cpu_seconds() - cpu, analysis.single_dummy.nodes, numbers


def _check(median: float, target: float, what: str) -> None:
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert median <= target, f"{what}: median {median:.3f} s is above the {target} s target"


MEASURES = {
    # name: (games, timer, target s), all with two workers
    "advise first trick, 200 worlds": (GAMES, lambda game: time_advise(game, 200, 2), ADVISE_TARGET["fixtures"]),
    "advise first trick, 200 worlds, held-out": (played_games(HELD_OUT), lambda game: time_advise(game, 200, 2),
                                                 ADVISE_TARGET["held-out"]),
    "analyse --worlds 100, full games": (FULL, lambda game: time_analyse(game, 100, 2), ANALYSE_TARGET),
}


@pytest.mark.parametrize("measure", list(MEASURES))
def test_median_over_fixtures(benchmark, measure: str) -> None:
    """The median wall time over the games of one of the measures."""
    games, timer, target = MEASURES[measure]
    wall = benchmark.pedantic(lambda: statistics.median(timer(game)[0] for game in games), rounds=1, iterations=1)
    benchmark.extra_info["median_wall_s"] = round(wall, 3)
    _check(wall, target, measure)


Timer = Callable[[IssGame], "Measured | None"]


def _report(title: str, games: list[IssGame], timer: Timer, ways: list[str], rounds: int) -> None:
    """Print *title*, then per game and way the median wall and CPU time of *rounds* runs and the nodes; then medians.

    The ways run interleaved (game by game, round by round) so that a change
    in the machine's load hits them alike; their numbers must agree.
    """
    print(title)
    print(f"  {'game':>8} {'contract':<24} " + " ".join(f"{w + ' wall':>12} {w + ' cpu':>10}" for w in ways)
          + f" {'nodes':>13}")
    medians: dict[str, list[float]] = {w: [] for w in ways}
    cpu_medians: dict[str, list[float]] = {w: [] for w in ways}
    for game in games:
        walls: dict[str, list[float]] = {w: [] for w in ways}
        cpus: dict[str, list[float]] = {w: [] for w in ways}
        nodes = 0
        reference: list[object] | None = None
        for _ in range(rounds):
            for way in ways:
                use_way(way)
                measured = timer(game)
                if measured is None:
                    break
                wall, cpu, nodes, numbers = measured
                walls[way].append(wall)
                cpus[way].append(cpu)
                reference = numbers if reference is None else reference
                assert numbers == reference, f"{game.id}: {way} gives other numbers"
        use_way("many")
        if not walls[ways[0]]:
            continue
        for way in ways:
            medians[way].append(statistics.median(walls[way]))
            cpu_medians[way].append(statistics.median(cpus[way]))
        print(f"  {game.id:>8} {game.declaration!s:<24} "
              + " ".join(f"{statistics.median(walls[w]) * 1000:>9.1f} ms {statistics.median(cpus[w]) * 1000:>7.1f} ms"
                         for w in ways) + f" {nodes:>13,}")
    print("  median " + "   ".join(f"{w} {statistics.median(medians[w]) * 1000:.1f} ms wall, "
                                   f"{statistics.median(cpu_medians[w]) * 1000:.1f} ms CPU" for w in ways)
          + f"   ({len(medians[ways[0]])} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", choices=tuple(SETS), default="fixtures", help="the games")
    parser.add_argument("--worlds", type=int, default=200, help="advise at the first lead: worlds")
    parser.add_argument("--game-worlds", type=int, default=100, help="analyse: worlds a card")
    parser.add_argument("--only", choices=("advise", "late", "analyse"))
    parser.add_argument("--ways", default="many", help="comma-separated: many (the runner), loop (world by world)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each way per game (the median is shown)")
    args = parser.parse_args()
    ways = args.ways.split(",")
    games = played_games(SETS[args.set])
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, jobs {args.jobs}, set {args.set}, "
          f"{args.rounds} round(s)")
    if args.only in (None, "advise"):
        _report(f"advise before the first card, {args.worlds} worlds (target: median <= "
                f"{ADVISE_TARGET[args.set] * 1000:.0f} ms)", games,
                lambda game: time_advise(game, args.worlds, args.jobs), ways, args.rounds)
    if args.only in (None, "late"):
        _report(f"advise with {LATE_CARDS} cards a hand, every world (target: median <= {LATE_TARGET * 1000:.0f} ms)",
                games, lambda game: time_late(game, args.jobs), ways, args.rounds)
    if args.only in (None, "analyse"):
        full = [g for g in games if len(g.plays) == 30]
        _report(f"analyse --worlds {args.game_worlds} --no-review of full games (target: median <= {ANALYSE_TARGET} s)",
                full, lambda game: time_analyse(game, args.game_worlds, args.jobs), ways, args.rounds)


if __name__ == "__main__":
    main()
