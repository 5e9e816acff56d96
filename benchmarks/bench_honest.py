"""Time per declarer decision of the honest endgame search (skatdd.analysis.honest.api) against plain PIMC.

Realistic deals (skatdd.tools.generate.realistic_deal) are played double-dummy
(every seat plays a card of best value, the first in display order) until the
declarer is to move with K tricks left; then the declarer's worlds are drawn
(skatdd.analysis.worlds.draw.choose_worlds, at most N) and honest_card_values runs on them.
Printed per K: decisions, the median and largest time per decision, the
median nodes and engine searches, and how often the honest best card is not
a PIMC best card.

Run:  python benchmarks/bench_honest.py --deals 30 --worlds 200 --tricks 2,3,4

``--synthetic N``: N synthetic endgames of four cards a hand instead (suit
and grand, hand or not, the declarer to move, a random part of a trick on
the table, points that leave the game open: tests/test_honest.py's
``endgame``), each with the worlds advise draws (``choose_worlds``, at most
``--worlds``).  Printed: the worst and median CPU time and the positions over
``--limit`` seconds (stopped there).  ``--before REV`` runs the search of
git revision REV on each position too, interleaved, in the same process (in
either mode).

Run:  python benchmarks/bench_honest.py --synthetic 300 --limit 60 --before REV
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from skatdd.analysis.advise.api import mover_view
from skatdd.analysis.honest.api import honest_card_values
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver
from skatdd.tools.generate import realistic_deal

ROOT = Path(__file__).resolve().parent.parent
FAMILY = "src/skatdd/analysis/honest"  # --before takes a revision with the analysis families (0.2.0 on)


class _OverLimit(Exception):
    pass


def _stop(_signum: int, _frame: FrameType | None) -> None:
    raise _OverLimit


def _search_of(rev: str) -> Callable[..., Any]:
    """``honest_card_values`` as it was at git revision *rev*, loaded beside the current one.

    Every module of the family at *rev* is loaded as a package of its own, so the search before uses its own
    fronts and results modules, not the current ones its relative imports would otherwise find.
    """
    names = subprocess.run(["git", "ls-tree", "--name-only", f"{rev}:{FAMILY}"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    folder = Path(tempfile.mkdtemp()) / "honest_before"
    folder.mkdir()
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(["git", "show", f"{rev}:{FAMILY}/{name}"], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout
            (folder / name).write_text(text)
    package = "skatdd.analysis._honest_before"
    spec = importlib.util.spec_from_file_location(package, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    sys.modules[package] = importlib.util.module_from_spec(spec)  # dataclasses look their module up
    spec.loader.exec_module(sys.modules[package])
    return importlib.import_module(f"{package}.api").honest_card_values  # type: ignore[no-any-return]


def _timed(search: Callable[..., Any], limit: float, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    """CPU seconds of one search and its result (``None`` when stopped at *limit* CPU seconds)."""
    signal.setitimer(signal.ITIMER_PROF, limit)
    started = time.process_time()
    try:
        result = search(*args, **kwargs)
    except _OverLimit:
        result = None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return time.process_time() - started, result


def synthetic(count: int, worlds: int, seed: int, limit: float, before: str | None) -> None:
    """The --synthetic mode (module docstring)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from skatdd.core.rules import Game
    from test_honest import endgame  # type: ignore[import-not-found]  # the tests' generator, so the benchmark measures what they check

    signal.signal(signal.SIGPROF, _stop)
    searches = {"after": honest_card_values}
    if before is not None:
        searches = {"before": _search_of(before), **searches}
    solvers = {name: Solver(tt_mb=64) for name in searches}  # one table each: neither search warms the other's
    rng = random.Random(seed)
    games = [Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.GRAND]
    times: dict[str, list[tuple[float, int]]] = {name: [] for name in searches}
    stopped: dict[str, list[int]] = {name: [] for name in searches}
    for i in range(count):
        pos, decl = endgame(rng, rng.choice(games), 4, hand=rng.random() < 0.5)
        drawn, _exact = choose_worlds(mover_view(pos, decl), worlds, random.Random(i))
        answers = {}
        for name, search in searches.items():
            seconds, result = _timed(search, limit, pos, decl, drawn, 4, solver=solvers[name], budget=10**9)
            times[name].append((seconds, i))
            if result is None:
                stopped[name].append(i)  # by the timer: process_time may show a little under the limit
            answers[name] = None if result is None else [round(c.honest_win, 9) for c in result.cards]
        known = [a for a in answers.values() if a is not None]
        if any(a != known[0] for a in known):
            print(f"position {i}: the searches differ: {answers}", flush=True)
    for name, got in times.items():
        ranked = sorted(got)
        over = stopped[name]
        print(f"{name}: {count} positions, CPU median {statistics.median(s for s, _ in ranked) * 1000:.1f} ms, "
              f"worst {ranked[-1][0]:.2f} s (position {ranked[-1][1]}), total {sum(s for s, _ in ranked):.1f} s, "
              f"stopped at {limit:g} s: {len(over)} {over}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--tricks", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synthetic", type=int, default=0, metavar="N")
    parser.add_argument("--limit", type=float, default=60.0, help="CPU seconds per search in --synthetic")
    parser.add_argument("--before", metavar="REV", help="also run the search of this git revision, interleaved")
    args = parser.parse_args()
    if args.synthetic:
        synthetic(args.synthetic, args.worlds, args.seed, args.limit, args.before)
        return
    solver = Solver(tt_mb=64)
    before = None if args.before is None else _search_of(args.before)
    before_solver = Solver(tt_mb=64)  # its own table: the searches do not warm each other's
    for k in (int(t) for t in args.tricks.split(",")):
        rng = random.Random(args.seed)
        before_times: list[float] = []
        times: list[float] = []
        nodes: list[int] = []
        searches: list[int] = []
        differ = 0
        worlds_used: list[int] = []
        for _ in range(args.deals):
            pos, _meta = realistic_deal(rng)
            decl = Declaration(pos.game)
            if pos.game.is_null:
                continue
            while not pos.is_over() and not (pos.to_move == pos.declarer and pos.hands[pos.declarer].bit_count() == k):
                values = solver.card_values(pos)
                pick = max if pos.to_move == pos.declarer else min
                best = pick(v.value or 0 for v in values.values())
                pos.play(min(c for c, v in values.items() if (v.value or 0) == best))
            if pos.is_over():
                continue
            worlds, _exact = choose_worlds(mover_view(pos, decl), args.worlds, rng)
            if before is not None:
                started = time.process_time()
                before(pos, decl, worlds, k, solver=before_solver)
                before_times.append(time.process_time() - started)
            started = time.process_time()
            result = honest_card_values(pos, decl, worlds, k, solver=solver)
            times.append(time.process_time() - started)
            nodes.append(result.nodes)
            searches.append(result.searches)
            worlds_used.append(len(worlds))
            differ += not set(result.best) & set(result.pimc_best)
        print(f"K={k}: {len(times)} decisions, worlds median {statistics.median(worlds_used)}, "
              f"CPU per decision median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
              f"nodes median {statistics.median(nodes)}, searches median {statistics.median(searches)}, "
              f"honest best outside PIMC best: {differ}", flush=True)
        if before_times:
            print(f"K={k} before ({args.before}): CPU per decision median {statistics.median(before_times) * 1000:.1f} "
                  f"ms, max {max(before_times) * 1000:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
