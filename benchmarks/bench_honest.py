"""Time per declarer decision of the honest endgame search (skatdd.analysis.honest.api) against plain PIMC.

Realistic deals (skatdd.tools.generate.realistic_deal) are played double-dummy
(every seat plays a card of best value, the first in display order) until the
declarer is to move with K tricks left; then the declarer's worlds are drawn
(skatdd.analysis.worlds.draw.choose_worlds, at most N) and honest_card_values runs on them.
Printed per K: decisions, the median and largest time per decision, the
median nodes and engine searches, and how often the honest best card is not
a PIMC best card.

Run:  python benchmarks/bench_honest.py --deals 30 --worlds 200 --tricks 2,3,4
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from skatdd.analysis.advise.api import mover_view
from skatdd.analysis.honest.api import honest_card_values
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver
from skatdd.tools.generate import realistic_deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--tricks", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    solver = Solver(tt_mb=64)
    for k in (int(t) for t in args.tricks.split(",")):
        rng = random.Random(args.seed)
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


if __name__ == "__main__":
    main()
