"""What several test modules share: one solver per module and the two ways of running the CLI.

Test modules import the helpers (``from conftest import invoke, run_skatdd``):
pytest puts this directory on ``sys.path``, as it does for every test module.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from skatdd.cli import cli
from skatdd.solve import Solver

#: The repository root: the working directory of :func:`run_skatdd`, so paths like examples/ work.
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def solver() -> Solver:
    """One solver for the module: its transposition table carries over between tests, as in a batch."""
    return Solver(tt_mb=32)


def invoke(*args: str, input: str | None = None) -> Result:
    """Run ``skatdd ARGS`` in this process with Click's CliRunner (``result.stdout``, ``result.stderr``)."""
    return CliRunner().invoke(cli, list(args), input=input)


def run_skatdd(*args: str, input: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m skatdd ARGS`` in a real process from the repository root; text output captured."""
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True,
                          input=input, timeout=timeout, cwd=ROOT)
