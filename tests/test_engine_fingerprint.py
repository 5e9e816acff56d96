"""The engine's fingerprints: the exact node counts of the ``skatdd bench`` deal sets.

A node count is a function of the deal, the engine and the table size only
(bench clears the table before every query), so the count over a seeded
set pins the search the way Stockfish's ``bench`` does.  Asserted here, in
full:

- the realistic set, ``skatdd bench --deals 100 --seed 1``: 3,946,927
  nodes for the exact values, 9,103,323 for the values of every first card,
  and the win-only questions; ``--seed 7``: 6,091,656 (exact values);
- the close set, ``skatdd bench --deals 100 --seed 1 --close``: 12,107,582
  (exact values) and its win-only questions; its card values (27,381,393
  nodes, over two seconds) are not asserted;
- the null-ouvert benchmark hands: in test_nullouvert_fingerprint.py.

**An engine change that alters the search** (move ordering, bounds,
pruning, either table) changes these counts.  Such a change updates the
constants here, re-quotes the new counts where the old ones are quoted
(README "Speed" and the engine's experiment log, its commit message), and
regenerates the golden CLI outputs (``python tests/regen_golden.py``: only
``nodes`` figures may move).  A change that should not alter the search
(a refactoring, a move of modules, a faster implementation of the same
search) must leave every count as it is.
"""
from __future__ import annotations

import json
from pathlib import Path

from cli_runner import invoke
from skatdd.engine.solve import Solver
from skatdd.formats.json_object import position_from_json
from skatdd.tools.bench import CLOSE_MARGIN, close_deals, run_bench
from skatdd.tools.generate import position_to_json

#: The default table size of ``skatdd bench``: the counts below hold for it.
TT_MB = 128

#: ``skatdd bench --deals 100 --seed 1`` (card values and win-only questions included, as by default).
REALISTIC_NODES = 3_946_927
REALISTIC_PER_GAME = {"grand": 1_295_282, "clubs": 505_476, "spades": 877_881, "hearts": 339_741,
                      "diamonds": 877_323, "null": 51_224}
REALISTIC_CARD_VALUES_NODES = 9_103_323
REALISTIC_QUERY_NODES = {"reaches 61": 533_530, "reaches 90": 166_005, "reaches 31": 121_505, "schwarz": 3_129}
#: ``skatdd bench --deals 100 --seed 7 --no-card-values --no-queries``.
SEED7_NODES = 6_091_656
#: ``skatdd bench --deals 100 --seed 1 --close --no-card-values``.
CLOSE_NODES = 12_107_582
CLOSE_QUERY_NODES = {"reaches 61": 4_038_684, "reaches 90": 104_447, "reaches 31": 188_735, "schwarz": 1_578}
#: The close deals of seed 1, as close_deals(1, 100) selects them (tests/data/make_close_deals.py).
CLOSE_DEALS_FILE = Path(__file__).parent / "data" / "close-deals.jsonl"
#: ``skatdd bench --deals 10 --seed 1 --no-card-values``: small enough to run twice.
SMALL_DEALS, SMALL_NODES = 10, 857_800


def test_the_realistic_set() -> None:
    report = run_bench(deals=100, seed=1, solver=Solver(tt_mb=TT_MB)).to_json()
    assert report["nodes"] == REALISTIC_NODES
    assert {game: stats["nodes"] for game, stats in report["per_game"].items()} == REALISTIC_PER_GAME
    assert report["card_values"]["nodes"] == REALISTIC_CARD_VALUES_NODES
    assert {label: q["nodes"] for label, q in report["queries"].items()} == REALISTIC_QUERY_NODES


def test_the_realistic_set_of_seed_7() -> None:
    report = run_bench(deals=100, seed=7, solver=Solver(tt_mb=TT_MB), card_values=False, queries=False)
    assert report.to_json()["nodes"] == SEED7_NODES


def test_the_close_set() -> None:
    positions = [position_from_json(line).position() for line in CLOSE_DEALS_FILE.read_text().splitlines()]
    assert len(positions) == 100
    report = run_bench(deals=100, seed=1, solver=Solver(tt_mb=TT_MB), card_values=False, close=True, positions=positions)
    assert all(t.value is not None and abs(t.value - 61) <= CLOSE_MARGIN for t in report.timings)
    data = report.to_json()
    assert data["nodes"] == CLOSE_NODES
    assert {label: q["nodes"] for label, q in data["queries"].items()} == CLOSE_QUERY_NODES


def test_the_close_deals_file_is_what_bench_close_selects() -> None:
    """The stored deals begin as ``close_deals(1, n)`` does (the whole selection takes seconds)."""
    stored = [json.loads(line) for line in CLOSE_DEALS_FILE.read_text().splitlines()]
    assert [position_to_json(p) for p in close_deals(1, 8, solver=Solver(tt_mb=16))] == stored[:8]


def test_the_count_does_not_depend_on_what_the_table_held_before() -> None:
    """bench clears the table before it starts, so a used solver gives the same count."""
    solver = Solver(tt_mb=TT_MB)
    run_bench(deals=3, seed=2, card_values=False, solver=solver)
    assert run_bench(deals=SMALL_DEALS, seed=1, card_values=False, solver=solver).to_json()["nodes"] == SMALL_NODES


def test_the_command_reports_the_same_count() -> None:
    result = invoke("bench", "--deals", str(SMALL_DEALS), "--seed", "1", "--no-card-values", "--no-queries", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["nodes"] == SMALL_NODES
