"""The two ways the tests run the ``skatdd`` command line: in this process, or in a real one.

Test modules import these (``from cli_runner import invoke, run_skatdd``):
pytest puts this directory on ``sys.path``.  They live outside conftest.py
because benchmarks/ has a conftest.py too, and ``import conftest`` would pick
whichever was loaded last when both folders are collected together.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from skatdd.cli import cli, main

#: The repository root: the working directory of :func:`run_skatdd`, so paths like examples/ work.
ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str, input: str | None = None) -> Result:
    """Run ``skatdd ARGS`` in this process with Click's CliRunner (``result.stdout``, ``result.stderr``)."""
    return CliRunner().invoke(cli, list(args), input=input)


def invoke_main(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> tuple[int, bytes, bytes]:
    """Run ``skatdd ARGS`` in this process through the console entry point: ``(status, stdout, stderr)``.

    Unlike :func:`invoke` (the Click group alone), this goes through
    :func:`skatdd.cli.main`, which turns every input error into ``Error: ...``
    and exit status 2, as the installed ``skatdd`` script does.  Standard
    streams are Click's isolated buffers (not a terminal: no progress bar);
    *env* overrides environment variables for the run.
    """
    with CliRunner().isolation(input=input, env=env) as (stdout, stderr, _):
        try:
            main(list(args))
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        else:  # main() always ends with SystemExit
            raise AssertionError("skatdd.cli.main returned without SystemExit")
        finally:  # text written with sys.stdout/sys.stderr.write() is still in the wrappers' buffers
            sys.stdout.flush()
            sys.stderr.flush()
        return status, stdout.getvalue(), stderr.getvalue()


def run_skatdd(*args: str, input: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m skatdd ARGS`` in a real process from the repository root; text output captured."""
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True,
                          input=input, timeout=timeout, cwd=ROOT)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -c CODE`` in a fresh interpreter (what a module imports, a first ``str()``); output captured."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def command_imports(*args: str) -> tuple[str, set[str]]:
    """``skatdd ARGS`` run by ``main`` in a fresh interpreter: its standard output and the skatdd modules it imported.

    Fails the test when the command does not exit with status 0.
    """
    code = ("import json, sys\nfrom skatdd.cli import main\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('skatdd'))))\n")
    run = run_python(code)
    assert run.returncode == 0, run.stderr
    *shown, loaded = run.stdout.rstrip("\n").split("\n")
    return "\n".join(shown), set(json.loads(loaded))


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll *check* every 0.05 s for at most *seconds*; fail the test naming *what* otherwise."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """True while *pid* runs (a zombie is not running)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def default_ctrl_c() -> None:
    """``preexec_fn`` for a command a test interrupts: the child starts with Ctrl-C's default action.

    A child inherits an ignored SIGINT, and a shell ignores it in the jobs it
    starts in the background; the command would then never see the test's
    Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
