"""``skatdd odds``: the chances of every contract for a hand whose other cards are unseen (docs/cli.md).

HAND is the seat's ten cards as dealt (one argument or several); ``--seat``
its seat (forehand leads); ``--skat`` the two cards it picked up, if it has.
The computation is :func:`skatdd.analysis.odds.api.odds`; this module reads the options,
shows a progress bar on a terminal (stderr) and prints.  ``--json`` prints
:meth:`skatdd.analysis.odds.api.OddsReport.to_json`.

Bad input (an unknown or duplicate card, not ten cards, a skat card in the
hand, an unknown seat, ``--worlds 0``, an inference odds cannot use, a bad
bidding move) exits 2 with a one-line message; Ctrl-C stops the workers and
exits 130.
"""
from __future__ import annotations

from collections.abc import Callable

import click

from skatdd.analysis.inference.api import INFERENCES
from skatdd.analysis.odds.api import DEFAULT_WORLDS, odds
from skatdd.analysis.odds.input import parse_auction
from skatdd.core.rules import Game
from skatdd.core.scoring import MIN_BID
from skatdd.engine.solve import Solver
from skatdd.runner.lines import worker_count

from .common import emit_json, progress_bar
from .options import BID, GAME, dask_option, jobs_option, json_option, seat_option, seed_option, tt_option

__all__ = ["command"]

Progress = Callable[[int, int], None]


@click.command("odds")
@click.argument("hand", nargs=-1, required=True)
@seat_option(required=True)
@click.option("--skat", metavar="CARDS", help="The two skat cards, when the seat has picked them up.")
@click.option("--game", "games", type=GAME, multiple=True,
              help="Only this contract (repeatable): grand, clubs, spades, hearts, diamonds, null, null-ouvert.")
@click.option("--hand", "only_hand", is_flag=True, help="Only hand games.")
@click.option("--picked-up", "only_picked", is_flag=True, help="Only picked-up games.")
@click.option("--worlds", type=click.IntRange(min=1), default=DEFAULT_WORLDS, show_default=True,
              help="Worlds to solve (all of them when fewer are consistent).")
@seed_option("Seed of the world draw.")
@click.option("--bid", type=BID, default=MIN_BID, show_default=True, help="The bid.")
@click.option("--inference", type=click.Choice(INFERENCES), default="none", show_default=True,
              help="Weigh the worlds by the bidding (bids; needs --bids). play and all need cards played: refused.")
@click.option("--bids", "auction", metavar="MOVES",
              help='The auction so far, SEAT:MOVE in order (move: a bid, y or p), e.g. "M:18 F:y M:20 F:p R:p".')
@click.option("--points", "with_points", is_flag=True,
              help="Also the mean card points of every suit and grand option (exact values: slower).")
@jobs_option("Worker processes [default: every core].")
@dask_option
@json_option
@tt_option
def command(hand: tuple[str, ...], seat: int, skat: str | None, games: tuple[tuple[Game, bool], ...], only_hand: bool,
            only_picked: bool, worlds: int, seed: int, bid: int, inference: str, auction: str | None,
            with_points: bool, jobs: int | None, dask: str | None, as_json: bool, tt_mb: int) -> None:
    """The chances of every contract for HAND, the seat's ten dealt cards, the other cards unseen.

    Every option (grand, the suits, null, null ouvert; hand and picked up)
    is solved double-dummy in each of N worlds drawn uniformly from those
    consistent with what the seat knows.  --points adds the mean card
    points (exact values, about four times the work); without it only
    threshold questions are asked and JSON mean_points is null.

    \b
    Examples:
      skatdd odds CJ SJ HJ CA CT C9 SA ST H7 D8 --seat F
      skatdd odds "CJ SJ HJ CA CT C9 SA ST H7 D8" --seat M --skat "S7 D7" --bid 30 --json
      skatdd odds CJ SJ HJ CA CT C9 SA ST H7 D8 --seat R --inference bids --bids "M:18 F:p"
    """
    if only_hand and only_picked:
        raise click.UsageError("--hand and --picked-up exclude each other: give one or neither")
    if only_hand and skat is not None:
        raise click.UsageError("--hand needs the skat unseen: hand games cannot be played after picking up the skat")
    if inference in ("play", "all"):
        raise click.UsageError(f"--inference {inference} needs cards played: odds looks before the first card, "
                               "where only the bidding shows anything (use none or bids)")
    if inference == "bids" and auction is None:
        raise click.UsageError('--inference bids needs the auction so far: --bids "M:18 F:p ..."')
    if auction is not None and inference != "bids":
        raise click.UsageError("--bids is used only with --inference bids")
    bids = parse_auction(auction) if auction is not None else []
    with progress_bar("Solving worlds") as progress:
        report = odds(" ".join(hand), seat=seat, skat=skat, games=list(games) or None, hand_games=not only_picked,
                      picked_up=not only_hand, worlds=worlds, seed=seed, bid=bid,
                      jobs=worker_count(jobs), solver=Solver(tt_mb=tt_mb), progress=progress,
                      dask=dask, inference=inference, bids=bids, points=with_points)
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(str(report))
