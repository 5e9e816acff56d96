"""CPU per decision of the advanced players (skatdd.play.advanced) beside plain PIMC, on the same states.

Generated match deals (skatdd.play.deals.generated_deal) are played out by
pimc:N in every seat; at each card with a choice, every player named is asked
for its card on the same state and timed (process CPU).  Printed per player:
decisions, median and mean ms per decision.

Run:  python benchmarks/bench_advanced_players.py --deals 4 --worlds 10
"""
from __future__ import annotations

import argparse
import statistics
import time

from skatdd.core.position import Position
from skatdd.play.deals import generated_deal
from skatdd.play.loading import load_player
from skatdd.play.state import state_for


def time_decisions(names: list[str], deals: int, seed: int,
                   first: int = 1) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    """Each player's CPU seconds per decision with a choice, and the worlds each decision used (``used``).

    The deals of match ``--seed`` *seed* (*first*..*deals*) are played out by
    the first player in every seat; every player is asked on the same states.
    """
    specs = [load_player(name) for name in names]
    times: dict[str, list[float]] = {name: [] for name in names}
    used: dict[str, list[int]] = {name: [] for name in names}
    for index in range(first, deals + 1):
        deal = generated_deal(seed, index)
        hands = list(deal.hands)
        hands[deal.declarer] = (hands[deal.declarer] | deal.skat) & ~deal.discard
        pos = Position(deal.declaration.game, deal.declarer, hands, deal.discard, leader=0)
        players = {spec.name: [spec.factory(seat, index * 3 + seat) for seat in range(3)] for spec in specs}
        while not pos.is_over():
            state = state_for(pos, deal.declaration, deal.bids, deal.bid)
            card = state.legal[0]
            for name in names:
                started = time.process_time()
                chosen = players[name][pos.to_move].play(state)  # type: ignore[union-attr]
                if len(state.legal) > 1:
                    times[name].append(time.process_time() - started)
                if name == names[0]:
                    card = int(chosen)
            pos.play(card)
        for name in names:
            for player in players[name]:
                used[name].extend(getattr(player, "used", []))
    return times, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.worlds
    names = [f"pimc:{n}", f"pimc:{n}+bids", f"pimc:{n}+play", f"pimc:{n}+all", f"alphamu:{n}:4"]
    times, _ = time_decisions(names, args.deals, args.seed)
    for name in names:
        ms = [t * 1000 for t in times[name]]
        print(f"{name:16} {len(ms)} decisions, median {statistics.median(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms")


if __name__ == "__main__":
    main()
