"""``skatdd solve``: the double-dummy result of one deal or position (docs/cli.md).

DEAL is deal text, a path to a file holding a deal, a JSON position object
or an ISS game record (read by :func:`skatdd.formats.readers.read_input`).  The
position solved is:

* deal text: the deal before the first card, forehand to lead;
* JSON: the position the object describes (after its ``played`` cards);
* ISS record: the position before the first card, with the record's
  declarer, contract and skat or discard (the record's own play is ignored).

``--played CARDS`` then plays those cards, in order, from that position
(each must be legal for the seat to move).  ``--mode value`` (default)
gives the exact value and an optimal line; ``win`` only whether the
declarer wins (faster; ``value`` is ``null``) with a line that keeps that
result; ``all`` adds every legal card's value.  ``--json`` prints exactly
the fields of :meth:`skatdd.engine.solve.SolveResult.to_json`.

Bad input (unknown card, a card twice, a wrong count, unknown game or seat,
an illegal card in ``--played``, a malformed ISS record) exits 2 with a
one-line message naming the token.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

from skatdd.core.cards import card_symbol, display_sorted
from skatdd.core.errors import SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, SEAT_NAMES, WIN_POINTS, Game
from skatdd.engine.solve import MODES, Solver, SolveResult
from skatdd.formats.position_input import apply_played, read_position
from skatdd.formats.spec import GameSpec
from skatdd.present.report import line_lines, position_lines

from .common import emit_json, print_warnings
from .options import GAME, json_option, seat_option, tt_option

__all__ = ["InputError", "apply_played", "command", "input_errors", "result_lines", "solve_position"]


class InputError(click.ClickException):
    """Bad input found while a command runs: printed as ``Error: ...`` on stderr, exit status 2."""

    exit_code = 2


@contextlib.contextmanager
def input_errors() -> Iterator[None]:
    """Turn any :class:`~skatdd.core.errors.SkatddError` raised inside into :class:`InputError` (exit 2, one line).

    The CLI's ``main()`` does the same for errors that escape a command;
    doing it here as well keeps the exit status 2 under ``CliRunner`` and
    any other caller of the Click group.
    """
    try:
        yield
    except SkatddError as exc:
        raise InputError(" ".join(str(exc).split())) from None


def solve_position(deal: str, *, game: tuple[Game, bool] | None, declarer: int | None,
                   played: str | None) -> tuple[GameSpec, Position]:
    """Read DEAL and ``--played`` into the position ``skatdd solve`` solves (see the module docstring).

    The input's warnings go to stderr (before ``--played`` is checked).  Raises
    :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    read = read_position(deal, game=game, declarer=declarer)
    spec, pos = read.spec, read.position
    print_warnings(read.warnings)
    if played:
        apply_played(pos, played)
    return spec, pos


def _verdict(result: SolveResult, pos: Position) -> str:
    """One line: the value and who wins."""
    if pos.game.is_null:
        if result.declarer_wins:
            return "Result: the declarer wins: he can avoid every trick"
        return "Result: the declarer loses: the defenders can force a trick on him"
    if result.value is None:
        if result.declarer_wins:
            return f"Result: the declarer wins: he reaches {WIN_POINTS} card points"
        return f"Result: the declarer loses: he cannot reach {WIN_POINTS} card points"
    parts = []
    if pos.declarer_points:
        parts.append(f"{pos.declarer_points} already won")
    if pos.skat_points:
        parts.append(f"{pos.skat_points} in the skat")
    detail = f" ({', '.join(parts)})" if parts else ""
    text = f"Value: {result.value} card points for the declarer{detail}: "
    text += "the declarer wins" if result.declarer_wins else "the declarer loses"
    if result.value >= SCHNEIDER_POINTS:
        text += ", the defenders are schneider"
    elif result.value <= SCHNEIDERED_POINTS:
        text += ", the declarer is schneider"
    return text


def _line_title(result: SolveResult, pos: Position) -> str:
    if not result.line:
        return "No card left to play."
    if pos.game.is_null:
        if result.declarer_wins:
            return "Optimal line (the declarer takes no trick):"
        return "Optimal line (to the trick the declarer is forced to take):"
    if result.value is None:
        return "A line that keeps this result:"
    return "Optimal line:"


def _card_value_lines(result: SolveResult, pos: Position) -> list[str]:
    """Mode ``all``: every legal card of the player to move with its value, best cards marked."""
    assert result.cards is not None
    if not result.cards:
        return []
    by_card = {cv.card: cv for cv in result.cards}
    mover_is_declarer = pos.to_move == pos.declarer
    if pos.game.is_null:
        scores = {c: int(cv.declarer_wins) for c, cv in by_card.items()}
    else:
        scores = {c: cv.value if cv.value is not None else int(cv.declarer_wins) for c, cv in by_card.items()}
    best = max(scores.values()) if mover_is_declarer else min(scores.values())
    side = "declarer" if mover_is_declarer else "defender"
    out = [f"Card values ({SEAT_NAMES[pos.to_move]}, {side}, to play; * = best):"]
    for card in display_sorted(by_card):
        cv = by_card[card]
        mark = "*" if scores[card] == best else " "
        outcome = "declarer wins" if cv.declarer_wins else "declarer loses"
        if pos.game.is_null or cv.value is None:
            out.append(f"  {mark} {card_symbol(card):<4} {outcome}")
        else:
            out.append(f"  {mark} {card_symbol(card):<4} {cv.value:>3}  {outcome}")
    return out


def result_lines(result: SolveResult, pos: Position, *, tt_mb: int | None = None) -> list[str]:
    """The readable report of ``skatdd solve``, one string per line."""
    out = position_lines(pos)
    out.append("")
    out.append(_verdict(result, pos))
    out.append("")
    out.append(_line_title(result, pos))
    out.extend(line_lines(pos, result.line))
    if result.cards:
        out.append("")
        out.extend(_card_value_lines(result, pos))
    out.append("")
    stats = f"Nodes: {result.nodes:,}   time: {result.seconds:.3f} s"
    if tt_mb is not None:
        stats += f"   transposition table: {tt_mb} MiB"
    out.append(stats)
    return out


@click.command("solve")
@click.argument("deal")
@click.option("--game", "game_spec", type=GAME,
              help="Contract: grand, clubs, spades, hearts, diamonds, null, null-ouvert (or G C S H D N NO); "
                   "required for deal text, overrides a JSON or ISS deal's.")
@seat_option("--declarer",
             help="Declarer's seat: 0/1/2, F/M/R or forehand/middlehand/rearhand; required for deal text.")
@click.option("--played", metavar="CARDS",
              help="Cards played from the start of DEAL, in order (ISS record: from before its first card).")
@click.option("--mode", type=click.Choice(MODES), default="value", show_default=True,
              help="value: exact value and optimal line; win: only win or loss (faster); all: value plus "
                   "every legal card's value.")
@json_option
@tt_option
def command(deal: str, game_spec: tuple[Game, bool] | None, declarer: int | None, played: str | None,
            mode: str, as_json: bool, tt_mb: int) -> None:
    """Solve DEAL double-dummy: value, win or loss, an optimal line.

    DEAL is deal text (forehand / middlehand / rearhand / skat), a file
    holding one, a JSON position object, or an ISS game record.

    \b
    Examples:
      skatdd solve "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ" --game diamonds --declarer F
      skatdd solve examples/deal.txt --game grand --declarer 0 --played "HA S9 H9" --mode all
      skatdd solve '{"game": "null", "declarer": 1, "hands": ["D7", "D8", "D9"], "skat": ""}' --json
    """
    with input_errors():
        _, pos = solve_position(deal, game=game_spec, declarer=declarer, played=played)
    result = Solver(tt_mb=tt_mb).solve(pos, mode)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo("\n".join(result_lines(result, pos, tt_mb=tt_mb)))
