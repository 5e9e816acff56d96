"""How much memory a transposition table may take on this machine: the check behind every ``--tt-mb``.

A table is mapped in one piece when its solver is made, so a size beyond
what the machine can give fails then, deep inside a command (a
``MemoryError``, or a dead worker process in ``batch``).  Commands check the
size against the memory available before any work instead, here, and
answer with one line.
"""
from __future__ import annotations

import os

from skatdd.core.errors import SkatddError

__all__ = ["TableSizeError", "available_mib", "check_table_mib"]


class TableSizeError(SkatddError):
    """A transposition table larger than the memory this machine has available."""


def available_mib() -> int | None:
    """Memory available to new allocations, in MiB: ``MemAvailable`` of /proc/meminfo, else free physical pages.

    ``None`` when the platform tells neither (then nothing is checked).
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):
        return None


def check_table_mib(tt_mb: int, option: str = "--tt-mb") -> int:
    """Return *tt_mb* when a table of that many MiB fits in the memory available; raise :class:`TableSizeError` if not."""
    available = available_mib()
    if available is not None and tt_mb > available:
        raise TableSizeError(
            f"{option} {tt_mb}: a transposition table of {tt_mb} MiB does not fit in the {available} MiB of memory "
            f"this machine has available; give at most {available} (the default 128 is plenty for one deal)"
        )
    return tt_mb
