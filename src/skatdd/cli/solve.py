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

from skatdd.core.errors import SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine.solve import MODES, Solver
from skatdd.formats.position_input import apply_played, read_position
from skatdd.formats.spec import GameSpec
from skatdd.present.solve import result_lines

from .common import emit_json, print_warnings
from .options import GAME, json_option, seat_option, tt_option

__all__ = ["InputError", "apply_played", "command", "input_errors", "solve_position"]


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
        click.echo("\n".join(result_lines(result, tt_mb=tt_mb)))
