"""Benchmarks of single-dummy advice (``skatdd advise``, ``skatdd analyse --worlds``) over the fixture records.

Targets: ``advise`` on the first-trick position (before the first card) of
each played fixture game with 200 worlds in a median <= 2 s, and
``analyse --worlds 100`` of a full 30-card game in a median <= 30 s with two
worker processes.  Both are wall-clock times of what the command does: the
worlds drawn in the parent, solved on ``--jobs`` workers (a fresh pool and a
fresh 128 MiB solver per worker each run).

Not part of the normal test run.  Run as a script, which prints the time of
every record and the medians::

    python benchmarks/bench_advise.py [--jobs 2] [--worlds 200] [--game-worlds 100] [--only advise|analyse]

or with pytest-benchmark::

    python -m pytest benchmarks/bench_advise.py -o python_files='bench_*.py' --benchmark-only

Set ``SKATDD_BENCH_ASSERT=1`` to make the pytest benchmarks fail when a median
misses its target (off by default: a shared, loaded machine measures the load).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from skatdd.analysis.advise import WorldRunner, advise, judge_analysis
from skatdd.analysis.analyse import analyse_iss
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame, iter_iss

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "data" / "iss-games.txt"
ADVISE_TARGET = 2.0     # seconds, median advise on a first-trick position, 200 worlds
ANALYSE_TARGET = 30.0   # seconds, median analyse --worlds 100 of a full game, two workers
TT_MB = 128


def played_games() -> list[IssGame]:
    """The fixture records in which a game was declared."""
    return [g for _, g in iter_iss(FIXTURES.read_text()) if isinstance(g, IssGame) and g.declaration is not None]


GAMES = played_games()
FULL = [g for g in GAMES if len(g.plays) == 30]


def time_advise(game: IssGame, worlds: int, jobs: int, seed: int = 1) -> tuple[float, float, int]:
    """``(wall s, CPU s of this process, nodes)`` of advise before the first card."""
    assert game.declaration is not None
    pos = game.start_position()
    wall, cpu = time.perf_counter(), time.process_time()
    advice = advise(pos, game.declaration, worlds=worlds, seed=seed, runner=WorldRunner(jobs=jobs, tt_mb=TT_MB))
    return time.perf_counter() - wall, time.process_time() - cpu, advice.nodes


def time_analyse(game: IssGame, worlds: int, jobs: int, seed: int = 1) -> tuple[float, float, int]:
    """``(wall s, CPU s of this process, single-dummy nodes)`` of ``analyse --worlds --no-review``."""
    wall, cpu = time.perf_counter(), time.process_time()
    runner = WorldRunner(jobs=jobs, tt_mb=TT_MB)
    analysis = judge_analysis(analyse_iss(game, review=False, solver=Solver(tt_mb=TT_MB)), worlds=worlds, seed=seed,
                              runner=runner)
    assert analysis.single_dummy is not None
    return time.perf_counter() - wall, time.process_time() - cpu, analysis.single_dummy.nodes


def _check(median: float, target: float, what: str) -> None:
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert median <= target, f"{what}: median {median:.3f} s is above the {target} s target"


MEASURES = {
    # name: (games, timer, target s): the two measures, both with two workers
    "advise first trick, 200 worlds": (GAMES, lambda game: time_advise(game, 200, 2), ADVISE_TARGET),
    "analyse --worlds 100, full games": (FULL, lambda game: time_analyse(game, 100, 2), ANALYSE_TARGET),
}


@pytest.mark.parametrize("measure", list(MEASURES))
def test_median_over_fixtures(benchmark, measure: str) -> None:
    """The median wall time over the fixture games of one of the issue's measures."""
    games, timer, target = MEASURES[measure]
    wall = benchmark.pedantic(lambda: statistics.median(timer(game)[0] for game in games), rounds=1, iterations=1)
    benchmark.extra_info["median_wall_s"] = round(wall, 3)
    _check(wall, target, measure)


def _report(title: str, games: list[IssGame], timer: Callable[[IssGame], tuple[float, float, int]]) -> None:
    """Print *title*, then each game's wall time, CPU time of this process and nodes, then the median wall time."""
    print(title)
    walls = []
    for game in games:
        wall, cpu, nodes = timer(game)
        walls.append(wall)
        print(f"  {game.id:>8} {game.declaration!s:<32} {wall:>7.2f} s wall {cpu:>7.2f} s cpu (parent) {nodes:>13,} nodes")
    print(f"  median {statistics.median(walls):.2f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=200, help="advise: worlds")
    parser.add_argument("--game-worlds", type=int, default=100, help="analyse: worlds a card")
    parser.add_argument("--only", choices=("advise", "analyse"))
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, jobs {args.jobs}")
    if args.only != "analyse":
        _report(f"advise before the first card, {args.worlds} worlds (target: median <= {ADVISE_TARGET} s)",
                GAMES, lambda game: time_advise(game, args.worlds, args.jobs))
    if args.only != "advise":
        _report(f"analyse --worlds {args.game_worlds} --no-review of full games "
                f"(target: median <= {ANALYSE_TARGET} s)", FULL, lambda game: time_analyse(game, args.game_worlds, args.jobs))


if __name__ == "__main__":
    main()
