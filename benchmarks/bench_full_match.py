"""Benchmark of ``skatdd match --full``: whole games, six seatings a deal, with two worker processes.

Target (issue 34 item 6): ``pimc`` against ``heuristic``, 100 deals x 6 seatings with ``--jobs 2``,
in at most 30 minutes on the 2-core machine.  The script prints the wall time, the CPU time of the
command and its workers, the CPU per deal and the edge.  Not part of the normal test run::

    python benchmarks/bench_full_match.py [--players pimc:10 heuristic] [--deals 100] [--jobs 2] [--seed 1]

or with pytest-benchmark::

    python -m pytest benchmarks/bench_full_match.py -o python_files='bench_*.py' --benchmark-only

Set ``SKATDD_BENCH_ASSERT=1`` to make the pytest benchmark fail when it misses the target.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from command_timing import timed_command  # beside this script

ROOT = Path(__file__).resolve().parent.parent
#: The measured case: the players, the deals and the target (seconds of wall time).
PLAYERS = ("pimc:10", "heuristic")
DEALS = 100
TARGET = 1800.0


def run_full(a: str, b: str, deals: int, *, jobs: int, seed: int) -> tuple[float, float, dict[str, Any]]:
    """``(wall s, CPU s of the command and its workers, summary)`` of one ``skatdd match --full`` run."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "full.jsonl"
        cpu, wall, text = timed_command(["match", a, b, "--full", "--deals", str(deals), "--seed", str(seed),
                                         "--jobs", str(jobs), "-o", str(out), "--json"], cwd=ROOT)
    return wall, cpu, json.loads(text)


def test_full_match_speed(benchmark: Any) -> None:
    """One run of the measure with two workers."""
    wall, cpu, _ = benchmark.pedantic(lambda: run_full(*PLAYERS, DEALS, jobs=2, seed=1), rounds=1, iterations=1)
    benchmark.extra_info.update(wall_s=round(wall, 2), cpu_s=round(cpu, 2), cpu_per_deal=round(cpu / DEALS, 2))
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert wall <= TARGET, f"{wall:.1f} s is above the {TARGET:g} s target"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", nargs=2, default=list(PLAYERS))
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    a, b = args.players
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: skatdd match {a} {b} --full --deals {args.deals} "
          f"--seed {args.seed} --jobs {args.jobs}", flush=True)
    wall, cpu, summary = run_full(a, b, args.deals, jobs=args.jobs, seed=args.seed)
    edge = summary["edge"]["tournament"]
    print(f"  {wall:.1f} s wall (target {TARGET:g} s), {cpu:.1f} s CPU with the workers, "
          f"{cpu / max(1, summary['deals']):.1f} s CPU per deal, {summary['deals']} deals, "
          f"edge {edge['mean']:+.1f} {edge['ci']}, load after {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
