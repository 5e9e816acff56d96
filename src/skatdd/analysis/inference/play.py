"""What the cards played say about the hidden cards: a model of play and the likelihood of a world.

The model (docs/inference.md): a seat chooses among its legal cards with a
softmax of their double-dummy values in the world as it really is,

    P(card c) = exp(u(c) / T) / sum(exp(u(c') / T) for every legal c')

where ``u`` is the seat's side's utility: the declarer's final card points
after the card (``Solver.card_values``) for the declarer, minus them for a
defender; in null 120 when the declarer still wins after the card, else 0
(negated for a defender).  *T* is the temperature in card points
(:data:`TEMPERATURE`): near 0 every seat plays a double-dummy best card,
large *T* makes every legal card equally likely (no inference).  A card
played from a single legal card, or from cards of equal value, says nothing
about the world and costs no search.

The likelihood of a world is the product of the probabilities of the cards
the other seats played in it, over the :data:`PLAY_CARDS` most recent such
cards with a choice (the cost bound: one ``card_values`` search per card and
world).  The cards of the viewing seat say nothing: it knows its own cards.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from skatdd.core.cards import Card
from skatdd.core.position import Position
from skatdd.engine.solve import Solver, solver_or_default

__all__ = ["PLAY_CARDS", "TEMPERATURE", "card_probability", "play_likelihood"]

#: Softmax temperature in card points: a card worth T points less is e times less likely.
TEMPERATURE = 6.0
#: At most this many of the most recent cards of other seats (with a choice) are weighed per world.
PLAY_CARDS = 6


def card_probability(pos: Position, card: Card, *, solver: Solver | None = None,
                     temperature: float = TEMPERATURE) -> tuple[float, int]:
    """``(P(card), searches)``: the softmax probability (module docstring) that the seat to move in *pos* plays *card*.

    *pos* is the full world as it stands before the card; it is left
    unchanged.  ``searches`` is 1 when the engine was asked, 0 when the seat
    had a single legal card.
    """
    legal = pos.legal_moves()
    if len(legal) == 1:
        return 1.0, 0
    values = solver_or_default(solver).card_values(pos)
    sign = 1.0 if pos.to_move == pos.declarer else -1.0
    if pos.game.is_null:
        utility = {c: sign * (120.0 if cv.declarer_wins else 0.0) for c, cv in values.items()}
    else:
        utility = {c: sign * float(cv.value or 0) for c, cv in values.items()}
    top = max(utility.values())
    total = sum(math.exp((u - top) / temperature) for u in utility.values())
    return math.exp((utility[card] - top) / temperature) / total, 1


def play_likelihood(start: Position, plays: Sequence[tuple[int, Card]], seats: Sequence[int], *,
                    solver: Solver | None = None, temperature: float = TEMPERATURE,
                    max_cards: int = PLAY_CARDS) -> tuple[float, int]:
    """``(likelihood, searches)`` of the cards *seats* played in one world.

    *start* is the world as it stood before *plays* (every ``(seat, card)``
    in order, which must be legal in it); it is left unchanged.  The product
    runs over the *max_cards* most recent plays by *seats* in which the seat
    had more than one legal card.
    """
    pos = start.copy()
    chosen: list[int] = []
    for i, (seat, card) in enumerate(plays):
        if seat in seats and pos.legal_moves_mask().bit_count() > 1:
            chosen.append(i)
        pos.play(card)
    keep = set(chosen[-max_cards:]) if max_cards > 0 else set()
    pos = start.copy()
    likelihood = 1.0
    searches = 0
    solver = solver_or_default(solver)
    solver.clear()  # a new world: its positions share entries with each other, not with other worlds
    for i, (_, card) in enumerate(plays):
        if i in keep:
            p, n = card_probability(pos, card, solver=solver, temperature=temperature)
            likelihood *= p
            searches += n
        pos.play(card)
    return likelihood, searches
