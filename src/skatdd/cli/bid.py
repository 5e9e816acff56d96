"""``skatdd bid``: how high to bid with ten cards and what to play, honest about the skat (docs/cli.md).

HAND is the seat's ten dealt cards (one argument or several), ``--seat``
its seat.  The computation is :func:`skatdd.analysis.bid.api.bid`; this module reads the
options, shows a progress bar on a terminal (stderr) and prints.  ``--json``
prints :meth:`skatdd.analysis.bid.api.BidReport.to_json`.

Bad input (an unknown or duplicate card, not ten cards, an unknown seat,
``--worlds 0``) exits 2 with a one-line message; Ctrl-C stops the workers
and exits 130.
"""
from __future__ import annotations

import sys

import click

from skatdd.analysis.bid.api import DEFAULT_SKATS, DEFAULT_WORLDS, PICK_UP, SKAT_PAIRS, BidReport, GameOption, Pick, bid
from skatdd.core.rules import SEAT_NAMES
from skatdd.engine.solve import Solver
from skatdd.present.report import format_hand
from skatdd.runner.lines import worker_count

from .common import emit_json, progress_bar
from .options import dask_option, jobs_option, json_option, seat_option, seed_option, tt_option

__all__ = ["command", "report_lines"]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def _label(pick: Pick) -> str:
    """``'grand hand'``, or ``'pick up (grand 12, clubs 8)'``."""
    if pick.games is None:
        return pick.label
    shown = ", ".join(f"{game} {n}" for game, n in sorted(pick.games.items(), key=lambda kv: -kv[1]))
    return f"{PICK_UP} ({shown})"


def _bids(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _columns(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [("  " + "  ".join(r[k].ljust(widths[k]) if k in left else r[k].rjust(widths[k])
                              for k in range(len(r)))).rstrip() for r in rows]


#: Rows shown above the highest bid that beats passing before the rest is summarised.
TAIL_ROWS = 3


def _ladder(report: BidReport) -> list[str]:
    """The bidding table, consecutive bids with the same figures on one row.

    Bids above the highest that beats passing (in every scoring shown) lose
    on average; after :data:`TAIL_ROWS` such rows one line says how many
    more there are (``--json`` lists every bid).
    """
    both = len(report.scorings) > 1
    first = report.scorings[0]
    name = "tournament" if first else "list"
    header = ["bid", f"{name}: best declaration", "win", "score", "points"]
    if both:
        header += ["tournament: best declaration", "win", "points"]
    rows: list[list[str]] = []
    spans: list[tuple[int, int]] = []
    for lv in report.levels:
        pick = lv.picks[first]
        cells = [_label(pick), _pct(pick.win), _signed(pick.score), _signed(pick.tournament)]
        if both:
            other = lv.picks[True]
            same = other.label == pick.label and other.choices == pick.choices
            cells += ["same" if same else _label(other), "" if same else _pct(other.win), _signed(other.tournament)]
        if rows and rows[-1][1:] == cells:
            spans[-1] = (spans[-1][0], lv.bid)
        else:
            rows.append(["", *cells])
            spans.append((lv.bid, lv.bid))
    for row, (a, b) in zip(rows, spans, strict=True):
        row[0] = _bids(a, b)
    tops = [b for b in (report.max_bid(t) for t in report.scorings) if b is not None]
    keep = next((i for i, (a, _) in enumerate(spans) if a > max(tops, default=0)), len(rows)) + TAIL_ROWS
    out = _columns([header, *rows], {1, 5})
    if keep < len(rows):
        hidden = spans[keep:]
        out = out[:keep + 1]
        out.append(f"  ... {sum(1 for lv in report.levels if lv.bid >= hidden[0][0])} more bids up to "
                   f"{hidden[-1][1]}, every one losing on average (--json lists them all)")
    return out


def _answer(report: BidReport, tournament: bool) -> list[str]:
    name = "tournament" if tournament else "list"
    played = report.play(tournament)
    if played is None:
        return [f"Answer ({name} scoring): pass -- no bid from 18 up has a mean above 0."]
    pick, rule = played
    se = pick.tournament_se if tournament else pick.score_se
    spread = "" if se is None else f" ± {se:.1f}"
    figures = (f"wins {_pct(pick.win)} of the worlds, mean {'points' if tournament else 'score'} "
               f"{pick.mean(tournament):+.1f}{spread}")
    top = report.max_bid(tournament)
    if rule is None:
        return [f"Answer ({name} scoring): bid up to {top} and play {pick.label}: {figures}."]
    return [f"Answer ({name} scoring): bid up to {top}, then pick up the skat: {figures}.",
            f"  What the skat changes: {rule.text} (fits {rule.fits} of {rule.total} skats)."]


def _options(report: BidReport) -> list[str]:
    header = ["game", "hand: win", "score", "picked up: win", "score", "per-world bound: win", "score"]
    rows = [header]
    hands = {(o.decl.game, o.decl.ouvert): o for o in report.options if o.decl.hand}
    picked = {(o.decl.game, o.decl.ouvert): o for o in report.options if not o.decl.hand}
    for key, hand in hands.items():
        up: GameOption | None = picked.get(key)
        rows.append([str(hand.decl), _pct(hand.win), _signed(hand.score),
                     "-" if up is None else _pct(up.win), "-" if up is None else _signed(up.score),
                     "-" if up is None else _pct(up.optimistic_win),
                     "-" if up is None else _signed(up.optimistic_score)])
    return _columns(rows, {0})


def report_lines(report: BidReport) -> list[str]:
    """The readable report, one string per line."""
    out = [f"{SEAT_NAMES[report.seat].capitalize()} holds {format_hand(report.hand)}"]
    skats = (f"all {SKAT_PAIRS} skats" if report.every_skat
             else f"{len(report.skats)} of {SKAT_PAIRS} skats drawn at random (seed {report.seed})")
    out.append(f"{skats}, {report.worlds} worlds each ({len(report.skats) * report.worlds:,} in all), "
               "every game" + (" and discard" if report.picked_up else "") + " solved double-dummy")
    out += ["", *_ladder(report), ""]
    for tournament in report.scorings:
        out += _answer(report, tournament)
    out += ["", "Games at bid 18" + (" (picked up: the honest pick-up; the per-world bound takes the best "
                                      "discard of each world, as odds does)" if report.picked_up else "") + ":"]
    out += _options(report)
    st = report.stegen
    others = ", ".join(f"{g.label} {p:g}" for g, p in st.by_suit.items() if g != st.game)
    out += ["", f"Stegen count: {st.points:g} ({st.game.label}; {others}): {st.rule}."]
    out += ["",
            "Double-dummy: in every world both sides play as if they saw all the cards; every consistent world",
            "counts the same (nothing is inferred from the bidding)."]
    if report.picked_up:
        out.append(f"The pick-up chooses game and discard on its skat's {report.worlds} worlds and is scored on "
                   "the same worlds.")
    out.append("Means are per game; ± is one standard error over the skats.")
    out.append(f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s")
    return out


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
    except KeyboardInterrupt:
        click.echo("Interrupted: nothing printed (the table needs every skat).", err=True)
        sys.exit(130)
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo("\n".join(report_lines(report)))
