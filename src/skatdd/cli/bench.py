"""``skatdd bench``: time the solver on seeded realistic deals (docs/cli.md).

Generates ``--deals`` realistic deals from ``--seed`` (optionally all of one
contract with ``--game``), solves each exactly with one solver,
single-threaded and from an empty transposition table, and prints solves per
second, median, p90 and max time, the total node count (the engine's
fingerprint: the same seed and table size give the same nodes), a per-game
breakdown, the time of all first-card values relative to one solve, and
the win-only questions (reaches 61, 90, 31; schwarz) against the exact
value.  ``--close`` benchmarks close games instead.
The measuring lives in :mod:`skatdd.tools.bench`.
"""
from __future__ import annotations

import sys

import click

from skatdd.core.rules import Game
from skatdd.engine.solve import Solver
from skatdd.tools.bench import CLOSE_MARGIN, DEFAULT_DEALS, DealTiming, run_bench

from .common import emit_json
from .options import GAME, json_option, seed_option, tt_option

__all__ = ["command"]


@click.command("bench")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=DEFAULT_DEALS, show_default=True,
              help="Number of realistic deals to solve.")
@seed_option("Seed of the deal generator.")
@click.option("--game", "game_spec", type=GAME, default=None,
              help="Only deals of this contract (default: the contract a sensible player picks).")
@click.option("--card-values/--no-card-values", default=True, show_default=True,
              help="Also time the values of all first cards of each deal.")
@click.option("--queries/--no-queries", default=True, show_default=True,
              help="Also time the win-only questions (reaches 61, 90, 31; schwarz) of suit and grand deals.")
@click.option("--close", is_flag=True,
              help=f"Only close games: suit and grand deals whose value lies within {CLOSE_MARGIN} of 61 "
                   "(selected by an untimed solve).")
@json_option
@tt_option
def command(deals: int, seed: int, game_spec: tuple[Game, bool] | None, card_values: bool, queries: bool,
            close: bool, as_json: bool, tt_mb: int) -> None:
    """Time the solver on seeded realistic deals: solves/s, median and tail times, nodes.

    \b
    Examples:
      skatdd bench
      skatdd bench --deals 500 --seed 7 --json
      skatdd bench --game null --deals 200
      skatdd bench --close --deals 100 --no-card-values
    """
    game = game_spec[0] if game_spec is not None else None
    if close and game is not None and game.is_null:
        raise click.BadParameter("close games are decided by points: not available for null", param_hint="--close")
    stderr = sys.stderr
    show = stderr.isatty()

    def progress(i: int, timing: DealTiming) -> None:
        if show:
            stderr.write(f"\rsolving deal {i + 1}/{deals} ({timing.game.label}, {timing.seconds * 1e3:.1f} ms)   ")
            stderr.flush()

    if show and close:
        stderr.write("selecting close games (untimed solves)...")
        stderr.flush()
    report = run_bench(deals=deals, seed=seed, game=game, solver=Solver(tt_mb=tt_mb), card_values=card_values,
                       queries=queries, close=close, progress=progress)
    if show:
        stderr.write("\r" + " " * 60 + "\r")
        stderr.flush()
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo("\n".join(report.lines()))
