"""How a run is stopped from outside: Ctrl-C, SIGTERM (``timeout``, ``kill``) and SIGHUP (a closed terminal).

Ctrl-C raises :class:`KeyboardInterrupt` in the main thread, and every
runner already answers it cleanly: it stops reading, cancels the queued
work, ends its worker processes, keeps every line already written and the
command exits 130.  :func:`stop_on_signals` makes SIGTERM and SIGHUP take
the same path: their handler raises :class:`Terminated`, a
``KeyboardInterrupt``, so no runner needs code of its own for them.  The
exit status is ``128 + signal`` (:func:`exit_status`): 130 for Ctrl-C, 143
for SIGTERM, 129 for SIGHUP, the status a shell reports for a process the
signal ended.

:func:`deferred_stops` holds the signals back over a step that must not be
cut in half (starting worker processes, a local Dask cluster): they take
effect when it is done, and the processes a cluster starts never see a
Ctrl-C typed at the terminal.  :func:`polled_stops` takes them only where a
loop asks for them (:func:`raise_if_stopped`): a loop that shares locks with
other threads (a process pool's futures, its input reader) must not have an
interrupt raised while it holds one, or the pool's own thread waits on that
lock for ever and the interpreter, which joins that thread at exit, never
exits.
"""
from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any

__all__ = [
    "STOP_SIGNALS", "Terminated", "deferred_stops", "exit_status", "polled_stops", "raise_if_stopped", "stop_message",
    "stop_on_signals",
]

#: The signals that stop a run as Ctrl-C does (SIGHUP where the platform has it).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    sig for sig in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig is not None)


class Terminated(KeyboardInterrupt):
    """The run was told to stop by *signum* (SIGTERM or SIGHUP): handled wherever Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: Stop signals received in a :func:`stop_on_signals` block and not yet seen by :func:`raise_if_stopped`.
_received: list[int] = []


def _raise(signum: int, frame: FrameType | None) -> None:
    """The handler: remember the signal, then raise its interrupt wherever the main thread is."""
    _received.append(signum)
    raise _interrupt(signum)


def _remember(signum: int, frame: FrameType | None) -> None:
    """The handler of :func:`polled_stops`: remember the signal for :func:`raise_if_stopped`, raise nothing."""
    _received.append(signum)


def raise_if_stopped() -> None:
    """Raise the interrupt of a stop signal received in a :func:`stop_on_signals` block, if any (once).

    A handler's exception is lost when the signal lands in code that
    swallows exceptions: the hooks ``os.fork`` runs in the parent (a signal
    arriving while a pool starts its workers), ``__del__`` methods, weakref
    callbacks.  Loops that wait (:func:`skatdd.runner.ordered.run_ordered`) call
    this now and then, so such a stop still takes effect.
    """
    if _received:
        signum = _received[0]
        _received.clear()
        raise _interrupt(signum)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread (as Ctrl-C raises).

    Ctrl-C keeps raising ``KeyboardInterrupt``; all three are also
    remembered for :func:`raise_if_stopped`.  A signal already ignored
    (``nohup``, a background job's Ctrl-C) stays ignored.  The previous
    handlers come back on exit; nothing is changed outside the main thread
    (only it can set handlers).  A stop lost in a ``__del__`` prints no
    traceback (:func:`raise_if_stopped` raises it again).
    """
    if not _in_main_thread():
        yield
        return
    previous: dict[signal.Signals, Any] = {}
    for sig in (signal.SIGINT, *STOP_SIGNALS):
        if signal.getsignal(sig) != signal.SIG_IGN:
            previous[sig] = signal.signal(sig, _raise)
    previous_hook = sys.unraisablehook

    def quiet_lost_stop(unraisable: Any) -> None:
        # A stop that lands in a __del__ (a Dask future's, say) is lost there and Python would print its
        # traceback; it is remembered, and raise_if_stopped raises it again, so say nothing of it here.
        if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and _received):
            previous_hook(unraisable)

    sys.unraisablehook = quiet_lost_stop
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _received.clear()


def _cause(exc: BaseException) -> BaseException:
    """*exc*, or the interrupt it was raised from (Click turns a ``KeyboardInterrupt`` into ``Abort``)."""
    while not isinstance(exc, KeyboardInterrupt):
        inner = exc.__cause__ or exc.__context__
        if inner is None:
            return exc
        exc = inner
    return exc


def exit_status(exc: BaseException) -> int:
    """The exit status of a run stopped by *exc*: ``128 + signal`` (Ctrl-C, or ``Abort`` without a signal: 130)."""
    cause = _cause(exc)
    return 128 + (cause.signum if isinstance(cause, Terminated) else signal.SIGINT)


def stop_message(exc: BaseException) -> str:
    """``'Interrupted'`` for Ctrl-C, ``'Terminated by SIGTERM'`` / ``'... SIGHUP'`` for the others."""
    cause = _cause(exc)
    if isinstance(cause, Terminated):
        return f"Terminated by {signal.Signals(cause.signum).name}"
    return "Interrupted"


@contextmanager
def deferred_stops(*, deaf_children: bool = False) -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back until the block ends; then the first that arrived takes effect.

    Each is recorded instead of raised (a signal landing while ``os.fork``
    runs its hooks would have its exception swallowed there).  With
    *deaf_children* Ctrl-C is also blocked (this thread's signal mask), so
    that processes started in the block inherit it blocked: a Ctrl-C typed
    at the terminal reaches every process of the foreground group, and
    theirs would print a traceback each; their parent stops them instead,
    quietly.  (SIGTERM and SIGHUP are not blocked: a started process gets
    their default action, so its parent can still end it.)  On leaving the
    block the handlers are restored and the first signal that came is
    raised: ``KeyboardInterrupt`` or :class:`Terminated`, also when the
    block failed meanwhile (a ``timeout`` signals the whole process group:
    the processes being started die of it, and the step fails because of
    the stop).  Outside the main thread nothing is held back.
    """
    if not _in_main_thread():
        yield
        return
    arrived: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    held = [sig for sig in (signal.SIGINT, *STOP_SIGNALS) if signal.getsignal(sig) != signal.SIG_IGN]
    previous = {sig: signal.signal(sig, record) for sig in held}
    masked = deaf_children and hasattr(signal, "pthread_sigmask") and signal.SIGINT in previous
    if masked:
        # multiprocessing starts its resource tracker with the first process it spawns, and unblocks
        # Ctrl-C in the thread that does so: started now, it cannot undo the mask below.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    except BaseException as exc:
        _restore(masked, previous)
        if arrived:  # the step failed because it was stopped (its processes got the signal too): say so
            raise _interrupt(arrived[0]) from exc
        raise
    _restore(masked, previous)
    if arrived:
        raise _interrupt(arrived[0])


@contextmanager
def polled_stops() -> Iterator[None]:
    """Within the block a stop is raised only by :func:`raise_if_stopped`, which the block's loop calls between steps.

    A signal handler raises wherever the main thread happens to be, and that
    may be just after it took a lock inside ``threading.Condition.__enter__``
    (a future's, a queue's), which then stays taken: a pool's manager thread
    waiting for it never ends, and neither does the interpreter's exit,
    which joins that thread.  Here Ctrl-C (when it would raise
    ``KeyboardInterrupt``) and a SIGTERM or SIGHUP that
    :func:`stop_on_signals` made raise are recorded instead; other handlers
    are left alone.  A stop that came and was not raised yet is raised on
    leaving the block (from the block's own exception, if it failed
    meanwhile).  Outside the main thread nothing changes.
    """
    if not _in_main_thread():
        yield
        return
    raising = (_raise, signal.default_int_handler)
    previous = {sig: signal.signal(sig, _remember)
                for sig in (signal.SIGINT, *STOP_SIGNALS) if signal.getsignal(sig) in raising}
    try:
        yield
    except BaseException as exc:
        _restore(False, previous)
        if _received and not isinstance(exc, KeyboardInterrupt):
            raise _interrupt(_received.pop(0)) from exc
        raise
    _restore(False, previous)
    raise_if_stopped()


def _restore(masked: bool, previous: dict[signal.Signals, Any]) -> None:
    """Undo :func:`deferred_stops`: Ctrl-C unblocked if *masked* (a pending one is recorded now), the handlers back."""
    if masked:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def _interrupt(signum: int) -> KeyboardInterrupt:
    """The exception a stop by *signum* raises: ``KeyboardInterrupt`` for Ctrl-C, else :class:`Terminated`."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)
