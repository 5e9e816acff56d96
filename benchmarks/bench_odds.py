"""Benchmarks of ``skatdd odds`` (wall-clock, the workers in parallel).

Targets (issue #24), with ``--jobs 2`` on two cores, medians over the hands:

* a ten-card hand, 400 worlds, the seven hand-game options: <= 3 s;
* the same, all fourteen options (hand and picked up): <= 10 s;
* with the skat known (twelve cards), all seven game types x 66 discards
  over 200 worlds: <= 5 s.

The machine is shared and noisy: the node counts (deterministic: the same
for any number of workers) are the figures to compare between versions.
The runs ask what ``skatdd odds`` asks by default, the bands by threshold
questions; ``--points`` adds the mean card points (``odds --points``).

The hands are the declarers' of :func:`skatdd.tools.generate.realistic_deals`
(seed 1): their ten cards after the generator's discard, and that discard
as the known skat -- hands a player would think of declaring.  Each run
starts fresh worker processes (one :class:`~skatdd.engine.solve.Solver` of 128
MiB each, the command's default), as one ``skatdd odds`` run does.

Not part of the normal test run (``testpaths`` is ``tests``).  Run with
pytest-benchmark::

    python -m pytest benchmarks/bench_odds.py -o python_files='bench_*.py' --benchmark-only

or as a script, which prints the wall-clock time, the CPU time of all
processes (workers included: on a loaded machine CPU / jobs is what an idle
one would take) and the nodes of every run, and the medians of each case
(``--hands N``, ``--jobs N``, ``--case``)::

    python benchmarks/bench_odds.py --hands 3 --jobs 2
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Iterable

import pytest

from skatdd.analysis.odds.api import OddsReport, odds
from skatdd.core.cards import Mask, format_mask
from skatdd.tools.generate import realistic_deals

SEED = 1
HANDS = 3
JOBS = 2
#: case name -> (worlds, known skat, hand games, picked up, target seconds)
CASES: dict[str, tuple[int, bool, bool, bool, float]] = {
    "hand": (400, False, True, False, 3.0),
    "all": (400, False, True, True, 10.0),
    "skat": (200, True, False, True, 5.0),
}

Hand = tuple[int, Mask, Mask]   # seat, ten cards, the skat (its discard)


def bench_hands(seed: int = SEED, n: int = HANDS) -> list[Hand]:
    """The declarers' hands of the first *n* realistic deals of *seed*."""
    return [(p.declarer, p.hands[p.declarer], p.skat) for p in realistic_deals(seed, n)]


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_case(case: str, hand: Hand, jobs: int = JOBS, points: bool = False) -> tuple[float, float, OddsReport]:
    """``(wall seconds, CPU seconds of all processes, report)`` of one ``odds`` run of *case* on *hand*."""
    worlds, known, hand_games, picked_up, _ = CASES[case]
    seat, cards, skat = hand
    start, cpu = time.perf_counter(), _cpu()
    report = odds(cards, seat=seat, skat=skat if known else None, hand_games=hand_games, picked_up=picked_up,
                  worlds=worlds, jobs=jobs, points=points)
    return time.perf_counter() - start, _cpu() - cpu, report


HAND_SET = bench_hands()


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("index", range(len(HAND_SET)))
def test_odds(benchmark, case: str, index: int) -> None:  # type: ignore[no-untyped-def]
    """One ``odds`` run of *case* on one hand."""
    report = benchmark.pedantic(lambda: run_case(case, HAND_SET[index])[2], rounds=1, iterations=1)
    assert len(report.options) == (7 if case != "all" else 14)


def bench_parser(doc: str | None, cases: Iterable[str]) -> argparse.ArgumentParser:
    """The options every hand benchmark takes: ``--hands``, ``--seed``, ``--jobs`` and ``--case`` (repeatable)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=HANDS, help="Hands to run (the first N of the seed).")
    parser.add_argument("--seed", type=int, default=SEED, help="Seed of the realistic deals.")
    parser.add_argument("--jobs", type=int, default=JOBS, help="Worker processes.")
    parser.add_argument("--case", choices=sorted(cases), action="append", help="Only this case (repeatable).")
    return parser


def print_medians(case: str, walls: list[float], cpus: list[float], target: float, detail: str) -> None:
    """One case's medians over the hands against its *target* seconds (*detail*: the run's settings)."""
    median = statistics.median(walls)
    print(f"{case}: median wall {median:.2f} s, CPU {statistics.median(cpus):.2f} s over {len(walls)} hands "
          f"({detail}); target {target:.0f} s: {'met' if median <= target else 'missed'}", flush=True)


def main() -> None:
    parser = bench_parser(__doc__, CASES)
    parser.add_argument("--points", action="store_true", help="Also the mean card points (odds --points).")
    args = parser.parse_args()
    hands = bench_hands(args.seed, args.hands)
    for case in args.case or list(CASES):
        walls, cpus = [], []
        for seat, cards, skat in hands:
            wall, cpu, report = run_case(case, (seat, cards, skat), args.jobs, args.points)
            walls.append(wall)
            cpus.append(cpu)
            rec = report.recommendation
            print(f"{case:5s} seat {seat} {format_mask(cards)} | {format_mask(skat)}: wall {wall:7.2f} s, "
                  f"CPU {cpu:7.2f} s, {report.nodes:,} nodes, recommends {rec.label if rec else 'pass'}", flush=True)
        print_medians(case, walls, cpus, CASES[case][4], f"jobs {args.jobs}{', points' if args.points else ''}")


if __name__ == "__main__":
    main()
