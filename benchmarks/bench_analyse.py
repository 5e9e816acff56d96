"""Benchmarks of ``skatdd analyse`` over the fixture records.

Targets: the card-by-card analysis of a full ten-trick game (30 positions,
one solver whose transposition table carries from position to position) in
a median <= 1 s single-threaded over the fixtures, and the whole analysis
with its contract review in <= 2 s.

Not part of the normal test run (``testpaths`` is ``tests``).  Run with
pytest-benchmark::

    python -m pytest benchmarks/bench_analyse.py -o python_files='bench_*.py' --benchmark-only

or as a script, which prints wall-clock and CPU time per record and the
medians (``--rounds N``, ``--tt-mb N``, ``--no-review``)::

    python benchmarks/bench_analyse.py

Every round builds a fresh :class:`~skatdd.engine.solve.Solver` (128 MiB table, the
command's default), as one ``skatdd analyse`` run does, so the time includes
filling a cold table.  Set ``SKATDD_BENCH_ASSERT=1`` to make the pytest
benchmarks fail when a median misses its target (off by default: a shared,
loaded machine measures the load, not the code).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import pytest

from skatdd.analysis.analyse.api import analyse_cards, analyse_iss
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame, iter_iss

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "data" / "iss-games.txt"
CARD_TARGET = 1.0     # seconds, median card-by-card analysis of a full game
WHOLE_TARGET = 2.0    # seconds, the whole analysis with the contract review
TT_MB = 128


def full_games() -> list[IssGame]:
    """The fixture records played to the last of their thirty cards."""
    games = []
    for _, game in iter_iss(FIXTURES.read_text()):
        if isinstance(game, IssGame) and game.declaration is not None and len(game.plays) == 30:
            games.append(game)
    return games


GAMES = full_games()
IDS = [game.id or "?" for game in GAMES]


def time_cards(game: IssGame, tt_mb: int = TT_MB) -> tuple[float, float, int]:
    """``(wall s, CPU s, nodes)`` of one card-by-card analysis with a fresh solver."""
    start = game.start_position()
    cards = [card for _, card in game.plays]
    wall, cpu = time.perf_counter(), time.process_time()
    line = analyse_cards(start, cards, solver=Solver(tt_mb=tt_mb))
    return time.perf_counter() - wall, time.process_time() - cpu, line.nodes


def time_whole(game: IssGame, tt_mb: int = TT_MB, review: bool = True) -> tuple[float, float, float, int]:
    """``(wall s, CPU s, review wall s, nodes)`` of :func:`analyse_iss` with a fresh solver."""
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse_iss(game, solver=Solver(tt_mb=tt_mb), review=review)
    review_seconds = analysis.review.report.seconds if analysis.review is not None else 0.0
    return time.perf_counter() - wall, time.process_time() - cpu, review_seconds, analysis.nodes


def _check(median: float, target: float, what: str) -> None:
    if os.environ.get("SKATDD_BENCH_ASSERT") == "1":
        assert median <= target, f"{what}: median {median:.3f} s is above the {target} s target"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_card_by_card(benchmark, game: IssGame) -> None:
    """One full game, card by card, with a fresh 128 MiB solver per round."""
    start = game.start_position()
    cards = [card for _, card in game.plays]
    benchmark.extra_info["nodes"] = analyse_cards(start, cards, solver=Solver(tt_mb=16)).nodes
    benchmark.pedantic(lambda solver: analyse_cards(start, cards, solver=solver),
                       setup=lambda: ((Solver(tt_mb=TT_MB),), {}), rounds=3, iterations=1)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_whole_analyse(benchmark, game: IssGame) -> None:
    """One full game with the contract review, as ``skatdd analyse GAME`` runs it."""
    benchmark.pedantic(lambda solver: analyse_iss(game, solver=solver, review=True),
                       setup=lambda: ((Solver(tt_mb=TT_MB),), {}), rounds=1, iterations=1)


def test_median_over_fixtures(benchmark) -> None:
    """The headline figure: the median over the fixtures of one card-by-card analysis each."""
    def medians() -> tuple[float, float]:
        runs = [time_cards(game) for game in GAMES]
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)

    wall, cpu = benchmark.pedantic(medians, rounds=1, iterations=1)
    benchmark.extra_info.update({"median_wall_s": round(wall, 3), "median_cpu_s": round(cpu, 3)})
    _check(wall, CARD_TARGET, "card-by-card analysis")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per record (the median is kept)")
    parser.add_argument("--tt-mb", type=int, default=TT_MB)
    parser.add_argument("--no-review", action="store_true", help="skip the whole-analysis timing")
    args = parser.parse_args()
    print(f"{len(GAMES)} full fixture games, {args.rounds} rounds each, tt {args.tt_mb} MiB, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'record':>8} {'cards wall':>11} {'cards cpu':>10} {'nodes':>10}"
          + ("" if args.no_review else f" {'whole wall':>11} {'whole cpu':>10} {'review':>8}"))
    card_wall, card_cpu, whole_wall, whole_cpu = [], [], [], []
    for game in GAMES:
        runs = [time_cards(game, args.tt_mb) for _ in range(args.rounds)]
        w, c, n = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[0][2]
        card_wall.append(w)
        card_cpu.append(c)
        row = f"{game.id:>8} {w:>10.3f}s {c:>9.3f}s {n:>10,}"
        if not args.no_review:
            ww, wc, rv, _ = time_whole(game, args.tt_mb)
            whole_wall.append(ww)
            whole_cpu.append(wc)
            row += f" {ww:>10.3f}s {wc:>9.3f}s {rv:>7.2f}s"
        print(row)
    print(f"{'median':>8} {statistics.median(card_wall):>10.3f}s {statistics.median(card_cpu):>9.3f}s {'':>10}"
          + ("" if args.no_review else
             f" {statistics.median(whole_wall):>10.3f}s {statistics.median(whole_cpu):>9.3f}s"))
    print(f"targets: card by card <= {CARD_TARGET} s, whole analysis <= {WHOLE_TARGET} s")


if __name__ == "__main__":
    main()
