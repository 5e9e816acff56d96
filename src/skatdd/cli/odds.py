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
from skatdd.analysis.odds.api import DEFAULT_WORLDS, OddsReport, OptionOdds, odds
from skatdd.analysis.odds.input import parse_auction
from skatdd.core.cards import Card, card_symbol
from skatdd.core.rules import SEAT_NAMES, Game
from skatdd.core.scoring import MIN_BID
from skatdd.engine.solve import Solver
from skatdd.present.report import format_hand
from skatdd.runner.lines import worker_count

from .common import emit_json, progress_bar
from .options import BID, GAME, dask_option, jobs_option, json_option, seat_option, seed_option, tt_option

__all__ = ["command", "report_lines"]

Progress = Callable[[int, int], None]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _cards(cards: list[Card] | None) -> str:
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def _discard(opt: OptionOdds) -> str:
    if opt.hand:
        return "-"
    return _cards(opt.discard) if opt.discard is not None else "double-dummy"


def _interval(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def _table(report: OddsReport) -> list[str]:
    """The options' table; the points column only when the report has them (``--points``)."""
    header = ["", "contract", "discard", "win", "95% interval", "schneider", "schneidered", "schwarz", "schwarzed",
              *(["points"] if report.points else []), "score"]
    rec = report.recommendation
    rows = []
    for opt in report.options:
        points = ["-" if opt.mean_points is None else f"{opt.mean_points:.1f}"] if report.points else []
        rows.append([
            "*" if opt is rec else "", opt.label, _discard(opt), _pct(opt.win), _interval(opt.win_ci),
            _pct(opt.fraction(opt.schneider)), _pct(opt.fraction(opt.schneidered)), _pct(opt.fraction(opt.schwarz)),
            _pct(opt.fraction(opt.schwarzed)), *points, _signed(opt.mean_score),
        ])
    widths = [max(len(r[k]) for r in [*rows, header]) for k in range(len(header))]
    left = {1, 2}

    def fmt(row: list[str]) -> str:
        cells = [row[k].ljust(widths[k]) if k in left or k == 0 else row[k].rjust(widths[k]) for k in range(len(row))]
        return ("  " + "  ".join(cells)).rstrip()

    out = [fmt(header)]
    for opt, row in zip(report.options, rows, strict=True):
        out.append(fmt(row))
        for alt in opt.alternatives or []:
            out.append(f"{'':{widths[0] + 4}}or {_cards(alt.discard)}: win {_pct(alt.win)} {_interval(alt.win_ci)}, "
                       f"mean score {_signed(alt.mean_score)}")
    return out


def report_lines(report: OddsReport) -> list[str]:
    """The readable report, one string per line."""
    skat = f"picked up {format_hand(report.skat)}" if report.skat is not None else "skat unseen"
    out = [f"{SEAT_NAMES[report.seat].capitalize()} holds {format_hand(report.hand)} ({skat}), bid {report.bid}"]
    if report.exact:
        out.append(f"All {report.evaluated:,} consistent worlds, each solved double-dummy (exact: no sampling error)")
    elif report.inference == "bids":
        assert report.ess is not None and report.pool is not None and report.pool_ess is not None
        out.append(f"{report.evaluated:,} worlds drawn by the bidding's weight from {report.pool:,} of "
                   f"{report.worlds:,} consistent worlds (seed {report.seed}), each solved double-dummy")
        out.append(f"Effective sample size {report.ess:,.1f} (the bidding weights over the pool: "
                   f"{report.pool_ess:,.1f} of {report.pool:,})")
    else:
        out.append(f"{report.evaluated:,} of {report.worlds:,} consistent worlds drawn at random (seed {report.seed}), "
                   "each solved double-dummy")
    out += ["", *_table(report), ""]
    rec = report.recommendation
    if rec is None:
        out.append("Recommendation: pass (every mean score is below 0)")
    else:
        what = rec.label + (f", discard {_cards(rec.discard)}" if rec.discard else "")
        out.append(f"Recommendation: {what} (mean score {_signed(rec.mean_score)}, wins {_pct(rec.win)} of the worlds)")
    for sentence in report.left_out:
        out.append(f"Left out: {sentence}.")
    out.append("")
    if any(not o.hand and o.discard is None for o in report.options):
        out.append("Picked-up games take the best discard of each world: an optimistic bound, since the declarer")
        out.append("chooses his discard without seeing the defenders' cards.")
    if any(o.hand for o in report.options):
        out.append("Hand games are scored as plain hand games (no schneider or schwarz announced).")
    out.append("Double-dummy: in every world both sides play as if they saw all the cards.")
    out.append(f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s")
    return out


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
        click.echo("\n".join(report_lines(report)))
