"""How fast ``odds --points`` could be with this engine: the cost of an exact value when its value is known in advance.

``odds --points`` needs each world's exact card points for every suit and
grand option (``mean_points``; without ``--points`` odds asks the band
questions only, below this floor).  Any search for an exact value v with null-window
tests must prove "Q >= v" and refute "Q >= v + 1"; an oracle that knew v
would ask exactly those two questions (the refutation first: it is the cheaper
order).  For the benchmark hands of
``bench_odds.py`` (the seven hand games: the five suit and grand contracts
are the whole cost, null is a win question), this script measures, per
world and contract, with an empty table each time as ``odds`` does:

* ``odds``: what ``odds --points`` asks (the band questions, then the descent);
* ``oracle``: only the two questions at v + 1 and v;

and prints the CPU seconds of each for the hand over ``--worlds`` worlds,
scaled to 400 worlds, and halved for two workers.  If the oracle's figure
is above a target, no choice of questions meets it: only a faster search
does.  Run::

    python benchmarks/odds_floor.py --worlds 40
"""
from __future__ import annotations

import argparse
import random
import time

from bench_odds import bench_hands
from skatdd.analysis.best.bands import Probe
from skatdd.analysis.odds.discard_ranking import settle
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import hand_view
from skatdd.core.cards import format_mask
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver

GAMES = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS)


def measure(worlds: int, seed: int) -> None:
    solver = Solver()
    for seat, cards, _ in bench_hands():
        chosen, _ = choose_worlds(hand_view(seat, cards), worlds, random.Random(seed))
        cpu = {"odds": 0.0, "oracle": 0.0}
        nodes = {"odds": 0, "oracle": 0}
        for game in GAMES:
            for world in chosen:
                pos = Position(game, seat, list(world.hands), world.skat, leader=0)
                solver.clear()
                n, t = solver.nodes, time.process_time()
                value = settle(Probe(solver, pos))[0]
                cpu["odds"] += time.process_time() - t
                nodes["odds"] += solver.nodes - n
                solver.clear()
                n, t = solver.nodes, time.process_time()
                assert not solver.reaches(pos, value + 1) and solver.reaches(pos, value)
                cpu["oracle"] += time.process_time() - t
                nodes["oracle"] += solver.nodes - n
        scale = 400 / len(chosen)
        print(f"seat {seat} {format_mask(cards)}: " + "; ".join(
            f"{k} {cpu[k] * scale:6.1f} s CPU for 400 worlds ({cpu[k] * scale / 2:5.1f} s on two workers), "
            f"{nodes[k] / len(chosen) / len(GAMES):,.0f} nodes a world and contract" for k in cpu), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    measure(args.worlds, args.seed)


if __name__ == "__main__":
    main()
