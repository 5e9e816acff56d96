"""``skatdd analyse``: the double-dummy cost of every card of a played game (docs/cli.md).

GAME is one of:

* an ISS game record, given as text or as a file holding it;
* a JSON deal object with ``played`` (``hands`` the ten-card hands at the
  start, ``skat`` the skat or discard, ``game``, ``declarer``, and optionally
  ``hand``, ``announce``, ``bid``), as text or a file;
* a file (or ``-``, stdin) holding many games, one per line, each an ISS
  record or a JSON deal object: a file is read this way as soon as two of
  its lines start with ``(;`` or ``{``.  Blank lines and lines starting with
  ``#`` are skipped (they keep the line numbering).

One game prints a readable trick-by-trick report (``--json``: one JSON
object).  A file of games always prints JSON lines, one per game line in
input order, each flushed as soon as it and every line before it are done;
``--jobs N`` (default: every core) analyses on N worker processes with one
solver each, and a progress bar goes to stderr when it is a terminal.  There
a line that cannot be analysed yields ``{"line": N, "id": ..., "error":
"..."}`` and a message on stderr, and the exit status is 2 after every other
line is done; an ISS record in which no game was played (everyone passed)
yields ``{"line": N, "id": ..., "skipped": "..."}`` and is not an error.
For a single game, bad input (a malformed record, bad JSON, an illegal card,
a passed game) exits 2 with a one-line message naming the token.

``--no-review`` skips the contract review (``contract_review`` is then
``null``), which is the slow part: it searches every contract and discard.

For a file of games, ``--dask ADDRESS`` analyses on a Dask cluster (for one
game it is refused: its work runs here) and
``-o FILE [--resume]`` writes (or continues) the JSON lines in FILE, as for
``batch``.  ``--table FILE.parquet|FILE.csv`` also writes one row per
analysed game (:mod:`skatdd.present.table`; a single game gives a one-row table),
and ``-o`` takes a single game's report too.
The analysis itself lives in :mod:`skatdd.analysis.analyse.api`.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import NamedTuple

import click

from skatdd.analysis.advise.api import MAX_INFERENCE_WORLDS, judge_analysis
from skatdd.analysis.analyse.api import GameAnalysis, analyse_lines, analyse_text, game_line_id
from skatdd.analysis.inference.api import input_auction
from skatdd.analysis.review.api import REVIEW_SEED, REVIEW_SKATS, REVIEW_WORLDS, decide, review_decisions
from skatdd.analysis.worlds.draw import MAX_WORLDS, WorldCountError
from skatdd.core.errors import SkatddError, quote
from skatdd.core.seeds import DEFAULT_SEED
from skatdd.engine.solve import Solver
from skatdd.formats.files import looks_like_path, missing_file, open_games
from skatdd.present.table import GameTable, table_format
from skatdd.runner.lines import LineOutcome, record_line, worker_count
from skatdd.runner.outputs import PARTIAL, check_not_input, lock_output

from .advise import terminal_progress
from .batch import ResultSink, output_fingerprint, stream_results
from .common import print_warnings
from .options import (
    OutputPath,
    check_honest_tricks,
    honest_options,
    html_option,
    inference_option,
    jobs_option,
    json_option,
    run_options,
    seed_option,
    tt_option,
    worlds_option,
)
from .solve import InputError, input_errors

__all__ = ["command"]


# --------------------------------------------------------------------------- input


def _single(text: str, *, tt_mb: int, review: bool, where: str | None) -> GameAnalysis:
    try:
        return analyse_text(text, solver=Solver(tt_mb=tt_mb), review=review)
    except SkatddError as exc:
        message = " ".join(str(exc).split())
        raise InputError(f"{where}: {message}" if where else message) from None


def _many(lines: Iterator[tuple[int, bytes]], total: int | None, *, jobs: int | None, tt_mb: int,
          review: bool, run: RunOptions, html: str | None = None, four_colour: bool = False,
          path: str | None = None, worlds: int | None = None, seed: int = DEFAULT_SEED, inference: str = "none",
          honest: int | None = None, budget: ReviewBudget | None = None) -> None:
    """Analyse the game lines of the file *path* (``None``: stdin) and stream their records (see :func:`command`)."""
    workers = worker_count(jobs, total)
    with ExitStack() as stack:
        table = stack.enter_context(GameTable(run.table)) if run.table else None
        on_record = table.add if table is not None else (lambda record: None)
        # The sink first: with --resume it skips the lines already answered, which then get no page either.
        options = {"command": "analyse", "--no-review": not review, "--worlds": worlds,
                   "--seed": seed if worlds is not None else None}
        if inference != "none":
            options["--inference"] = inference
        if honest is not None:
            options["--honest-tricks"] = honest
        if review and budget is not None:
            options.update({"--bid-skats": budget.skats, "--bid-worlds": budget.worlds,
                            "--bid-seed": budget.seed})
        fingerprint = output_fingerprint(run.output, path, options)
        sink = stack.enter_context(ResultSink(run.output, lines, resume=run.resume, line_id=game_line_id,
                                              on_record=on_record, run=fingerprint))
        todo: Iterator[tuple[int, bytes]] | Iterator[tuple[int, bytes | str]] = lines

        def wrap(emit: Callable[[LineOutcome], None]) -> Callable[[LineOutcome], None]:
            return emit

        if html is not None:
            from skatdd.present.html import ArchivePages  # here: Jinja2 is loaded only when pages are asked for

            pages = stack.enter_context(ArchivePages(html, source=path or "stdin", four_colour=four_colour))  # index even on Ctrl-C
            todo, wrap = pages.lines(lines), pages.emitter
        step = None if not review or budget is None else decide(
            skats=budget.skats, worlds=budget.worlds, seed=budget.seed, inference=inference)
        stream_results(lambda emit: analyse_lines(todo, jobs=workers, solver=Solver(tt_mb=tt_mb), review=review,
                                                  emit=wrap(emit), worlds=worlds, seed=seed, dask=run.dask,
                                                  total=total, inference=inference, honest=honest, decide=step),
                       total, what="games could not be analysed", sink=sink, on_record=on_record)


class ReviewBudget(NamedTuple):
    """The decisions review's budget (``--bid-skats``, ``--bid-worlds``, ``--bid-seed``: bid's options)."""

    skats: int
    worlds: int
    seed: int


def _decisions(analysis: GameAnalysis, budget: ReviewBudget, inference: str, jobs: int | None,
               tt_mb: int) -> GameAnalysis:
    """Add the decisions review to one game's analysis (nothing without an auction), on *jobs* workers."""
    analysis.decisions = review_decisions(analysis, skats=budget.skats, worlds=budget.worlds, seed=budget.seed,
                                          inference=inference, jobs=worker_count(jobs), solver=Solver(tt_mb=tt_mb))
    return analysis


class RunOptions(NamedTuple):
    """Where a file of games runs and where its results go (``--dask``, ``-o``, ``--resume``, ``--table``)."""

    dask: str | None
    output: str | None
    resume: bool
    table: str | None


def _judge(analysis: GameAnalysis, worlds: int | None, seed: int, jobs: int | None, tt_mb: int, *,
           inference: str = "none", honest: int | None = None) -> GameAnalysis:
    """With ``--worlds``: judge every card single-dummy on *jobs* workers, a progress bar on a terminal."""
    if worlds is None:
        return analysis
    progress = terminal_progress("single-dummy")
    try:
        return judge_analysis(analysis, worlds=worlds, seed=seed, solver=Solver(tt_mb=tt_mb), jobs=worker_count(jobs),
                              progress=progress, inference=inference, honest=honest)
    finally:
        if progress is not None:
            progress.close()


@click.command("analyse")
@click.argument("game", metavar="GAME")
@jobs_option("For a file of games: worker processes, one solver each; for one game with --worlds: "
             "workers solving its worlds [default: every core].")
@click.option("--no-review", is_flag=True,
              help="Skip the contract review (the best contract with the same twelve cards) and the review of the "
                   "decisions before the first card; much faster.")
@click.option("--bid-skats", type=click.IntRange(min=1), default=REVIEW_SKATS, show_default=True, metavar="S",
              help="Decisions review: skats drawn for each seat's bidding table (bid's --skats).")
@click.option("--bid-worlds", type=click.IntRange(min=1), default=REVIEW_WORLDS, show_default=True, metavar="W",
              help="Decisions review: worlds per skat, and the worlds of the declaration review (bid's --worlds).")
@click.option("--bid-seed", type=int, default=REVIEW_SEED, show_default=True, metavar="N",
              help="Decisions review: the seed of its draws (bid's and odds' --seed).")
@worlds_option(None)
@seed_option()
@inference_option
@honest_options("every declarer card with at most --honest-tricks tricks left (needs --worlds)")
@run_options
@click.option("--table", metavar="FILE", default=None, type=OutputPath(beside=(PARTIAL,), replaced=True, check=table_format),
              help="Also write one row per game to FILE.parquet (needs 'skatdd[dask]') or FILE.csv.")
@json_option
@tt_option
@html_option(folders=True)
def command(game: str, jobs: int | None, no_review: bool, bid_skats: int, bid_worlds: int, bid_seed: int,
            worlds: int | None, seed: int, inference: str, honest: bool, honest_tricks: int, dask: str | None,
            output: str | None, resume: bool, table: str | None, as_json: bool, tt_mb: int, html: str | None,
            four_colour: bool) -> None:
    """Analyse a played game card by card: the double-dummy cost of every card.

    GAME is an ISS game record or a JSON deal with "played" (text or a file),
    or a file ('-': stdin) of such games, one per line; a file of games
    prints JSON lines in input order (see --jobs).

    For every card: the double-dummy value before and after it (suit and
    grand: the declarer's final card points; null: 1 win, 0 loss), its cost
    to its own side and the best cards.  Then the result, each player's total
    cost, the first decisive card, a claim's verdict and the contract review.
    For a game with its auction, first the review of the decisions before the
    first card (each seat's bidding, the hand or pick-up, the game and
    discard, judged from what each seat could see; --bid-*), and last a
    summary per seat with the verdict (lost in the bidding or in the play).

    \b
    With --worlds N every card is also judged single-dummy, from what its
    player could see (as 'skatdd advise'): its win chance and mean points
    over N worlds (--seed), the best cards and what it gave away against
    them; the worlds of one game are solved on --jobs workers.  With
    --inference the worlds are weighed by the bidding and the play; with
    --honest the declarer's last cards also get their honest values
    (docs/inference.md).

    \b
    Examples:
      skatdd analyse examples/game.iss
      skatdd analyse examples/game.iss --worlds 100 --no-review
      skatdd analyse examples/game.iss --json --no-review
      skatdd analyse archive.iss --jobs 2 > analyses.jsonl
      skatdd analyse examples/game.iss --html game.html
      skatdd analyse archive.iss --html reports/ > analyses.jsonl
    """
    review = not no_review
    budget = ReviewBudget(bid_skats, bid_worlds, bid_seed)
    check_honest_tricks(honest)
    if worlds is None and (inference != "none" or honest):
        # Both judge the cards single-dummy: without --worlds there is nothing for them to change.
        raise click.UsageError(f"{'--inference' if inference != 'none' else '--honest'} needs --worlds N "
                               "(it changes the single-dummy numbers)")
    honest_k = honest_tricks if honest else None
    if worlds is not None and inference != "none" and worlds > MAX_INFERENCE_WORLDS:
        # As below: the first trick of every game has more consistent worlds than that.
        raise WorldCountError(f"--worlds {worlds}: with --inference a run weighs at most {MAX_INFERENCE_WORLDS:,} "
                              f"worlds for one card (docs/cli.md); ask for at most {MAX_INFERENCE_WORLDS:,}")
    if worlds is not None and worlds > MAX_WORLDS:
        # Refused before any work, not game by game after each one's double-dummy analysis: in the first
        # trick a defender sees millions of consistent worlds (9,237,800 or more), so every game would fail.
        raise WorldCountError(f"--worlds {worlds}: a run solves at most {MAX_WORLDS:,} worlds for one card, and "
                              "the first trick of a game has cards with millions of them (docs/cli.md); "
                              f"ask for at most {MAX_WORLDS:,}")
    if html is not None and resume:
        # The archive index is built from the games analysed in this run; a resumed run would replace
        # the index of the first part with one of the rest.
        raise click.UsageError("--html and --resume do not go together: resume the JSON lines with -o, "
                               "then write the pages in a run of their own")
    run = RunOptions(dask, output, resume, table)
    with input_errors(), open_games(game) as games:
        for option, path in (("-o", output), ("--table", table), ("--html", html)):
            check_not_input(path, option, games.path)
        if games.lines is None:
            assert games.text is not None
            if dask is not None:
                # One game's work has no cluster path; run here, it silently ignored the option.
                raise click.UsageError(f"--dask {quote(dask)}: GAME is one game, which is analysed here; --dask "
                                       "runs a file of games (two or more) on a cluster: leave it out (--jobs N "
                                       "spreads one game's worlds)")
            if games.path is None and looks_like_path(games.text):
                raise missing_file(games.text)  # a game is never one word: a path that does not exist
            analysis = _single(games.text, tt_mb=tt_mb, review=review, where=games.path)
            if inference in ("bids", "all"):
                input_auction(analysis.bids)  # a bad auction is refused before any world is drawn
            print_warnings(analysis.warnings)
            analysis = _judge(analysis, worlds, seed, jobs, tt_mb, inference=inference, honest=honest_k)
            if review:
                analysis = _decisions(analysis, budget, inference, jobs, tt_mb)
            _print(analysis, as_json, run, html, four_colour)
            return
        _many(games.lines, games.total, jobs=jobs, tt_mb=tt_mb, review=review, run=run, html=html,
              four_colour=four_colour, path=games.path, worlds=worlds, seed=seed, inference=inference, honest=honest_k,
              budget=budget)


def _print(analysis: GameAnalysis, as_json: bool, run: RunOptions, html: str | None = None,
           four_colour: bool = False) -> None:
    """Print one game's analysis (to ``-o FILE`` when given), write its ``--table`` row and its ``--html`` page."""
    if run.table:
        with GameTable(run.table) as table:
            table.add(analysis.to_json())
    text = record_line(analysis.to_json()) if as_json else str(analysis)
    if run.output is None:
        click.echo(text)
    else:
        try:
            fd = lock_output(run.output)  # another run writing the same file is refused, not mixed in
            if fd is not None:
                os.ftruncate(fd, 0)
            with open(run.output, "w", encoding="utf-8") if fd is None else open(fd, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {run.output!r}: {exc.strerror or exc}", param_hint="-o") from None
    if html is not None:
        from skatdd.present.html import write_game_page  # here: Jinja2 is loaded only when a page is asked for

        click.echo(f"HTML report: {write_game_page(analysis, html, four_colour=four_colour)}", err=True)
