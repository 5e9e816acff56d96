"""Readable, trick-by-trick rendering of positions and lines of play.

Shared by every command that prints play in plain text (``solve``, and any
command that shows a line): :func:`position_lines` draws a position (hands
with suit symbols, skat, the cards on the table, the score so far) and
:func:`line_lines` plays a list of cards from a position and prints one row
per trick: who played what, who won it, the trick's card points and the
declarer's running total.

The running total counts the skat or discard for the declarer in suit and
grand (docs/cli.md: the *value* of a position includes it), so after the
last trick of an optimal line it equals the reported value.  In null it
counts the declarer's tricks instead, since points do not matter there.

:func:`trick_rows` gives the same rows as data (for JSON or other layouts).
Nothing here changes the caller's position: lines are played on a copy.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from skatdd.core.cards import CARD_POINTS, Card, card_symbol, cards_of, display_sorted, points_of
from skatdd.core.position import Position
from skatdd.core.rules import SEAT_NAMES

__all__ = [
    "TrickRow",
    "card_list",
    "completed_tricks",
    "format_hand",
    "line_lines",
    "position_lines",
    "seat_label",
    "trick_rows",
]

_SEAT_WIDTH = max(len(name) for name in SEAT_NAMES)


def format_hand(mask: int) -> str:
    """Cards of *mask* with suit symbols, in the order players sort a hand (``'♣J ♠J ♥A ♥10'``); ``'-'`` when empty."""
    cards = display_sorted(cards_of(mask))
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def seat_label(seat: int, declarer: int) -> str:
    """``'forehand (declarer)'`` or ``'middlehand'``: the seat's name, marked when it is the declarer's."""
    return SEAT_NAMES[seat] + (" (declarer)" if seat == declarer else "")


def completed_tricks(pos: Position) -> int:
    """Tricks completed before *pos*, from the cards no longer in a hand or on the table.

    For endgames (fewer than ten cards a hand, no history) this counts the
    tricks played before the endgame too, so trick numbers stay those of the
    whole game.
    """
    on_table_or_held = pos.cards_left + len(pos.trick)
    return (30 - on_table_or_held) // 3


def _game_title(pos: Position) -> str:
    return pos.game.label.capitalize()


def position_lines(pos: Position) -> list[str]:
    """The position drawn as text, one string per line.

    Shows the contract and declarer, each seat's hand (declarer marked),
    the skat or discard with its points (suit/grand), the cards already on
    the table with who played them, and the score so far: the declarer's
    points in completed tricks (suit/grand) and both sides' tricks.
    """
    done = completed_tricks(pos)
    head = (
        f"{_game_title(pos)}, declarer {SEAT_NAMES[pos.declarer]}; "
        f"{SEAT_NAMES[pos.to_move]} to play, trick {done + 1}"
        if pos.cards_left or pos.trick else
        f"{_game_title(pos)}, declarer {SEAT_NAMES[pos.declarer]}; every card is played"
    )
    out = [head]
    for seat in range(3):
        mark = "*" if seat == pos.declarer else " "
        out.append(f"  {SEAT_NAMES[seat]:<{_SEAT_WIDTH}}{mark} {format_hand(pos.hands[seat])}")
    if pos.skat:
        skat = format_hand(pos.skat)
        if pos.game.is_null:
            out.append(f"  {'skat':<{_SEAT_WIDTH}}  {skat}")
        else:
            out.append(f"  {'skat':<{_SEAT_WIDTH}}  {skat}  ({points_of(pos.skat)} points for the declarer)")
    if pos.trick:
        table = ", ".join(
            f"{SEAT_NAMES[(pos.leader + i) % 3]} {card_symbol(c)}" for i, c in enumerate(pos.trick)
        )
        out.append(f"  {'table':<{_SEAT_WIDTH}}  {table}")
    if done:
        if pos.game.is_null:
            out.append(
                f"  earlier tricks: declarer {pos.declarer_tricks}, defenders {pos.defender_tricks}"
            )
        else:
            out.append(
                f"  earlier tricks: declarer {pos.declarer_tricks} with {pos.declarer_points} points, "
                f"defenders {pos.defender_tricks}"
            )
    out.append("  (* = declarer)")
    return out


@dataclass(frozen=True)
class TrickRow:
    """One trick of a line, as :func:`trick_rows` reports it.

    Attributes:
        number: the trick's number in the game, from 1.
        plays: ``(seat, card)`` in playing order, the lead first; cards that
            were already on the table at the start are included.
        winner: seat that won the trick, or ``None`` when the line stops
            before the trick is complete.
        points: card points in the trick (counted when it is complete).
        declarer_total: suit/grand: the declarer's points so far including
            the skat; null: the declarer's tricks so far.
        from_table: how many of :attr:`plays` were already on the table when
            the line started.
    """

    number: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    points: int
    declarer_total: int
    from_table: int = 0


def trick_rows(pos: Position, line: Sequence[Card]) -> list[TrickRow]:
    """Play *line* from *pos* (on a copy) and return one :class:`TrickRow` per trick touched.

    The first row includes the cards already on the table.  A line may stop
    in the middle of a trick; the last row then has ``winner=None``.

    Raises :class:`~skatdd.core.errors.IllegalPlayError` naming the card when the
    line plays a card its player does not hold or may not play.
    """
    work = pos.copy()
    rows: list[TrickRow] = []
    number = completed_tricks(work) + 1
    plays: list[tuple[int, Card]] = [((work.leader + i) % 3, c) for i, c in enumerate(work.trick)]
    from_table = len(plays)
    for card in line:
        seat = work.to_move
        winner = work.play(card)
        plays.append((seat, card))
        if winner is not None:
            total = work.declarer_tricks if work.game.is_null else work.value_so_far
            rows.append(TrickRow(number, tuple(plays), winner, sum(CARD_POINTS[c] for _, c in plays), total, from_table))
            number += 1
            plays = []
            from_table = 0
    if len(plays) > from_table or (plays and not rows):
        total = work.declarer_tricks if work.game.is_null else work.value_so_far
        rows.append(TrickRow(number, tuple(plays), None, 0, total, from_table))
    return rows


_CELL = _SEAT_WIDTH + 6  # "middlehand ♦10^ "


def _cell(seat: int, card: Card, on_table: bool) -> str:
    return f"{SEAT_NAMES[seat]:<{_SEAT_WIDTH}} {card_symbol(card) + ('^' if on_table else ''):<4} "


def _header(null: bool) -> str:
    cards = "".join(f"{name:<{_CELL}}" for name in ("lead", "second", "third"))
    tail = "declarer tricks" if null else "points  declarer"
    return f"  trick  {cards}{'won by':<{_SEAT_WIDTH + 12}}{tail}"


def _row_text(row: TrickRow, declarer: int, null: bool) -> str:
    cards = "".join(_cell(seat, card, i < row.from_table) for i, (seat, card) in enumerate(row.plays))
    cards = f"{cards:<{3 * _CELL}}"
    number = f"{row.number:>4}. "
    if row.winner is None:
        return f"  {number}{cards}(unfinished)"
    side = "declarer" if row.winner == declarer else "defenders"
    winner = f"{SEAT_NAMES[row.winner]:<{_SEAT_WIDTH}} {'(' + side + ')':<12}"
    if null:
        return f"  {number}{cards}{winner}{row.declarer_total:>15}"
    return f"  {number}{cards}{winner}{row.points:>6}{row.declarer_total:>10}"


def line_lines(pos: Position, line: Sequence[Card]) -> list[str]:
    """*line* played from *pos*: a header, one string per trick, and a legend when cards were on the table.

    Each row: the trick's number, every card with the seat that played it
    (in playing order, the lead first), the winner and its side, and, in
    suit and grand, the trick's points and the declarer's running total
    including the skat; in null the declarer's tricks so far.  Cards that
    were already on the table are marked ``^``.  Raises
    :class:`~skatdd.core.errors.IllegalPlayError` for an illegal line.
    """
    rows = trick_rows(pos, line)
    out = [_header(pos.game.is_null)] if rows else []
    out += [_row_text(row, pos.declarer, pos.game.is_null) for row in rows]
    if any(row.from_table for row in rows):
        out.append("  (^ = already on the table)")
    return out


def card_list(cards: Iterable[Card]) -> str:
    """Cards in the given order with suit symbols, space-separated."""
    return " ".join(card_symbol(c) for c in cards)
