"""Cards and sets of cards: :class:`Card` (an int 0..31) and 32-bit masks, with :class:`CardSet` on top.

A card is ``suit * 8 + rank`` with suits ``D H S C`` = 0..3 and ranks
``7 8 9 T J Q K A`` = 0..7, so ``CJ == 28`` and ``D7 == 0``.  :class:`Card`
is that int with a face: ``str()`` is its code, ``repr()`` pastes back, and
it stays an int everywhere the engine and the masks need one (``1 << card``,
``card & 7``, a dict key that ``28`` also finds).  Every card has a named
constant (``CJ``, ``HT``...), a :class:`Card`.  A set of cards is an ``int``
mask (bit ``c`` set when card ``c`` is in the set); :class:`CardSet` wraps a
mask in a set-like, immutable type whose ``repr()`` can be pasted back into
Python.  Functions that take cards take any int 0..31; those that return
cards return :class:`Card` objects.

Text forms (docs/cli.md, Cards): the canonical code is suit letter then rank letter
(``CJ``, ``HT``, ``D7``); parsers also accept ``10`` for ``T``, lower case and
the symbols ``♣ ♠ ♥ ♦`` before or after the rank (``♣J``, ``J♣``, ``♥10``).

>>> parse_card("♥10") == HT
True
>>> Card("h10"), str(CJ), CJ == 28, Card(28) is CJ
(Card('HT'), 'CJ', True, True)
>>> CardSet("CJ SJ HA")
CardSet('CJ SJ HA')
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import SupportsIndex, TypeVar, final

from .errors import CardCountError, DuplicateCardError, InvalidCardError, plural, quote

Mask = int
#: Any int card (a :class:`Card` or a plain int 0..31) passed through unchanged by a function.
_IntCard = TypeVar("_IntCard", bound=int)

SUIT_LETTERS = "DHSC"
RANK_LETTERS = "789TJQKA"
SUIT_SYMBOLS = "♦♥♠♣"

DIAMONDS, HEARTS, SPADES, CLUBS = range(4)
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

ALL_CARDS: Mask = (1 << 32) - 1

CARD_NAMES: tuple[str, ...] = tuple(s + r for s in SUIT_LETTERS for r in RANK_LETTERS)

#: Card points by rank: A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0 (docs/rules.md, Cards and card points).
RANK_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[c & 7] for c in range(32))

_SYMBOL_TO_LETTER = {sym: SUIT_LETTERS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
# Variation selectors sometimes follow suit symbols (♠️); they carry no meaning.
_IGNORED = "\ufe0e\ufe0f"
# Presentation types that format a card as its number (``f"{card:d}"``); any other spec formats the code.
_INT_FORMATS = frozenset("bcdnoxXeEfFgG%")


def _card_index(token: str) -> int:
    """The int 0..31 of one card written in any accepted form; :class:`InvalidCardError` quoting *token* if none."""
    text = "".join(ch for ch in token.strip() if ch not in _IGNORED)
    suit = rank = ""
    if text:
        head, tail = text[0], text[1:]
        if head in _SYMBOL_TO_LETTER:
            suit, rank = _SYMBOL_TO_LETTER[head], tail
        elif text[-1] in _SYMBOL_TO_LETTER:
            suit, rank = _SYMBOL_TO_LETTER[text[-1]], text[:-1]
        else:
            # ASCII only: 'ſ'.upper() == 'S' must not make a card of 'ſJ'.
            suit, rank = (head.upper() if head.isascii() else head), tail
        rank = rank.upper()
        if rank == "10":
            rank = "T"
    if len(suit) != 1 or suit not in SUIT_LETTERS or len(rank) != 1 or rank not in RANK_LETTERS:
        raise InvalidCardError(
            f"unknown card {quote(token)}: expected a suit C S H D (or ♣ ♠ ♥ ♦) and a rank 7 8 9 T/10 J Q K A, like 'CJ' or 'H10'"
        )
    return SUIT_LETTERS.index(suit) * 8 + RANK_LETTERS.index(rank)


@final
class Card(int):
    """One card: the int ``suit * 8 + rank`` that prints as its ISS code.

    ``Card("HA")`` reads every form :func:`parse_card` reads; ``Card(15)``
    takes the int (a :class:`Card` is returned as it is).  There is one
    object per card, so ``Card(28) is CJ``.  As an int it compares, hashes
    and shifts like its number (``Card("CJ") == 28``, ``1 << CJ``); the
    arithmetic gives plain ints.  ``str()`` and an f-string give the code,
    ``f"{card:d}"`` the number, ``repr()`` pastes back; JSON writes the number
    (skatdd's writers use :func:`card_name`).

    Raises :class:`InvalidCardError` for a string that is no card or an int
    outside 0..31, and :class:`TypeError` for anything else (a bool, a float).

    >>> Card("♥A"), Card(15).code, Card("HA").suit == HEARTS, Card("HA").rank == ACE
    (Card('HA'), 'HA', True, True)
    >>> f"{Card('HT')} {Card('HT'):d} {Card('HT').symbol} {Card('HT').points}"
    'HT 11 ♥10 10'
    """

    __slots__ = ()

    def __new__(cls, card: str | SupportsIndex) -> Card:
        if isinstance(card, Card):
            return card
        if isinstance(card, str):
            return CARDS[_card_index(card)]
        if isinstance(card, bool):
            raise TypeError("a card is a code like 'HA' or an int 0..31, not a bool")
        index = operator.index(card)
        if not 0 <= index < 32:
            raise InvalidCardError(f"unknown card {quote(index)}: expected an int 0..31 or a code like 'CJ'")
        return CARDS[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """The card *token* names, in any accepted form (``'HA'``, ``'h10'``, ``'♥A'``, ``'A♥'``).

        Raises :class:`InvalidCardError` quoting *token*.
        """
        return CARDS[_card_index(token)]

    @property
    def suit(self) -> int:
        """Printed suit: ``DIAMONDS`` (0) .. ``CLUBS`` (3)."""
        return self >> 3

    @property
    def rank(self) -> int:
        """Rank: ``SEVEN`` (0) .. ``ACE`` (7)."""
        return self & 7

    @property
    def code(self) -> str:
        """Canonical two-letter code (ISS): ``'CJ'``, ``'HT'``."""
        return CARD_NAMES[self]

    @property
    def symbol(self) -> str:
        """Pretty form with a suit symbol: ``'♣J'``, ``'♥10'``."""
        return card_symbol(self)

    @property
    def points(self) -> int:
        """Card points: A 11, 10 10, K 4, Q 3, J 2, else 0."""
        return CARD_POINTS[self]

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in _INT_FORMATS:
            return int.__format__(self, spec)
        return format(CARD_NAMES[self], spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return Card, (int(self),)


#: Every card, by its int: ``CARDS[28] is CJ``.
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))

# Named constants D7 .. CA, generated once so they cannot drift from the encoding.
D7, D8, D9, DT, DJ, DQ, DK, DA = CARDS[0:8]
H7, H8, H9, HT, HJ, HQ, HK, HA = CARDS[8:16]
S7, S8, S9, ST, SJ, SQ, SK, SA = CARDS[16:24]
C7, C8, C9, CT, CJ, CQ, CK, CA = CARDS[24:32]

# Display order used by players: jacks first, then clubs, spades, hearts,
# diamonds, each A T K Q 9 8 7.
_DISPLAY_RANKS = (ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN)
DISPLAY_ORDER: tuple[Card, ...] = tuple(
    [CJ, SJ, HJ, DJ] + [CARDS[s * 8 + r] for s in (CLUBS, SPADES, HEARTS, DIAMONDS) for r in _DISPLAY_RANKS]
)
_DISPLAY_INDEX: dict[int, int] = {c: i for i, c in enumerate(DISPLAY_ORDER)}


def suit_of(card: int) -> int:
    """Printed suit of *card* (0 = diamonds .. 3 = clubs)."""
    return card >> 3


def rank_of(card: int) -> int:
    """Rank index of *card* (0 = seven .. 7 = ace)."""
    return card & 7


def card_name(card: int) -> str:
    """Canonical two-letter code of *card*: ``card_name(CJ) == 'CJ'``."""
    return CARD_NAMES[card]


def card_symbol(card: int) -> str:
    """Pretty form with a suit symbol: ``'♣J'``, ``'♥10'``."""
    rank = RANK_LETTERS[card & 7]
    return SUIT_SYMBOLS[card >> 3] + ("10" if rank == "T" else rank)


def parse_card(token: str) -> Card:
    """Parse one card in any accepted form (the same as :meth:`Card.parse`).

    Raises :class:`InvalidCardError` quoting *token* when it is not a card.
    """
    return CARDS[_card_index(token)]


def split_card_tokens(text: str) -> list[str]:
    """Split a card string on spaces, commas and dots into tokens."""
    return [t for t in text.replace(",", " ").replace(".", " ").split() if t]


def parse_cards(text: str | Iterable[str], *, count: int | None = None, what: str = "cards") -> list[Card]:
    """Parse a list of distinct cards, keeping their order.

    *text* is a string of cards separated by spaces or commas, or an iterable
    of card tokens.  With *count*, exactly that many cards are required.

    Raises :class:`InvalidCardError`, :class:`DuplicateCardError`, or
    :class:`CardCountError` (naming *what* was being read).
    """
    tokens = split_card_tokens(text) if isinstance(text, str) else [str(t) for t in text]
    cards: list[Card] = []
    seen = 0
    for token in tokens:
        card = parse_card(token)
        if seen >> card & 1:
            raise DuplicateCardError(f"card {quote(token)} appears twice in {what}")
        seen |= 1 << card
        cards.append(card)
    if count is not None and len(cards) != count:
        raise CardCountError(f"{what} has {plural(len(cards), 'card')} {quote(format_cards(cards))}: expected {count}")
    return cards


def format_cards(cards: Iterable[int], *, symbols: bool = False) -> str:
    """Space-separated codes of *cards* in the given order."""
    name = card_symbol if symbols else card_name
    return " ".join(name(c) for c in cards)


def mask_of(cards: Iterable[int]) -> Mask:
    """Mask holding *cards*."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: Mask) -> list[Card]:
    """Cards of *mask* in ascending card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def display_sorted(cards: Iterable[_IntCard]) -> list[_IntCard]:
    """*cards* in the order players sort a hand: jacks, then C S H D, each A T K Q 9 8 7 (the same objects)."""
    return sorted(cards, key=_DISPLAY_INDEX.__getitem__)


def format_mask(mask: Mask, *, symbols: bool = False) -> str:
    """Codes of the cards in *mask*, in display order."""
    return format_cards(display_sorted(cards_of(mask)), symbols=symbols)


def points_of(mask: Mask) -> int:
    """Card points held in *mask*."""
    # One bit count per counting rank (a card is suit * 8 + rank; RANK_POINTS): no card list built.
    return (11 * (mask & 0x80808080).bit_count() + 10 * (mask & 0x08080808).bit_count()
            + 4 * (mask & 0x40404040).bit_count() + 3 * (mask & 0x20202020).bit_count()
            + 2 * (mask & 0x10101010).bit_count())


class CardSet:
    """An immutable set of cards over a 32-bit mask.

    Built from a mask (``CardSet(0x10000000)``), a card string
    (``CardSet('CJ SJ')``), one :class:`Card` or an iterable of cards
    (:class:`Card` objects, ints 0..31 or codes).  Iterates over
    :class:`Card` objects in display order; ``str()`` gives the codes and
    ``repr()`` round-trips.  Membership takes a card or its int.

    >>> s = CardSet('SJ CJ')
    >>> CJ in s, len(s), s.mask == (1 << CJ | 1 << SJ)
    (True, 2, True)
    >>> str(s | CardSet('HA')), list(s), CardSet(HA)
    ('CJ SJ HA', [Card('CJ'), Card('SJ')], CardSet('HA'))
    """

    __slots__ = ("mask",)
    mask: Mask

    def __init__(self, cards: Mask | str | Iterable[int | str] = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, Card):   # one card, never a mask
            mask = 1 << cards
        elif isinstance(cards, int):
            if not 0 <= cards <= ALL_CARDS:
                raise ValueError(f"card mask {cards:#x} is outside 32 bits")
            mask = cards
        elif isinstance(cards, str):
            mask = mask_of(parse_cards(cards))
        else:
            mask = 0
            for c in cards:
                if isinstance(c, str):
                    c = parse_card(c)
                elif not isinstance(c, int) or not 0 <= c < 32:
                    raise InvalidCardError(f"unknown card {quote(c)}: expected an int 0..31 or a code like 'CJ'")
                mask |= 1 << c
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[Mask]]:
        # Pickled by its mask: the default would set the slot through __setattr__, which refuses.
        return (CardSet, (self.mask,))

    def __iter__(self) -> Iterator[Card]:
        return iter(display_sorted(cards_of(self.mask)))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask ^ other.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def points(self) -> int:
        """Card points in the set."""
        return points_of(self.mask)

    def __str__(self) -> str:
        return format_mask(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
