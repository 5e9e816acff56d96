"""The one way of passing a solver (docs/architecture.md): ``solver: Solver | None``."""
from __future__ import annotations

import pickle

from skatdd.engine.solve import Solver, solver_or_default


def test_a_solver_pickles_as_its_configuration_not_its_table() -> None:
    solver = Solver(tt_mb=8)
    copy = pickle.loads(pickle.dumps(solver))
    assert isinstance(copy, Solver)
    assert copy.tt_mb == 8
    assert copy.engine is not solver.engine
    assert len(pickle.dumps(solver)) < 200


def test_none_means_a_fresh_default_solver_and_a_given_one_is_kept() -> None:
    solver = Solver(tt_mb=4)
    assert solver_or_default(solver) is solver
    fresh = solver_or_default(None)
    assert isinstance(fresh, Solver) and fresh.tt_mb == Solver().tt_mb
