"""Line work on a Dask cluster: the ``--dask ADDRESS`` runner of ``batch`` and ``analyse``.

:func:`run_on_cluster` takes the same line handler as the local pool
(:data:`skatdd.runner.lines.LineHandler`: ``handler(solver, line, raw) ->
LineOutcome``) and the same ``(line_number, raw_line)`` items, and hands
back the same outcomes in input order, so any command built on
:func:`skatdd.runner.lines.run_lines` runs on a cluster by passing ``dask=ADDRESS``.

* ADDRESS is a scheduler (``tcp://host:8786``), or ``local`` / ``local:N``
  for a cluster of N worker processes (default: every core) started for the
  run and stopped after it.
* The input is read lazily and sent in chunks of up to :data:`CHUNK_LINES`
  lines; at most four chunks per worker thread are in flight, so a file of
  millions of lines never sits in memory.  Chunks are handed on strictly in
  input order as they finish (earlier chunks get a higher priority).
* Each worker thread keeps one :class:`~skatdd.engine.solve.Solver` (of the
  run's solver's configuration, with a table of its own) for every chunk of a run it gets;
  the next run on the same cluster starts with a fresh one, as ``--jobs``
  does.
* A worker that dies loses nothing: the scheduler runs its chunks again on
  another worker, and each chunk's results are written once, when its turn
  comes.  A chunk that kills a worker every time it runs (Dask's
  ``KilledWorker``) is reported as an internal error for each of its lines;
  a lost scheduler stops the run with :class:`ClusterError`.

Workers must be able to import skatdd (install it on every machine).
"""
from __future__ import annotations

import logging
import math
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from skatdd.core.errors import MissingDependencyError, SkatddError, quote
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.engine.threads import usable_cores

from .ordered import Chunk, WorkFuture, run_ordered
from .outcome import INTERNAL_ERROR, LineHandler, LineOutcome, error_outcome
from .stopping import deferred_stops
from .workers import cap_workers

__all__ = ["CHUNK_LINES", "ClusterError", "chunk_size", "connect", "parse_address", "run_chunk", "run_on_cluster"]

#: Most lines per task: large enough that a task's overhead is negligible, small enough to balance the load.
CHUNK_LINES = 200

#: Chunks in flight per worker thread (running, queued, or finished and waiting for an earlier one to be
#: written): enough that a thread does not idle while a slow chunk ahead of it holds up the output.
CHUNKS_PER_THREAD = 4

#: How often the number of worker threads (which bounds the chunks in flight) is asked again.
THREADS_REFRESH_SECONDS = 2.0

#: How long to try reaching a scheduler before giving up.
CONNECT_SECONDS = 15

#: Task retries on top of the scheduler's own rescheduling after a worker's death.
RETRIES = 2


class ClusterError(RuntimeError):
    """The cluster failed in a way the run cannot recover from (the scheduler was lost)."""


#: A scheduler address: ``[scheme://]host[:port]``, the host a name, an IPv4 address or a bracketed IPv6 one
#: (:func:`parse_address` then requires the port).
_ADDRESS = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?(?P<host>\[[^\]/]*\]|[^:/\[\]]+)(?::(?P<port>[^/]*))?/?")


def parse_address(address: str) -> tuple[str | None, int | None]:
    """``(scheduler address, None)`` for a scheduler, ``(None, workers)`` for ``local[:N]``.

    ``local`` alone means every core.  A scheduler address is
    ``[scheme://]host:port`` (``tcp://host:8786``, ``host:8786``, ``tls://[::1]:8786``).
    Raises :class:`~skatdd.core.errors.SkatddError` naming the token for a bad ``local:N``,
    an empty or malformed address, a missing port or a port that is not 1-65535
    (caught here, before any attempt to connect).
    """
    text = address.strip()
    shown = quote(address)
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2]
        if not count:
            return None, usable_cores()
        if not count.isdigit() or int(count) < 1:
            raise SkatddError(f"--dask {shown}: expected local:N with N a number of workers >= 1")
        return None, int(count)
    if not text:
        raise SkatddError("--dask '': expected a scheduler address (tcp://host:8786) or local[:N]")
    match = _ADDRESS.fullmatch(text)
    if match is None:
        raise SkatddError(f"--dask {shown}: expected a scheduler address like tcp://host:8786 or local[:N]")
    port = match["port"]
    if port is None:  # Dask has no default port to connect to: it failed at connect, after the output was opened
        raise SkatddError(f"--dask {shown}: no port: expected a scheduler address with its port, like "
                          "tcp://host:8786 or host:8786, or local[:N]")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise SkatddError(f"--dask {shown}: port {quote(port)} is not a port number: expected 1 to 65535 "
                          "(tcp://host:8786)")
    return text, None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingDependencyError("--dask needs dask[distributed]: pip install 'skatdd[dask]'") from None
    return distributed


def _start_local(distributed: Any, workers: int, tt_mb: int | None) -> tuple[Any, Any]:
    """``(cluster, client)``: a local cluster of *workers* processes (capped to the machine) and its client.

    Ctrl-C, SIGTERM and SIGHUP are held back while it starts
    (:func:`skatdd.runner.stopping.deferred_stops`): an interrupt in the middle of
    the start left a half-made cluster that Dask's exit handler then spent
    many seconds closing, with a traceback.  The workers start with Ctrl-C
    blocked, so a Ctrl-C at the terminal reaches only this process, which
    stops them (each would print a traceback of its own).  An interrupt
    that came during the start takes effect once it is over, after the
    cluster is closed again.
    """
    workers = cap_workers(workers, what=f"--dask local:{workers}", tt_mb=tt_mb)
    cluster = client = None
    try:
        with deferred_stops(deaf_children=True):
            # Any free port for the dashboard: a second cluster on the machine must not clash over 8787.
            # The workers' own logs silenced: what they log as errors is a heartbeat that met the scheduler
            # closing (a stop under load) or a task's failure, which reaches the run as that line's error.
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster)
    except BaseException:
        _close(client, cluster, stopped=True)
        raise
    return cluster, client


#: The loggers that report, as errors with tracebacks, the tasks and connections a closing client drops.
_CLOSING_NOISE = ("distributed", "tornado", "asyncio")


def _close(client: Any, cluster: Any, *, stopped: bool) -> None:
    """Close *client* and *cluster* (either may be ``None``), quietly, holding interrupts back until done.

    When the run was *stopped* (an interrupt, a failure), Dask and its event
    loop log every task they cancel and every connection they drop, some of
    it after the close returns (a task's exception is reported when it is
    collected); none of that is news, so their loggers (every one under
    :data:`_CLOSING_NOISE`, some with levels of their own) are silenced for
    the rest of the process.  After a run that ended normally they are
    silenced only while it closes.
    """
    names = [name for name in logging.root.manager.loggerDict if name.split(".")[0] in _CLOSING_NOISE]
    loggers = [logging.getLogger(name) for name in {*names, *_CLOSING_NOISE}]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    with deferred_stops():  # a close that fails leaves them quiet too: the process is on its way out
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    if not stopped:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def connect(address: str, tt_mb: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` for *address* (see :func:`parse_address`), closed on exit.

    For ``local[:N]`` a cluster of N single-threaded worker processes is
    started first (no more than the machine runs, :func:`skatdd.runner.workers.cap_workers`,
    *tt_mb* each worker's table) and stopped on exit.  Raises
    :class:`~skatdd.core.errors.MissingDependencyError` without dask[distributed]
    and :class:`ClusterError` when the scheduler cannot be reached.
    """
    scheduler, workers = parse_address(address)
    distributed = _distributed()
    cluster = None
    try:
        if scheduler is None:
            assert workers is not None
            cluster, client = _start_local(distributed, workers, tt_mb)
        else:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
    except OSError as exc:  # includes the connection timeout
        raise ClusterError(f"cannot reach the Dask scheduler at {quote(address)}: {exc}") from None
    except (ValueError, TypeError) as exc:  # distributed's verdict on a malformed address
        raise SkatddError(f"--dask {quote(address)}: {exc}: expected a scheduler address like tcp://host:8786 "
                          "or local[:N]") from None
    try:
        yield client
    except BaseException:
        _close(client, cluster, stopped=True)
        raise
    _close(client, cluster, stopped=False)


_worker_state = threading.local()


def _thread_solver(run: str, arrived: Solver) -> Solver:
    """This worker thread's Solver for *run*: the one that *arrived* with the run's first chunk here, kept for the others.

    A task's solver arrives unpickled, so with its own empty table (a
    :class:`Solver` pickles as its configuration); the later chunks' copies
    are dropped, and the thread goes on with its warm table.
    """
    solver: Solver | None = getattr(_worker_state, "solver", None)
    if solver is None or getattr(_worker_state, "run", None) != run:
        _worker_state.solver, _worker_state.run = arrived, run
        solver = arrived
    return solver


def run_chunk(handler: LineHandler, solver: Solver, run: str, chunk: Chunk) -> list[LineOutcome]:
    """The task run on a worker: every line of *chunk* through *handler* with the thread's Solver for *run*."""
    mine = _thread_solver(run, solver)
    return [handler(mine, line, raw) for line, raw in chunk]


#: Chunks per worker thread wanted for a short input of known length, so that the last chunks to finish
#: (while other threads are idle) are short -- but not so many that the scheduler's round trip per chunk
#: shows: a realistic deal is about a millisecond of search.  Measured on two workers (400 / 2,000 deals):
#: 16 chunks a thread 1.58x / 1.77x one worker's throughput, 8: 1.60x, 4: 1.72x / 1.64x.
CHUNKS_PER_THREAD_SHORT = 4


def chunk_size(total: int | None, threads: int) -> int:
    """Lines per chunk: :data:`CHUNK_LINES`, fewer for a short input of known *total*.

    A short input gets :data:`CHUNKS_PER_THREAD_SHORT` chunks a worker thread.
    """
    if total is None:
        return CHUNK_LINES
    return max(1, min(CHUNK_LINES, math.ceil(total / (CHUNKS_PER_THREAD_SHORT * max(threads, 1)))))


def _threads(client: Any) -> int:
    """Worker threads in the cluster now (at least 1: the scheduler may still be waiting for workers)."""
    return sum(client.nthreads().values()) or 1


class _DaskBackend:
    """A Dask client as a :class:`~skatdd.runner.ordered.Backend`."""

    def __init__(self, client: Any, handler: LineHandler, solver: Solver, address: str) -> None:
        self.client, self.handler, self.solver, self.address = client, handler, solver, address
        self.run = uuid.uuid4().hex  # names this run's solvers on the workers
        self.submitted = 0
        self._threads, self._counted = _threads(client), time.monotonic()

    def max_chunks(self) -> int:
        # Asking the scheduler costs a round trip: the count (workers come and go) is refreshed every few seconds.
        if time.monotonic() - self._counted > THREADS_REFRESH_SECONDS:
            self._threads, self._counted = _threads(self.client), time.monotonic()
        return CHUNKS_PER_THREAD * self._threads

    def submit(self, chunk: Chunk) -> WorkFuture:
        self.submitted += 1
        future: WorkFuture = self.client.submit(run_chunk, self.handler, self.solver, self.run, chunk, pure=False,
                                                priority=-self.submitted, retries=RETRIES)
        return future

    def failed(self, chunk: Chunk, error: BaseException) -> tuple[list[LineOutcome], bool]:
        if isinstance(error, _distributed().KilledWorker):
            message = f"internal error: the chunk's worker died each time it ran ({error})"
            return [error_outcome(line, None, message, INTERNAL_ERROR) for line, _ in chunk], False
        reason = " ".join(str(error).split())
        raise ClusterError(f"the Dask cluster at {self.address!r} failed: {type(error).__name__}: {reason}") from error


def run_on_cluster(items: Iterable[tuple[int, bytes | str]], *, handler: LineHandler, address: str,
                   solver: Solver | None = None, emit: Callable[[LineOutcome], None], total: int | None = None) -> None:
    """Handle every item on the Dask cluster at *address*, calling *emit* once per line in input order.

    *handler* must be importable on the workers (a top-level function of
    skatdd or a ``functools.partial`` of one); *total*, when known, sizes
    the chunks so every worker gets several.  Every worker thread solves
    with a solver of *solver*'s configuration (a fresh default one for
    ``None``) and a table of its own, kept for the run's later chunks.  On any exception
    (``KeyboardInterrupt`` included) the queued chunks are cancelled before
    it propagates; the lines already emitted stay emitted.
    """
    solver = solver_or_default(solver)
    with connect(address, solver.tt_mb) as client:
        backend = _DaskBackend(client, handler, solver, address)
        threads = backend.max_chunks() // CHUNKS_PER_THREAD
        # On any exception the client is closed on the way out, and the scheduler drops every chunk it still holds.
        run_ordered(iter(items), backend, emit, chunk_lines=chunk_size(total, threads),
                    read_ahead=CHUNK_LINES * threads)
