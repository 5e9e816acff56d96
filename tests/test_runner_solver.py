"""The line runner takes a solver (docs/architecture.md): in this process it is used, in workers copied."""
from __future__ import annotations

import os

import pytest

from skatdd.engine.solve import Solver
from skatdd.runner.lines import run_lines
from skatdd.runner.outcome import LineOutcome


def _which_solver(solver: Solver, line: int, raw: bytes | str) -> LineOutcome:
    """A line handler that reports the solver it was given and the process it ran in."""
    return LineOutcome(line, {"tt_mb": solver.tt_mb, "engine": id(solver.engine), "pid": os.getpid()})


def _run(jobs: int, **kwargs: object) -> list[dict[str, object]]:
    out: list[LineOutcome] = []
    run_lines(((n, "x") for n in range(1, 7)), handler=_which_solver, jobs=jobs, emit=out.append, **kwargs)  # type: ignore[arg-type]
    return [o.record for o in out]


def test_one_job_uses_the_solver_it_is_given() -> None:
    solver = Solver(tt_mb=4)
    records = _run(1, solver=solver)
    assert {r["engine"] for r in records} == {id(solver.engine)} and {r["pid"] for r in records} == {os.getpid()}


def test_workers_get_the_solvers_configuration_with_tables_of_their_own() -> None:
    solver = Solver(tt_mb=4)
    records = _run(2, solver=solver)
    assert {r["tt_mb"] for r in records} == {4}
    assert os.getpid() not in {r["pid"] for r in records}
    # Under 'fork' the parent's solver object is in every worker too: a worker must not search with its table.
    assert id(solver.engine) not in {r["engine"] for r in records}


def test_no_solver_means_a_default_one_and_tt_mb_is_no_longer_taken() -> None:
    assert {r["tt_mb"] for r in _run(1)} == {Solver().tt_mb}
    with pytest.raises(TypeError, match="tt_mb"):
        _run(1, tt_mb=4)
