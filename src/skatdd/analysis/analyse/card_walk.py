"""The card-by-card walk of a game: every card judged by what it did to the double-dummy value.

:func:`analyse_cards` takes a start position and the cards played from it
and returns a :class:`~skatdd.analysis.analyse.results.PlayLine`;
:mod:`skatdd.analysis.analyse.api` builds a whole game's analysis around it, and
``skatdd match`` scores its games' cards with it.

Values
    Suit and grand: the *value* of a position is the declarer's final card
    points (skat or discard included) under double-dummy play from there
    (docs/cli.md).  Null: 1 when the declarer wins double-dummy (he can avoid
    every trick), 0 when he loses.

Per card (:class:`~skatdd.analysis.analyse.results.CardAnalysis`)
    ``value_before`` is the value of the position the card was played from,
    ``value_after`` the value of the position it led to.  The value after a
    card *is* the value before the next one: each position is valued once
    and the two numbers are the same object.  ``cost`` is what the card lost
    for its own side and is never negative: ``value_before - value_after``
    for a declarer's card, ``value_after - value_before`` for a defender's
    (so in null a cost of 1 means the card turned a win into a loss for its
    side).  ``best`` lists every legal card whose value equals the best
    value for the player to move; ``cost == 0`` exactly when the card played
    is in ``best``.

How the values are found (:func:`analyse_cards`)
    One :class:`~skatdd.engine.solve.Solver` serves the whole game, so its
    transposition table (exact keys, valid across positions) carries from
    each position to the next.  Suit and grand: the start is valued exactly
    once; after that the value *v* of the current position is known (it is
    the previous card's ``value_after``), and every child needs only
    null-window questions, since a declarer's child is worth at most *v* and
    a defender's child at least *v*: a declarer's card is optimal iff its
    child still reaches *v*, a defender's iff its child does not reach
    *v* + 1.  Only the child of a card that was actually played and was a
    mistake is valued exactly (it is the next position's value).  A forced
    card (one legal card) costs no search; cards that are equivalent (same
    holder, same follow group, same card points, no live card of another
    holder between them in rank: :func:`skatdd.core.equivalence.representatives`)
    share one search.  Null: the engine's
    :meth:`~skatdd.engine.solve.Solver.card_values` gives every card's win or loss.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from skatdd.core.cards import Card, Mask, card_name, display_sorted, mask_of
from skatdd.core.equivalence import representatives
from skatdd.core.position import Position
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.spec import replay_cards

from .results import CardAnalysis, PlayLine

__all__ = ["analyse_cards"]


def _live(pos: Position) -> Mask:
    """Cards still in a hand or on the table: the ones that decide who wins what."""
    return pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)


def _representatives(pos: Position, legal: list[Card]) -> dict[Card, Card]:
    """Map each legal card of the player to move to the representative of its class of equivalent cards."""
    hand = pos.hands[pos.to_move]
    return representatives(pos.game, hand, _live(pos) & ~hand, legal)


def _cost(declarer_moves: bool, before: int, after: int) -> int:
    """What a card that took the value from *before* to *after* lost for its side (``>= 0``)."""
    return before - after if declarer_moves else after - before


class _Walk:
    """Values positions for :func:`analyse_cards`; one instance per game, sharing *solver*."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    # Suit and grand ------------------------------------------------------
    def optimal(self, child: Position, v: int, declarer_moves: bool) -> bool:
        """Is the child worth *v* (the parent's value)?  One null-window question."""
        if declarer_moves:
            return self.solver.reaches(child, v)
        return not self.solver.reaches(child, v + 1)

    def points_step(self, pos: Position, v: int, card: Card) -> tuple[int, list[Card]]:
        """``(value after card, best cards)`` at *pos* whose value is *v*; *pos* ends after *card*."""
        legal = pos.legal_moves()
        declarer_moves = pos.to_move == pos.declarer
        if len(legal) == 1:
            pos.play(card)
            return v, legal
        reps = _representatives(pos, legal)
        verdict: dict[Card, bool] = {}
        for c in legal:
            rep = reps[c]
            if rep in verdict or rep == reps[card]:
                continue
            pos.play(c)
            verdict[rep] = self.optimal(pos, v, declarer_moves)
            pos.undo()
        pos.play(card)
        after = v if self.optimal(pos, v, declarer_moves) else self.solver.value(pos)
        assert after is not None
        verdict[reps[card]] = after == v
        return after, [c for c in legal if verdict[reps[c]]]

    # Null -----------------------------------------------------------------
    def null_step(self, pos: Position, v: int | None, card: Card) -> tuple[int, int, list[Card]]:
        """``(value before, value after, best cards)`` in null; *pos* ends after *card*.

        *v* is the position's value when already known (the previous card's
        value after), else ``None`` (the first position).
        """
        declarer_moves = pos.to_move == pos.declarer
        values = {c: int(cv.declarer_wins) for c, cv in self.solver.card_values(pos).items()}
        if v is None:
            v = max(values.values()) if declarer_moves else min(values.values())
        pos.play(card)
        return v, values[card], [c for c, value in values.items() if value == v]


def analyse_cards(start: Position, cards: Sequence[Card], *, solver: Solver | None = None) -> PlayLine:
    """Judge every card of *cards*, played in order from *start* (which is left unchanged).

    Returns a :class:`PlayLine`; see the module docstring for the values,
    costs and ``best``.  *solver* (reused, with its table; ``None``: a new
    default one) does the searching.  Trick numbers count the tricks completed
    before *start* (an endgame keeps the game's numbering).

    Raises :class:`~skatdd.core.errors.IllegalPlayError` naming the card and its
    index when a card is not held by the seat to move, does not follow suit,
    or comes after the end of the game.
    """
    replay_cards(start.copy(), cards, where=lambda i, card: f"card {i + 1} {card_name(card)!r}")  # check first
    solver = solver_or_default(solver)
    started = time.perf_counter()
    nodes0 = solver.nodes
    walk = _Walk(solver)
    pos = start.copy()
    null = pos.game.is_null
    value: int | None = None if null else solver.value(pos)
    values: list[int] = []
    plays: list[CardAnalysis] = []
    for index, card in enumerate(cards):
        seat = pos.to_move
        declarer_moves = seat == pos.declarer
        trick = (30 - pos.cards_left - len(pos.trick)) // 3 + 1  # tricks completed before, plus one
        if null:
            before, after, best = walk.null_step(pos, value, card)
        else:
            assert value is not None
            before = value
            after, best = walk.points_step(pos, value, card)
        values.append(before)
        plays.append(CardAnalysis(
            index=index, trick=trick, seat=seat, card=card, value_before=before, value_after=after,
            cost=_cost(declarer_moves, before, after), best=tuple(display_sorted(best)), declarer=declarer_moves,
        ))
        value = after
    if value is None:  # null, no card played: value the start itself
        value = int(solver.declarer_wins(pos))
    values.append(value)
    return PlayLine(
        start_value=values[0], plays=plays, values=values, nodes=solver.nodes - nodes0,
        seconds=time.perf_counter() - started,
    )

