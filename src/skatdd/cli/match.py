"""``skatdd match A B``: a duplicate match between two players (docs/cli.md; the referee is :mod:`skatdd.play.match`).

A and B are players: ``random``, ``heuristic``, ``pimc[:N]``, ``dd`` or a
plug-in ``module.path:factory`` (:mod:`skatdd.play.players`).  ``--deals N
--seed S`` plays N realistic generated deals; ``--deals FILE`` the deals of
FILE, one JSON deal or ISS record a line (a passed ISS game is skipped).
Each deal is played twice, A declaring against two B defenders and then B
against two A; one JSON line per deal goes to stdout (or ``-o FILE``), in
input order, flushed as it comes, then the summary: as text, on stdout
when ``-o`` holds the lines and on stderr otherwise, or with ``--json``
(which needs ``-o``) as one JSON object on stdout.

``--jobs``, ``--dask``, ``-o FILE --resume`` and the progress bar are
``batch``'s.  Exit status: 0 when every deal was played, 1 when a deal
failed (a player returned an illegal card, raised or timed out) or failed
inside, 2 for bad input (a bad option or player, a deal line that cannot be
read, after every other deal is done), 130 on Ctrl-C (the deals written so
far stay written).
"""
from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from skatdd.core.errors import ResumeError
from skatdd.engine.solve import Solver
from skatdd.formats.files import bounded_lines, game_lines
from skatdd.play.full.match import FullConfig, full_file_line, full_match_items
from skatdd.play.full.summary import FullSummary
from skatdd.play.match import MatchConfig, file_line, match_items
from skatdd.play.referee import DEFAULT_TIMEOUT, LABELS
from skatdd.play.summary import MatchSummary
from skatdd.runner.game_lines import game_line_id
from skatdd.runner.lines import run_lines, stdin_bytes, worker_count

from .batch import ResultSink, output_fingerprint, stream_results
from .common import emit_json, results_apart
from .options import MAX_SECONDS, FiniteFloat, jobs_option, json_option, run_options, seed_option, tt_option
from .solve import input_errors

__all__ = ["command"]


# --------------------------------------------------------------------------- the command


def _deal_source(deals: str, seed: int, items_of: Callable[..., Any] = match_items, stdin_handler: Any = file_line,
                 ) -> tuple[Iterator[tuple[int, bytes | str]], Any, int | None, Any]:
    """``(items, handler, total, line_id)`` for ``--deals N`` or ``--deals FILE`` (``-``: standard input).

    *items_of* is the referee's ``match_items`` (card play) or ``full_match_items`` (``--full``), and
    *stdin_handler* the handler of its file lines.
    """
    text = deals.strip()
    if text.isascii() and text.isdigit():
        if int(text) < 1:
            raise click.BadParameter(f"{deals!r}: expected a number of deals >= 1 or a FILE of deals", param_hint="--deals")
        items, handler, total, line_id = items_of(int(text), seed)
        return iter(items), handler, total, line_id
    if deals == "-":
        return game_lines(bounded_lines(stdin_bytes())), stdin_handler, None, game_line_id
    try:
        items, handler, total, line_id = items_of(deals, seed)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {deals!r}: {exc.strerror or exc} (expected a number of deals or a "
                                 "FILE of deals)", param_hint="--deals") from None
    return iter(items), handler, total, line_id


def _play(source: tuple[Iterator[tuple[int, bytes | str]], Any, int | None, Any], config: Any, *, command: str,
          names: dict[str, str], deals: str, seed: int, timeout: float, jobs: int | None, dask: str | None,
          output: str | None, resume: bool, tt_mb: int, on_prior: Callable[[dict[str, Any]], None],
          on_record: Callable[[dict[str, Any]], None]) -> int:
    """Stream the deals of *source* through the runner into ``-o`` (or stdout); the runner's exit status (0: all ran).

    *command* names the run in the ``-o`` fingerprint (so ``--resume`` refuses another command's file);
    *on_prior* sees each record already in the file, *on_record* each new one.
    """
    items, handler, total, line_id = source
    status = 0
    origin = None if deals.isdigit() else deals
    fingerprint = output_fingerprint(output, origin, {"command": command, "A": names["A"], "B": names["B"],
                                                      "--deals": deals if origin is None else None, "--seed": seed,
                                                      "--timeout": timeout})
    # Players run with descriptor 1 at stderr; the lines go out through the referee's own descriptor.
    with input_errors(), results_apart() as results, \
            ResultSink(output, items, resume=resume, line_id=line_id, on_record=on_prior, run=fingerprint,
                       stdout=results) as sink:
        run = functools.partial(handler, config=config)
        workers = worker_count(jobs, total)
        solver = Solver(tt_mb=tt_mb)
        try:
            stream_results(lambda emit: run_lines(items, handler=run, jobs=workers, solver=solver, emit=emit, dask=dask,
                                                  total=total), total,
                           what="deal lines could not be played", sink=sink, on_record=on_record)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
            if status == 0:  # stdout was closed (`| head`): nothing more to say
                raise
    return status


def _exit(status: int, failed: int, deals: int) -> None:
    """Exit with the runner's *status*, or 1 with a line on stderr when *failed* of the deals failed; else return."""
    if status:
        sys.exit(status)
    if failed:
        click.echo(f"Error: {failed} of {deals + failed} deals failed (see 'failed' in their lines)", err=True)
        sys.exit(1)


@click.command("match")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--deals", "deals", required=True, metavar="N|FILE",
              help="N realistic generated deals (with --seed), or a FILE ('-': stdin) of deals, one JSON deal or "
                   "ISS record a line.")
@seed_option("Seeds the generated deals and every player's random choices.")
@click.option("--timeout", type=FiniteFloat(0, MAX_SECONDS, low_open=True), default=DEFAULT_TIMEOUT, show_default=True,
              help="Seconds a player may take over one card; a player that takes longer fails the deal.")
@jobs_option("Worker processes, one solver each [default: every core].")
@click.option("--full", is_flag=True,
              help="Whole games: each deal (dealt cards only) in the six seatings AAB ABA BAA BBA BAB ABB, with "
                   "the auction, pick-up, discard and declaration made by the players.")
@run_options
@json_option
@tt_option
def command(a: str, b: str, deals: str, seed: int, timeout: float, jobs: int | None, full: bool, dask: str | None,
            output: str | None, resume: bool, as_json: bool, tt_mb: int) -> None:
    """Play a duplicate match of player A against player B; JSON lines out, one per deal, then the summary.

    \b
    A and B: random, heuristic, pimc[:N] (default 50 worlds), dd (sees
    every card: the upper bound), or a plug-in module.path:factory
    (or path/to/file.py:factory) whose factory(seat, seed) returns an
    object with play(state) -> a legal card.

    Each deal is played twice: A declares against two B defenders, then B
    against two A.  The contract, discard and bids are the deal's, so the
    match measures card play.  A's edge per deal is A's total over both
    games minus B's, in list score and tournament points.

    With --full each deal is dealt cards only, played as a whole game
    (auction, pick-up, discard, declaration, play) in six seatings, and
    the summary adds each program's profile beside human play.

    \b
    Examples:
      skatdd match heuristic random --deals 200 --jobs 2 -o m.jsonl
      skatdd match pimc:50 heuristic --deals 100 --seed 7 -o m.jsonl --json
      skatdd match mybot:make_player heuristic --deals games.iss -o m.jsonl
      skatdd match pimc heuristic --full --deals 100 --jobs 2 -o f.jsonl
    """
    if as_json and output is None:
        raise click.UsageError("--json needs -o FILE: the deal lines go to FILE and the summary JSON to stdout")
    if full:
        _full(a, b, deals, seed, timeout, jobs, dask, output, resume, as_json, tt_mb)
        return
    with input_errors():
        config = MatchConfig(a, b, seed, timeout)
        names = config.names()
        specs = config.specs()
    summary = MatchSummary(players=names, cheats=[label for label, spec in zip(LABELS, specs, strict=True) if spec.cheats])
    source = _deal_source(deals, seed)

    def on_prior(record: dict[str, Any]) -> None:
        """A record already in -o FILE (--resume): it must come from the same players and seed."""
        if "players" in record and (record.get("players") != names or record.get("seed") != seed):
            raise ResumeError(f"{output}: the deals there were played by {record.get('players')} with seed "
                              f"{record.get('seed')}, not by {names} with seed {seed}: not this match's output")
        summary.add(record)

    status = _play(source, config, command="match", names=names, deals=deals, seed=seed, timeout=timeout, jobs=jobs,
                   dask=dask, output=output, resume=resume, tt_mb=tt_mb, on_prior=on_prior, on_record=summary.add)
    _report(summary, as_json, to_stdout=output is not None)
    _exit(status, summary.failed, summary.deals)


def _report(summary: MatchSummary, as_json: bool, *, to_stdout: bool) -> None:
    """The summary: JSON or text on stdout when the lines went to a file, text on stderr when they went to stdout."""
    if as_json:
        emit_json(summary.to_json())
        return
    click.echo(str(summary), err=not to_stdout)


# --------------------------------------------------------------------------- --full


def _full(a: str, b: str, deals: str, seed: int, timeout: float, jobs: int | None, dask: str | None,
          output: str | None, resume: bool, as_json: bool, tt_mb: int) -> None:
    """``match --full``: the six seatings of every deal (:mod:`skatdd.play.full.match`), then its summary."""
    with input_errors():
        config = FullConfig(a, b, seed, timeout)
        names = config.names()
    summary = FullSummary(players=names)
    source = _deal_source(deals, seed, full_match_items, full_file_line)

    def on_prior(record: dict[str, Any]) -> None:
        if "players" in record and (record.get("players") != names or record.get("seed") != seed
                                    or ("edge" in record and "totals" not in record)):
            raise ResumeError(f"{output}: the deals there were played by {record.get('players')} with seed "
                              f"{record.get('seed')}, not by {names} with seed {seed} in full games: not this "
                              "match's output")
        summary.add(record)

    status = _play(source, config, command="match --full", names=names, deals=deals, seed=seed, timeout=timeout,
                   jobs=jobs, dask=dask, output=output, resume=resume, tt_mb=tt_mb, on_prior=on_prior,
                   on_record=summary.add)
    if as_json:
        emit_json(summary.to_json())
    else:
        click.echo("\n".join(summary.lines()), err=output is None)
    _exit(status, summary.failed, summary.deals)
