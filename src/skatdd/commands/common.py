"""Options and helpers shared by several commands."""
from __future__ import annotations

import json
from typing import Any, Callable, TypeVar

import click

from ..errors import SkatddError
from ..rules import parse_game, parse_seat

#: A Click command callback, returned unchanged by the option decorators.
F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    """``--json``: print one JSON object instead of the readable report."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable report.")(func)


def tt_option(func: F) -> F:
    """``--tt-mb N``: transposition table size per worker."""
    return click.option(
        "--tt-mb", type=click.IntRange(1, 65536), default=128, show_default=True,
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
