"""How much the honest pick-up of ``skatdd bid`` flatters itself by choosing on the worlds it is scored on.

``bid`` chooses each skat's game and discard by their mean over W worlds and
reports that mean: the maximum of several estimates, so on average at least
the true value of the best choice (an in-sample figure).  This script
measures the flattery: for S skats of a benchmark hand it makes ``bid``'s
choice at bid 18 (list scoring) on W worlds, then scores the chosen game and
discard on F fresh worlds of the same skat (out of sample: at most the true
value of the best choice, since the choice was made on W worlds only).  The
gap, in-sample minus out-of-sample, bounds the bias; it shrinks as W grows
and is 0 for W -> infinity.

    python benchmarks/bid_bias.py --hand 0 --worlds 5 20 --skats 16 --fresh 100
"""
from __future__ import annotations

import argparse
import random
import statistics

from bench_odds import bench_hands
from skatdd.analysis.best.bands import Probe
from skatdd.analysis.best.discard_heuristic import discard_heuristic
from skatdd.analysis.best.results import GAME_ORDER
from skatdd.analysis.bid.tasks import band_scores, draw_skats
from skatdd.analysis.odds.discard_ranking import discard_classes_of, discard_probes, rank_probes, settle_band
from skatdd.analysis.odds.draw import draw_worlds
from skatdd.analysis.worlds.space import hand_view
from skatdd.core.position import Position
from skatdd.core.scoring import MIN_BID, matadors
from skatdd.engine.solve import Solver


def gap(hand_index: int, worlds: int, skats: int, fresh: int, seed: int) -> tuple[float, float, float]:
    """``(in-sample mean, out-of-sample mean, standard error of the gap)`` at bid 18, suit and grand games."""
    seat, hand, _ = bench_hands()[hand_index]
    solver = Solver(tt_mb=128)
    draws, _ = draw_skats(seat, hand, skats, worlds, random.Random(seed))
    inside, outside = [], []
    for d in draws:
        twelve = hand | d.skat
        best = None
        for game in GAME_ORDER[:5]:
            classes = discard_classes_of(game, twelve)
            probes = discard_probes(solver, seat, twelve, game, classes, d.worlds)
            score = band_scores(game, matadors(game, twelve), MIN_BID, False)
            order, ranges = rank_probes(probes, score, [discard_heuristic(game, twelve, c.discard) for c in classes], keep=1)
            total = sum(score[lo] for lo, _ in ranges[order[0]])
            if best is None or total > best[0]:
                best = (total, game, classes[order[0]], score)
        assert best is not None
        total, game, cls, score = best
        new, _, _ = draw_worlds(hand_view(seat, hand, d.skat), fresh, random.Random(d.seed ^ 0x5A5A5A5A))
        scores = []
        for w in new:
            hands = list(w.hands)
            hands[seat] = cls.hand
            probe = Probe(solver, Position(game, seat, hands, twelve & ~cls.hand, leader=0))
            scores.append(score[settle_band(probe)])
        inside.append(total / worlds)
        outside.append(sum(scores) / fresh)
    diffs = [a - b for a, b in zip(inside, outside, strict=True)]
    return statistics.mean(inside), statistics.mean(outside), statistics.stdev(diffs) / len(diffs) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hand", type=int, default=0, help="Index of the benchmark hand (0-2).")
    parser.add_argument("--worlds", type=int, nargs="+", default=[5, 20])
    parser.add_argument("--skats", type=int, default=16)
    parser.add_argument("--fresh", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for w in args.worlds:
        inside, outside, se = gap(args.hand, w, args.skats, args.fresh, args.seed)
        print(f"hand {args.hand}, W={w}, {args.skats} skats, {args.fresh} fresh worlds each: in-sample {inside:+.1f}, "
              f"out-of-sample {outside:+.1f}, gap {inside - outside:+.1f} ± {se:.1f}", flush=True)


if __name__ == "__main__":
    main()
