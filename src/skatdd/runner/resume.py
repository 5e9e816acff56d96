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

Records without an ``id`` cannot tell one input from another, nor can a
record tell which options made it; so a run also writes a *run record*
beside its output, ``FILE.run.json`` (:func:`run_record_path`): the
:class:`RunFingerprint` of the input's bytes and of every option that
changes results (:func:`run_fingerprint`).  ``--resume`` refuses an output
whose run record is missing or differs ("not this run's output"), before
anything is read or written.  A runner that writes result lines
(``batch``, ``analyse``, and later ones) passes its fingerprint to
:func:`open_output` and gets all of this.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from skatdd.core.errors import ResumeError, SkatddError, quote
from skatdd.formats.json_object import load_json
from skatdd.formats.json_text import json_text
from skatdd.version import __version__

from .ordered import Item
from .outcome import INPUT_ERROR, INTERNAL_ERROR, OK, BatchSummary, record_line
from .outputs import lock_output

__all__ = ["RUN_RECORD", "RunFingerprint", "input_digest", "open_output", "outcome_kind", "run_fingerprint",
           "run_record_path"]

#: Suffix of the run record written beside an output file: ``results.jsonl.run.json``.
RUN_RECORD = ".run.json"

#: Marks a run record and its layout: ``{"skatdd_run": 1, ...}``.
_RECORD_FORMAT = 1


def run_record_path(output: str) -> str:
    """Where the run record of the output file *output* is kept: beside it, ``output + RUN_RECORD``."""
    return output + RUN_RECORD


def input_digest(path: str | None) -> str | None:
    """SHA-256 (hex) of the bytes of the input file *path*; ``None`` for standard input (*path* ``None`` or ``-``).

    Standard input cannot be read twice, so it is not fingerprinted: a run
    from stdin is checked by its options, line numbers and ids only.
    Raises ``OSError`` when the file cannot be read.
    """
    if path is None or path == "-":
        return None
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


@dataclass(frozen=True)
class RunFingerprint:
    """What a run was: the digest of its input (``None``: stdin) and the options that change its results.

    *options* maps an option as the user spells it (``"--mode"``) to its
    value (JSON: text, numbers, booleans, ``None`` for not given), plus
    ``"command"``.  Options that change only speed or where the work runs
    (``--jobs``, ``--dask``, ``--tt-mb``) do not belong in it.
    """

    input: str | None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of the input digest and the options (sorted by name), as one JSON line."""
        canonical = {"input": self.input, "options": dict(sorted(self.options.items()))}
        return hashlib.sha256(record_line(canonical).encode("utf-8")).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """The run record written beside the output (what :meth:`from_json` reads back)."""
        return {"skatdd_run": _RECORD_FORMAT, "fingerprint": self.digest, "input_sha256": self.input,
                "options": dict(self.options), "version": __version__}

    @classmethod
    def from_json(cls, obj: Any) -> RunFingerprint | None:
        """The fingerprint of a run record read back; ``None`` when *obj* is not one."""
        if not (isinstance(obj, dict) and obj.get("skatdd_run") == _RECORD_FORMAT
                and isinstance(obj.get("options"), dict) and isinstance(obj.get("input_sha256"), (str, type(None)))):
            return None
        return cls(obj["input_sha256"], obj["options"])

    def differences(self, earlier: RunFingerprint) -> list[str]:
        """How this run differs from *earlier*'s, one phrase each; empty when it may continue its output.

        The inputs are compared when both are files (a run from stdin has
        no digest); every option is compared.
        """
        out = []
        if self.input is not None and earlier.input is not None and self.input != earlier.input:
            out.append("it was made from another input (or the input changed since)")
        for key in sorted(set(self.options) | set(earlier.options)):
            then, now = earlier.options.get(key), self.options.get(key)
            if then != now:
                out.append(f"it was made with {key} {_value(then)}, this run has {key} {_value(now)}")
        return out


def _value(value: Any) -> str:
    """An option's value in a message: ``5``, ``'all'``, ``on``/``off`` for a flag, ``(not given)``."""
    if value is None:
        return "(not given)"
    if isinstance(value, bool):
        return "on" if value else "off"
    return quote(value)


def run_fingerprint(input_digest: str | None, options: Mapping[str, Any]) -> RunFingerprint:
    """The fingerprint of a run on the input of *input_digest* (:func:`input_digest`) with *options*.

    >>> a = run_fingerprint(None, {"command": "batch", "--mode": "all"})
    >>> a.differences(run_fingerprint(None, {"command": "batch", "--mode": "win"}))
    ["it was made with --mode 'win', this run has --mode 'all'"]
    """
    return RunFingerprint(input_digest, dict(options))


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
        raise ResumeError(f"{path} line {number}: more results than the input has lines: the file is not "
                          "this run's output")
    line, raw = item
    numbered = "error" in record or "skipped" in record  # elsewhere "line" is a line of play
    if numbered and record.get("line") != line:
        raise ResumeError(f"{path} line {number}: result for input line {_shown(record['line'])}, expected line {line}: "
                          "the file is not this run's output")
    expected = ident(raw)
    if expected is not None and record.get("id") != expected:
        raise ResumeError(f"{path} line {number}: result for id {_shown(record.get('id'))}, but input line {line} has "
                          f"id {_shown(expected)}: the file is not this run's output")


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


def _has_records(path: str) -> bool:
    """Whether *path* holds at least one whole line (a torn first line alone is no record)."""
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 16):
            if b"\n" in chunk:
                return True
    return False


def _check_run_record(path: str, run: RunFingerprint) -> None:
    """Refuse to continue *path* unless its run record shows it was made by *run*'s input and options."""
    if not os.path.isfile(path) or not _has_records(path):
        return  # nothing written yet that another run could have made
    record = run_record_path(path)
    refused = f"{quote(path)} is not this run's output"
    again = "start again without --resume"
    try:
        with open(record, "rb") as fh:
            text = fh.read(1 << 20)
    except FileNotFoundError:
        raise ResumeError(f"{refused}, or cannot be shown to be: it has no run record {quote(record)} (every run "
                          f"with -o writes one); {again}") from None
    try:
        earlier = RunFingerprint.from_json(load_json(text))
    except (SkatddError, ValueError, RecursionError):
        earlier = None
    if earlier is None:
        raise ResumeError(f"{refused}, or cannot be shown to be: {quote(record)} is not a skatdd run record; {again}")
    differences = run.differences(earlier)
    if differences:
        raise ResumeError(f"{refused}: {'; '.join(differences)}; {again}, or resume with the same input and options")


def _write_run_record(path: str, run: RunFingerprint | None) -> None:
    """Write *run*'s record beside the output *path* (a regular file; a device such as /dev/null gets none)."""
    if run is not None and os.path.isfile(path):
        with open(run_record_path(path), "w", encoding="utf-8") as fh:
            fh.write(record_line(run.to_json()) + "\n")


def open_output(path: str, items: Iterator[Item], *, resume: bool, ident: Callable[[bytes | str], Any],
                on_record: Callable[[dict[str, Any]], None] = lambda record: None,
                run: RunFingerprint | None = None) -> tuple[IO[str], BatchSummary]:
    """Open *path* for a run's results; with *resume*, continue the results already there.

    Without *resume* (or when *path* does not exist yet) the file is created
    or emptied, and *run*'s record written beside it.  With it, the run
    record beside *path* must match *run* (:meth:`RunFingerprint.differences`;
    not checked when *run* is ``None``), then every whole record is checked
    against the next line of *items* (which is consumed; ``ident(raw)`` gives
    a line's id, or ``None`` when it has none), handed to *on_record*, and
    counted in the returned summary; a torn last line is cut off and the
    file is opened for appending.  The file stays locked until the
    returned stream is closed (:func:`skatdd.runner.outputs.lock_output`):
    a second run on it raises :class:`~skatdd.core.errors.OutputError` at
    once and changes nothing, neither the file nor its run record.  Raises
    :class:`~skatdd.core.errors.ResumeError` when the file is not this run's
    output (it is then left as it was), and ``OSError`` when it cannot be
    opened.
    """
    summary = BatchSummary()
    existed = os.path.exists(path)
    fd = lock_output(path)  # before anything is read, cut or written: another run may be writing it
    if fd is None:  # a device such as /dev/null: nothing to lock, keep or check
        return open(path, "w", encoding="utf-8"), summary
    try:
        if not resume or not existed:
            os.ftruncate(fd, 0)
            _write_run_record(path, run)
            return open(fd, "w", encoding="utf-8"), summary
        if run is not None:
            _check_run_record(path, run)
        end = _answered(path, items, ident, on_record, summary)
        os.ftruncate(fd, end)
        os.lseek(fd, end, os.SEEK_SET)
        if end == 0:
            _write_run_record(path, run)  # nothing kept: from now on the file is this run's
        return open(fd, "a", encoding="utf-8"), summary
    except BaseException:
        os.close(fd)
        raise
