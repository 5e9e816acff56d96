"""Benchmark of ``skatdd analyse RECORD --jobs 2`` with the decisions review, over the fixture records.

Target (issue #35): the whole analysis of a 30-card record with its auction -- the card-by-card
analysis, the contract review and the decisions review, the bidding tables of all three seats included --
in at most 15 s wall at the median of the fixture records, with ``--jobs 2`` at the review's default
budget (``--bid-skats 8 --bid-worlds 10``).

Each record runs as the command does, in a fresh process (``python -m skatdd analyse RECORD --jobs 2
--json``): the wall time and the CPU time of the process and its workers (``RUSAGE_CHILDREN``) are
printed per record, with the medians and the decisions review's own seconds.  Not part of the normal
test run.  As a script::

    python benchmarks/bench_review.py [--rounds N] [--jobs 2] [--bid-skats S --bid-worlds W]

or with pytest-benchmark (``-o python_files='bench_*.py' --benchmark-only``).  Set
``SKATDD_BENCH_ASSERT=1`` to fail when the median misses the target (off by default: a shared, loaded
machine measures the load, not the code).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

from command_timing import timed_command  # beside this script
from skatdd.analysis.review.api import REVIEW_SKATS, REVIEW_WORLDS
from skatdd.formats.iss import IssGame, iter_iss

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "iss-games.txt"
TARGET = 15.0   # seconds wall, median over the fixture records, --jobs 2


def records() -> list[tuple[str, str]]:
    """``(id, record text)`` of the fixture records played to their thirtieth card, with their auction."""
    out = []
    for line in FIXTURES.read_text().splitlines():
        for _, game in iter_iss(line):
            if isinstance(game, IssGame) and game.declaration is not None and len(game.plays) == 30 and game.bids:
                out.append((str(game.id or "?"), line))
    return out


def time_record(text: str, jobs: int, skats: int, worlds: int) -> tuple[float, float, float]:
    """``(wall s, CPU s, decisions s)`` of one ``skatdd analyse`` run on *text*."""
    cpu, wall, out = timed_command(["analyse", text, "--jobs", str(jobs), "--json", "--bid-skats", str(skats),
                                    "--bid-worlds", str(worlds)], cwd=ROOT)
    return wall, cpu, json.loads(out)["decisions"]["seconds"]


def test_median_over_fixtures(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The headline figure: the median wall time over the fixture records."""
    def median() -> float:
        return statistics.median(time_record(text, 2, REVIEW_SKATS, REVIEW_WORLDS)[0] for _, text in records())

    wall = benchmark.pedantic(median, rounds=1, iterations=1)
    benchmark.extra_info["median_wall_s"] = round(wall, 3)
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert wall <= TARGET, f"median {wall:.2f} s is above the {TARGET} s target"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="rounds per record (the median is kept)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bid-skats", type=int, default=REVIEW_SKATS)
    parser.add_argument("--bid-worlds", type=int, default=REVIEW_WORLDS)
    args = parser.parse_args()
    games = records()
    print(f"{len(games)} fixture records of 30 cards with an auction, --jobs {args.jobs}, "
          f"--bid-skats {args.bid_skats} --bid-worlds {args.bid_worlds}, {args.rounds} round(s), "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'record':>10} {'wall':>8} {'cpu':>8} {'decisions':>10}")
    walls, cpus = [], []
    for ident, text in games:
        runs = [time_record(text, args.jobs, args.bid_skats, args.bid_worlds) for _ in range(args.rounds)]
        w, c, d = (statistics.median(r[i] for r in runs) for i in range(3))
        walls.append(w)
        cpus.append(c)
        print(f"{ident:>10} {w:>7.2f}s {c:>7.2f}s {d:>9.2f}s")
    print(f"{'median':>10} {statistics.median(walls):>7.2f}s {statistics.median(cpus):>7.2f}s")
    print(f"target: median wall <= {TARGET} s; load now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
