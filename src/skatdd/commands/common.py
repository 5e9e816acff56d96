"""Options and helpers shared by several commands."""
from __future__ import annotations

import json
from typing import Any, Callable

import click

from ..errors import SkatddError
from ..rules import parse_game, parse_seat


def json_option(func: Callable) -> Callable:
    """``--json``: print one JSON object instead of the readable report."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable report.")(func)


def tt_option(func: Callable) -> Callable:
    """``--tt-mb N``: transposition table size per worker."""
    return click.option(
        "--tt-mb", type=click.IntRange(1, 65536), default=128, show_default=True,
        help="Transposition table size in MiB (per worker).",
    )(func)


class GameType(click.ParamType):
    """A contract name; converts to ``(Game, ouvert)``."""

    name = "GAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        try:
            return parse_game(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class SeatType(click.ParamType):
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


def html_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--html PATH`` and ``--four-colour``: also write a self-contained HTML report (:mod:`skatdd.html`)."""
    func = click.option("--four-colour", is_flag=True,
                        help="HTML report: start with the four-colour deck (the page has a switch too).")(func)
    return click.option("--html", "html", metavar="PATH", default=None,
                        help="Also write a self-contained HTML report to PATH (a folder for a file of games).")(func)
