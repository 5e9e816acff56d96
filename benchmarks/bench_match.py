"""Benchmarks of ``skatdd match``: the whole command, on realistic generated deals, with two worker processes.

Targets (wall clock of the command, start-up included, ``--jobs 2``):

* ``pimc:50`` against ``heuristic`` on 100 deals (200 games): at most 10 minutes;
* ``heuristic`` against ``random`` on 1,000 deals: at most 30 s.

Each run writes its deal lines to a temporary file (``-o``) and the summary
JSON to stdout; the script prints the wall time, the CPU time of the
command and its workers, and the edge.  Not part of the normal test run::

    python benchmarks/bench_match.py [--case pimc|heuristic] [--jobs 2] [--seed 1] [--deals N] [--keep FILE]

or with pytest-benchmark::

    python -m pytest benchmarks/bench_match.py -o python_files='bench_*.py' --benchmark-only

Set ``SKATDD_BENCH_ASSERT=1`` to make the pytest benchmarks fail when a run
misses its target (off by default: a shared, loaded machine measures the load).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from command_timing import timed_command  # beside this script

ROOT = Path(__file__).resolve().parent.parent


class Case(NamedTuple):
    """One of the issue's measures: the two players, the number of deals and the target in seconds."""

    a: str
    b: str
    deals: int
    target: float


CASES = {
    "pimc": Case("pimc:50", "heuristic", 100, 600.0),
    "heuristic": Case("heuristic", "random", 1000, 30.0),
}


def run_match(case: Case, *, jobs: int, seed: int, deals: int | None = None, keep: str | None = None,
              ) -> tuple[float, float, dict[str, Any]]:
    """``(wall s, CPU s of the command and its workers, summary)`` of one ``skatdd match`` run."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "match.jsonl"
        cpu, wall, text = timed_command(["match", case.a, case.b, "--deals", str(deals or case.deals), "--seed",
                                         str(seed), "--jobs", str(jobs), "-o", str(out), "--json"], cwd=ROOT)
        if keep:
            shutil.copyfile(out, keep)
    return wall, cpu, json.loads(text)


def _check(wall: float, target: float, what: str) -> None:
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert wall <= target, f"{what}: {wall:.1f} s is above the {target} s target"


@pytest.mark.parametrize("name", list(CASES))
def test_match_speed(benchmark: Any, name: str) -> None:
    """One run of the measure *name* with two workers."""
    case = CASES[name]
    wall, cpu, summary = benchmark.pedantic(lambda: run_match(case, jobs=2, seed=1), rounds=1, iterations=1)
    benchmark.extra_info.update(wall_s=round(wall, 2), cpu_s=round(cpu, 2), deals=summary["deals"])
    _check(wall, case.target, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=list(CASES), action="append")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, help="instead of the case's number of deals")
    parser.add_argument("--keep", help="copy the deal lines to this file (one case only)")
    args = parser.parse_args()
    for name in args.case or list(CASES):
        case = CASES[name]
        print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: skatdd match {case.a} {case.b} "
              f"--deals {args.deals or case.deals} --seed {args.seed} --jobs {args.jobs}", flush=True)
        wall, cpu, summary = run_match(case, jobs=args.jobs, seed=args.seed, deals=args.deals, keep=args.keep)
        edge = summary["edge"]["score"]
        print(f"  {wall:.1f} s wall (target {case.target:g} s), {cpu:.1f} s CPU with the workers, "
              f"{summary['deals']} deals, edge {edge['mean']:+.1f} {edge['ci']}, load after "
              f"{os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
