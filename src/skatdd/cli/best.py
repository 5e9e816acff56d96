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

from skatdd.analysis.best.games import best_for_input, best_lines, best_record
from skatdd.engine.solve import Solver
from skatdd.formats.files import open_games
from skatdd.formats.readers import parse_input
from skatdd.present.best import best_text
from skatdd.runner.lines import worker_count

from .batch import stream_results
from .common import emit_json, print_warnings, progress_bar
from .options import BID, html_option, jobs_option, json_option, seat_option, tt_option
from .solve import InputError, input_errors

__all__ = ["command"]


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
    click.echo(best_text(reports))
