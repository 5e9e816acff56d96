"""Benchmarks of ``skatdd bid`` (wall-clock, the workers in parallel).

Targets, with ``--jobs 2`` on two cores, medians over the hands, at the
command's defaults (20 skats x 20 worlds):

* the full bidding table (hand games and the honest pick-up, both scorings): <= 30 s;
* hand games alone (``--hand``): <= 5 s.

The hands are those of ``benchmarks/bench_odds.py``: the declarers' ten
cards of :func:`skatdd.tools.generate.realistic_deals` (seed 1).  Each run starts
fresh worker processes (one :class:`~skatdd.engine.solve.Solver` of 128 MiB each,
the command's default), as one ``skatdd bid`` run does.

Run like ``benchmarks/bench_odds.py`` (pytest-benchmark, or as a script
printing wall-clock and CPU time of all processes and the nodes of every
run, then each case's medians; ``--skats S`` and ``--worlds W`` change the
draw)::

    python benchmarks/bench_bid.py --hands 3 --jobs 2

A/B against the code before (issue 33's target: the whole table at most
0.25x the CPU): ``--before SRC`` runs ``skatdd bid`` as a command on every
hand, once with ``PYTHONPATH=SRC`` (another tree's ``src``, e.g. ``git
worktree add --detach /tmp/before main`` with this tree's compiled
``src/skatdd/engine/*.so`` copied in when solver/ did not change) and once
with this tree's, interleaved before/after ``--reps`` times; each run prints
the CPU time (user + sys) of the command and its workers, and the per-case
medians and their ratio come last, with the load average.  ``--after SRC``
takes the after runs from another tree too; ``--after-args`` adds options
to the after runs only (an option the code before lacks)::

    python benchmarks/bench_bid.py --before /tmp/before/src --hands 3 --jobs 2 --reps 3
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import time
from pathlib import Path

import pytest

from bench_odds import HAND_SET, Hand, _cpu, bench_hands, bench_parser, print_medians
from command_timing import timed_command  # beside this script
from skatdd.analysis.bid.api import DEFAULT_SKATS, DEFAULT_WORLDS, BidReport, bid
from skatdd.core.cards import format_mask

JOBS = 2
SRC = Path(__file__).resolve().parent.parent / "src"
#: case name -> (hand games only, target seconds)
CASES: dict[str, tuple[bool, float]] = {
    "full": (False, 30.0),
    "hand": (True, 5.0),
}


def run_case(case: str, hand: Hand, jobs: int = JOBS, skats: int = DEFAULT_SKATS,
             worlds: int = DEFAULT_WORLDS) -> tuple[float, float, BidReport]:
    """``(wall seconds, CPU seconds of all processes, report)`` of one ``bid`` run of *case* on *hand*."""
    hand_only, _ = CASES[case]
    seat, cards, _skat = hand
    start, cpu = time.perf_counter(), _cpu()
    report = bid(cards, seat=seat, skats=skats, worlds=worlds, hand_only=hand_only, jobs=jobs)
    return time.perf_counter() - start, _cpu() - cpu, report


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("index", range(len(HAND_SET)))
def test_bid(benchmark, case: str, index: int) -> None:  # type: ignore[no-untyped-def]
    """One ``bid`` run of *case* on one hand."""
    report = benchmark.pedantic(lambda: run_case(case, HAND_SET[index])[2], rounds=1, iterations=1)
    assert report.levels and report.levels[0].bid == 18


def command_cpu(case: str, hand: Hand, src: Path | str, *, jobs: int, skats: int, worlds: int,
                extra: list[str]) -> tuple[float, float, dict[str, object]]:
    """``(CPU s, wall s, max bids)`` of one ``skatdd bid`` command run with ``PYTHONPATH=src`` (workers included)."""
    import json

    seat, cards, _skat = hand
    args = ["bid", format_mask(cards), "--seat", str(seat), "--skats", str(skats), "--worlds", str(worlds),
            "--jobs", str(jobs), "--json", *(["--hand"] if CASES[case][0] else []), *extra]
    cpu, wall, out = timed_command(args, env={**os.environ, "PYTHONPATH": str(src)})
    return cpu, wall, json.loads(out)["max_bid"]


def run_ab(args: argparse.Namespace, hands: list[Hand]) -> None:
    """Interleaved before/after command runs, CPU medians and their ratio (module docstring)."""
    extra = shlex.split(args.after_args)
    after = args.after or SRC
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: skatdd bid --skats {args.skats} --worlds "
          f"{args.worlds} --jobs {args.jobs}; before {args.before}, after {after} {' '.join(extra)}", flush=True)
    for case in args.case or list(CASES):
        cpu: dict[str, list[float]] = {"before": [], "after": []}
        for rep in range(args.reps):
            for i, hand in enumerate(hands):
                for label, src, more in (("before", args.before, []), ("after", after, extra)):
                    seconds, wall, top = command_cpu(case, hand, src, jobs=args.jobs, skats=args.skats,
                                                     worlds=args.worlds, extra=more)
                    cpu[label].append(seconds)
                    print(f"  {case} rep {rep + 1} hand {i + 1} {label:6} {seconds:7.2f} s CPU {wall:7.2f} s wall, "
                          f"max bid {top}, load {os.getloadavg()[0]:.2f}", flush=True)
        base, new = statistics.median(cpu["before"]), statistics.median(cpu["after"])
        print(f"{case}: median CPU before {base:.2f} s, after {new:.2f} s: {new / base:.2f}x "
              f"({len(cpu['after'])} runs each, load {os.getloadavg()[0]:.2f})", flush=True)


def main() -> None:
    parser = bench_parser(__doc__, CASES)
    parser.add_argument("--skats", type=int, default=DEFAULT_SKATS, help="Skats drawn per hand.")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="Worlds drawn per skat.")
    parser.add_argument("--before", metavar="SRC", help="A/B: the code before's src directory (module docstring).")
    parser.add_argument("--after", metavar="SRC", help="A/B: the after runs' src directory (default: this tree's).")
    parser.add_argument("--reps", type=int, default=3, help="A/B: rounds over the hands.")
    parser.add_argument("--after-args", default="", help="A/B: options added to the after runs only.")
    args = parser.parse_args()
    hands = bench_hands(args.seed, args.hands)
    if args.before:
        run_ab(args, hands)
        return
    for case in args.case or list(CASES):
        walls, cpus = [], []
        for hand in hands:
            wall, cpu, report = run_case(case, hand, args.jobs, args.skats, args.worlds)
            walls.append(wall)
            cpus.append(cpu)
            print(f"{case:4s} seat {hand[0]} {format_mask(hand[1])}: wall {wall:7.2f} s, CPU {cpu:7.2f} s, "
                  f"{report.nodes:,} nodes, max bid {report.max_bid(False)} / {report.max_bid(True)}", flush=True)
        print_medians(case, walls, cpus, CASES[case][1], f"{args.skats} skats x {args.worlds} worlds, jobs {args.jobs}")


if __name__ == "__main__":
    main()
