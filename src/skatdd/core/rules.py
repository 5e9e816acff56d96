"""Skat rules for suit, grand and null games (docs/rules.md; ISkO 3.2-3.4).

Contracts are :class:`Game` values.  A trick's "follow group" is the trump
group (all jacks plus the trump suit in suit games, the four jacks in grand)
or a printed suit without its jack (suit and grand) or the whole printed suit
(null).  A player must follow the led group when able; the highest trump
wins, else the highest card of the led group.

>>> from .cards import parse_cards
>>> trick_winner(parse_cards("HA DJ H7"), Game.HEARTS)   # a jack is a trump
1
>>> trick_winner(parse_cards("HA DJ H7"), Game.NULL)     # in null it is a diamond
0
>>> parse_game("NO")
(<Game.NULL: 5>, True)
"""
from __future__ import annotations

import enum
from collections.abc import Sequence

from .cards import ACE, CARD_POINTS, CJ, DJ, EIGHT, HJ, JACK, KING, NINE, QUEEN, SEVEN, SJ, TEN, Mask
from .errors import InvalidGameError, InvalidSeatError, quote


class Game(enum.IntEnum):
    """Contract for play.  Suit games use the printed suit index (D=0 .. C=3)."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3
    GRAND = 4
    NULL = 5

    @property
    def label(self) -> str:
        """Lower-case name used in JSON and on the command line: ``'clubs'``."""
        return self.name.lower()

    @property
    def is_suit(self) -> bool:
        return self <= Game.CLUBS

    @property
    def is_null(self) -> bool:
        return self == Game.NULL


#: Card points (skat included) the declarer needs to win a suit or grand game.
WIN_POINTS = 61
#: Card points at which the defenders are schneider (the declarer wins schneider).
SCHNEIDER_POINTS = 90
#: Card points at or below which the declarer is schneider.
SCHNEIDERED_POINTS = 30
#: Card points that keep the declarer out of schneider (one more than SCHNEIDERED_POINTS).
OUT_OF_SCHNEIDER_POINTS = 31

SUIT_GAMES = (Game.DIAMONDS, Game.HEARTS, Game.SPADES, Game.CLUBS)
ALL_GAMES = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.NULL)

_GAME_NAMES = {
    "grand": Game.GRAND, "g": Game.GRAND,
    "clubs": Game.CLUBS, "c": Game.CLUBS,
    "spades": Game.SPADES, "s": Game.SPADES,
    "hearts": Game.HEARTS, "h": Game.HEARTS,
    "diamonds": Game.DIAMONDS, "d": Game.DIAMONDS,
    "null": Game.NULL, "n": Game.NULL,
}
_OUVERT_NAMES = {"null-ouvert", "no", "null_ouvert", "nullouvert"}


def parse_game(text: str | int | Game) -> tuple[Game, bool]:
    """Parse a contract name; returns ``(game, ouvert)``.

    Accepts ``grand clubs spades hearts diamonds null`` and ``G C S H D N`` in
    any case, and ``null-ouvert``/``NO`` (null for play, ouvert declared).
    Raises :class:`InvalidGameError` naming the token.
    """
    if isinstance(text, Game):
        return text, False
    key = str(text).strip().lower()
    if key in _GAME_NAMES:
        return _GAME_NAMES[key], False
    if key in _OUVERT_NAMES:
        return Game.NULL, True
    raise InvalidGameError(
        f"unknown game {quote(str(text))}: expected grand, clubs, spades, hearts, diamonds, null or null-ouvert "
        "(or G C S H D N NO)"
    )


def game_of(game: Game | str | int) -> Game:
    """A :class:`Game` from a Game, its int value, or any name :func:`parse_game` accepts (ouvert is dropped)."""
    if isinstance(game, Game):
        return game
    if isinstance(game, int) and not isinstance(game, bool):
        return Game(game)
    return parse_game(game)[0]


SEAT_NAMES = ("forehand", "middlehand", "rearhand")
_SEATS = {
    "0": 0, "1": 1, "2": 2, "f": 0, "m": 1, "r": 2,
    "forehand": 0, "middlehand": 1, "rearhand": 2,
}


def parse_seat(text: str | int) -> int:
    """Parse a seat: ``0 1 2``, ``F M R`` or ``forehand middlehand rearhand`` (any case).

    Raises :class:`InvalidSeatError` naming the token.
    """
    if isinstance(text, bool):
        raise InvalidSeatError(f"unknown seat {quote(text)}: expected 0/1/2, F/M/R or forehand/middlehand/rearhand")
    if isinstance(text, int) and 0 <= text <= 2:
        return text
    key = str(text).strip().lower()
    if key in _SEATS:
        return _SEATS[key]
    raise InvalidSeatError(f"unknown seat {quote(str(text))}: expected 0/1/2, F/M/R or forehand/middlehand/rearhand")


JACKS: Mask = 1 << CJ | 1 << SJ | 1 << HJ | 1 << DJ
TRUMP_GROUP = 4  # follow-group index of trumps


def suit_mask(suit: int) -> Mask:
    """All eight printed cards of *suit*."""
    return 0xFF << (suit * 8)


def trump_mask(game: Game) -> Mask:
    """Trumps of *game*: jacks plus the trump suit, jacks only (grand), none (null)."""
    if game.is_null:
        return 0
    if game == Game.GRAND:
        return JACKS
    return JACKS | suit_mask(int(game))


def follow_group(card: int, game: Game) -> int:
    """Group a card belongs to for following: 0..3 printed suit, 4 trump."""
    if trump_mask(game) >> card & 1:
        return TRUMP_GROUP
    return card >> 3


def group_mask(group: int, game: Game) -> Mask:
    """Cards of follow group *group* in *game*."""
    trumps = trump_mask(game)
    if group == TRUMP_GROUP:
        return trumps
    return suit_mask(group) & ~trumps


def legal_mask(hand: Mask, led: int | None, game: Game) -> Mask:
    """Cards of *hand* that may be played to a trick led by *led* (``None``: leading)."""
    if led is None:
        return hand
    follow = hand & group_mask(follow_group(led, game), game)
    return follow if follow else hand


# Rank order within a group, low to high.
_PLAIN_ORDER = (SEVEN, EIGHT, NINE, QUEEN, KING, TEN, ACE)
_NULL_ORDER = (SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)
_JACK_ORDER = (DJ, HJ, SJ, CJ)


def power(card: int, game: Game) -> int:
    """Strength of *card* within its follow group (higher beats lower); trumps get +100."""
    rank = card & 7
    if game.is_null:
        return _NULL_ORDER.index(rank)
    if card in _JACK_ORDER:
        return 100 + 10 + _JACK_ORDER.index(card)
    strength = _PLAIN_ORDER.index(rank)
    return strength + 100 if follow_group(card, game) == TRUMP_GROUP else strength


def trick_winner(trick: Sequence[int], game: Game) -> int:
    """Index in *trick* (0 = the lead) of the card that wins it."""
    led_group = follow_group(trick[0], game)
    best = 0
    for i in range(1, len(trick)):
        card = trick[i]
        group = follow_group(card, game)
        if group != led_group and group != TRUMP_GROUP:
            continue
        best_card = trick[best]
        best_group = follow_group(best_card, game)
        if group == TRUMP_GROUP and best_group != TRUMP_GROUP:
            best = i
        elif group == best_group and power(card, game) > power(best_card, game):
            best = i
    return best


def card_points(card: int) -> int:
    """Card points: A 11, 10 10, K 4, Q 3, J 2, others 0."""
    return CARD_POINTS[card]
