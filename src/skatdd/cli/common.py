"""Helpers shared by several commands: output, warnings, interruption, standard output kept apart.

The shared options are in :mod:`skatdd.cli.options`.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any, TypeVar

import click

from skatdd.formats.json_text import json_text
from skatdd.runner.stopping import exit_status, stop_message


def emit_json(obj: Any) -> None:
    """Print *obj* as one line of strict JSON (:func:`~skatdd.formats.json_text.json_text`)."""
    click.echo(json_text(obj))


def print_warnings(warnings: Iterable[str]) -> None:
    """Print each of an input's warnings (:attr:`skatdd.formats.readers.DealInput.warnings`) as one ``Warning:`` line on stderr."""
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)


T = TypeVar("T")


def run_interruptibly(work: Callable[[], T]) -> T:
    """Run *work* in a worker thread so that Ctrl-C stops the command at once, not when *work* returns.

    Python handles a signal only in the main thread and only between
    bytecodes; a long engine call that releases the GIL (the null-ouvert
    searches do) would leave Ctrl-C unanswered until it returns.  Here the
    main thread just waits, in short steps, and on Ctrl-C prints
    ``Interrupted.`` and ends the process with status 130 at once (SIGTERM
    and SIGHUP likewise, with their own status, :mod:`skatdd.runner.stopping`): nothing
    has been written yet, and the thread, still inside the engine, cannot
    be stopped any other way.  Exceptions of *work* are re-raised here.
    """
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the main thread below
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="skatdd-work", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM / SIGHUP (skatdd.runner.stopping)
        click.echo(f"{stop_message(exc)}.", err=True)
        sys.stderr.flush()
        os._exit(exit_status(exc))
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["value"]
    return result


#: Exit status for a standard output closed by its reader: 128 + SIGPIPE, what a shell reports for ``| head``.
BROKEN_PIPE_STATUS = 128 + signal.SIGPIPE


def quiet_broken_pipe() -> None:
    """After a write to a closed standard output: point it at the null device, so nothing more fails.

    Python flushes stdout once more at exit; on the closed pipe that would
    print an ``Exception ignored`` message.  The caller then exits with
    :data:`BROKEN_PIPE_STATUS`, quietly: the reader (``| head``) wanted no more.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no descriptor (an in-process caller's stdout): nothing flushes to a pipe
        pass


@contextmanager
def results_apart() -> Iterator[IO[str]]:
    """Keep standard output for results while players run: descriptor 1 points at stderr within the block.

    Yields the stream results are written through: standard output itself
    on a descriptor of the command's own (duplicated before the
    redirection).  Within the block descriptor 1 is stderr, so whatever
    players (plug-ins) write there, by ``print``, ``os.write(1, ...)``,
    ``sys.__stdout__``, a handler made at import time or a subprocess, goes
    to stderr, in this process and in the worker processes started in the
    block.  Afterwards descriptor 1 is standard output again, for the
    summary.  A standard output with no descriptor (Click's test runner) is
    yielded as it is.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd != 1:
        yield sys.stdout
        return
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    results = open(saved, "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors, closefd=False)
    try:
        yield results
    finally:
        for stream in (results, sys.stdout, sys.__stdout__):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):  # a reader gone (`| head`): quiet_broken_pipe has said what there is
                pass
        # Closed here, before its descriptor is: a flush that failed (a full disk) leaves the text in its buffer,
        # and Python 3.13 flushes it once more when the object goes, onto the closed descriptor ("Exception ignored").
        with suppress(OSError, ValueError):
            results.close()
        os.dup2(saved, 1)
        os.close(saved)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A ``progress(done, total)`` callback drawing a bar on stderr, or ``None`` when stderr is no terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=1000, label=label, file=sys.stderr, show_eta=True) as bar:
        shown = 0

        def progress(done: int, total: int) -> None:
            nonlocal shown
            target = done * 1000 // max(total, 1)
            if target > shown:
                bar.update(target - shown)
                shown = target

        yield progress
