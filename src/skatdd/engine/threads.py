"""Engine calls that release the GIL, run on threads of their own with a clean stop (null ouvert's ``--jobs``).

Also how many cores this process may run on (:func:`usable_cores`), which
the runner's worker caps ask too (:mod:`skatdd.runner.workers`).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["run_threads", "usable_cores"]

T = TypeVar("T")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_threads(calls: Sequence[Callable[[], T]], stop: Callable[[], None]) -> list[T]:
    """Run *calls* (engine calls that release the GIL) on threads of their own; their results in order.

    A single call runs in the calling thread.  With more, the calling
    thread only waits, in short steps, so that Ctrl-C (or SIGTERM,
    :mod:`skatdd.runner.stopping`) reaches it at once: then, as when a call
    raises, *stop* tells the others to end early, they are joined, and the
    exception propagates.
    """
    if len(calls) == 1:
        return [calls[0]()]
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except BaseException as exc:  # handed to the calling thread below
            errors.append(exc)
            stop()

    threads = [threading.Thread(target=run, args=(i,), name=f"skatdd-null-{i}", daemon=True)
               for i in range(len(calls))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.05)
    except BaseException:
        stop()
        for thread in threads:
            thread.join()
        raise
    if errors:
        raise errors[0]
    return results
