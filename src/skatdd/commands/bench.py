"""``skatdd bench``: time the solver on seeded realistic deals (docs/cli.md).

Generates ``--deals`` realistic deals from ``--seed`` (optionally all of one
contract with ``--game``), solves each exactly with one solver,
single-threaded and from an empty transposition table, and prints solves per
second, median, p90 and max time, the total node count (the engine's
fingerprint: the same seed and table size give the same nodes), a per-game
breakdown, and the time of all first-card values relative to one solve.
The measuring lives in :mod:`skatdd.bench`.
"""
from __future__ import annotations

import sys

import click

from ..bench import DEFAULT_DEALS, DEFAULT_SEED, DealTiming, run_bench
from ..rules import Game
from .common import GAME, emit_json, json_option, tt_option

__all__ = ["command"]


@click.command("bench")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=DEFAULT_DEALS, show_default=True,
              help="Number of realistic deals to solve.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Seed of the deal generator.")
@click.option("--game", "game_spec", type=GAME, default=None,
              help="Only deals of this contract (default: the contract a sensible player picks).")
@click.option("--card-values/--no-card-values", default=True, show_default=True,
              help="Also time the values of all first cards of each deal.")
@json_option
@tt_option
def command(deals: int, seed: int, game_spec: tuple[Game, bool] | None, card_values: bool, as_json: bool,
            tt_mb: int) -> None:
    """Time the solver on seeded realistic deals: solves/s, median and tail times, nodes.

    \b
    Examples:
      skatdd bench
      skatdd bench --deals 500 --seed 7 --json
      skatdd bench --game null --deals 200
    """
    game = game_spec[0] if game_spec is not None else None
    stderr = sys.stderr
    show = stderr.isatty()

    def progress(i: int, timing: DealTiming) -> None:
        if show:
            stderr.write(f"\rsolving deal {i + 1}/{deals} ({timing.game.label}, {timing.seconds * 1e3:.1f} ms)   ")
            stderr.flush()

    report = run_bench(deals=deals, seed=seed, game=game, tt_mb=tt_mb, card_values=card_values,
                       progress=progress)
    if show:
        stderr.write("\r" + " " * 60 + "\r")
        stderr.flush()
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo("\n".join(report.lines()))
