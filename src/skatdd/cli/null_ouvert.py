"""``skatdd null-ouvert``: is this null ouvert unbeatable? (docs/cli.md)

HAND is the declarer's ten cards after the discard; ``--skat`` the two skat
cards when known (without it the skat is one more unknown: a hand game);
``--declarer`` the declarer's seat (seat 0, forehand, leads the first
trick).  The report gives the double-dummy count over every world, the
honest verdict (one strategy using only what the declarer sees), and a
counterexample world with the line that beats the declarer, or the
decision where he must guess.  ``--jobs N`` (default: every core) solves
the classes of worlds on N threads, each with a table of ``--tt-mb``; the
report is the same whatever N but for the node count.  ``--json`` prints exactly
:meth:`skatdd.engine.nullouvert.NullOuvertResult.to_json`.

Bad input (unknown or duplicate card, not ten cards, a skat overlapping the
hand, an unknown seat) exits 2 with a one-line message naming the token.
"""
from __future__ import annotations

import click

from skatdd.core.cards import Card, card_symbol, cards_of, display_sorted
from skatdd.core.errors import SkatddError
from skatdd.core.rules import SEAT_NAMES
from skatdd.engine.nullouvert import (
    TT_MB_KNOWN_SKAT,
    TT_MB_UNKNOWN_SKAT,
    NullOuvertAnalyser,
    NullOuvertResult,
    World,
    analyse,
)
from skatdd.runner.lines import default_jobs
from skatdd.runner.workers import cap_workers

from .common import emit_json, run_interruptibly
from .options import jobs_option, json_option, seat_option, table_option

__all__ = ["command", "result_lines"]


class _InputError(click.ClickException):
    """Bad input found while the command runs: ``Error: ...`` on stderr, exit status 2."""

    exit_code = 2


def _symbols(mask: int) -> str:
    return " ".join(card_symbol(c) for c in display_sorted(cards_of(mask))) or "-"


def _world_lines(world: World, declarer: int, indent: str = "  ") -> list[str]:
    out = []
    for seat in range(3):
        role = "declarer" if seat == declarer else "defender"
        out.append(f"{indent}{SEAT_NAMES[seat]:<10} ({role}): {_symbols(world.hands[seat])}")
    out.append(f"{indent}{'skat':<10}: {_symbols(world.skat)}")
    return out


def _trick_lines(line: list[Card], declarer: int) -> list[str]:
    """The line trick by trick: who led, each card with its seat, who won."""
    out = []
    leader = 0
    for t in range(0, len(line), 3):
        trick = line[t:t + 3]
        cards = "  ".join(
            f"{SEAT_NAMES[(leader + i) % 3][0].upper()}:{card_symbol(c)}" for i, c in enumerate(trick)
        )
        if len(trick) == 3:
            led = trick[0] >> 3
            best = max((i for i in range(3) if trick[i] >> 3 == led), key=lambda i: trick[i])
            winner = (leader + best) % 3
            who = "the declarer takes it" if winner == declarer else f"{SEAT_NAMES[winner]} takes it"
            out.append(f"  trick {t // 3 + 1}: {cards}   -> {who}")
            leader = winner
        else:
            out.append(f"  trick {t // 3 + 1}: {cards}")
    return out


def result_lines(r: NullOuvertResult) -> list[str]:
    """The readable report of one analysis."""
    lines = [
        f"Null ouvert, declarer {SEAT_NAMES[r.declarer]} ({r.declarer}): {_symbols(r.hand)}"
        + (f"   skat {_symbols(r.skat)}" if r.skat is not None else "   skat unknown (hand game)"),
    ]
    if r.unbeatable:
        lines.append("Verdict: UNBEATABLE - one strategy wins in every world, without seeing the cards.")
    elif r.worlds_lost == 0:
        lines.append("Verdict: beatable by a guess - every world is won double-dummy, but the declarer must guess.")
    else:
        lines.append("Verdict: BEATABLE - the defenders beat it in some worlds even double-dummy.")
    pct = 100.0 * r.worlds_lost / r.worlds if r.worlds else 0.0
    lines.append(f"Worlds: {r.worlds:,}, lost double-dummy: {r.worlds_lost:,} ({pct:.4f}%)")
    if r.counterexample is not None:
        world, line = r.counterexample
        lines.append("Counterexample:")
        lines.extend(_world_lines(world, r.declarer))
        lines.append("  the defenders beat it:")
        lines.extend(_trick_lines(line, r.declarer))
    if r.guess is not None:
        g = r.guess
        played = " ".join(card_symbol(c) for c in g.history) or "nothing"
        lines.append(f"The declarer must guess after: {played}")
        groups: dict[World, list[Card]] = {}
        for card, world in g.refutations:
            groups.setdefault(world, []).append(card)
        for world, cards in groups.items():
            lines.append(f"  {' '.join(card_symbol(c) for c in cards)} lose{'s' if len(cards) == 1 else ''} in:")
            lines.extend(_world_lines(world, r.declarer, indent="    "))
    lines.append(f"{r.classes:,} classes of worlds solved, {r.nodes:,} nodes, {r.seconds:.3f} s")
    return lines


@click.command("null-ouvert")
@click.argument("hand", nargs=-1, required=True)
@click.option("--skat", "skat", default=None, metavar="CARDS", help="The two skat cards, when known.")
@seat_option("--declarer", required=True, help="Declarer's seat: 0/1/2, F/M/R or forehand/middlehand/rearhand.")
@jobs_option("Threads solving the classes of worlds of a hand game (with --skat the count is short and runs "
             "on one), one double-dummy table of --tt-mb each; the answer is the same for any number of them, "
             "only the node count moves  [default: every core].")
@json_option
@table_option(default=None,
              help="Double-dummy table size in MiB, per thread of --jobs (the honest-search memo gets half of "
                   "one)  [default: 32 with --skat, 128 without].")
def command(hand: tuple[str, ...], skat: str | None, declarer: int, jobs: int | None, as_json: bool,
            tt_mb: int | None) -> None:
    """Is this null ouvert unbeatable?  HAND: the declarer's ten cards after the discard."""
    table = tt_mb or (TT_MB_KNOWN_SKAT if skat is not None else TT_MB_UNKNOWN_SKAT)
    requested = jobs if jobs is not None else default_jobs()
    threads = cap_workers(requested, what=f"--jobs {requested}", tt_mb=table, unit=("thread", "threads"))
    try:
        result = run_interruptibly(lambda: analyse(" ".join(hand), declarer=declarer, skat=skat, jobs=threads,
                                                   solver=None if tt_mb is None else NullOuvertAnalyser(tt_mb)))
    except SkatddError as exc:
        raise _InputError(" ".join(str(exc).split())) from None
    if as_json:
        emit_json(result.to_json())
    else:
        for line in result_lines(result):
            click.echo(line)
