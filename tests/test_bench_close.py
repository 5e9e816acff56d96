"""``skatdd bench --close`` and the win-only question rows of the bench report."""
from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from skatdd.cli import cli
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver
from skatdd.tools.bench import CLOSE_MARGIN, QUERIES, close_deals, run_bench


def test_close_deals_are_close_and_repeatable() -> None:
    deals = close_deals(2, 3)
    solver = Solver(tt_mb=16)
    for pos in deals:
        value = solver.value(pos)
        assert value is not None and abs(value - 61) <= CLOSE_MARGIN
    assert [p.hands for p in close_deals(2, 3)] == [p.hands for p in deals]


def test_close_deals_reject_null_and_bad_counts() -> None:
    with pytest.raises(ValueError, match="null"):
        close_deals(1, 2, game=Game.NULL)
    with pytest.raises(ValueError):
        close_deals(1, 0)


def test_queries_match_the_exact_value() -> None:
    report = run_bench(deals=2, seed=4, solver=Solver(tt_mb=16), card_values=False, close=True)
    summary = report.queries_summary()
    assert list(summary) == list(QUERIES)
    solver = Solver(tt_mb=16)
    for timing in report.timings:
        assert set(timing.queries) == set(QUERIES)
        assert timing.value is not None and abs(timing.value - 61) <= CLOSE_MARGIN
    for label, query in QUERIES.items():
        assert summary[label]["deals"] == 2
        assert summary[label]["nodes"] == sum(t.queries[label][1] for t in report.timings)
        assert all(isinstance(query(solver, p), bool) for p in close_deals(4, 2))


def test_cli_close_json_and_null_rejected() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["bench", "--close", "--deals", "2", "--seed", "4", "--tt-mb", "16",
                                  "--no-card-values", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["close"] is True and data["deals"] == 2
    assert set(data["queries"]) == set(QUERIES)
    bad = runner.invoke(cli, ["bench", "--close", "--game", "null", "--deals", "2"])
    assert bad.exit_code == 2
    assert "null" in bad.output


class _Stop(Exception):
    pass


def test_a_huge_deal_count_makes_the_deals_as_they_are_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench --deals 10**30`` timed its first deal at once, not after making every deal up front (never)."""
    from skatdd.analysis.deals import realistic
    from skatdd.tools import generate

    made: list[int] = []
    make = realistic.realistic_deal

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        if len(made) > 5:
            raise _Stop("deals made before any was timed")
        return make(*args, **kwargs)

    monkeypatch.setattr(realistic, "realistic_deal", counted)
    monkeypatch.setattr(generate, "realistic_deal", counted)
    timed: list[int] = []

    def progress(i: int, timing: object) -> None:
        timed.append(i)
        if len(timed) == 2:
            raise _Stop("two deals timed")

    with pytest.raises(_Stop, match="two deals timed"):
        run_bench(deals=10**30, seed=3, solver=Solver(tt_mb=16), card_values=False, queries=False, progress=progress)
    assert len(made) == 2


def test_deals_made_one_at_a_time_are_the_same_deals() -> None:
    from skatdd.tools.generate import realistic_deals

    report = run_bench(deals=3, seed=5, solver=Solver(tt_mb=16), card_values=False, queries=False)
    solver = Solver(tt_mb=16)
    assert [t.value for t in report.timings] == [solver.value(p) for p in realistic_deals(5, 3)]
    assert [t.game for t in report.timings] == [p.game for p in realistic_deals(5, 3)]
    assert report.generate_seconds > 0
