"""The text of ``skatdd solve``: :class:`~skatdd.engine.solve.SolveResult` as printed.

:func:`result_lines` is the report; ``str(result)`` is the same text without
the table size (registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from skatdd.core.cards import card_symbol, display_sorted
from skatdd.core.position import Position
from skatdd.core.printable import renders
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, SEAT_NAMES, WIN_POINTS
from skatdd.engine.solve import SolveResult

from .report import line_lines, position_lines

__all__ = ["result_lines", "solve_text"]


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


def result_lines(result: SolveResult, *, tt_mb: int | None = None) -> list[str]:
    """The readable report of ``skatdd solve``, one string per line (*tt_mb*: the table's size, for the last line).

    Needs the position the result holds (``Solver.solve`` sets it); ``ValueError`` without.
    """
    pos = result.position
    if pos is None:
        raise ValueError("a SolveResult built without its position has no report")
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


@renders(SolveResult)
def solve_text(result: SolveResult) -> str:
    """What ``skatdd solve`` prints for *result* (but the table size it was solved with)."""
    return "\n".join(result_lines(result))
