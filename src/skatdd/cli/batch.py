"""``skatdd batch``: solve every JSON line of a file, JSON lines out in input order (docs/cli.md).

FILE holds one JSON position object per line (``-`` reads stdin); blank
lines are skipped (they produce no output but keep the line numbering).
Each other line produces one JSON line on stdout, in input order, flushed as
soon as it and every line before it are solved: ``id`` plus the fields of
``skatdd solve --json``, or ``{"line": N, "id": ..., "error": "..."}`` for a
line that cannot be solved (N counts physical lines from 1).  Each bad line
also gets a one-line message on stderr.

``--jobs N`` (default: every core) runs N worker processes with one solver
and one ``--tt-mb`` transposition table each; ``--dask ADDRESS`` runs the
lines on a Dask cluster instead (:mod:`skatdd.runner.cluster`).  ``-o FILE``
writes the results to FILE, and ``-o FILE --resume`` continues an
interrupted run (:mod:`skatdd.runner.resume`).  A progress bar goes to stderr when
stderr is a terminal.

Exit status: 0 when every line was solved, 2 when a line had bad input
(after every other line is done), 1 when a line failed for another reason
(a bug), 130 on Ctrl-C (lines already written stay written).  The logic
lives in :mod:`skatdd.runner.lines`.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

import click

from skatdd.core.errors import plural
from skatdd.engine.solve import MODES, Solver
from skatdd.runner.cluster import ClusterError
from skatdd.runner.lines import (
    BatchSummary,
    LineOutcome,
    count_lines,
    line_id,
    read_lines,
    record_line,
    run_batch,
    stdin_bytes,
    worker_count,
)
from skatdd.runner.ordered import Item
from skatdd.runner.outputs import check_not_input
from skatdd.runner.resume import RunFingerprint, input_digest, open_output, run_fingerprint
from skatdd.runner.stopping import exit_status, stop_message

from .common import BROKEN_PIPE_STATUS, quiet_broken_pipe
from .options import jobs_option, json_flag, run_options, tt_option

__all__ = ["Progress", "ResultSink", "command", "output_fingerprint", "stream_results"]


class Progress:
    """A one-line progress display on a terminal stream: done/total, errors, lines per second.

    With an unknown *total* (stdin) it shows the count only; *done* lines
    were finished before (a resumed run) and are not counted in the rate.
    Redraws at most every 0.1 s; :meth:`message` clears the line before
    writing one.
    """

    def __init__(self, stream: IO[str], total: int | None, done: int = 0) -> None:
        self.stream = stream
        self.total = total
        self.done = self.skipped = done
        self.errors = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._width = 0

    def update(self, outcome: LineOutcome) -> None:
        self.done += 1
        self.errors += outcome.is_error
        now = time.perf_counter()
        if now - self._last >= 0.1 or (self.total is not None and self.done >= self.total):
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = (self.done - self.skipped) / max(now - self.start, 1e-9)
        if self.total:
            filled = int(30 * min(self.done, self.total) / self.total)
            head = f"[{'#' * filled}{'-' * (30 - filled)}] {self.done}/{self.total}"
        else:
            head = plural(self.done, "line")
        text = f"{head}  {self.errors} error{'s' if self.errors != 1 else ''}  {rate:.1f} lines/s"
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def clear(self) -> None:
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def message(self, text: str) -> None:
        self.clear()
        self.stream.write(text + "\n")
        self.stream.flush()
        self._draw(time.perf_counter())

    def close(self) -> None:
        self._draw(time.perf_counter())
        self.stream.write("\n")
        self.stream.flush()


@click.command("batch")
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@jobs_option("Worker processes, one solver each [default: every core].")
@click.option("--mode", type=click.Choice(MODES), default="value", show_default=True,
              help="As for 'skatdd solve': value, win or all.")
@run_options
@json_flag("Accepted like every command's --json: the output is JSON lines anyway.")
@tt_option
def command(file: str, jobs: int | None, mode: str, dask: str | None, output: str | None, resume: bool,
            as_json: bool, tt_mb: int) -> None:
    """Solve every JSON position line of FILE ('-': stdin); JSON lines out, in input order.

    Blank lines are skipped.  A line that cannot be solved yields
    {"line": N, "id": ..., "error": "..."} in its place and a message on
    stderr; the exit status is then 2, after every other line is done.

    \b
    Examples:
      skatdd batch examples/positions.jsonl --jobs 2
      skatdd batch - --mode all < positions.jsonl > results.jsonl
      skatdd batch deals.jsonl --dask tcp://head:8786 -o results.jsonl --resume
    """
    total: int | None = None
    if file == "-":
        stream: IO[bytes] = stdin_bytes()
    else:
        try:
            total = count_lines(file)
            stream = open(file, "rb")
        except OSError as exc:
            raise click.BadParameter(f"cannot read {file!r}: {exc.strerror or exc}", param_hint="FILE") from None
    try:
        items = read_lines(stream)
        run = output_fingerprint(output, file, {"command": "batch", "--mode": mode})
        solver = Solver(tt_mb=tt_mb)
        with ResultSink(output, items, resume=resume, line_id=line_id, run=run) as sink:
            stream_results(lambda emit: run_batch(items, jobs=worker_count(jobs, total), mode=mode, solver=solver, emit=emit,
                                                  dask=dask, total=total),
                           total, what="lines could not be solved", sink=sink)
    finally:
        if file != "-":
            stream.close()


def output_fingerprint(output: str | None, source: str | None, options: dict[str, Any]) -> RunFingerprint | None:
    """The :class:`~skatdd.runner.resume.RunFingerprint` of a run from *source* (``None``/``-``: stdin) with *options*.

    ``None`` without ``-o`` (results on stdout need no run record).  Raises
    :class:`~skatdd.core.errors.OutputError` when ``-o`` is the input file itself.
    """
    if output is None:
        return None
    check_not_input(output, "-o", source)
    try:
        return run_fingerprint(input_digest(source), options)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {source!r}: {exc.strerror or exc}", param_hint="FILE") from None


class ResultSink:
    """Where result lines go: standard output, or ``-o FILE`` (created, or continued with *resume*).

    With *resume* the records already in FILE are checked against *items*,
    which are advanced past the lines they answer (:func:`skatdd.runner.resume.open_output`);
    ``prior`` counts them and *on_record* sees each.  *run* (see
    :func:`output_fingerprint`) is recorded beside FILE, and a resumed FILE
    must have been made by the same input and options.  Every record is
    written as one whole line and flushed.  Without FILE the lines go to
    *stdout* (default ``sys.stdout``).  Raises ``click.UsageError`` for
    ``--resume`` without ``-o``, and :class:`~skatdd.core.errors.ResumeError`
    when FILE is not this run's output.
    """

    def __init__(self, output: str | None, items: Iterator[Item], *, resume: bool,
                 line_id: Callable[[bytes | str], Any],
                 on_record: Callable[[dict[str, Any]], None] = lambda record: None,
                 run: RunFingerprint | None = None, stdout: IO[str] | None = None) -> None:
        self.output = output
        self.prior = BatchSummary()
        if output is None:
            if resume:
                raise click.UsageError("--resume needs -o FILE: the output of the run to continue")
            self.stream: IO[str] = sys.stdout if stdout is None else stdout
            return
        try:
            self.stream, self.prior = open_output(output, items, resume=resume, ident=line_id, on_record=on_record,
                                                  run=run)
        except OSError as exc:  # name the file that failed: FILE, or its resume record beside it
            failed = exc.filename if isinstance(exc.filename, str) else output
            raise click.BadParameter(f"cannot write {failed!r}: {exc.strerror or exc}", param_hint="-o") from None

    def write(self, record: dict[str, Any]) -> None:
        self.stream.write(record_line(record) + "\n")
        self.stream.flush()

    def __enter__(self) -> ResultSink:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.output is not None:
            self.stream.close()


def stream_results(run: Callable[[Callable[[LineOutcome], None]], BatchSummary], total: int | None, *,
                   what: str, sink: ResultSink | None = None,
                   on_record: Callable[[dict[str, Any]], None] = lambda record: None) -> None:
    """Run *run(emit)* and stream its outcomes as JSON lines to *sink* (default stdout); exit as batch does.

    Each outcome is written and flushed at once and then handed to
    *on_record*; error lines, and the ``warnings`` of a record, are echoed on stderr (above the progress bar,
    shown when stderr is a terminal; it counts the lines *sink* already
    held).  Ctrl-C exits 130 (SIGTERM 143, SIGHUP 129) and a closed stdout (``| head``) exits 141,
    leaving what was written intact; a lost Dask scheduler exits 1.  When a
    line failed (now or in the resumed part), a summary naming *what* went
    wrong goes to stderr and the exit status is the summary's (2 bad input,
    1 internal failure).
    """
    sink = sink if sink is not None else ResultSink(None, iter(()), resume=False, line_id=line_id)
    prior = sink.prior
    stderr = sys.stderr
    progress = Progress(stderr, total, done=prior.lines) if stderr.isatty() else None

    written = prior.lines

    def emit(outcome: LineOutcome) -> None:
        nonlocal written
        sink.write(outcome.record)
        written += 1
        on_record(outcome.record)
        if progress is not None:
            progress.update(outcome)
        notes = [f"Warning: line {outcome.line}: {warning}" for warning in outcome.record.get("warnings", ())]
        if outcome.is_error:
            notes.append(f"Error: line {outcome.line}: {outcome.record['error']}")
        for text in notes:
            if progress is not None:
                progress.message(text)
            else:
                stderr.write(text + "\n")
                stderr.flush()

    try:
        summary = run(emit)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM / SIGHUP (skatdd.runner.stopping)
        if progress is not None:
            progress.clear()
        click.echo(f"{stop_message(exc)}: the lines written so far are complete.", err=True)
        sys.exit(exit_status(exc))
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, with the status a shell shows for a broken pipe.
        quiet_broken_pipe()
        sys.exit(BROKEN_PIPE_STATUS)
    except ClusterError as exc:
        if progress is not None:
            progress.clear()
        kept = "; the lines written so far are complete (-o FILE --resume continues)" if written else ""
        click.echo(f"Error: {exc}{kept}", err=True)
        sys.exit(1)
    if progress is not None:
        progress.close()
    summary.merge(prior)
    if summary.exit_code:
        bad = summary.input_errors + summary.internal_errors
        shown = ", ".join(map(str, summary.error_lines[:10])) + (", ..." if bad > 10 else "")
        click.echo(f"Error: {bad} of {summary.lines} {what} (line{'s' if bad != 1 else ''} {shown})", err=True)
        sys.exit(summary.exit_code)
