"""The engine's fingerprint: the exact node count of a small ``skatdd bench`` run.

Any change to the search (ordering, bounds, pruning, the table) changes the
count; a change that should not alter the search must leave it as it is.  A
change that alters it on purpose updates :data:`NODES` here and quotes the
new count with the change (README, "Speed").
"""
from __future__ import annotations

from skatdd.bench import run_bench
from skatdd.solve import Solver

#: ``skatdd bench --deals 10 --seed 1 --no-card-values`` (default 128 MiB table).
DEALS, SEED, TT_MB = 10, 1, 128
NODES = 857_800


def test_bench_node_count_is_the_engines_fingerprint() -> None:
    report = run_bench(deals=DEALS, seed=SEED, tt_mb=TT_MB, card_values=False)
    assert report.to_json()["nodes"] == NODES


def test_the_count_does_not_depend_on_what_the_table_held_before() -> None:
    """bench clears the table before it starts, so a used solver gives the same count."""
    solver = Solver(tt_mb=TT_MB)
    run_bench(deals=3, seed=SEED + 1, card_values=False, solver=solver)
    assert run_bench(deals=DEALS, seed=SEED, card_values=False, solver=solver).to_json()["nodes"] == NODES
