"""Solving many positions: the engine behind ``skatdd batch`` (docs/cli.md).

Input is JSON lines, one position object per line (the fields of
docs/cli.md, read by :func:`skatdd.formats.readers.position_from_json`); blank lines
are skipped but keep the line numbering.  Every other line produces exactly
one output record, in input order:

* solved: ``{"id": ..., <the fields of SolveResult.to_json()>}``;
* bad input: ``{"line": N, "id": ..., "error": "..."}`` with ``N`` the
  physical line number from 1 and ``id`` the object's ``id`` when the line
  is a JSON object (else ``null``);
* an internal failure (a bug, a dead worker) is reported the same way, but
  counted apart so the command can exit 1 instead of 2.

With ``jobs > 1`` lines are solved by worker processes, each owning ONE
:class:`~skatdd.engine.solve.Solver` of the caller's solver's configuration
(and so one transposition table of that size) for all the lines it gets.  At most ``jobs * WINDOW`` tasks (of
up to ``chunk_lines`` lines each) are in flight, so input is read as it is needed and memory stays bounded; each
record is handed to the caller as soon as it and every earlier one are
done.  With ``jobs == 1`` the lines are solved in this process, with the caller's Solver.

Workers ignore SIGINT and die with their parent (:func:`skatdd.runner.workers.init_worker`):
on Ctrl-C -- and on SIGTERM or SIGHUP, which the command line turns into the
same interrupt (:mod:`skatdd.runner.stopping`) -- the parent stops reading, cancels
what is queued, terminates the workers and re-raises
:class:`KeyboardInterrupt`; every record already handed out stays written.
No more workers start than the machine has cores
(:func:`skatdd.runner.workers.cap_workers`).
"""
from __future__ import annotations

import copy
import functools
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any

from skatdd.core.errors import SkatddError
from skatdd.engine.solve import MODES, Solver, solver_or_default
from skatdd.engine.threads import usable_cores
from skatdd.formats.files import bounded_lines
from skatdd.formats.json_object import load_json, position_from_json

from .ordered import Chunk, Item, run_ordered
from .outcome import (
    INPUT_ERROR,
    INTERNAL_ERROR,
    OK,
    BatchSummary,
    LineHandler,
    LineOutcome,
    error_outcome,
    line_id,
    line_text,
    record_line,
)
from .stopping import deferred_stops
from .workers import cap_workers, init_worker

# The outcome types live in .outcome; they are re-exported here, where callers have always found them.
__all__ = [
    "INPUT_ERROR",
    "INTERNAL_ERROR",
    "OK",
    "WINDOW",
    "BatchSummary",
    "LineHandler",
    "LineOutcome",
    "count_lines",
    "default_jobs",
    "line_id",
    "line_text",
    "read_lines",
    "record_line",
    "run_batch",
    "solve_line",
    "worker_count",
]

#: Lines in flight per worker: enough to keep every worker busy while the
#: oldest line (whose result must be written first) is still being solved.
WINDOW = 8
#: Lines a ``batch`` task takes when that many are waiting (fewer from a slow
#: pipe: a task never waits for input).  One full deal is about a millisecond
#: of search, so handing lines over one by one cost a tenth of the time:
#: 2,000 realistic deals with ``--jobs 2`` took 4.26 s one line a task and
#: 3.78 s four lines a task (``--jobs 1``: 6.85 s).  The other commands' lines
#: (whole games, batches of worlds) are large enough to go one by one.
BATCH_CHUNK_LINES = 4

def default_jobs() -> int:
    """Workers when ``--jobs`` is not given: every core this process may use, at least 1."""
    return usable_cores()


def worker_count(jobs: int | None, lines: int | None = None) -> int:
    """Workers to start: *jobs*, or every core when it is ``None``; no more than *lines* when known; at least 1.

    *jobs* beyond the machine's cores is capped, with a warning naming it (:func:`skatdd.runner.workers.cap_workers`).
    """
    workers = jobs if jobs is not None else default_jobs()
    if workers > 1:
        workers = cap_workers(workers, what=f"--jobs {workers}")
    if lines:
        workers = min(workers, lines)
    return max(workers, 1)


def read_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(line_number, raw_line)`` for every non-blank line of *stream*, numbered from 1.

    Lines are read lazily as bytes; decoding happens in :func:`solve_line`
    so that a line that is not UTF-8 is reported as that line's error.
    """
    for number, raw in enumerate(bounded_lines(stream), start=1):
        if raw.strip():
            yield number, raw


def stdin_bytes() -> IO[bytes]:
    """Standard input as a binary stream of its own (not ``sys.stdin.buffer``).

    The input is read on a thread; a worker forked while that thread waits in
    a read must not inherit ``sys.stdin``'s lock held (the child closes
    ``sys.stdin`` at start-up and would hang), so the read goes through a
    separate file object on the same descriptor.  Falls back to
    ``sys.stdin.buffer`` when stdin has no descriptor (tests).
    """
    try:
        return open(sys.stdin.fileno(), "rb", closefd=False)
    except (AttributeError, OSError, ValueError):
        return sys.stdin.buffer


def count_lines(path: str) -> int:
    """Non-blank lines of the file at *path* (for a progress bar's total)."""
    with open(path, "rb") as fh:
        return sum(1 for raw in bounded_lines(fh) if raw.strip())


def solve_line(solver: Solver, line: int, raw: bytes | str, mode: str) -> LineOutcome:
    """Solve one JSON line and return its record (never raises for bad input).

    Bad input (not UTF-8, malformed JSON, an invalid position) gives an
    ``input`` error record naming the problem; any other exception an
    ``internal`` one.  The record of a solved line is ``{"id": ...}`` followed
    by :meth:`SolveResult.to_json`'s fields.
    """
    ident: Any = None
    try:
        text = line_text(raw)
        obj = load_json(text.lstrip("\ufeff"))
        if isinstance(obj, dict):
            ident = obj.get("id")
        spec = position_from_json(obj)
        ident = spec.id
        result = solver.solve(spec.position(), mode)
    except SkatddError as exc:
        return error_outcome(line, ident, str(exc), INPUT_ERROR)
    except Exception as exc:  # a bug must not cost the other lines their results
        return error_outcome(line, ident, f"internal error: {type(exc).__name__}: {exc}", INTERNAL_ERROR)
    return LineOutcome(line, {"id": ident, **result.to_json()})


# ---------------------------------------------------------------------------
# Worker processes

_worker_solver: Solver | None = None
_worker_handler: LineHandler | None = None


def _init_worker(parent: int, solver: Solver, handler: LineHandler) -> None:
    """Per-process setup: the signals and the tie to *parent* (:func:`skatdd.runner.workers.init_worker`), the one Solver.

    The worker's solver is a copy of *solver*'s configuration with a table of
    its own (a copy is built as a Solver unpickles): under 'fork' *solver* is
    the parent's object itself, whose table must not be shared.
    """
    global _worker_solver, _worker_handler
    init_worker(parent)
    _worker_solver = copy.copy(solver)
    _worker_handler = handler


def _work(line: int, raw: bytes | str) -> LineOutcome:
    """One line through the worker's handler with the worker's solver."""
    assert _worker_solver is not None and _worker_handler is not None, "worker not initialised"
    return _worker_handler(_worker_solver, line, raw)


def _context() -> multiprocessing.context.BaseContext:
    """'fork' where it is safe and available (Linux), else 'spawn'."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _new_executor(jobs: int, solver: Solver, handler: LineHandler) -> ProcessPoolExecutor:
    """A pool whose workers are already running: forked now, before the input reader thread holds any lock."""
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=_init_worker,
                                   initargs=(os.getpid(), solver, handler))
    try:
        # Stops are held back while the workers are forked (skatdd.runner.stopping), and taken after.
        with deferred_stops():
            executor.submit(int).result()  # with 'fork' the first task starts every worker
    except BaseException:  # the ones started must not be left behind
        _kill(executor)
        raise
    return executor


def _kill(executor: ProcessPoolExecutor) -> None:
    """Cancel queued work and kill the workers now (SIGKILL: they ignore SIGINT).

    ``ProcessPoolExecutor`` has no public way to stop running work, so the
    worker processes are killed directly.  Not with SIGTERM: a worker still
    starting has its parent's Python handlers (inherited through ``fork``
    until :func:`~skatdd.runner.workers.init_worker` resets them), which
    only record a SIGTERM; such a worker lived on and waited for ever on
    the task queue's lock, which an idle worker killed in its read still
    held, and the pool's manager thread waited for it, and the
    interpreter's exit for the manager.  Then the manager thread, which
    sees the workers die and closes the pool's pipes, is waited for: left
    running, it raced the interpreter's exit hook, which wakes it through
    one of those pipes (``Exception ignored ... Bad file descriptor`` on
    stderr after the command's last line).
    """
    workers = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        if proc.is_alive():
            proc.kill()
    for proc in workers:
        proc.join(timeout=5)
    if manager is not None:
        manager.join(timeout=5)


def _work_chunk(chunk: Chunk) -> list[LineOutcome]:
    """Every line of *chunk* through the worker's handler, in order."""
    return [_work(line, raw) for line, raw in chunk]


class _PoolBackend:
    """The local process pool as a :class:`~skatdd.runner.ordered.Backend`: one line per task, a dead worker costs its line."""

    def __init__(self, jobs: int, solver: Solver, handler: LineHandler) -> None:
        self.jobs, self.solver, self.handler = jobs, solver, handler
        self.executor = _new_executor(jobs, solver, handler)

    def max_chunks(self) -> int:
        return self.jobs * WINDOW

    def submit(self, chunk: Chunk) -> Future[list[LineOutcome]]:
        return self.executor.submit(_work_chunk, chunk)

    def failed(self, chunk: Chunk, error: BaseException) -> tuple[list[LineOutcome], bool]:
        if not isinstance(error, BrokenProcessPool):
            raise error
        # A worker died (a crash in the engine, or it was killed).  The line at the head is reported;
        # the rest are resubmitted to a fresh pool, so each breakage costs one line.
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = _new_executor(self.jobs, self.solver, self.handler)
        return [error_outcome(line, None, f"internal error: the worker process died ({error})", INTERNAL_ERROR)
                for line, _ in chunk], True


def _run_pool(items: Iterator[Item], jobs: int, solver: Solver, handler: LineHandler,
              emit: Callable[[LineOutcome], None], chunk_lines: int) -> None:
    """Handle *items* on *jobs* worker processes (each a solver like *solver*), calling *emit* in input order."""
    backend = _PoolBackend(jobs, solver, handler)
    try:
        run_ordered(items, backend, emit, chunk_lines=chunk_lines, read_ahead=jobs * WINDOW * chunk_lines)
    except BaseException:
        _kill(backend.executor)
        raise
    backend.executor.shutdown(wait=True)


def run_lines(items: Iterable[tuple[int, bytes | str]], *, handler: LineHandler, jobs: int = 1,
              solver: Solver | None = None, emit: Callable[[LineOutcome], None], dask: str | None = None,
              total: int | None = None, chunk_lines: int = 1) -> BatchSummary:
    """Handle every ``(line_number, raw_line)`` of *items*, calling *emit* once per line in input order.

    *handler* (a picklable top-level function or ``functools.partial`` of
    one) turns a line into its :class:`LineOutcome` with a solver.  *emit*
    gets each outcome as soon as it and all earlier lines are done (write
    and flush there; a line written is never taken back).  *jobs* ``1``
    works in this process with *solver* (default: a fresh
    :class:`~skatdd.engine.solve.Solver`, :func:`~skatdd.engine.solve.solver_or_default`),
    more uses that many worker processes, each with a solver of *solver*'s
    configuration and a table of its own (so do the cluster's workers), a
    task taking up to *chunk_lines* lines when they are waiting.  *dask* (a scheduler address or
    ``local[:N]``) runs the lines on that Dask cluster instead, *jobs* then
    unused (:func:`skatdd.runner.cluster.run_on_cluster`; *total*, the number of
    lines when known, sizes its chunks).  *jobs* beyond what the machine
    runs is capped, with a warning line on stderr (:func:`skatdd.runner.workers.cap_workers`).  Returns the counts; raises
    ``ValueError`` for *jobs* < 1 and re-raises :class:`KeyboardInterrupt`
    after stopping the workers.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    solver = solver_or_default(solver)
    if jobs > 1 and dask is None:
        jobs = cap_workers(jobs, what=f"--jobs {jobs}", tt_mb=solver.tt_mb)
    summary = BatchSummary()
    start = time.perf_counter()

    def record(outcome: LineOutcome) -> None:
        summary.lines += 1
        if outcome.kind == INPUT_ERROR:
            summary.input_errors += 1
            summary.error_lines.append(outcome.line)
        elif outcome.kind == INTERNAL_ERROR:
            summary.internal_errors += 1
            summary.error_lines.append(outcome.line)
        elif outcome.kind == OK:
            summary.nodes += int(outcome.record.get("nodes", 0))
        emit(outcome)

    try:
        if dask is not None:
            from .cluster import run_on_cluster  # dask is an optional extra

            run_on_cluster(items, handler=handler, address=dask, solver=solver, emit=record, total=total)
        elif jobs == 1:
            for line, raw in items:
                record(handler(solver, line, raw))
        else:
            _run_pool(iter(items), jobs, solver, handler, record, chunk_lines)
    finally:
        summary.seconds = time.perf_counter() - start
    return summary


def run_batch(items: Iterable[tuple[int, bytes | str]], *, jobs: int = 1, mode: str = "value",
              solver: Solver | None = None, emit: Callable[[LineOutcome], None], dask: str | None = None,
              total: int | None = None) -> BatchSummary:
    """Solve every ``(line_number, raw_line)`` of *items* (JSON positions) with :func:`run_lines`.

    Raises ``ValueError`` for a bad *mode* or *jobs*.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
    return run_lines(items, handler=functools.partial(solve_line, mode=mode), jobs=jobs, solver=solver, emit=emit,
                     dask=dask, total=total, chunk_lines=BATCH_CHUNK_LINES)
