"""``skatdd advise``: what the player to move should play, judged from what he can see (docs/cli.md).

POSITION is read like ``skatdd solve``'s DEAL (:func:`skatdd.cli.solve.solve_position`):
a JSON deal (the position after its ``played`` cards, or after the first
``--after K`` of them), an ISS record (before its first card, or after the
first ``--after K`` cards of its play), or deal text with ``--game`` and
``--declarer``; ``--played`` then plays more cards.  The full deal is given
for convenience, but only the mover's view is used (:mod:`skatdd.analysis.advise.api`).
Deal text names no declaration: the declarer is taken to have picked up
the skat (he knows his discard) and announced nothing; a JSON deal's
``hand``/``announce`` and an ISS record's declaration are used as given.

The worlds are drawn in this process from ``generator(--seed)`` (:mod:`skatdd.core.seeds`) and
then solved on ``--jobs`` worker processes, so the answer does not depend
on ``--jobs``.  ``--inference`` weighs them by the input's auction (an ISS
record's moves, a JSON deal's ``bids``: :func:`skatdd.analysis.inference.api.input_auction`)
and the cards played; ``--honest`` adds the declarer's honest endgame
values (docs/inference.md).  The shared options serve ``skatdd analyse
--worlds`` too; the report is ``str(advice)`` (:mod:`skatdd.present.advise`).
A progress bar goes to stderr when it is a terminal; Ctrl-C stops cleanly
(exit 130).
"""
from __future__ import annotations

import sys
import time
from typing import IO

import click

from skatdd.analysis.advise.api import DEFAULT_WORLDS, advise, honest_refusal
from skatdd.analysis.inference.api import input_auction
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver
from skatdd.formats.position_input import advice_position as read_advice_position
from skatdd.formats.position_input import read_position
from skatdd.runner.lines import worker_count

from .common import emit_json, print_warnings
from .options import (
    GAME,
    check_honest_tricks,
    honest_options,
    inference_option,
    jobs_option,
    json_option,
    seat_option,
    seed_option,
    tt_option,
    worlds_option,
)
from .solve import input_errors

__all__ = ["ProgressLine", "advice_position", "command", "terminal_progress"]


class ProgressLine:
    """``worlds solved / in all`` redrawn on one terminal line (stderr), at most every 0.1 s."""

    def __init__(self, stream: IO[str], label: str) -> None:
        self.stream = stream
        self.label = label
        self._last = 0.0
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self._last < 0.1 and done < total:
            return
        self._last = now
        filled = 30 * done // max(total, 1)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'-' * (30 - filled)}] {done}/{total} worlds")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """Clear the line."""
        if self._shown:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()
            self._shown = False


def terminal_progress(label: str) -> ProgressLine | None:
    """A :class:`ProgressLine` on stderr when it is a terminal, else ``None``."""
    return ProgressLine(sys.stderr, label) if sys.stderr.isatty() else None


# --------------------------------------------------------------------------- command


def advice_position(position: str, game: tuple[Game, bool] | None, declarer: int | None, played: str | None,
                    after: int | None) -> tuple[Position, Declaration, tuple[tuple[int, str], ...]]:
    """The position ``skatdd advise`` advises on, its declaration and the auction its input states.

    The position as :func:`skatdd.formats.position_input.advice_position`
    gives it; the auction as :attr:`skatdd.formats.deal_input.DealInput.bids`.
    The input's warnings go to stderr.  Raises :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    read = read_position(position, game=game, declarer=declarer)
    print_warnings(read.warnings)
    return read_advice_position(read, played=played, after=after), read.spec.declaration(), read.bids


@click.command("advise")
@click.argument("position", metavar="POSITION")
@click.option("--game", "game_spec", type=GAME,
              help="Contract (grand, clubs, ..., null, null-ouvert); required for deal text.")
@seat_option("--declarer", help="Declarer's seat (0/1/2, F/M/R); required for deal text.")
@click.option("--played", metavar="CARDS", help="Cards played after the position, in order.")
@click.option("--after", type=click.IntRange(min=0), default=None,
              help="Take the first K cards of the recorded play (ISS record or JSON 'played').")
@worlds_option(DEFAULT_WORLDS)
@seed_option()
@inference_option
@honest_options("each card of a declarer decision with at most --honest-tricks tricks left")
@jobs_option("Worker processes solving the worlds, one solver each [default: every core].")
@json_option
@tt_option
def command(position: str, game_spec: tuple[Game, bool] | None, declarer: int | None, played: str | None,
            after: int | None, worlds: int, seed: int, inference: str, honest: bool, honest_tricks: int,
            jobs: int | None, as_json: bool, tt_mb: int) -> None:
    """What the player to move should play, from what he can see (single-dummy).

    For every legal card: over the worlds consistent with the mover's view
    (his cards, the cards played and the voids they show, the skat if he
    picked it up, an ouvert declarer's hand) -- all of them when there are
    at most --worlds, else that many drawn uniformly with --seed -- the
    fraction in which the declarer wins double-dummy after the card and the
    declarer's mean card points.  The declarer's best card maximises both,
    in that order; a defender's minimises them.  --inference weighs the
    worlds by the bidding and the play; --honest adds the declarer's
    honest endgame values (docs/inference.md).

    \b
    Examples:
      skatdd advise game.iss --after 4
      skatdd advise '{"game": "spades", "declarer": 1, "hands": [...], "skat": "...", "played": "HA"}' --json
      skatdd advise examples/deal.txt --game spades --declarer M --played "HA" --worlds 500 --seed 7
      skatdd advise game.iss --after 21 --inference all --honest
    """
    check_honest_tricks(honest)
    with input_errors():
        pos, declaration, stated = advice_position(position, game_spec, declarer, played, after)
        bids = input_auction(stated) if inference in ("bids", "all") else ()
        refusal = honest_refusal(pos, honest_tricks) if honest else None
        if refusal is not None:
            raise DealFormatError(f"--honest: {refusal}")
    progress = terminal_progress("advise")
    try:
        with input_errors():
            advice = advise(pos, declaration, worlds=worlds, seed=seed, solver=Solver(tt_mb=tt_mb),
                            jobs=worker_count(jobs), progress=progress, inference=inference, bids=bids,
                            honest=honest_tricks if honest else None)
    finally:
        if progress is not None:
            progress.close()
    if as_json:
        emit_json(advice.to_json())
    else:
        click.echo(str(advice))
