"""``skatdd bid``: how high to bid with ten cards and what to play, honest about the skat (docs/cli.md).

HAND is the seat's ten dealt cards (one argument or several), ``--seat``
its seat.  The computation is :func:`skatdd.analysis.bid.api.bid`; this module reads the
options, shows a progress bar on a terminal (stderr) and prints.  ``--json``
prints :meth:`skatdd.analysis.bid.api.BidReport.to_json`.

Bad input (an unknown or duplicate card, not ten cards, an unknown seat,
``--worlds 0``) exits 2 with a one-line message; Ctrl-C stops the workers
and exits 130, SIGTERM 143 and SIGHUP 129 (:mod:`skatdd.runner.stopping`).
"""
from __future__ import annotations

import sys

import click

from skatdd.analysis.bid.api import DEFAULT_SKATS, DEFAULT_WORLDS, bid
from skatdd.engine.solve import Solver
from skatdd.runner.lines import worker_count
from skatdd.runner.stopping import exit_status, stop_message

from .common import emit_json, progress_bar
from .options import dask_option, jobs_option, json_option, seat_option, seed_option, tt_option

__all__ = ["command"]


@click.command("bid")
@click.argument("hand", nargs=-1, required=True)
@seat_option(required=True)
@click.option("--skats", type=int, default=DEFAULT_SKATS, show_default=True,
              help="Skats to draw, at least 1 (all 231 when no fewer).")
@click.option("--worlds", type=int, default=DEFAULT_WORLDS, show_default=True,
              help="Worlds to draw for each skat, at least 1.")
@seed_option("Seed of the draws.")
@click.option("--scoring", type=click.Choice(["both", "list", "tournament"]), default="both", show_default=True,
              help="List (ISkO) scoring, tournament (Seeger-Fabian) scoring, or both (list chooses the table's best).")
@click.option("--hand", "hand_only", is_flag=True, help="Only hand games (no pick-up).")
@jobs_option("Worker processes [default: every core].")
@dask_option
@json_option
@tt_option
def command(hand: tuple[str, ...], seat: int, skats: int, worlds: int, seed: int, scoring: str, hand_only: bool,
            jobs: int | None, dask: str | None, as_json: bool, tt_mb: int) -> None:
    """How high to bid with HAND, the seat's ten dealt cards, and what to play.

    For every bid up to the highest the hand can win, the best declaration
    (hand games with their announcements, or picking up the skat and then
    choosing game and discard on that skat's worlds), its win chance, mean
    list score and Seeger-Fabian points; the highest bid at which declaring
    beats passing; and the Stegen count beside it.

    \b
    Examples:
      skatdd bid CJ SJ HJ CA CT C9 SA ST H7 D8 --seat F
      skatdd bid "CJ HJ CA CT CK C9 SA ST H7 D8" --seat M --skats 40 --json
    """
    # --skats and --worlds are checked by bid() itself: a bad value is one line naming it (exit 2).
    try:
        with progress_bar("Solving skats") as progress:
            report = bid(" ".join(hand), seat=seat, skats=skats, worlds=worlds, seed=seed, scoring=scoring,
                         hand_only=hand_only, jobs=worker_count(jobs), solver=Solver(tt_mb=tt_mb), progress=progress,
                         dask=dask)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP (skatdd.runner.stopping): 130, 143 or 129
        click.echo(f"{stop_message(exc)}: nothing printed (the table needs every skat).", err=True)
        sys.exit(exit_status(exc))
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(str(report))
