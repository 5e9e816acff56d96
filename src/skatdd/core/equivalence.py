"""Equivalent cards: which cards of a hand play alike, derived once for everything above the engine.

The rule (the engine's :func:`order_moves`/:func:`card_values` in
``solver/moves.pxi`` apply the same one to the live cards with its own
masks): cut each follow group, ordered by power, at the cards of
*others* (the cards that can beat or be beaten by the hand's cards: the
other hands and the table).  What lies between two consecutive cards of
*others* is a :func:`segments` entry.  Inside one segment the hand's cards
have the same order against every card of *others*, so

* **equivalent cards** (:func:`equivalence_classes`): cards of the hand
  that follow each other in one segment and carry the same card points
  (``points=False``, as in null, where points play no part: every card of
  the segment) are interchangeable.  Playing one or the other wins or
  loses the same tricks for the same points, so they have the same value,
  and a search tries one card per class.  The classes are runs of
  consecutive cards, as the engine's are: an own card of other points
  between two cards separates them here (the coarser classes, equal points
  anywhere in the segment, would be sound too, but search other children
  than the engine);
* **equivalent hands** (:func:`hand_signature`): two hands facing the same
  *others* play alike when every segment holds the same multiset of card
  points (``points=False``: the same number of cards) of each.  A
  bijection keeping each card's segment and points turns every play with
  one into a play with the other, with the same legal moves, trick winners
  and trick points; ``best`` and ``odds`` search one discard per class of
  discards whose remaining hands are equivalent.

Cards are ints 0..31 and sets of them masks here (:mod:`.cards`); the
analysis modules call these functions, the compiled engine derives the
same card classes from its masks (``next_live_above``).
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from .cards import ALL_CARDS, CARD_POINTS, Card, Mask
from .rules import Game, follow_group, power

__all__ = ["equivalence_classes", "group_orders", "hand_signature", "representatives", "segments"]


@functools.cache
def group_orders(game: Game) -> tuple[tuple[Card, ...], ...]:
    """The cards of each follow group of *game* (in group order: suits 0..3, then trumps), lowest power first."""
    groups: dict[int, list[Card]] = {}
    for card in map(Card, range(32)):
        groups.setdefault(follow_group(card, game), []).append(card)
    return tuple(tuple(sorted(cards, key=lambda c: power(c, game))) for _, cards in sorted(groups.items()))


def segments(game: Game, others: Mask) -> list[Mask]:
    """Every follow group's cards cut at the cards of *others*: the runs between them, group by group.

    Each group of :func:`group_orders` gives ``k + 1`` masks when *others*
    holds ``k`` of its cards (some may be empty): the cards below the
    lowest one, between each two, above the highest.  No mask holds a card
    of *others*; together they hold every other card once.
    """
    return [sum(1 << c for c in run) for run in _runs(game, ALL_CARDS & ~others, others)]


def _runs(game: Game, hand: Mask, others: Mask) -> Iterator[list[Card]]:
    """Per :func:`segments` entry, in that order, the cards of *hand* in it, lowest power first."""
    for order in group_orders(game):
        run: list[Card] = []
        for card in order:
            if others >> card & 1:
                yield run
                run = []
            elif hand >> card & 1:
                run.append(card)
        yield run


def equivalence_classes(game: Game, hand: Mask, others: Mask, *, points: bool = True) -> list[list[Card]]:
    """The classes of equivalent cards of *hand* against *others* (module docstring), each lowest power first.

    *hand* and *others* must not share a card; cards in neither (played,
    or in the skat) separate nothing.  With *points* (suit and grand) a
    class is a run of the hand's consecutive cards in one segment with the
    same card points; without (null) every card of the hand in one segment.
    Classes come group by group, lowest power first; every card of *hand*
    is in exactly one.
    """
    classes: list[list[Card]] = []
    for run in _runs(game, hand, others):
        for i, card in enumerate(run):
            if i == 0 or (points and CARD_POINTS[card] != CARD_POINTS[run[i - 1]]):
                classes.append([])
            classes[-1].append(card)
    return classes


def representatives(game: Game, hand: Mask, others: Mask, cards: Iterable[Card] | None = None, *,
                    points: bool = True) -> dict[Card, Card]:
    """Map each of *cards* (default: every card of *hand*) to its class's lowest card (:func:`equivalence_classes`).

    Two cards are equivalent exactly when they map to the same card.  A
    card of *cards* outside *hand* maps to itself.
    """
    reps = {card: cls[0] for cls in equivalence_classes(game, hand, others, points=points) for card in cls}
    if cards is None:
        return reps
    return {card: reps.get(card, card) for card in cards}


def hand_signature(game: Game, hand: Mask, others: Mask, *, points: bool = True) -> tuple[tuple[int, ...], ...]:
    """What two hands facing the same *others* must share to play alike (module docstring).

    Per :func:`segments` entry, the sorted card points of *hand*'s cards
    there (without *points*, as in null: ``(n,)`` for their number ``n``).
    Equal signatures mean equivalent hands; the signature says nothing
    about the cards outside the hand (add what else matters, such as the
    points of a discard, beside it).
    """
    # One pass over the cards (not :func:`_runs`): ``best`` asks this for 66 discards of six games a seat.
    key: list[tuple[int, ...]] = []
    for order in group_orders(game):
        run: list[int] = []
        for card in order:
            if others >> card & 1:
                key.append(tuple(sorted(run)) if points else (len(run),))
                run = []
            elif hand >> card & 1:
                run.append(CARD_POINTS[card])
        key.append(tuple(sorted(run)) if points else (len(run),))
    return tuple(key)
