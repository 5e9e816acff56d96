"""The plain Python reference solver: the oracle the Cython engine is tested against.

Minimax with alpha-beta pruning over :class:`~skatdd.core.position.Position`, and
nothing clever: no transposition table, no move ordering, no equivalent-card
reduction, no bounds.  Every rule (following, trick winner, points, trick
counts) comes from :meth:`Position.play`, so the solver is short enough to
check by reading.  It is exponential in the number of cards left: fine for
endgames of up to four or five tricks a hand, hopeless for full deals
(``tests/data/solved-deals.jsonl`` covers those).

Double-dummy (docs/rules.md, Double-dummy values): every player sees every card; the declarer
plays to maximise, the two defenders together to minimise.

The functions never change the caller's position: they search a copy.

Values (docs/cli.md, A deal or position as JSON):

* suit and grand: the declarer's *final* card points, that is
  ``pos.declarer_points`` + the skat's points + every point the declarer
  wins from here on, the cards already on the table in the current trick
  included;
* null: ``True`` iff the declarer can avoid taking any trick (``False`` at
  once when ``pos.declarer_tricks > 0``).
"""
from __future__ import annotations

from skatdd.core.cards import Card
from skatdd.core.position import Position

__all__ = [
    "reference_can_take_all",
    "reference_card_values",
    "reference_line",
    "reference_value",
]

_INFINITY = 1000  # larger than any card-point total (the deck holds 120)


def reference_value(pos: Position) -> int | bool:
    """Double-dummy value of *pos*.

    Suit and grand: the declarer's final card points (``declarer_points`` +
    skat + every point won from here on, current trick included), an int in
    ``[pos.value_so_far, pos.value_so_far + points still in play]``.
    Null: ``True`` iff the declarer can avoid taking any trick.

    Raises :class:`~skatdd.core.errors.DealFormatError` when *pos* fails :meth:`Position.validate`.
    """
    pos.validate()
    work = pos.copy()
    if pos.game.is_null:
        return _null_search(work)
    return _points_search(work, -_INFINITY, _INFINITY)


def reference_card_values(pos: Position) -> dict[Card, int | bool]:
    """The value (as :func:`reference_value`) after each legal card of the player to move.

    Keys are the legal cards in ascending card order.  Empty when the
    position is over (no cards left, or a null declarer already took a trick).
    """
    pos.validate()
    work = pos.copy()
    if work.is_over():
        return {}
    result: dict[Card, int | bool] = {}
    for card in work.legal_moves():
        work.play(card)
        if pos.game.is_null:
            result[card] = _null_search(work)
        else:
            result[card] = _points_search(work, -_INFINITY, _INFINITY)
        work.undo()
    return result


def reference_can_take_all(pos: Position, declarer_side: bool) -> bool:
    """Can one side win every remaining trick, the current one included, against best resistance?

    *declarer_side* ``True`` asks about the declarer, ``False`` about the two
    defenders together.  Tricks already completed do not matter here (the
    caller combines this with ``declarer_tricks``/``defender_tricks`` for
    schwarz).  Trick winners follow the game's rules, null included; the other
    side resists by trying to win a trick, which in null is *not* the null
    declarer's aim, so there the answer is no substitute for
    :func:`reference_value`.  With no cards left the answer is ``True``.

    Raises :class:`~skatdd.core.errors.DealFormatError` when *pos* fails :meth:`Position.validate`.
    """
    pos.validate()
    return _take_all_search(pos.copy(), bool(declarer_side))


def reference_line(pos: Position) -> list[Card]:
    """A principal variation from *pos*: every card to the end of play (null: until the declarer takes a trick).

    At each step the player to move plays the lowest-numbered card whose
    value equals the best value for its side, so playing the line keeps
    :func:`reference_value` unchanged.  Slow: one :func:`reference_card_values`
    per card.
    """
    pos.validate()
    work = pos.copy()
    line: list[Card] = []
    while not work.is_over():
        values = reference_card_values(work)
        pick_max = work.to_move == work.declarer
        best = max(values.values()) if pick_max else min(values.values())  # null: True > False
        card = next(c for c, v in values.items() if v == best)
        work.play(card)
        line.append(card)
    return line


def _points_search(pos: Position, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta: the declarer's final points, exact when inside ``(alpha, beta)``.

    Returns ``v``; if ``v <= alpha`` the true value is ``<= v``, if
    ``v >= beta`` it is ``>= v``, otherwise ``v`` is exact.  *pos* is played
    on and restored.
    """
    if pos.cards_left == 0 and not pos.trick:
        return pos.declarer_points + pos.skat_points
    maximising = pos.to_move == pos.declarer
    best = -_INFINITY if maximising else _INFINITY
    for card in pos.legal_moves():
        pos.play(card)
        value = _points_search(pos, alpha, beta)
        pos.undo()
        if maximising:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def _null_search(pos: Position) -> bool:
    """Null: can the declarer take no trick from here?  *pos* is played on and restored."""
    if pos.declarer_tricks > 0:
        return False
    if pos.cards_left == 0 and not pos.trick:
        return True
    declarer_to_move = pos.to_move == pos.declarer
    for card in pos.legal_moves():
        pos.play(card)
        ok = _null_search(pos)
        pos.undo()
        if declarer_to_move and ok:
            return True  # the declarer has a safe card
        if not declarer_to_move and not ok:
            return False  # a defender can force a trick on the declarer
    return not declarer_to_move


def _take_all_search(pos: Position, declarer_side: bool) -> bool:
    """Can *declarer_side*'s side win every trick still to be completed?  *pos* is played on and restored."""
    if pos.cards_left == 0 and not pos.trick:
        return True
    side_to_move = (pos.to_move == pos.declarer) == declarer_side
    for card in pos.legal_moves():
        winner = pos.play(card)
        if winner is not None and (winner == pos.declarer) != declarer_side:
            ok = False
        else:
            ok = _take_all_search(pos, declarer_side)
        pos.undo()
        if side_to_move and ok:
            return True
        if not side_to_move and not ok:
            return False
    return not side_to_move
