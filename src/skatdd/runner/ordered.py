"""Ordered streaming of line work on any executor: the loop behind the local pool and the Dask runner.

Lines are read on a background thread (:class:`InputFeed`), at most a fixed
number ahead, so a caller that writes one line into a pipe and waits for its
answer gets it: the loop never waits for more input while a finished result
is waiting to be written.  Lines are grouped into chunks of whatever is
available (up to a maximum), each chunk is submitted to a :class:`Backend`,
and finished chunks are handed on strictly in input order, as soon as the
chunk and every earlier one are done.  At most ``backend.max_chunks()``
chunks are in flight, so memory stays bounded whatever the input's length.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from .stopping import polled_stops, raise_if_stopped

if TYPE_CHECKING:
    from .outcome import LineOutcome

__all__ = ["Backend", "Chunk", "InputFeed", "Item", "WorkFuture", "run_ordered"]

#: How often the loop looks for a stop signal (see :func:`run_ordered`): the longest a stop waits to be taken.
STOP_CHECK_SECONDS = 0.1

#: One input line: ``(line_number, raw_line)``.
Item = tuple[int, "bytes | str"]
#: Consecutive input lines handled by one task.
Chunk = list[Item]


class WorkFuture(Protocol):
    """What a backend's ``submit`` returns (a ``concurrent.futures`` or ``distributed`` future)."""

    def done(self) -> bool: ...

    def result(self) -> list[LineOutcome]: ...

    def add_done_callback(self, fn: Callable[[Any], None]) -> None: ...


class Backend(Protocol):
    """Where chunks run: the local process pool or a Dask cluster."""

    def max_chunks(self) -> int:
        """How many chunks may be in flight now."""
        ...

    def submit(self, chunk: Chunk) -> WorkFuture:
        """Start handling *chunk*; the future's result is one outcome per line, in order."""
        ...

    def failed(self, chunk: Chunk, error: BaseException) -> tuple[list[LineOutcome], bool]:
        """The outcomes to report for a chunk whose future raised *error*, and whether to resubmit the others.

        May raise instead (e.g. the cluster is gone): the run then stops.
        """
        ...


class InputFeed:
    """Reads *items* on a daemon thread, at most *capacity* lines ahead of the consumer.

    :meth:`take` never blocks; :meth:`wait` blocks until something changed
    since the previous call (a line was read, the input ended, or
    :meth:`poke` was called, e.g. by a future's done callback).
    """

    def __init__(self, items: Iterator[Item], capacity: int) -> None:
        self._items = items
        self._capacity = max(1, capacity)
        self._ready: deque[Item] = deque()
        self._cond = threading.Condition()
        self._changed = False
        self._ended = False
        self._closed = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._read, name="skatdd-input", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for item in self._items:
                with self._cond:
                    while len(self._ready) >= self._capacity and not self._closed:
                        self._cond.wait()
                    if self._closed:
                        return
                    self._ready.append(item)
                    self._changed = True
                    self._cond.notify_all()
        except BaseException as exc:  # handed to the consumer, which re-raises it in its own thread
            self._error = exc
        with self._cond:
            self._ended = True
            self._changed = True
            self._cond.notify_all()

    def take(self, most: int) -> Chunk:
        """Up to *most* lines read so far (maybe none); re-raises a reading error once every line before it is taken."""
        with self._cond:
            chunk = [self._ready.popleft() for _ in range(min(most, len(self._ready)))]
            if chunk:
                self._cond.notify_all()
            elif self._ended and self._error is not None:
                raise self._error
            return chunk

    @property
    def exhausted(self) -> bool:
        """Every line has been read and taken."""
        with self._cond:
            return self._ended and not self._ready

    def poke(self, *_: Any) -> None:
        """Wake :meth:`wait` (safe from any thread; extra arguments are ignored so it can be a done callback)."""
        with self._cond:
            self._changed = True
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> None:
        """Block until a line was read, the input ended or :meth:`poke` was called since the last wait.

        Returns after *timeout* seconds in any case, when given.
        """
        with self._cond:
            if self._cond.wait_for(lambda: self._changed, timeout):
                self._changed = False

    def close(self) -> None:
        """Stop reading ahead (the thread may stay blocked in a read; it is a daemon)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()


def run_ordered(items: Iterator[Item], backend: Backend, emit: Callable[[LineOutcome], None], *,
                chunk_lines: int, read_ahead: int) -> None:
    """Handle every item on *backend* in chunks of up to *chunk_lines*, calling *emit* per line in input order.

    A chunk is submitted as soon as a slot is free and at least one line is
    read (it takes every line available then, up to *chunk_lines*), so a slow
    pipe is served line by line.  *read_ahead* bounds the lines read but not
    yet submitted.  When a chunk's future raises, ``backend.failed`` decides
    what is reported for it and whether the chunks behind it are submitted
    again.  Exceptions (``KeyboardInterrupt`` included) propagate; the caller
    stops the backend.  A stop signal is taken between steps, within
    :data:`STOP_CHECK_SECONDS` (:func:`skatdd.runner.stopping.polled_stops`),
    never while the loop holds a lock the feed's or the backend's threads
    also take.
    """
    with polled_stops():
        _run_ordered(items, backend, emit, chunk_lines=chunk_lines, read_ahead=read_ahead)


def _run_ordered(items: Iterator[Item], backend: Backend, emit: Callable[[LineOutcome], None], *,
                 chunk_lines: int, read_ahead: int) -> None:
    """:func:`run_ordered`'s loop, stops polled."""
    feed = InputFeed(items, read_ahead)
    pending: deque[tuple[Chunk, WorkFuture]] = deque()

    def submit(chunk: Chunk) -> WorkFuture:
        future = backend.submit(chunk)
        future.add_done_callback(feed.poke)
        return future

    try:
        while True:
            raise_if_stopped()  # also when the work is so quick that the loop never waits
            while pending and pending[0][1].done():
                chunk, future = pending.popleft()
                try:
                    outcomes = future.result()
                except Exception as exc:
                    outcomes, resubmit = backend.failed(chunk, exc)
                    if resubmit:
                        pending = deque((c, submit(c)) for c, _ in pending)
                for outcome in outcomes:
                    emit(outcome)
            if len(pending) < backend.max_chunks():
                chunk = feed.take(chunk_lines)
                if chunk:
                    pending.append((chunk, submit(chunk)))
                    continue
            if not pending and feed.exhausted:
                return
            feed.wait(STOP_CHECK_SECONDS)
    finally:
        feed.close()
