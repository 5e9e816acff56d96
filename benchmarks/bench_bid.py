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
"""
from __future__ import annotations

import time

import pytest

from bench_odds import HAND_SET, Hand, _cpu, bench_hands, bench_parser, print_medians
from skatdd.analysis.bid.api import DEFAULT_SKATS, DEFAULT_WORLDS, BidReport, bid
from skatdd.core.cards import format_mask

JOBS = 2
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


def main() -> None:
    parser = bench_parser(__doc__, CASES)
    parser.add_argument("--skats", type=int, default=DEFAULT_SKATS, help="Skats drawn per hand.")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="Worlds drawn per skat.")
    args = parser.parse_args()
    hands = bench_hands(args.seed, args.hands)
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
