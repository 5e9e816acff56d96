"""``skatdd null-ouvert``: is this null ouvert unbeatable? (docs/cli.md)

HAND is the declarer's ten cards after the discard; ``--skat`` the two skat
cards when known (without it the skat is one more unknown: a hand game);
``--declarer`` the declarer's seat (seat 0, forehand, leads the first
trick).  The report gives the double-dummy count over every world, the
honest verdict (one strategy using only what the declarer sees), and a
counterexample world with the line that beats the declarer, or the
decision where he must guess.  ``--jobs N`` (default: every core) solves
the classes of worlds on N threads, which share one table of ``--tt-mb``;
the report is the same whatever N but for the node count.  ``--json`` prints exactly
:meth:`skatdd.engine.nullouvert.NullOuvertResult.to_json`.

Bad input (unknown or duplicate card, not ten cards, a skat overlapping the
hand, an unknown seat) exits 2 with a one-line message naming the token.
"""
from __future__ import annotations

import click

from skatdd.core.errors import SkatddError
from skatdd.engine.nullouvert import NullOuvertAnalyser, analyse
from skatdd.runner.lines import default_jobs
from skatdd.runner.workers import cap_workers

from .common import emit_json, run_interruptibly
from .options import jobs_option, json_option, seat_option, table_option

__all__ = ["command"]


class _InputError(click.ClickException):
    """Bad input found while the command runs: ``Error: ...`` on stderr, exit status 2."""

    exit_code = 2


@click.command("null-ouvert")
@click.argument("hand", nargs=-1, required=True)
@click.option("--skat", "skat", default=None, metavar="CARDS", help="The two skat cards, when known.")
@seat_option("--declarer", required=True, help="Declarer's seat: 0/1/2, F/M/R or forehand/middlehand/rearhand.")
@jobs_option("Threads solving the classes of worlds of a hand game (with --skat the count is short and runs "
             "on one), sharing one double-dummy table of --tt-mb; the answer is the same for any number of them, "
             "only the node count moves  [default: every core].")
@json_option
@table_option(default=None,
              help="Double-dummy table size in MiB, one for all the threads of --jobs (the honest-search memo "
                   "gets half of it)  [default: 32 with --skat, 128 without].")
def command(hand: tuple[str, ...], skat: str | None, declarer: int, jobs: int | None, as_json: bool,
            tt_mb: int | None) -> None:
    """Is this null ouvert unbeatable?  HAND: the declarer's ten cards after the discard."""
    requested = jobs if jobs is not None else default_jobs()
    # the threads share one table (nullouvert_table.pxi): the memory does not grow with them
    threads = cap_workers(requested, what=f"--jobs {requested}", unit=("thread", "threads"))
    try:
        result = run_interruptibly(lambda: analyse(" ".join(hand), declarer=declarer, skat=skat, jobs=threads,
                                                   solver=None if tt_mb is None else NullOuvertAnalyser(tt_mb)))
    except SkatddError as exc:
        raise _InputError(" ".join(str(exc).split())) from None
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(str(result))
