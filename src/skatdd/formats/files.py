"""Where input comes from: a command-line argument that is the input itself, a file, or a file of many.

* :func:`read_source`: a DEAL/GAME argument as text, read from a file when
  it names one (``-``: standard input); a lone word that is neither a file
  nor anything else is reported as a missing file by the readers.
* :func:`strip_comments`: blank lines and ``#`` lines removed.
* :func:`open_games`: a GAME/DEAL argument that may be a file of many
  records, one a line (ISS records or JSON objects): how many there are is
  decided by looking ahead until a second record line turns up, so a huge
  file or a pipe is never read whole.
* :func:`record_id`: the ``id`` of one such line before it is parsed, for
  error records.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import IO

from skatdd.core.errors import DealFormatError, quote

from .json_object import load_json

__all__ = [
    "MAX_INPUT_CHARS", "MAX_LINE_BYTES", "Games", "bounded_lines", "count_games", "game_lines", "line_too_long",
    "looks_like_path", "missing_file", "open_games", "read_source", "record_id", "strip_comments", "too_long_error",
]


def looks_like_path(text: str) -> bool:
    """A lone word (no whitespace, no comma): what a path looks like and a deal, a JSON object or a record does not."""
    return bool(text) and not any(ch.isspace() or ch == "," for ch in text) and not text.startswith(("{", "(;"))


#: Longest path an error message shows whole (a path that exists is always shown whole).
PATH_LIMIT = 300


def missing_file(arg: str) -> DealFormatError:
    """The error for *arg*, which looks like a path, when it names no regular file and is no deal either."""
    if os.path.isdir(arg):
        what = "is a directory, not a file"
    elif os.path.exists(arg):  # a device, a pipe, a socket: /dev/null was said not to exist
        what = "is not a regular file"
    else:
        what = "does not exist"
    return DealFormatError(
        f"file {quote(arg, PATH_LIMIT)} {what} (and it is neither a file nor a deal: expected a path, a JSON object, "
        "an ISS record, or four groups of cards separated by '/')"
    )


#: The longest single input read from a file or standard input (characters): a deal or a record is a
#: few KiB; the bound keeps ``solve - < /dev/zero`` from taking all the memory.
MAX_INPUT_CHARS = 16 << 20


def _read_bounded(stream: IO[str], what: str) -> str:
    """All of *stream*, refused (:class:`DealFormatError` naming *what*) past :data:`MAX_INPUT_CHARS` characters."""
    text = stream.read(MAX_INPUT_CHARS + 1)
    if len(text) > MAX_INPUT_CHARS:
        raise DealFormatError(f"{what} is longer than {MAX_INPUT_CHARS:,} characters: no deal or game is that long")
    return text


def read_source(arg: str) -> tuple[str, str | None]:
    """``(text, path)``: the input's text, and the file it came from (``None`` when *arg* is the input itself).

    A file is read as UTF-8 (a byte-order mark is dropped); a file that
    cannot be read, or holds more than :data:`MAX_INPUT_CHARS` characters,
    raises :class:`DealFormatError` naming it.
    """
    head = arg.lstrip()
    if head.startswith(("{", "(;")):
        return arg, None
    if arg == "-":
        try:
            return _read_bounded(sys.stdin, "standard input"), None
        except (OSError, UnicodeDecodeError) as exc:
            raise DealFormatError(f"cannot read standard input: {quote(str(exc))}") from None
    if arg and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8-sig") as fh:
                return _read_bounded(fh, f"deal file {quote(arg, PATH_LIMIT)}"), arg
        except (OSError, UnicodeDecodeError) as exc:
            raise DealFormatError(f"cannot read deal file {arg!r}: {quote(str(exc))}") from None  # a real path: shown whole
    return arg, None


def strip_comments(text: str) -> str:
    """*text* without blank lines and lines starting with ``#``."""
    return "\n".join(line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


#: The longest line a file of many inputs may hold (bytes, its newline aside): records and deals are a few
#: KiB at most; a longer line is that line's error, read and dropped in pieces, so that a file with no
#: newline (``/dev/zero``) cannot take all the memory.
MAX_LINE_BYTES = 1 << 20

#: The pieces in which the rest of a line longer than :data:`MAX_LINE_BYTES` is read and dropped.
_SKIP_BYTES = 1 << 16


def bounded_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of *stream* as iterating it gives them, but none held longer than ``MAX_LINE_BYTES + 1`` bytes.

    A longer line is given as its first ``MAX_LINE_BYTES + 1`` bytes, without
    its newline (:func:`line_too_long` tells it), and the rest is read and
    dropped; the next line is the one after it.
    """
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if line_too_long(raw):
            while (rest := stream.readline(_SKIP_BYTES)) and not rest.endswith(b"\n"):
                pass
        yield raw


def line_too_long(raw: bytes | str) -> bool:
    """Whether *raw*, a line from :func:`bounded_lines`, was longer than :data:`MAX_LINE_BYTES` (and cut)."""
    return isinstance(raw, bytes) and len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n")


def too_long_error(raw: bytes) -> DealFormatError:
    """The error of a line :func:`line_too_long` found cut: it names the line's start and the limit."""
    return DealFormatError(f"{quote(raw[:40].decode('utf-8', 'replace'))}... is a line longer than "
                           f"{MAX_LINE_BYTES:,} bytes: no deal or game is that long")


def _is_record(raw: bytes) -> bool:
    head = raw.lstrip().lstrip(b"\xef\xbb\xbf").lstrip()
    return head.startswith((b"(;", b"{"))


def game_lines(raws: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(line_number, raw)`` for each line that is neither blank nor a ``#`` comment; numbers count from 1."""
    for number, raw in enumerate(raws, start=1):
        text = raw.strip()
        if text and not text.startswith(b"#"):
            yield number, raw


def count_games(path: str) -> int:
    """How many lines of the file at *path* :func:`game_lines` gives (a progress bar's total), read line by line."""
    with open(path, "rb") as fh:
        return sum(1 for _ in game_lines(bounded_lines(fh)))


def record_id(text: str) -> object:
    """The ``id`` of one record line (ISS ``ID[...]`` or a JSON object's ``id``) before it is parsed; never raises."""
    try:
        if text.startswith("(;"):
            _, sep, rest = text.partition("ID[")
            return (rest.partition("]")[0] or None) if sep else None
        obj = load_json(text)  # strict: a line that is not JSON (an id of NaN) has no id to echo
        return obj.get("id") if isinstance(obj, dict) else None
    except ValueError:
        return None


@dataclass
class Games:
    """A GAME/DEAL argument opened by :func:`open_games`: one input, or the lines of a file of many.

    Exactly one of :attr:`text` (the one input, decoded) and :attr:`lines`
    (``(line_number, raw)`` of every record line) is set; :attr:`total`
    counts the lines of a file of many (``None`` for standard input) and
    :attr:`path` names the file (``None`` for an argument or stdin).
    """

    text: str | None
    lines: Iterator[tuple[int, bytes]] | None
    total: int | None
    path: str | None


@contextlib.contextmanager
def open_games(arg: str, what: str = "GAME") -> Iterator[Games]:
    """Open *arg* (the input itself, a path, or ``-`` for stdin) as one input or a file of many.

    A file (or stdin) holds many when two of its lines start a record
    (``(;`` or ``{``); blank lines and ``#`` lines are skipped but keep the
    numbering.  Otherwise its whole text is the one input.  Raises
    :class:`DealFormatError` for a file that cannot be read or is not
    UTF-8, and for a path that does not exist (:func:`missing_file`).
    """
    if arg.lstrip().startswith(("(;", "{")):
        yield Games(arg, None, None, None)
        return
    stream: IO[bytes]
    if arg == "-":
        stream, path = sys.stdin.buffer, None
    elif os.path.isfile(arg):
        try:
            stream, path = open(arg, "rb"), arg
        except OSError as exc:
            raise DealFormatError(f"cannot read {what} file {quote(arg)}: {exc.strerror or exc}") from None
    else:
        # Not a file: the argument itself is the input (deal text), or a path that does not exist.
        yield Games(arg, None, None, None)
        return
    try:
        lines = bounded_lines(stream)
        head: list[bytes] = []
        found = 0
        for raw in lines:
            head.append(raw)
            found += _is_record(raw)
            if found >= 2:
                break
        if found < 2:
            rest = list(chain(head, lines))
            for raw in rest:
                if line_too_long(raw):
                    raise DealFormatError(f"{path or 'stdin'}: {too_long_error(raw)}")
            raw_text = b"".join(rest)
            try:
                text = raw_text.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise DealFormatError(f"{path or 'stdin'}: not UTF-8 text: {exc}") from None
            yield Games(text, None, None, path)
            return
        total = count_games(path) if path is not None else None
        yield Games(None, game_lines(chain(head, lines)), total, path)
    finally:
        if path is not None:
            stream.close()
