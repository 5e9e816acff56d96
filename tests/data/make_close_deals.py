"""Write tests/data/close-deals.jsonl: the deals of ``skatdd bench --close --deals 100 --seed 1``.

    python tests/data/make_close_deals.py

:func:`skatdd.tools.bench.close_deals` picks them by solving realistic deals
until 100 lie within 5 points of 61; that selection takes several seconds,
so tests/test_engine_fingerprint.py reads the deals from this file to time
only the benchmark itself.  The selection uses exact values, which no change
to the search can alter: the file changes only if the deal generator or
the close-game rule does.  The test checks the file's first deals against
``close_deals`` on every run, so it cannot drift unnoticed.  One
:func:`skatdd.tools.generate.position_to_json` object a line, in benchmark order;
a run gives the same file byte for byte.
"""
from __future__ import annotations

import json
from pathlib import Path

from skatdd.tools.bench import close_deals
from skatdd.tools.generate import position_to_json

SEED, DEALS = 1, 100
OUT = Path(__file__).with_name("close-deals.jsonl")


def main() -> None:
    """Select the close deals and write one JSON line each."""
    with OUT.open("w", encoding="utf-8") as fh:
        for pos in close_deals(SEED, DEALS):
            fh.write(json.dumps(position_to_json(pos)) + "\n")
    print(f"wrote {DEALS} deals to {OUT}")


if __name__ == "__main__":
    main()
