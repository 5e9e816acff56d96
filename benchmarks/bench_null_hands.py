"""``skatdd null-ouvert`` hand games (skat unknown) on random null-shaped hands: the distribution and the worst.

Target (issue 24): no hand game over 5 s of CPU among 1,000 such hands.

*Null-shaped* (:func:`null_shaped_hands`): ten cards dealt uniformly from
the 32 by a seeded generator, kept when their null danger is at most
``--max-danger`` (default 4), each with a seat drawn from the same
generator.  The danger of a suit is how far the declarer's cards sit above
the safe ladder 7, 9, J, K: with his cards sorted low to high (null order
7 8 9 10 J Q K A), the i-th (from 0) is covered when at most 2i ranks of
the suit lie below it, and every rank above that is one unit, doubled for
his lowest card (without the 7 a single low lead catches the suit): the
measure ``skatdd.tools.generate`` uses to decide who declares a null.  A
hand of danger 0 is safe against every lead; players consider null on
danger 1-2; 4 admits the hardest hand game known,
``C7 C8 CK S7 S9 H7 H8 HT D7 DJ`` (clubs 2, diamonds 2), so the set holds
every kind of hand a player would consider for null and riskier ones.

Each hand is analysed from scratch as ``skatdd null-ouvert HAND --seat S
--jobs T`` does (a fresh 128 MiB table a thread); the time is the CPU time
of that analysis in its process (every thread's), and its wall time.
``--jobs`` is how many hands run at once (worker processes), ``--threads``
the threads of one hand's count (``skatdd null-ouvert --jobs``; default 1,
so that the CPU times compare with earlier runs).  Run::

    python benchmarks/bench_null_hands.py --hands 1000 --jobs 2 --log runs.jsonl
    python benchmarks/bench_null_hands.py --hands 40 --threads 2
    python benchmarks/bench_null_hands.py --hands 50 --seed 3 --max-danger 2

It prints the distribution (median, p90, p99, max), how many hands took
over 5 s, and the ten slowest hands with their answers, nodes and classes.
Under pytest (``python -m pytest benchmarks/bench_null_hands.py``) the
first ten hands of seed 1 run once each.
"""
from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import TextIO

import pytest

from skatdd.core.cards import Mask, format_mask
from skatdd.engine.nullouvert import analyse

#: Target: CPU seconds of the slowest hand game.
TARGET_SECONDS = 5.0


def null_danger(hand: Mask) -> int:
    """The null danger of a hand: the sum over its suits (see the module's docstring)."""
    total = 0
    for suit in range(4):
        ranks = [r for r in range(8) if hand >> (8 * suit + r) & 1]
        total += sum(max(0, r - 2 * i) * (2 if i == 0 else 1) for i, r in enumerate(ranks))
    return total


def null_shaped_hands(seed: int, count: int, max_danger: int = 4) -> list[tuple[Mask, int]]:
    """*count* null-shaped hands ``(ten-card mask, seat)``, from one generator seeded with *seed*.

    Ten cards are dealt uniformly from the 32 until their :func:`null_danger`
    is at most *max_danger*; the seat (0 = forehand) is drawn next.  The same
    seed gives the same hands, and a longer list starts with the shorter one.
    """
    rng = random.Random(seed)
    out: list[tuple[Mask, int]] = []
    while len(out) < count:
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        if null_danger(hand) <= max_danger:
            out.append((hand, rng.randrange(3)))
    return out


@dataclass(frozen=True)
class HandRun:
    """One hand game's analysis: the hand, the seat, the CPU seconds, and what it found."""

    hand: Mask
    seat: int
    seconds: float
    wall: float
    nodes: int
    classes: int
    worlds_lost: int
    unbeatable: bool


def run_hand(job: tuple[Mask, int], threads: int = 1) -> HandRun:
    """Analyse one hand game from scratch on *threads* threads, timed by the CPU time of this process and the wall."""
    hand, seat = job
    start, wall = time.process_time(), time.perf_counter()
    result = analyse(hand, declarer=seat, jobs=threads)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    return HandRun(hand, seat, seconds, wall, result.nodes, result.classes, result.worlds_lost, result.unbeatable)


def run_all(hands: list[tuple[Mask, int]], jobs: int, threads: int = 1, log: TextIO | None = None) -> list[HandRun]:
    """Every hand, in *jobs* worker processes (one hand a task) of *threads* threads each, a progress line on stderr each.

    With *log*, each hand's run is also written there as one JSON line as it
    ends (in the hands' order), so an interrupted long run keeps what it
    measured.  Ctrl-C stops them all.
    """
    runs: list[HandRun] = []

    def progress(run: HandRun) -> None:
        runs.append(run)
        if log is not None:
            log.write(json.dumps({"index": len(runs) - 1, "hand": format_mask(run.hand), "seat": run.seat,
                                  "cpu": round(run.seconds, 4), "wall": round(run.wall, 4), "nodes": run.nodes,
                                  "classes": run.classes, "worlds_lost": run.worlds_lost,
                                  "unbeatable": run.unbeatable}) + "\n")
            log.flush()
        print(f"\r{len(runs)}/{len(hands)} hands, slowest {max(r.seconds for r in runs):.2f} s", end="",
              file=sys.stderr, flush=True)

    if jobs <= 1:
        for job in hands:
            progress(run_hand(job, threads))
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            try:
                for run in pool.imap(functools.partial(run_hand, threads=threads), hands, chunksize=1):
                    progress(run)
            except KeyboardInterrupt:
                pool.terminate()
                raise
    print(file=sys.stderr)
    return runs


def percentile(values: list[float], q: float) -> float:
    """The *q*-quantile (0..1) of *values* by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def report(runs: list[HandRun]) -> str:
    """The distribution, the count over the target and the ten slowest hands, as text."""
    times = [r.seconds for r in runs]
    walls = [r.wall for r in runs]
    lines = [
        f"{len(runs)} hand games: CPU median {statistics.median(times):.3f} s, p90 {percentile(times, 0.9):.3f} s, "
        f"p99 {percentile(times, 0.99):.3f} s, max {max(times):.3f} s, total {sum(times):.1f} s; "
        f"over {TARGET_SECONDS:g} s: {sum(t > TARGET_SECONDS for t in times)}",
        f"wall median {statistics.median(walls):.3f} s, p90 {percentile(walls, 0.9):.3f} s, max {max(walls):.3f} s; "
        f"over {TARGET_SECONDS:g} s: {sum(t > TARGET_SECONDS for t in walls)}",
        "slowest (CPU):",
    ]
    for r in sorted(runs, key=lambda r: -r.seconds)[:10]:
        lines.append(f"  {r.seconds:7.3f} s  wall {r.wall:7.3f} s  seat {r.seat}  {format_mask(r.hand)}  "
                     f"danger {null_danger(r.hand)}  "
                     f"lost {r.worlds_lost:,}  {'unbeatable' if r.unbeatable else 'beatable'}  "
                     f"{r.classes:,} classes  {r.nodes:,} nodes")
    return "\n".join(lines)


@pytest.mark.parametrize("index", range(10))
def test_null_hand(benchmark, index: int) -> None:  # type: ignore[no-untyped-def]
    """One hand game of the first ten null-shaped hands of seed 1."""
    hand, seat = null_shaped_hands(1, 10)[index]
    run = benchmark.pedantic(run_hand, args=((hand, seat),), rounds=1, iterations=1)
    assert run.nodes >= 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100, help="how many hands (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed (default 1)")
    parser.add_argument("--max-danger", type=int, default=4, help="the largest null danger admitted (default 4)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes, hands at once (default 1)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of one hand's count, skatdd null-ouvert --jobs (default 1)")
    parser.add_argument("--log", type=argparse.FileType("x"), default=None,
                        help="also write each hand's run to this new file as a JSON line as it ends")
    args = parser.parse_args()
    if args.hands < 1 or args.jobs < 1 or args.threads < 1 or args.max_danger < 0:
        parser.error("--hands, --jobs and --threads must be at least 1, --max-danger at least 0")
    start = time.perf_counter()
    runs = run_all(null_shaped_hands(args.seed, args.hands, args.max_danger), args.jobs, args.threads, args.log)
    print(report(runs))
    print(f"wall {time.perf_counter() - start:.1f} s with --jobs {args.jobs} --threads {args.threads}")


if __name__ == "__main__":
    main()
