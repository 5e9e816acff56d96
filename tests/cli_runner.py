"""The two ways the tests run the ``skatdd`` command line: in this process, or in a real one.

Test modules import these (``from cli_runner import invoke, run_skatdd``):
pytest puts this directory on ``sys.path``.  They live outside conftest.py
because benchmarks/ has a conftest.py too, and ``import conftest`` would pick
whichever was loaded last when both folders are collected together.
"""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from skatdd.cli import cli

#: The repository root: the working directory of :func:`run_skatdd`, so paths like examples/ work.
ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str, input: str | None = None) -> Result:
    """Run ``skatdd ARGS`` in this process with Click's CliRunner (``result.stdout``, ``result.stderr``)."""
    return CliRunner().invoke(cli, list(args), input=input)


def run_skatdd(*args: str, input: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m skatdd ARGS`` in a real process from the repository root; text output captured."""
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True,
                          input=input, timeout=timeout, cwd=ROOT)


def default_ctrl_c() -> None:
    """``preexec_fn`` for a command a test interrupts: the child starts with Ctrl-C's default action.

    A child inherits an ignored SIGINT, and a shell ignores it in the jobs it
    starts in the background; the command would then never see the test's
    Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
