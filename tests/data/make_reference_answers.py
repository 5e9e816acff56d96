"""Write tests/data/reference-answers.jsonl: the reference solver's answers on 5,040 seeded positions.

tests/test_engine_vs_reference.py checks the Cython engine against these
answers.  The plain Python reference solver (:mod:`skatdd.engine.reference`) is
exponential and needs about a minute on two cores for all of them, so its
answers are stored rather than recomputed on every test run; the test
recomputes a sample each run, so the file cannot drift from the solver.

The positions are :func:`skatdd.tools.generate.random_position` draws, each from its
own ``random.Random`` seeded by :func:`case_seed`: every one of the six
contracts, every trick stage (0, 1 or 2 cards on the table), every seat as
declarer and as leader, endgames of 1 to 6 tricks a hand (:data:`PLAN`).  A
run gives the same file byte for byte.

One JSON object a line: ``tricks`` and ``index`` (the case), ``position``
(:func:`skatdd.tools.generate.position_to_json`), ``value`` (final card points of
the declarer in suit and grand; in null whether he wins), ``declarer_all`` and
``defenders_all`` (:func:`~skatdd.engine.reference.reference_can_take_all` for each
side, ignoring earlier tricks), and for cases with per-card values ``cards``:
``{card code: value}`` for every legal card of the player to move.

Usage (from the repository root, with skatdd importable)::

    python tests/data/make_reference_answers.py [--jobs 2] [--output tests/data/reference-answers.jsonl]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from pathlib import Path
from typing import Any

from skatdd.core.cards import card_name
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES
from skatdd.engine.reference import reference_can_take_all, reference_card_values, reference_value
from skatdd.tools.generate import position_to_json, random_position

SEED = 3_141_592

#: (tricks a hand, positions, with per-card values): 5,040 positions in all.
#: Six tricks is where the reference's cost (1.5 s a position for the value
#: alone) stops being worth it; those positions skip the per-card values.
PLAN: tuple[tuple[int, int, bool], ...] = (
    (1, 720, True),
    (2, 1260, True),
    (3, 1500, True),
    (4, 1260, True),
    (5, 240, True),
    (6, 60, False),
)

OUTPUT = Path(__file__).resolve().parent / "reference-answers.jsonl"


def case_seed(tricks: int, index: int) -> int:
    """The seed of case *index* among the positions of *tricks* tricks a hand."""
    return SEED * 1_000 + tricks * 100_000_007 + index


def case_position(tricks: int, index: int) -> Position:
    """The position of one case: contract and trick stage cycle with *index*, the rest is drawn."""
    game = ALL_GAMES[index % len(ALL_GAMES)]
    trick_cards = (index // len(ALL_GAMES)) % 3
    return random_position(random.Random(case_seed(tricks, index)), game=game, tricks=tricks, trick_cards=trick_cards)


def reference_answers(pos: Position, card_values: bool) -> dict[str, Any]:
    """The reference solver's answers for *pos*, as stored in one line of the file (without the case fields)."""
    out: dict[str, Any] = {"position": position_to_json(pos), "value": reference_value(pos)}
    if card_values:
        out["cards"] = {card_name(c): v for c, v in sorted(reference_card_values(pos).items())}
    out["declarer_all"] = reference_can_take_all(pos, True)
    out["defenders_all"] = reference_can_take_all(pos, False)
    return out


def _solve_case(case: tuple[int, int, bool]) -> dict[str, Any]:
    tricks, index, card_values = case
    return {"tricks": tricks, "index": index, **reference_answers(case_position(tricks, index), card_values)}


def all_cases() -> list[tuple[int, int, bool]]:
    """Every case as ``(tricks, index, card_values)``, in file order."""
    return [(tricks, index, card_values) for tricks, count, card_values in PLAN for index in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"file to write (default {OUTPUT})")
    args = parser.parse_args()
    cases = all_cases()
    # The deepest cases first, so the workers finish together; the file keeps case order.
    order = sorted(range(len(cases)), key=lambda i: (-cases[i][0], i))
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        solved = dict(zip(order, pool.imap(_solve_case, [cases[i] for i in order], chunksize=4), strict=True))
    with args.output.open("w") as out:
        for i in range(len(cases)):
            out.write(json.dumps(solved[i], separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} positions to {args.output}")


if __name__ == "__main__":
    main()
