"""The order in which ``best``, ``odds`` and ``bid`` try the discards: :func:`discard_heuristic`.

An estimate only: it orders the searches (the incumbent is usually the
winner early, so later discards fail their one null-window question
quickly) and never decides a result.
"""
from __future__ import annotations

from skatdd.core.cards import ACE, CARD_POINTS, TEN, Card, Mask
from skatdd.core.rules import Game, suit_mask, trump_mask

__all__ = ["discard_heuristic"]


def discard_heuristic(game: Game, twelve: Mask, pair: tuple[Card, Card]) -> int:
    """How promising a discard looks (higher first); only orders the search, never decides.

    A linear estimate of the discard's double-dummy value relative to the
    other discards, its weights fitted by least squares to exhaustive runs
    (every discard solved exactly) over realistic deals: per discarded card,
    +0.6 a card point banked, -6 a trump, -9 a side ace, -4 a ten whose ace
    stays in hand; +7 for a side suit made void (+5 in grand), +1 for one
    left with a single card.  Scaled by 10 to stay integral.
    """
    trumps = trump_mask(game)
    dmask = 1 << pair[0] | 1 << pair[1]
    hand = twelve & ~dmask
    score = 0
    for c in pair:
        score += 6 * CARD_POINTS[c]
        if trumps >> c & 1:
            score -= 60
            continue
        rank, suit = c & 7, c >> 3
        if rank == ACE:
            score -= 90
        elif rank == TEN and hand >> (suit * 8 + ACE) & 1:
            score -= 40
        left = hand & suit_mask(suit) & ~trumps
        if left == 0:
            score += 50 if game == Game.GRAND else 70
        elif left.bit_count() == 1:
            score += 10
    return score
