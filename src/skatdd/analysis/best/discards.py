"""The 66 discards of twelve cards, their tie order, and the classes of discards that play alike.

Tie order (:func:`discard_order_key`): write each discard's two cards in
display order (jacks CJ SJ HJ DJ, then clubs, spades, hearts, diamonds, each
A T K Q 9 8 7) and compare the pairs lexicographically, first card first --
so ``CJ SJ`` comes before ``CJ C7`` comes before ``SJ HJ``.  Among discards
that score the same, the first in this order is the one reported.

Equivalent discards (:func:`discard_classes`): two discards give the same
value, tricks and score when they have the same card points and leave hands
that are equivalent against the defenders' twenty cards
(:func:`skatdd.core.equivalence.hand_signature`: the same multiset of card
points in every gap the defenders' cards leave in a follow group).  The
engine's result is the same for both, so only the first discard of each
class in the tie order is searched.  In null the points play no part (the
signature counts cards), and the discard's own points do not matter.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from itertools import combinations

from skatdd.core.cards import DISPLAY_ORDER, Card, Mask, cards_of, display_sorted, points_of
from skatdd.core.equivalence import hand_signature
from skatdd.core.rules import Game

__all__ = ["DiscardClass", "all_discards", "discard_classes", "discard_order_key"]

_DISPLAY_INDEX = {c: i for i, c in enumerate(DISPLAY_ORDER)}


def discard_order_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """Sort key of a discard for breaking ties: its cards' display positions, in display order.

    Smaller keys come first (and win ties): ``CJ SJ`` < ``CJ C7`` < ``SJ HJ``.
    """
    return tuple(sorted(_DISPLAY_INDEX[c] for c in cards))


def all_discards(twelve: Mask) -> list[tuple[Card, Card]]:
    """The 66 discards of *twelve*, each as a pair in display order, sorted in the tie order."""
    pairs = [tuple(display_sorted(p)) for p in combinations(cards_of(twelve), 2)]
    return sorted(pairs, key=discard_order_key)  # type: ignore[arg-type]


@dataclass
class DiscardClass:
    """A class of equivalent discards: the first in tie order (*discard*) represents them all.

    Attributes:
        discard: the representative, in display order.
        hand: the declarer's ten cards after it (the twelve minus *discard*).
        order: :func:`discard_order_key` of *discard*.
        members: every discard of the class, in tie order (*discard* first).
    """

    discard: tuple[Card, Card]
    hand: Mask
    order: tuple[int, ...]
    members: list[tuple[Card, Card]] = field(default_factory=list)


def discard_classes(game: Game, twelve: Mask, defenders: Mask) -> list[DiscardClass]:
    """One :class:`DiscardClass` per class of equivalent discards of *twelve* (module docstring), in tie order.

    *defenders* are the defenders' cards (for a whole deal the twenty cards
    outside *twelve*).  The classes come in the tie order of their
    representatives, and together hold each of the 66 discards once.
    """
    null = game.is_null
    classes: dict[Hashable, DiscardClass] = {}
    for pair in all_discards(twelve):
        dmask = 1 << pair[0] | 1 << pair[1]
        hand = twelve & ~dmask
        signature = hand_signature(game, hand, defenders, points=not null)
        key = signature if null else (points_of(dmask), signature)
        if key not in classes:
            classes[key] = DiscardClass(pair, hand, discard_order_key(pair))
        classes[key].members.append(pair)
    return list(classes.values())
