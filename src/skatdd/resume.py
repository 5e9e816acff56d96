"""Continuing an interrupted run: ``-o FILE --resume`` of ``batch`` and ``analyse``.

A run writes one JSON record per non-blank input line, in input order, as
whole lines; so an interrupted output file is a prefix of the finished one,
possibly followed by a torn last line (no newline) that was being written
when the run stopped.  :func:`open_resumed` drops that torn line, checks that
the ``K`` whole records answer the first ``K`` input lines (an error or
skipped record's ``line`` must be the input line's number, a record's
``id`` the line's own id), and
leaves the input positioned after them, so the run goes on where it stopped
and the finished file equals one uninterrupted run.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import IO, Any

from .batch import INPUT_ERROR, INTERNAL_ERROR, OK, BatchSummary
from .errors import ResumeError
from .json_text import json_text
from .ordered import Item
from .readers.json_object import load_json

__all__ = ["open_output", "outcome_kind"]


def outcome_kind(record: dict[str, Any]) -> str:
    """The kind (``ok``, ``input``, ``internal``) of a record read back from an output file."""
    error = record.get("error")
    if error is None:
        return OK
    return INTERNAL_ERROR if str(error).startswith("internal error") else INPUT_ERROR


def _shown(value: Any) -> str:
    text = json_text(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _check(path: str, number: int, record: dict[str, Any], item: Item | None,
           ident: Callable[[bytes | str], Any]) -> None:
    if item is None:
        raise ResumeError(f"{path} line {number}: more results than the input has lines: expected the output of "
                          "this input")
    line, raw = item
    numbered = "error" in record or "skipped" in record  # elsewhere "line" is a line of play
    if numbered and record.get("line") != line:
        raise ResumeError(f"{path} line {number}: result for input line {_shown(record['line'])}, expected line {line}: "
                          "the file is not the output of this input")
    expected = ident(raw)
    if expected is not None and record.get("id") != expected:
        raise ResumeError(f"{path} line {number}: result for id {_shown(record.get('id'))}, but input line {line} has "
                          f"id {_shown(expected)}: the file is not the output of this input")


def _answered(path: str, items: Iterator[Item], ident: Callable[[bytes | str], Any],
              on_record: Callable[[dict[str, Any]], None], summary: BatchSummary) -> int:
    """Check the whole records of *path* against *items*; return the byte offset after the last one."""
    end = 0
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.endswith(b"\n"):
                break  # torn by the interruption: dropped and redone
            try:
                record = load_json(raw)  # strict: a NaN is no record skatdd wrote
            except (ValueError, RecursionError):
                record = None
            if not isinstance(record, dict):
                raise ResumeError(f"{path} line {number}: {_shown(raw.decode('utf-8', 'replace').strip())} is not a "
                                  "result record: expected a JSON object per line")
            _check(path, number, record, next(items, None), ident)
            summary.lines += 1
            kind = outcome_kind(record)
            if kind != OK:
                summary.error_lines.append(record.get("line", number))
                if kind == INPUT_ERROR:
                    summary.input_errors += 1
                else:
                    summary.internal_errors += 1
            on_record(record)
            end += len(raw)
    return end


def open_output(path: str, items: Iterator[Item], *, resume: bool, ident: Callable[[bytes | str], Any],
                on_record: Callable[[dict[str, Any]], None] = lambda record: None) -> tuple[IO[str], BatchSummary]:
    """Open *path* for a run's results; with *resume*, continue the results already there.

    Without *resume* (or when *path* does not exist yet) the file is created
    or emptied.  With it, every whole record is checked against the next
    line of *items* (which is consumed; ``ident(raw)`` gives a line's id, or
    ``None`` when it has none), handed to *on_record*, and counted in the
    returned summary; a torn last line is cut off and the file is opened for
    appending.  Raises :class:`~skatdd.errors.ResumeError` when the file is
    not the output of this input, and ``OSError`` when it cannot be opened.
    """
    summary = BatchSummary()
    if not resume or not os.path.exists(path):
        return open(path, "w", encoding="utf-8"), summary
    end = _answered(path, items, ident, on_record, summary)
    with open(path, "r+b") as fh:
        fh.truncate(end)
    return open(path, "a", encoding="utf-8"), summary
