"""``skatdd best``: the best contract for a deal with the skat as dealt (docs/cli.md).

DEAL is one of:

* deal text, four groups separated by ``/`` or ``|``: forehand, middlehand,
  rearhand and the skat as dealt;
* a path to a file holding a deal (blank lines and lines starting with ``#``
  are ignored), or ``-`` for standard input;
* a JSON object with ``hands`` (three ten-card hands) and ``skat`` (the two
  dealt cards), optionally ``declarer`` and ``bid``;
* an ISS game record: its hands and skat as dealt, its declarer and its bid;
* a file of many ISS records or JSON deals, one a line (as for ``analyse``):
  one JSON line per record, in input order, on ``--jobs`` processes;
  records in which nobody played are skipped (``{"line", "id",
  "skipped"}``), a bad one gives ``{"line", "id", "error"}`` and exit 2
  after all the others.

Every input is read by :mod:`skatdd.formats.readers`, so ``best`` refuses exactly
what ``solve`` refuses.  The deal's own declarer and bid (JSON, ISS) are the
defaults for ``--declarer`` and ``--bid``.  Without a declarer every seat is
reported, so a player can see who should have played.  The analysis is
:func:`skatdd.analysis.best.api.best_contracts`; this module reads the input and prints.

Bad input exits 2 with a one-line message naming the token (a card, a group,
a JSON field, an ISS move).  A progress bar goes to stderr when it is a
terminal; Ctrl-C stops the search (exit 130).
"""
from __future__ import annotations

import click

from skatdd.analysis.best.api import Option, SeatReport, option_position
from skatdd.analysis.best.games import best_for_input, best_lines, best_record
from skatdd.core.cards import Card, Mask, card_symbol
from skatdd.core.rules import SCHNEIDER_POINTS, SEAT_NAMES, WIN_POINTS
from skatdd.engine.solve import Solver
from skatdd.formats.files import open_games
from skatdd.formats.readers import parse_input
from skatdd.present.report import format_hand, line_lines
from skatdd.runner.lines import worker_count

from .batch import stream_results
from .common import emit_json, print_warnings, progress_bar
from .options import BID, html_option, jobs_option, json_option, seat_option, tt_option
from .solve import InputError, input_errors

__all__ = ["command", "report_lines"]


# ---------------------------------------------------------------------------
# Readable report


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cards(cards: list[Card] | None) -> str:
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def _level(side: str | None) -> str:
    return {"declarer": "declarer", "defenders": "defenders", None: "-"}[side]


def _result(opt: Option) -> str:
    if opt.declarer_wins:
        return "won"
    if opt.game.is_null:
        return "lost"
    assert opt.value is not None
    reached = opt.value >= WIN_POINTS and ("schneider" not in opt.announce or opt.value >= SCHNEIDER_POINTS) and (
        "schwarz" not in opt.announce or opt.schwarz == "declarer")
    return "overbid" if reached else "lost"


def _matadors(opt: Option) -> str:
    if opt.game.is_null:
        return "-"
    return f"with {opt.matadors}" if opt.matadors > 0 else f"without {-opt.matadors}"


def _table(report: SeatReport) -> list[str]:
    header = ["", "contract", "discard", "value", "result", "schneider", "schwarz", "matadors", "game value", "score"]
    rows = []
    best_index = report.best_index
    for i, opt in enumerate(report.options):
        rows.append([
            "*" if i == best_index else "", opt.label, _cards(opt.discard),
            "-" if opt.value is None else str(opt.value), _result(opt), _level(opt.schneider), _level(opt.schwarz),
            _matadors(opt), str(opt.game_value), _signed(opt.score),
        ])
    widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
    right = {3, 8, 9}

    def fmt(row: list[str]) -> str:
        cells = [row[k].rjust(widths[k]) if k in right else row[k].ljust(widths[k]) for k in range(len(row))]
        return ("  " + "  ".join(cells)).rstrip()

    return [fmt(header)] + [fmt(r) for r in rows]


def _best_sentence(report: SeatReport) -> str:
    b = report.best
    what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
    if b.game.is_null:
        result = "the declarer takes no trick" if b.declarer_wins else "the defenders force a trick on the declarer"
    else:
        result = f"{b.value} card points"
        if b.schwarz == "declarer":
            result += ", every trick"
        elif b.schwarz == "defenders":
            result += ", no trick"
        result += f", {_result(b)}"
    return f"Best for {SEAT_NAMES[report.declarer]}: {what}: {result}, score {_signed(b.score)}"


def report_lines(report: SeatReport, hands: list[Mask], skat: Mask) -> list[str]:
    """The readable report of one seat for the deal *hands* / *skat* (as dealt), one string per line."""
    seat = report.declarer
    title = f"{SEAT_NAMES[seat].capitalize()} declares (hand {format_hand(hands[seat])}, skat {format_hand(skat)})"
    if report.bid is not None:
        title += f", bid {report.bid}"
    out = [title, ""]
    out += _table(report)
    out += ["", _best_sentence(report)]
    if report.best.line:
        pos = option_position(report.best, hands, skat, seat)
        out.append("Line of play:" if not report.best.game.is_null or report.best.declarer_wins
                   else "Line of play (to the trick the declarer is forced to take):")
        out += line_lines(pos, report.best.line)
    out += ["", f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s"]
    return out


def _deal_line(hands: list[Mask], skat: Mask) -> str:
    groups = [f"{SEAT_NAMES[s]} {format_hand(hands[s])}" for s in range(3)]
    return "Deal: " + " / ".join(groups) + f" / skat {format_hand(skat)}"


def _summary(reports: list[SeatReport]) -> list[str]:
    out = ["Who should play:"]
    for r in reports:
        b = r.best
        what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
        out.append(f"  {SEAT_NAMES[r.declarer]:<10}  {_signed(b.score):>5}  {what}")
    top = max(reports, key=lambda r: (r.best.score, -r.declarer))
    out.append(f"  -> {SEAT_NAMES[top.declarer]} (highest score; ties: the earlier seat)")
    return out


# ---------------------------------------------------------------------------
# The command


@click.command("best")
@click.argument("deal")
@seat_option("--declarer",
             help="Seat to analyse: 0/1/2, F/M/R or forehand/middlehand/rearhand "
                  "(default: the deal's declarer, or every seat).")
@click.option("--bid", type=BID, metavar="N",
              help="The bid: applies the overbid rule and leaves out nulls below it (default: the deal's bid).")
@click.option("--all-lines", is_flag=True,
              help="Give every option its line of play, not only the best (slower).")
@jobs_option("For a file of records: worker processes, one solver each [default: every core].")
@json_option
@tt_option
@html_option(folders=False)
def command(deal: str, declarer: int | None, bid: int | None, all_lines: bool, jobs: int | None, as_json: bool,
            tt_mb: int, html: str | None, four_colour: bool) -> None:
    """The best contract for DEAL: every game, picked up or hand, scored by the ISkO.

    DEAL is deal text whose fourth group is the skat as dealt
    (forehand / middlehand / rearhand / skat), a file holding one, a JSON
    object with hands and skat, or an ISS game record; or a file ('-':
    stdin) of many ISS records or JSON deals, one per line, which prints
    one JSON line per record in input order (see --jobs).

    \b
    Examples:
      skatdd best "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ" --declarer F
      skatdd best examples/deal.txt --bid 23 --json
      skatdd best archive.iss --jobs 2 > best.jsonl
      skatdd best examples/deal.txt --declarer M --html best.html
    """
    with input_errors(), open_games(deal, "DEAL") as games:
        if games.lines is not None:
            if html is not None:
                raise InputError("--html takes one deal; for a file of records use 'skatdd analyse FILE --html DIR'")
            workers = worker_count(jobs, games.total)
            lines = games.lines
            solver = Solver(tt_mb=tt_mb)
            stream_results(lambda emit: best_lines(lines, jobs=workers, solver=solver, declarer=declarer,
                                                   bid=bid, all_lines=all_lines, emit=emit),
                           games.total, what="records could not be analysed")
            return
        assert games.text is not None
        found = parse_input(games.text, path=games.path)
        hands, skat = found.require_dealt()
        print_warnings(found.warnings)
        solver = Solver(tt_mb=tt_mb)
        with progress_bar("Searching") as progress:
            reports = best_for_input(found, solver=solver, declarer=declarer, bid=bid, all_lines=all_lines,
                                     progress=progress)

    if html is not None:
        from skatdd.present.html import best_page, write_text  # here: Jinja2 is loaded only when a page is asked for

        write_text(html, best_page(reports, hands, skat, four_colour=four_colour))
        click.echo(f"HTML report: {html}", err=True)
    if as_json:
        emit_json(best_record(found, reports, one_seat=len(reports) == 1))
        return
    out = [_deal_line(hands, skat), ""]
    for r in reports:
        out += report_lines(r, hands, skat) + [""]
    if len(reports) > 1:
        out += _summary(reports)
    click.echo("\n".join(out).rstrip("\n"))
