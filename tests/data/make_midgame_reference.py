"""Regenerate tests/data/midgame-reference.jsonl: 2,000 mid-trick positions with reference answers.

    PYTHONPATH=src python tests/data/make_midgame_reference.py [--jobs 2]

Positions come from :func:`skatdd.tools.generate.random_position` with one
seeded generator per position (so the file is the same on every run):
four to six cards a hand, one or two cards already on the table, the six
contracts in turn.  Each line holds the position (``position_to_json``)
and what the plain Python reference solver (:mod:`skatdd.engine.reference`)
answers: the value (null: whether the declarer wins), every legal card's
value for four and five cards a hand, and both schwarz questions.  The
reference takes about ten minutes of CPU time for the whole file (mostly
the six-card positions).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from pathlib import Path
from typing import Any

from skatdd.core.cards import card_name
from skatdd.core.rules import ALL_GAMES
from skatdd.engine.reference import reference_can_take_all, reference_card_values, reference_value
from skatdd.tools.generate import position_to_json, random_position

SEED = 2_718_281
#: (cards a hand, positions, with per-card values): 2,000 positions in all.
PLAN: tuple[tuple[int, int, bool], ...] = ((4, 1000, True), (5, 700, True), (6, 300, False))
OUT = Path(__file__).with_name("midgame-reference.jsonl")


def case_position(tricks: int, index: int) -> Any:
    """The seeded position of case (*tricks*, *index*)."""
    rng = random.Random(SEED * 1_000 + tricks * 100_000_007 + index)
    return random_position(rng, game=ALL_GAMES[index % len(ALL_GAMES)], tricks=tricks,
                           trick_cards=1 + (index // len(ALL_GAMES)) % 2)


def solve_case(case: tuple[int, int, bool]) -> dict[str, Any]:
    """One line of the file: the position and the reference's answers."""
    tricks, index, with_cards = case
    pos = case_position(tricks, index)
    row: dict[str, Any] = {"tricks": tricks, "index": index, "position": position_to_json(pos),
                           "value": reference_value(pos)}
    if with_cards:
        row["cards"] = {card_name(c): v for c, v in sorted(reference_card_values(pos).items())}
    row["declarer_all"] = reference_can_take_all(pos, True)
    row["defenders_all"] = reference_can_take_all(pos, False)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    cases = [(t, i, cv) for t, n, cv in PLAN for i in range(n)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        rows = pool.map(solve_case, cases, chunksize=4)
    with OUT.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"wrote {len(rows)} positions to {OUT}")


if __name__ == "__main__":
    main()
