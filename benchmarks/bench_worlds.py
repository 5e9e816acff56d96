"""The engine's share of a single-dummy decision: every card's value in every world, world by world or in one call.

For each played fixture game (``tests/data/iss-games.txt``) two decisions:

* the first lead, 200 worlds drawn as ``skatdd advise`` draws them (seed 1);
* a late decision: the first position with three cards a hand (after seven
  tricks), over all its worlds.

Each decision's worlds are solved in this process, single-threaded:
``loop`` is what the world runners did before (a cleared table and
:meth:`Solver.card_values` a world, in Python), ``many-P`` one
:meth:`Solver.card_values_many` call with table policy P.  Every way
gives the same values (checked here on every run).  CPU time of this
process; interleaved rounds, the median of each way a decision.

    python benchmarks/bench_worlds.py [--rounds 3] [--ways loop,many-clear,many-keep,many-auto]

Not part of the normal test run (no timing is asserted).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_advise import GAMES, LATE_CARDS, late_position, world_by_world
from skatdd.analysis.advise.api import WinRule, mover_view
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import World
from skatdd.core.position import Position
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame

FIRST_WORLDS = 200


def first_lead(game: IssGame) -> Position:
    """The position before the first card."""
    return game.start_position()


def decision_worlds(game: IssGame, pos: Position, n: int) -> list[World]:
    """The worlds advise would evaluate for the mover of *pos* (all of them when there are at most *n*)."""
    assert game.declaration is not None
    worlds, _ = choose_worlds(mover_view(pos, game.declaration), n, random.Random(1))
    return worlds


def way_loop(solver: Solver, game: IssGame, pos: Position, worlds: list[World]) -> list[list[int]]:
    """World by world, as the world runners did: one cleared table and card_values() a world."""
    assert game.declaration is not None
    results, _ = world_by_world(pos, WinRule.of(game.declaration), worlds, solver=solver)
    null = pos.game.is_null
    rows = []
    for res in results:
        row = [-1] * 32
        for card, (value, wins) in res.items():
            row[card] = int(wins) if null else value   # type: ignore[assignment]
        rows.append(row)
    return rows


def way_many(tables: Literal["auto", "clear", "keep"]) -> Callable[[Solver, IssGame, Position, list[World]], list[list[int]]]:
    """One card_values_many() call with table policy *tables*."""
    def run(solver: Solver, game: IssGame, pos: Position, worlds: list[World]) -> list[list[int]]:
        hands = array("I", [m for w in worlds for m in w.hands])
        skats = array("I", [w.skat for w in worlds])
        solver.clear()
        out = solver.card_values_many(pos, hands, skats, tables=tables)
        return [list(out[32 * i:32 * i + 32]) for i in range(len(worlds))]
    return run


WAYS = {"loop": way_loop, "many-clear": way_many("clear"), "many-keep": way_many("keep"), "many-auto": way_many("auto")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ways", default=",".join(WAYS))
    args = parser.parse_args()
    ways = args.ways.split(",")
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, {args.rounds} rounds, CPU ms a decision")
    solver = Solver()
    cases = []
    for game in GAMES:
        cases.append((f"{game.id} first lead", game, first_lead(game), FIRST_WORLDS))
        pos = late_position(game)
        if pos is not None:
            cases.append((f"{game.id} {LATE_CARDS} cards", game, pos, 10 ** 6))
    medians: dict[str, dict[str, list[float]]] = {"first lead": {w: [] for w in ways}, "late": {w: [] for w in ways}}
    print(f"{'decision':<24} {'worlds':>6} " + " ".join(f"{w:>11}" for w in ways))
    for label, game, pos, n in cases:
        worlds = decision_worlds(game, pos, n)
        times: dict[str, list[float]] = {w: [] for w in ways}
        reference = None
        for _ in range(args.rounds):
            for w in ways:
                cpu = time.process_time()
                rows = WAYS[w](solver, game, pos, worlds)
                times[w].append(time.process_time() - cpu)
                if reference is None:
                    reference = rows
                assert rows == reference, f"{label}: {w} differs"
        kind = "first lead" if "first" in label else "late"
        for w in ways:
            medians[kind][w].append(statistics.median(times[w]))
        print(f"{label:<24} {len(worlds):>6} " + " ".join(f"{statistics.median(times[w]) * 1000:>11.2f}" for w in ways))
    for kind, per_way in medians.items():
        print(f"median over {kind:<12}      " + " ".join(f"{statistics.median(per_way[w]) * 1000:>11.2f}" for w in ways))


if __name__ == "__main__":
    main()
