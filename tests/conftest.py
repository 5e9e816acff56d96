"""Fixtures shared by the test modules.

The helpers that run the CLI are in cli_runner.py (a module of its own, so
that test modules can import them by a name no other conftest.py shares).
"""
from __future__ import annotations

import pytest

from skatdd.engine.solve import Solver


@pytest.fixture(scope="module")
def solver() -> Solver:
    """One solver for the module: its transposition table carries over between tests, as in a batch."""
    return Solver(tt_mb=32)
