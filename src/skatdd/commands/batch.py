"""``skatdd batch``: solve every JSON line of a file, JSON lines out in input order (docs/cli.md).

FILE holds one JSON position object per line (``-`` reads stdin); blank
lines are skipped (they produce no output but keep the line numbering).
Each other line produces one JSON line on stdout, in input order, flushed as
soon as it and every line before it are solved: ``id`` plus the fields of
``skatdd solve --json``, or ``{"line": N, "id": ..., "error": "..."}`` for a
line that cannot be solved (N counts physical lines from 1).  Each bad line
also gets a one-line message on stderr.

``--jobs N`` (default: every core) runs N worker processes with one solver
and one ``--tt-mb`` transposition table each.  A progress bar goes to
stderr when stderr is a terminal.

Exit status: 0 when every line was solved, 2 when a line had bad input
(after every other line is done), 1 when a line failed for another reason
(a bug), 130 on Ctrl-C (lines already written stay written).  The logic
lives in :mod:`skatdd.batch`.
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import IO, Callable

import click

from ..batch import BatchSummary, LineOutcome, count_lines, default_jobs, read_lines, run_batch
from ..solve import MODES
from .common import tt_option

__all__ = ["command", "Progress"]


class Progress:
    """A one-line progress display on a terminal stream: done/total, errors, lines per second.

    With an unknown *total* (stdin) it shows the count only.  Redraws at
    most every 0.1 s; :meth:`message` clears the line before writing one.
    """

    def __init__(self, stream: IO[str], total: int | None) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
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
        rate = self.done / max(now - self.start, 1e-9)
        if self.total:
            filled = int(30 * min(self.done, self.total) / self.total)
            head = f"[{'#' * filled}{'-' * (30 - filled)}] {self.done}/{self.total}"
        else:
            head = f"{self.done} lines"
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
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes, one solver each [default: every core].")
@click.option("--mode", type=click.Choice(MODES), default="value", show_default=True,
              help="As for 'skatdd solve': value, win or all.")
@tt_option
def command(file: str, jobs: int | None, mode: str, tt_mb: int) -> None:
    """Solve every JSON position line of FILE ('-': stdin); JSON lines out, in input order.

    Blank lines are skipped.  A line that cannot be solved yields
    {"line": N, "id": ..., "error": "..."} in its place and a message on
    stderr; the exit status is then 2, after every other line is done.

    \b
    Examples:
      skatdd batch examples/positions.jsonl --jobs 2
      skatdd batch - --mode all < positions.jsonl > results.jsonl
    """
    workers = jobs if jobs is not None else default_jobs()
    total: int | None = None
    if file == "-":
        stream: IO[bytes] = sys.stdin.buffer
    else:
        try:
            total = count_lines(file)
            stream = open(file, "rb")
        except OSError as exc:
            raise click.BadParameter(f"cannot read {file!r}: {exc.strerror or exc}", param_hint="FILE") from None
        if total:
            workers = min(workers, total)
    try:
        stream_results(lambda emit: run_batch(read_lines(stream), jobs=max(workers, 1), mode=mode, tt_mb=tt_mb,
                                              emit=emit),
                       total, what="lines could not be solved")
    finally:
        if file != "-":
            stream.close()


def stream_results(run: Callable[[Callable[[LineOutcome], None]], BatchSummary], total: int | None, *,
                   what: str) -> None:
    """Run *run(emit)* and stream its outcomes as JSON lines on stdout; exit as batch does.

    Each outcome is written and flushed at once; error lines are echoed on
    stderr (above the progress bar, shown when stderr is a terminal).  Ctrl-C
    exits 130 and a closed stdout (``| head``) exits 0, leaving what was
    written intact; when a line failed, a summary naming *what* went wrong
    goes to stderr and the exit status is the summary's (2 bad input, 1
    internal failure).
    """
    stderr = sys.stderr
    progress = Progress(stderr, total) if stderr.isatty() else None
    out = sys.stdout

    def emit(outcome: LineOutcome) -> None:
        out.write(json.dumps(outcome.record, ensure_ascii=False) + "\n")
        out.flush()
        if progress is not None:
            progress.update(outcome)
        if outcome.is_error:
            text = f"Error: line {outcome.line}: {outcome.record['error']}"
            if progress is not None:
                progress.message(text)
            else:
                stderr.write(text + "\n")
                stderr.flush()

    try:
        summary = run(emit)
    except KeyboardInterrupt:
        if progress is not None:
            progress.clear()
        click.echo("Interrupted: the lines written so far are complete.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    if progress is not None:
        progress.close()
    if summary.exit_code:
        bad = summary.input_errors + summary.internal_errors
        shown = ", ".join(map(str, summary.error_lines[:10])) + (", ..." if bad > 10 else "")
        click.echo(f"Error: {bad} of {summary.lines} {what} (line{'s' if bad != 1 else ''} {shown})", err=True)
        sys.exit(summary.exit_code)
