"""Worker processes: how many a run may start on this machine, and that none outlives its parent.

Every runner that starts processes (the ``--jobs`` pool of
:func:`skatdd.runner.lines.run_lines`, a ``--dask local:N`` cluster) asks
:func:`cap_workers` how many it may start: no more than the cores this
process may run on (more only share them, each with a transposition table
of its own), nor more tables than fit in the memory available.  A request
above that is capped, with one warning line on stderr; the results do not
depend on the number of workers.

A pool's worker runs :func:`init_worker` first: it ignores Ctrl-C (its
parent handles it and ends the workers), takes SIGTERM and SIGHUP with
their default action (a SIGTERM or SIGHUP sent to the whole group ends it), and
dies with its parent: on Linux the kernel kills it when the parent goes
(``prctl(PR_SET_PDEATHSIG)``), elsewhere a thread watching the parent's
pid ends it within a second.  So a parent killed outright (SIGKILL, a
crash) leaves no process behind either.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

from skatdd.engine.threads import usable_cores

from .memory import available_mib

__all__ = ["cap_workers", "init_worker", "process_end"]

#: ``prctl`` option: the signal the kernel sends this process when its parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: How often a worker without ``prctl`` checks that its parent is still there.
PARENT_POLL_SECONDS = 0.5

_warned: set[tuple[str, int, int]] = set()


def cap_workers(requested: int, *, what: str, tt_mb: int | None = None,
                unit: tuple[str, str] = ("worker process", "worker processes")) -> int:
    """How many of *requested* workers to start: at most the usable cores and the tables that fit.

    *what* names the request in the warning (``'--jobs 40'``); *tt_mb*,
    when given, is each worker's table; *unit* names one worker and
    several (``("thread", "threads")`` for a command that runs threads).
    When the answer is below *requested*, one line goes to stderr (once
    per request and process): ``Warning: --jobs 40: this machine has 2
    cores: starting 2 worker processes``.
    """
    allowed = usable_cores()
    reason = f"this machine has {allowed} core{'s' if allowed != 1 else ''}"
    available = available_mib() if tt_mb else None
    if tt_mb and available is not None and available // tt_mb < allowed:
        allowed = max(1, available // tt_mb)
        reason = f"{requested} tables of {tt_mb} MiB do not fit in the {available} MiB of memory available"
    if requested <= allowed:
        return requested
    key = (what, requested, allowed)
    if key not in _warned:
        _warned.add(key)
        sys.stderr.write(f"Warning: {what}: {reason}: starting {allowed} {unit[0] if allowed == 1 else unit[1]}\n")
        sys.stderr.flush()
    return allowed


def _watch_parent(parent: int) -> None:
    """End this process as soon as *parent* is no longer its parent (it died; the process was re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _die_with_parent(parent: int) -> None:
    """Make sure this process ends when *parent* does: the kernel's parent-death signal, else a watching thread."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)  # the C library is loaded in every Linux Python
            armed = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), name="skatdd-parent-watch", daemon=True).start()


def init_worker(parent: int) -> None:
    """First thing in a pool's worker process (*parent*: the pid of the process that started it).

    Ctrl-C ignored, SIGTERM and SIGHUP back to their default action (the
    parent's handlers would otherwise be inherited through ``fork``), and
    the process ends with its parent.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    _die_with_parent(parent)


def process_end(returncode: int) -> str:
    """How a child process ended, from its return code (negative: the signal): ``exit status 3``, ``killed by
    SIGKILL``, ``killed by signal 39`` (a real-time signal has no name)."""
    if returncode >= 0:
        return f"exit status {returncode}"
    try:
        return f"killed by {signal.Signals(-returncode).name}"
    except ValueError:
        return f"killed by signal {-returncode}"
