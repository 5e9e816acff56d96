"""The Stegen count: the players' hand count for a suit game, and the bid its rule of thumb implies.

Experienced players judge a hand by counting before they bid.  The count
used here is the one usually taught after Stegen, from the ten dealt cards
and for the best trump suit:

* every trump counts 1 (the four jacks and the cards of the trump suit),
  and every jack 1 more (a jack counts 2);
* every ace and every ten counts 1 (a trump ace or ten counts twice: once
  as a trump, once as a full card);
* the top jacks together count extra: all four 2, the club, spade and heart
  jack 1.5, the club and spade jack 0.5, and the spade, heart and diamond
  jack without the club jack 0.5;
* every side suit the hand is void in counts 0.5.

The rule of thumb: **a suit game needs 10 points**.  With 10 or more the
player bids up to the value of that suit game as the ten cards stand
(matadors "with" or "without" counted in the ten cards, game 1: the skat
may change them), with less he passes unless another game (grand, null)
tempts him -- the count says nothing about those.

>>> count = stegen_count("CJ SJ HJ CA CT C9 SA ST H7 D8")
>>> count.points, count.game.label, count.bid
(14.5, 'clubs', 48)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skatdd.core.cards import ACE, CJ, DJ, HJ, JACK, SJ, TEN, Card, Mask, cards_of, mask_of, parse_cards
from skatdd.core.errors import CardCountError
from skatdd.core.rules import SUIT_GAMES, WIN_POINTS, Game
from skatdd.core.scoring import Declaration, matadors, score_game, trump_order

__all__ = ["THRESHOLD", "StegenCount", "stegen_count"]

#: The rule of thumb: a suit game needs this many points.
THRESHOLD = 10.0

#: Extra points for the top jacks held together (the first set the hand holds counts).
_JACK_BONUS: tuple[tuple[Mask, float], ...] = (
    (mask_of([CJ, SJ, HJ, DJ]), 2.0),
    (mask_of([CJ, SJ, HJ]), 1.5),
    (mask_of([CJ, SJ]), 0.5),
    (mask_of([SJ, HJ, DJ]), 0.5),
)


@dataclass(frozen=True)
class StegenCount:
    """The count of a ten-card hand.

    Attributes:
        points: the count for the best suit (:attr:`game`).
        game: the suit counted best (ties: the higher suit, clubs first).
        by_suit: the count with each suit as trumps.
        matadors: matadors of the ten cards in :attr:`game` (``+N`` with, ``-N`` without).
        bid: what the rule of thumb says to bid: the value of :attr:`game` with
            those matadors and game 1 when :attr:`points` reaches
            :data:`THRESHOLD`, else ``None`` (pass).
    """

    points: float
    game: Game
    by_suit: dict[Game, float]
    matadors: int
    bid: int | None

    @property
    def rule(self) -> str:
        """The rule of thumb applied to this hand, as a sentence."""
        if self.bid is None:
            return (f"below {THRESHOLD:g}: no suit game by the count (pass, unless grand or null tempts you)")
        held = f"with {self.matadors}" if self.matadors > 0 else f"without {-self.matadors}"
        return (f"{THRESHOLD:g} or more: a suit game; bid up to {self.game.label} {held}, "
                f"game {abs(self.matadors) + 1} = {self.bid}")

    def to_json(self) -> dict[str, Any]:
        """``{points, game, by_suit, matadors, bid, threshold, rule}``."""
        return {"points": self.points, "game": self.game.label,
                "by_suit": {g.label: p for g, p in self.by_suit.items()}, "matadors": self.matadors,
                "bid": self.bid, "threshold": THRESHOLD, "rule": self.rule}


def ten_card_matadors(game: Game, hand: Mask) -> int:
    """Matadors of *game* counted in the ten dealt cards alone (what a player counts before the skat).

    :func:`skatdd.core.scoring.matadors` counts twelve cards; two cards that are
    no trumps of *game* change nothing, so they make up the twelve.
    """
    trumps = trump_order(game)
    spare = [c for c in range(32) if not hand >> c & 1 and c not in trumps][:2]
    return matadors(game, hand | mask_of(spare))


def _suit_points(game: Game, cards: list[Card]) -> float:
    suit = int(game)
    jacks = sum(c & 7 == JACK for c in cards)
    trumps = jacks + sum(c >> 3 == suit and c & 7 != JACK for c in cards)
    full = sum(c & 7 in (ACE, TEN) for c in cards)
    held = mask_of(cards)
    bonus = next((extra for need, extra in _JACK_BONUS if held & need == need), 0.0)
    voids = sum(1 for s in range(4) if s != suit and not any(c >> 3 == s and c & 7 != JACK for c in cards))
    return trumps + jacks + full + bonus + 0.5 * voids


def stegen_count(hand: Mask | str) -> StegenCount:
    """The :class:`StegenCount` of a ten-card *hand* (a mask or a card string)."""
    mask = mask_of(parse_cards(hand)) if isinstance(hand, str) else hand
    cards = cards_of(mask)
    if len(cards) != 10:
        raise CardCountError(f"the Stegen count needs the ten dealt cards, not {len(cards)}")
    by_suit = {g: _suit_points(g, cards) for g in sorted(SUIT_GAMES, reverse=True)}
    game = max(by_suit, key=lambda g: (by_suit[g], int(g)))
    points = by_suit[game]
    m = ten_card_matadors(game, mask)
    bid = score_game(Declaration(game), matadors=m, points=WIN_POINTS).game_value if points >= THRESHOLD else None
    return StegenCount(points=points, game=game, by_suit=by_suit, matadors=m, bid=bid)
