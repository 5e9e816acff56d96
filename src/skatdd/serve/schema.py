"""The advise request's schema: its fields, each read as the ``skatdd advise`` option of that name reads it.

A body is ``{"position": ..., "worlds": N, "seed": S}`` and optionally
``played``, ``after``, ``game``, ``declarer``, ``inference``, ``honest``,
``honest_tricks``.  Each field is converted by the same Click parameter
type as the command's option (an integer range, an integer, a contract, a
seat, a choice), so a bad value gets the CLI's message byte for byte
(tests/test_serve_api.py compares them), and the defaults are the command's
constants (:data:`~skatdd.analysis.advise.api.DEFAULT_WORLDS`,
:data:`~skatdd.analysis.advise.api.DEFAULT_SEED`,
:data:`~skatdd.analysis.honest.api.DEFAULT_TRICKS`).  ``honest`` is the
flag ``--honest``: JSON ``true`` or ``false``; ``honest_tricks`` without
``honest: true`` is refused with the CLI's message, as ``--honest-tricks``
without ``--honest`` is.  The schema is serve's own: serve and cli are both
top layers, and neither imports the other.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from skatdd.analysis.advise.api import DEFAULT_SEED, DEFAULT_WORLDS, MAX_HONEST_TRICKS
from skatdd.analysis.honest.api import DEFAULT_TRICKS
from skatdd.analysis.inference.api import INFERENCES
from skatdd.core.errors import SkatddError, quote
from skatdd.core.rules import Game, parse_game, parse_seat
from skatdd.formats.json_text import json_text

__all__ = ["ADVISE_OPTIONS", "AdviseRequest", "RequestError", "read_advise_request"]


class RequestError(SkatddError):
    """A request body the CLI has no message for: not a JSON object, a missing or unknown field, a server limit."""


class _Parsed(click.ParamType):  # type: ignore[type-arg]
    """A value read by one of core's parsers, failing as Click's option error with the parser's message."""

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name, self.parse = name, parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self.parse(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


#: The optional fields of an advise request and the ``skatdd advise`` option each stands for, with its type.
_FIELDS: dict[str, click.Option] = {
    "worlds": click.Option(["--worlds"], type=click.IntRange(min=1)),
    "seed": click.Option(["--seed"], type=click.INT),
    "played": click.Option(["--played"], type=click.STRING),
    "after": click.Option(["--after"], type=click.IntRange(min=0)),
    "game": click.Option(["--game"], type=_Parsed("GAME", parse_game)),
    "declarer": click.Option(["--declarer"], type=_Parsed("SEAT", parse_seat)),
    "inference": click.Option(["--inference"], type=click.Choice(INFERENCES)),
    "honest": click.Option(["--honest"], is_flag=True),
    "honest_tricks": click.Option(["--honest-tricks"], type=click.IntRange(1, MAX_HONEST_TRICKS)),
}
#: Field name -> the ``skatdd advise`` option it stands for.
ADVISE_OPTIONS = {name: option.opts[0] for name, option in _FIELDS.items()}
#: The fields that are flags: JSON ``true`` or ``false``, not a value's text.
_FLAGS = ("honest",)
#: ``skatdd advise``'s message for ``--honest-tricks`` without ``--honest`` (cli/options.check_honest_tricks).
_HONEST_TRICKS_ALONE = "--honest-tricks needs --honest: without it no honest search runs"


@dataclass(frozen=True)
class AdviseRequest:
    """An advise request, read and typed: the arguments of ``skatdd advise POSITION ...`` it stands for."""

    position: str
    worlds: int = DEFAULT_WORLDS
    seed: int = DEFAULT_SEED
    played: str | None = None
    after: int | None = None
    game: tuple[Game, bool] | None = None
    declarer: int | None = None
    inference: str = "none"
    honest: bool = False
    honest_tricks: int = DEFAULT_TRICKS


def _is_record_text(text: str) -> bool:
    """True for text the readers take as it is, never as a path: a JSON object or an ISS record."""
    return text.lstrip().startswith(("{", "(;"))


def _position_text(value: Any) -> str:
    """The POSITION argument of an advise request's ``position`` field: an object's JSON, or a record's text."""
    if isinstance(value, dict):
        return json_text(value)
    if isinstance(value, str) and _is_record_text(value):
        return value
    raise RequestError("field 'position' must be a JSON position object or the text of an ISS record "
                       "(the server reads no files)")


def _option_text(name: str, value: Any) -> str:
    """One field's value as its command-line text (``played`` may be a list of cards)."""
    if name == "played" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RequestError(f"field {quote(name)} must be a number or a string, got {json_text(value)[:40]}")
    return str(value)


def _flag(name: str, value: Any) -> bool:
    """A flag field's value: JSON ``true`` or ``false`` (the flag given or not), nothing else."""
    if not isinstance(value, bool):
        raise RequestError(f"field {quote(name)} must be true or false, got {json_text(value)[:40]}")
    return value


def read_advise_request(obj: Any) -> AdviseRequest:
    """The :class:`AdviseRequest` a decoded body stands for; the field's message, as the CLI's, for a bad one.

    Raises :class:`RequestError` for a body of the wrong shape and
    :class:`click.BadParameter` (the CLI's option error) for a bad value,
    checked in the order of :data:`ADVISE_OPTIONS`, as the command checks its options;
    then :class:`click.UsageError` for ``honest_tricks`` without ``honest: true``,
    as the command checks that after reading its options.
    """
    if not isinstance(obj, dict):
        raise RequestError('the request body must be a JSON object: {"position": ..., "worlds": N, "seed": S}')
    unknown = [name for name in obj if name != "position" and name not in _FIELDS]
    if unknown:
        raise RequestError(f"unknown field {quote(str(unknown[0]))}: expected position, {', '.join(_FIELDS)}")
    if obj.get("position") is None:
        raise RequestError("field 'position' is missing: expected a JSON position object or an ISS record")
    given = [name for name in _FIELDS if obj.get(name) is not None]
    flags = {name: _flag(name, obj[name]) for name in given if name in _FLAGS}
    texts = {name: _option_text(name, obj[name]) for name in given if name not in _FLAGS}
    position = _position_text(obj["position"])
    values: dict[str, Any] = {name: _FIELDS[name].type.convert(text, _FIELDS[name], None)
                              for name, text in texts.items()}
    if "honest_tricks" in values and not flags.get("honest", False):
        raise click.UsageError(_HONEST_TRICKS_ALONE)
    values.update(flags)
    return AdviseRequest(position=position, **values)
