"""Files of many games, one result per line: reading and judging each line (``analyse``, ``best``).

A file of games holds one ISS record or JSON object per line;
:func:`handle_line` turns one line into its output record with the
caller's *work*, and is the ``handler`` that :func:`skatdd.runner.lines.run_lines`
runs in input order on one or many processes.  A record in which nobody
played is reported as skipped, not as an error.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skatdd.core.errors import DealFormatError, SkatddError, quote
from skatdd.formats.files import record_id
from skatdd.formats.readers import DealInput, parse_input

from .outcome import INPUT_ERROR, INTERNAL_ERROR, LineOutcome, line_text

__all__ = ["handle_line", "line_error", "no_game_line"]


def line_error(line: int, ident: Any, message: str, kind: str) -> LineOutcome:
    """The record of a line of a file of games that could not be handled: ``{"line", "id", "error"}``."""
    return LineOutcome(line, {"line": line, "id": ident, "error": " ".join(message.split())}, kind)


def no_game_line(line: int, found: DealInput) -> LineOutcome | None:
    """``{"line", "id", "skipped"}`` for an ISS record in which nobody played (not an error), else ``None``."""
    if found.record is None or found.spec is not None:
        return None
    why = str(found.missing_spec or "no game was played")
    return LineOutcome(line, {"line": line, "id": found.record.id, "skipped": " ".join(why.split())})


def handle_line(line: int, raw: bytes | str, work: Callable[[DealInput], dict[str, Any]]) -> LineOutcome:
    """Read one line of a file of games and return ``work(found)`` as its record; never raises for bad input.

    The line must be an ISS record or a JSON object.  A record in which
    nobody played gives :func:`no_game_line`'s record; bad input a
    :func:`line_error` of kind ``input``; anything else (a bug) one of kind
    ``internal``, so one line never costs the others their results.
    """
    ident: Any = None
    try:
        text = line_text(raw).strip().lstrip("\ufeff")
        ident = record_id(text)
        if not text.startswith(("(;", "{")):
            raise DealFormatError(
                f"{quote(text)} is not a game: expected an ISS game record '(;GM[Skat]...;)' or a JSON object"
            )
        found = parse_input(text)
        skipped = no_game_line(line, found)
        if skipped is not None:
            return skipped
        return LineOutcome(line, work(found))
    except SkatddError as exc:
        return line_error(line, ident, str(exc), INPUT_ERROR)
    except Exception as exc:  # a bug must not cost the other lines their results
        return line_error(line, ident, f"internal error: {type(exc).__name__}: {exc}", INTERNAL_ERROR)


def game_line_id(raw: bytes | str) -> Any:
    """The id a line of games is reported under: an ISS record's ``ID``, a JSON object's ``id``, else ``None``."""
    try:
        text = line_text(raw)
    except DealFormatError:
        return None
    return record_id(text.strip().lstrip("\ufeff"))
