"""What one line of work comes to: :class:`LineOutcome`, its kinds, the run's :class:`BatchSummary`, line text.

The leaf of the runner: the line runner (:mod:`.lines`), the cluster
(:mod:`.cluster`), resume (:mod:`.resume`) and every line handler above the
runner speak these types, and this module imports none of them.  A handler
(:data:`LineHandler`) turns one raw input line into one outcome with a
solver; the outcome's kind (:data:`OK`, :data:`INPUT_ERROR`,
:data:`INTERNAL_ERROR`) decides the run's exit status
(:attr:`BatchSummary.exit_code`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skatdd.core.errors import DealFormatError
from skatdd.engine.solve import Solver
from skatdd.formats.files import line_too_long, too_long_error
from skatdd.formats.json_object import load_json
from skatdd.formats.json_text import json_text

__all__ = [
    "INPUT_ERROR", "INTERNAL_ERROR", "OK", "BatchSummary", "LineHandler", "LineOutcome", "error_outcome", "line_id",
    "line_text", "record_line",
]

#: Kinds of :class:`LineOutcome`.
OK, INPUT_ERROR, INTERNAL_ERROR = "ok", "input", "internal"


@dataclass
class LineOutcome:
    """The record for one input line, and what kind it is (``ok``, ``input`` or ``internal``)."""

    line: int
    record: dict[str, Any]
    kind: str = OK

    @property
    def is_error(self) -> bool:
        return self.kind != OK


@dataclass
class BatchSummary:
    """Counts for a finished (or interrupted) run."""

    lines: int = 0             # records produced
    input_errors: int = 0
    internal_errors: int = 0
    seconds: float = 0.0
    nodes: int = 0             # summed over solved lines
    error_lines: list[int] = field(default_factory=list)

    def merge(self, earlier: BatchSummary) -> None:
        """Add the counts of *earlier*, a run this one continues (its error lines come first)."""
        self.lines += earlier.lines
        self.input_errors += earlier.input_errors
        self.internal_errors += earlier.internal_errors
        self.nodes += earlier.nodes
        self.error_lines[:0] = earlier.error_lines

    @property
    def exit_code(self) -> int:
        """2 when a line had bad input, else 1 when a line failed inside, else 0."""
        if self.input_errors:
            return 2
        if self.internal_errors:
            return 1
        return 0


#: Handles one line with the worker's solver: ``handler(solver, line, raw) -> LineOutcome``.
LineHandler = Callable[[Solver, int, "bytes | str"], LineOutcome]


def error_outcome(line: int, ident: Any, message: str, kind: str) -> LineOutcome:
    """The error record of line *line* (``{"line", "id", "error"}``, the message on one line) of *kind*."""
    return LineOutcome(line, {"line": line, "id": ident, "error": " ".join(message.split())}, kind)


def record_line(record: dict[str, Any]) -> str:
    """*record* as one line of strict JSON (no newline), always valid UTF-8 (:func:`skatdd.formats.json_text.json_text`)."""
    return json_text(record)


def line_id(raw: bytes | str) -> Any:
    """The ``id`` of a JSON line, ``None`` when it has none or is not a JSON object (never raises)."""
    try:
        obj = load_json(line_text(raw).lstrip("\ufeff"))  # strict: a line that is not JSON has no id
    except ValueError:
        return None
    return obj.get("id") if isinstance(obj, dict) else None


def line_text(raw: bytes | str) -> str:
    """*raw* as text; bytes must be UTF-8 (:class:`DealFormatError` naming the problem otherwise)."""
    if isinstance(raw, str):
        return raw
    if line_too_long(raw):  # cut by the reader (skatdd.formats.files.bounded_lines)
        raise too_long_error(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DealFormatError(f"line is not UTF-8 text: {exc}") from None
