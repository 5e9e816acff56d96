"""The worker process of the server's pool (:mod:`skatdd.serve.pool`): one solver, one job at a time.

:func:`worker_main` reads ``(task, body)`` from its pipe, runs the task of
:data:`TASKS` on the request body's text, and answers ``("ok", result)``,
``("error", message)`` for bad input (a :class:`~skatdd.core.errors.SkatddError`
or a Click option error, as the one line the CLI would print after
``Error:``) or ``("fail", text)`` for anything else; a task may send
``("progress", done, total)`` before that.  It ends when the pipe closes
(the server stopped or died).  Ctrl-C is ignored here: the terminal sends
it to the whole process group, and the server, which owns the workers,
stops them itself.
"""
from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import click

from skatdd.core.errors import SkatddError
from skatdd.engine.solve import Solver

from .api import advise_request, one_line, solve_request
from .board import board_line, board_load
from .review import board_review

__all__ = ["TASKS", "Job", "WorkerSettings", "worker_main"]


@dataclass(frozen=True)
class WorkerSettings:
    """What every worker is started with: its solver and the largest ``worlds`` it accepts.

    The settings reach a worker pickled (the pool starts its workers with
    'forkserver' or 'spawn'), and a :class:`Solver` pickles as its
    configuration: each worker's solver has a table of its own.
    """

    solver: Solver
    max_worlds: int


@dataclass
class Job:
    """What a task gets besides the body: the worker's solver, its settings and the progress reporter."""

    solver: Solver
    settings: WorkerSettings
    progress: Callable[[int, int], None]


TASKS: dict[str, Callable[[Job, str], Any]] = {
    "solve": lambda job, body: solve_request(body, solver=job.solver),
    "advise": lambda job, body: advise_request(body, solver=job.solver, progress=job.progress,
                                               max_worlds=job.settings.max_worlds),
    "board-load": lambda job, body: board_load(body),
    "board-line": lambda job, body: board_line(body, solver=job.solver),
    "board-review": lambda job, body: board_review(body, solver=job.solver, max_worlds=job.settings.max_worlds),
}


def worker_main(conn: Connection, settings: WorkerSettings) -> None:
    """Serve jobs from *conn* until it closes (module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def progress(done: int, total: int) -> None:
        conn.send(("progress", done, total))

    job = Job(settings.solver, settings, progress)
    while True:
        try:
            task, body = conn.recv()
        except (EOFError, OSError):
            return
        answer: tuple[Any, ...]
        try:
            answer = ("ok", TASKS[task](job, body))
        except SkatddError as exc:
            answer = ("error", one_line(str(exc)))
        except click.ClickException as exc:
            answer = ("error", one_line(exc.format_message()))
        except Exception as exc:  # reported to the server, which answers 500 and replaces this worker
            answer = ("fail", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return
