"""A bounded pool of worker processes for the web server, each with one solver, with a time limit per job.

The server's event loop never solves: every job goes to one of *size*
worker processes (:mod:`skatdd.serve.worker`), one job per worker at a time.
A job that finds every worker busy waits in a waiting room of *backlog*
places; when that is full too it is refused at once (:class:`PoolFull`, the
server's 503), so work is never queued without bound.

Every job has a deadline, *time_limit* seconds after it arrived (waiting
included).  A job that misses it (:class:`TimeLimitExceeded`), or whose
caller goes away (the request's task is cancelled: the client closed the
connection), cannot be stopped inside the engine, so its worker process is
killed and a fresh one started in its place; the pool is one worker short
for the fraction of a second that takes.  A worker that dies on its own is
replaced the same way (:class:`WorkerFailed`).

Messages between the pool and a worker are pickled tuples over a pipe: the
pool sends ``(task, payload)``; the worker answers with any number of
``("progress", done, total)`` and then one ``("ok", result)``,
``("error", message)`` (bad input, :class:`TaskError`) or ``("fail", text)``.
The pipe is watched by the event loop (``add_reader``), so waiting for a
worker costs no thread.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from skatdd.core.errors import plural

from .worker import WorkerSettings, worker_main

__all__ = ["PoolFull", "Progress", "TaskError", "TimeLimitExceeded", "WorkerFailed", "WorkerPool"]

#: Called with ``(done, total)`` when a worker reports progress (``total`` 0: not known yet).
Progress = Callable[[int, int], None]

_STOPPING = "the server is shutting down"

#: How long a killed worker may take to go before it is left to the operating system.
_JOIN_SECONDS = 2.0


class PoolFull(Exception):
    """Every worker is busy and the waiting room is full: the job was not taken."""


class TimeLimitExceeded(Exception):
    """The job was not done within the pool's time limit (its worker was replaced)."""


class TaskError(Exception):
    """The job's input is bad: ``str(exc)`` is the one-line message the worker gave."""


class WorkerFailed(Exception):
    """The worker died or failed in a way that is not the input's fault (it was replaced)."""


@dataclass(eq=False)
class _Worker:
    """One worker process, the parent's end of its pipe, and what it has sent for the current job."""

    process: BaseProcess
    conn: Connection
    events: asyncio.Queue[tuple[Any, ...]] = field(default_factory=asyncio.Queue)
    dead: bool = False


def _context() -> Any:  # a ForkServerContext or SpawnContext: BaseContext does not declare Process
    """``forkserver`` where the platform has it (a fresh worker is a fork of a clean, preloaded process), else ``spawn``.

    Never a plain ``fork`` of the server, whose event loop and threads a
    child must not inherit.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["skatdd.serve.worker"])
        return ctx
    return multiprocessing.get_context("spawn")


class WorkerPool:
    """*size* worker processes, a waiting room of *backlog* jobs, *time_limit* seconds a job.

    Each worker runs ``worker_main(pipe, settings)`` (:mod:`skatdd.serve.worker`).
    Use from one event loop: ``await pool.start()``, then :meth:`run` from
    any number of request handlers, and ``await pool.close()`` at the end.
    """

    def __init__(self, size: int, *, settings: WorkerSettings, time_limit: float, backlog: int) -> None:
        if size < 1 or backlog < 0 or time_limit <= 0:
            raise ValueError(f"size={size}, backlog={backlog}, time_limit={time_limit}: expected 1+, 0+ and > 0")
        self.size = size
        self.settings = settings
        self.time_limit = time_limit
        self.backlog = backlog
        self._ctx = _context()
        self._workers: set[_Worker] = set()
        self._idle: list[_Worker] = []
        self._waiters: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._restarts: set[asyncio.Task[None]] = set()
        self._closing = False
        self.replaced = 0  # workers killed and started again (time limits, cancelled jobs, deaths)

    # -- life cycle -----------------------------------------------------------

    def _spawn(self) -> _Worker:
        """Start one worker process (blocking: called in a thread)."""
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=worker_main, args=(child, self.settings), name="skatdd-serve-worker",
                                    daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _adopt(self, worker: _Worker) -> None:
        """Watch *worker*'s pipe and hand it to the next job."""
        self._workers.add(worker)
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._readable, worker)
        self._release(worker)

    async def start(self) -> None:
        """Start every worker (in parallel threads: starting a process blocks)."""
        workers = await asyncio.gather(*(asyncio.to_thread(self._spawn) for _ in range(self.size)))
        for worker in workers:
            self._adopt(worker)

    def interrupt(self) -> None:
        """The server is stopping: refuse new jobs, and end the waiting and running ones with :class:`PoolFull`.

        The running jobs' workers are killed (and not replaced), so their
        requests are answered at once instead of holding up the shutdown.
        """
        self._closing = True
        for task in list(self._restarts):
            task.cancel()
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(PoolFull(_STOPPING))
        for worker in self._workers:
            if worker not in self._idle:
                worker.events.put_nowait(("stop", _STOPPING))

    async def close(self) -> None:
        """Stop every worker (after :meth:`interrupt`)."""
        self.interrupt()
        workers = list(self._workers)
        for worker in workers:
            self._discard(worker)
        await asyncio.gather(*(asyncio.to_thread(w.process.join, _JOIN_SECONDS) for w in workers))

    def status(self) -> dict[str, Any]:
        """``workers``, ``busy``, ``idle``, ``starting``, ``waiting``, ``backlog``, ``time_limit``, ``replaced``."""
        ready = len(self._workers)
        return {
            "workers": self.size, "busy": ready - len(self._idle), "idle": len(self._idle),
            "starting": self.size - ready if not self._closing else 0, "waiting": len(self._waiters),
            "backlog": self.backlog, "time_limit": self.time_limit, "replaced": self.replaced,
        }

    # -- workers ----------------------------------------------------------------

    def _readable(self, worker: _Worker) -> None:
        """The event loop's callback for a worker's pipe: queue its messages; notice its death."""
        try:
            while worker.conn.poll():
                worker.events.put_nowait(worker.conn.recv())
        except (EOFError, OSError):
            self._died(worker)

    def _died(self, worker: _Worker) -> None:
        """*worker*'s pipe closed: tell its job, or replace it at once when it was idle."""
        if worker.dead:
            return
        worker.dead = True
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        if worker in self._idle:
            self._idle.remove(worker)
            self._replace(worker)
        else:
            worker.events.put_nowait(("fail", "the worker process stopped"))

    def _discard(self, worker: _Worker) -> None:
        """Stop watching *worker* and kill its process (it may be in the middle of a search)."""
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.dead = True
        with contextlib.suppress(OSError, ValueError):
            worker.process.kill()
        worker.conn.close()

    def _replace(self, worker: _Worker) -> None:
        """Kill *worker* and start a fresh one in its place, in the background."""
        self._discard(worker)
        self.replaced += 1
        if self._closing:
            return

        async def restart() -> None:
            await asyncio.to_thread(worker.process.join, _JOIN_SECONDS)
            fresh = await asyncio.to_thread(self._spawn)
            if self._closing:
                fresh.process.kill()
                fresh.conn.close()
                return
            self._adopt(fresh)

        task = asyncio.get_running_loop().create_task(restart())
        self._restarts.add(task)
        task.add_done_callback(self._restarts.discard)

    def _release(self, worker: _Worker) -> None:
        """Give *worker* to the longest-waiting job, else make it idle."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _abandon(self, waiter: asyncio.Future[_Worker]) -> None:
        """A waiting job gave up: leave the waiting room, and pass on a worker it was given meanwhile."""
        if waiter in self._waiters:
            self._waiters.remove(waiter)
        if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
            self._release(waiter.result())
        waiter.cancel()

    async def _acquire(self, deadline: float) -> _Worker:
        """An idle worker, after waiting for one until *deadline* if the waiting room has a place."""
        if self._closing:
            raise PoolFull(_STOPPING)
        if self._idle:
            return self._idle.pop()
        if len(self._waiters) >= self.backlog:
            raise PoolFull(f"every worker is busy ({plural(self.size, 'worker')}, {self.backlog} waiting): try again shortly")
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[_Worker] = loop.create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait({waiter}, timeout=max(0.0, deadline - loop.time()))
        except BaseException:
            self._abandon(waiter)
            raise
        if not waiter.done():
            self._abandon(waiter)
            raise TimeLimitExceeded(self._limit_message())
        return waiter.result()

    def _limit_message(self) -> str:
        return f"the request was not done within the server's time limit of {self.time_limit:g} s"

    # -- jobs ---------------------------------------------------------------------

    async def run(self, task: str, payload: Any, progress: Progress | None = None) -> Any:
        """Run *task* on *payload* in a worker and return its result.

        *progress* is called in the event loop with every ``(done, total)``
        the worker reports.  Raises :class:`PoolFull` at once when no worker
        and no waiting place is free (and when the server stops), :class:`TimeLimitExceeded` after the
        time limit, :class:`TaskError` for bad input and
        :class:`WorkerFailed` for anything else.  Cancelling the calling task
        kills the job's worker (a fresh one replaces it).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.time_limit
        worker = await self._acquire(deadline)
        finished = False
        try:
            worker.conn.send((task, payload))
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise TimeLimitExceeded(self._limit_message())
                # Not asyncio.wait_for: on Python 3.11 it returns the event and drops a cancellation that
                # lands as the event arrives, and the cancelled request's job would then run on to its end.
                try:
                    async with asyncio.timeout(remaining):
                        event = await worker.events.get()
                except TimeoutError:
                    raise TimeLimitExceeded(self._limit_message()) from None
                kind = event[0]
                if kind == "progress":
                    if progress is not None:
                        progress(event[1], event[2])
                    continue
                if kind == "ok":
                    finished = True
                    return event[1]
                if kind == "error":
                    finished = True
                    raise TaskError(event[1])
                if kind == "stop":
                    raise PoolFull(event[1])
                raise WorkerFailed(str(event[1]))
        except (OSError, ValueError) as exc:  # the pipe broke while sending: the worker is gone
            raise WorkerFailed(f"the worker process stopped: {exc}") from None
        finally:
            if finished and not worker.dead:
                self._release(worker)
            else:
                self._replace(worker)
