"""One ``skatdd`` command timed in a fresh process: its wall time and the CPU of it and its workers.

The benchmarks that time a whole command (``match``, ``bid``, ``analyse``)
share this: the CPU is the ended children's (``RUSAGE_CHILDREN``: the
command, and its worker processes, which end with it), a figure a loaded
machine shifts far less than the wall time.
"""
from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path


def timed_command(args: Sequence[str], *, cwd: str | Path | None = None,
                  env: Mapping[str, str] | None = None) -> tuple[float, float, str]:
    """``(CPU s, wall s, standard output)`` of ``python -m skatdd *args*``.

    Raises ``RuntimeError`` with the command's name, its exit status and
    the end of its stderr when it does not exit 0.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=cwd,
                          env=None if env is None else dict(env), check=False)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"skatdd {args[0]} exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout
