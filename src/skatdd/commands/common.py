"""Options and helpers shared by several commands."""
from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from ..errors import SkatddError
from ..memory import check_table_mib
from ..rules import parse_game, parse_seat
from ..stopping import exit_status, stop_message

#: A Click command callback, returned unchanged by the option decorators.
F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    """``--json``: print one JSON object instead of the readable report."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable report.")(func)


def check_tt_mb(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """Click callback of every ``--tt-mb``: the size must fit in the memory available (:mod:`skatdd.memory`)."""
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


class GameType(click.ParamType):  # type: ignore[type-arg]
    """A contract name; converts to ``(Game, ouvert)``."""

    name = "GAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        try:
            return parse_game(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class SeatType(click.ParamType):  # type: ignore[type-arg]
    """A seat: 0/1/2, F/M/R, forehand/middlehand/rearhand."""

    name = "SEAT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        try:
            return parse_seat(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


GAME = GameType()
SEAT = SeatType()


def emit_json(obj: Any) -> None:
    """Print *obj* as one line of JSON."""
    click.echo(json.dumps(obj, ensure_ascii=False))


T = TypeVar("T")


def run_interruptibly(work: Callable[[], T]) -> T:
    """Run *work* in a worker thread so that Ctrl-C stops the command at once, not when *work* returns.

    Python handles a signal only in the main thread and only between
    bytecodes; a long engine call that releases the GIL (the null-ouvert
    searches do) would leave Ctrl-C unanswered until it returns.  Here the
    main thread just waits, in short steps, and on Ctrl-C prints
    ``Interrupted.`` and ends the process with status 130 at once (SIGTERM
    and SIGHUP likewise, with their own status, :mod:`skatdd.stopping`): nothing
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
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM / SIGHUP (skatdd.stopping)
        click.echo(f"{stop_message(exc)}.", err=True)
        sys.stderr.flush()
        os._exit(exit_status(exc))
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["value"]
    return result


def html_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--html PATH`` and ``--four-colour``: also write a self-contained HTML report (:mod:`skatdd.html`)."""
    func = click.option("--four-colour", is_flag=True,
                        help="HTML report: start with the four-colour deck (the page has a switch too).")(func)
    return click.option("--html", "html", metavar="PATH", default=None,
                        help="Also write a self-contained HTML report to PATH (a folder for a file of games).")(func)


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
