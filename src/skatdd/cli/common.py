"""Options and helpers shared by several commands."""
from __future__ import annotations

import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click

from skatdd.core.errors import SkatddError, quote
from skatdd.core.rules import parse_game, parse_seat
from skatdd.core.scoring import MAX_BID, MIN_BID
from skatdd.formats.json_text import json_text
from skatdd.runner.memory import check_table_mib
from skatdd.runner.outputs import FILE, FILE_OR_FOLDER, FOLDER, PARTIAL, check_output
from skatdd.runner.stopping import exit_status, stop_message

#: A Click command callback, returned unchanged by the option decorators.
F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    """``--json``: print one JSON object instead of the readable report."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable report.")(func)


def check_tt_mb(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """Click callback of every ``--tt-mb``: the size must fit in the memory available (:mod:`skatdd.runner.memory`)."""
    if value is None:
        return None
    try:
        return check_table_mib(value)
    except SkatddError as exc:
        raise click.BadParameter(str(exc).removeprefix("--tt-mb "), ctx=ctx, param=param) from None


def tt_option(func: F) -> F:
    """``--tt-mb N``: transposition table size per worker."""
    return click.option(
        "--tt-mb", type=click.IntRange(1, 65536), default=128, show_default=True, callback=check_tt_mb,
        help="Transposition table size in MiB (per worker).",
    )(func)


class ParsedType(click.ParamType):  # type: ignore[type-arg]
    """An option value read by one of core's parsers; its error becomes Click's one-line option error.

    *name* is the metavar, *parse* the parser (raising a
    :class:`~skatdd.core.errors.SkatddError` naming the token), *done* the
    type of a value already converted (a default given as the result).
    """

    def __init__(self, name: str, parse: Callable[[Any], Any], done: type) -> None:
        self.name, self.parse, self.done = name, parse, done

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """*value* parsed, or as it is when already converted; a bad value fails with the parser's message."""
        if isinstance(value, self.done):
            return value
        try:
            return self.parse(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class OutputPath(click.ParamType):  # type: ignore[type-arg]
    """A path an option writes to, checked as the command line is read (:func:`skatdd.runner.outputs.check_output`).

    *kind*, *beside* and *replaced* as for ``check_output``; *check*, when
    given, is called with the path first (a table's format).  Every option
    that writes uses this type, so a path that cannot be written is refused
    before any work, in one line, exit status 2.
    """

    def __init__(self, kind: str = FILE, *, beside: tuple[str, ...] = (), replaced: bool = False,
                 check: Callable[[str], object] | None = None) -> None:
        self.kind, self.beside, self.replaced, self.check = kind, beside, replaced, check
        self.name = {FILE: "FILE", FOLDER: "FOLDER"}.get(kind, "PATH")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            if self.check is not None:
                self.check(value)
            return check_output(value, "", self.kind, beside=self.beside, replaced=self.replaced)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class BidType(click.ParamType):  # type: ignore[type-arg]
    """A bid of every ``--bid``: a whole number from 18 to 264, the highest game value (:data:`~skatdd.core.scoring.MAX_BID`).

    Above it no game can be won without being overbid, so a higher bid is
    refused rather than scored (a bid of 10^20 would make every score -2e20).
    """

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.INT.convert(value, param, ctx)
        if not MIN_BID <= number <= MAX_BID:
            self.fail(f"{quote(number)} is not a bid: expected {MIN_BID} to {MAX_BID} (the highest game value: "
                      "grand ouvert with or without four)", param, ctx)
        return number


class FiniteFloat(click.FloatRange):
    """A finite number from *low* to *high* (each excluded when open): the type of every float option.

    Click's ``FLOAT`` and ``FloatRange`` take ``nan`` (no comparison with a
    bound fails), ``inf`` and numbers like ``1e308`` when unbounded above: a
    timeout of ``nan`` never compares as expired, one of ``inf`` overflows the
    clocks and waits it is handed to, far from the command line.  Here both
    bounds are required, and every float option of every command uses this
    type (a test walks the commands' options), so such a value is refused as
    the command line is read: one line naming the token as typed, exit status
    2.  The help shows the range as ``FloatRange`` does.
    """

    def __init__(self, low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> None:
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"FiniteFloat needs finite bounds low < high, not {low!r}, {high!r}")
        super().__init__(low, high, min_open=low_open, max_open=high_open)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """*value* as a float when it is a finite number in range; else Click's one-line error naming it."""
        number = click.FLOAT.convert(value, param, ctx)  # not a number: Click's message names the token
        if not math.isfinite(number):
            self.fail(f"{quote(value)} is not a finite number: expected {self._describe_range()}", param, ctx)
        try:
            return super().convert(number, param, ctx)
        except click.BadParameter:  # name the token as typed (Click names the float: -1.0 for '-1')
            self.fail(f"{quote(value)} is not in the range {self._describe_range()}", param, ctx)


#: The most seconds a float option takes: a day.  Longer is no use to a run or a request, and a far
#: larger number overflows the waits it is handed to (``threading.TIMEOUT_MAX``, ``signal.setitimer``).
MAX_SECONDS = 86_400.0

#: A contract name (grand, clubs, ..., null, null-ouvert); converts to ``(Game, ouvert)``.
GAME = ParsedType("GAME", parse_game, tuple)
#: A seat: 0/1/2, F/M/R, forehand/middlehand/rearhand.
SEAT = ParsedType("SEAT", parse_seat, int)
BID = BidType()


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
        os.dup2(saved, 1)
        os.close(saved)


def html_option(folders: bool) -> Callable[[F], F]:
    """``--html PATH`` and ``--four-colour``: also write a self-contained HTML report (:mod:`skatdd.present.html`).

    With *folders* PATH may be a folder (one ending in ``/``, or an existing
    one); else it is one page.  Checked before any work (:class:`OutputPath`).
    """
    where = "PATH (a folder for a file of games; a PATH ending in '/' is a folder)" if folders else "FILE"

    def decorate(func: F) -> F:
        func = click.option("--four-colour", is_flag=True,
                            help="HTML report: start with the four-colour deck (the page has a switch too).")(func)
        return click.option("--html", "html", metavar="PATH" if folders else "FILE", default=None,
                            type=OutputPath(FILE_OR_FOLDER if folders else FILE, beside=(PARTIAL,), replaced=True),
                            help=f"Also write a self-contained HTML report to {where}.")(func)
    return decorate


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
