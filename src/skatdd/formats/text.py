"""Deal text: four groups separated by ``/`` (or ``|``): forehand, middlehand, rearhand, skat.

Cards inside a group are separated by spaces or commas and may be written
in any form :func:`~skatdd.core.cards.parse_card` accepts.  :func:`parse_deal_text`
reads a complete deal, :func:`format_deal_text` writes one back;
:func:`deal_from_text` turns it into a :class:`~skatdd.formats.readers.DealInput`.
The card bookkeeping here (:class:`CardLedger`, :func:`parse_tokens`) is
shared with the JSON reader, so both name a card given twice by both places.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from skatdd.core.cards import Card, Mask, card_name, format_cards, format_mask, mask_of, parse_card, split_card_tokens
from skatdd.core.errors import CardCountError, DealFormatError, DuplicateCardError, InvalidCardError, quote, with_context
from skatdd.core.rules import Game

from .deal_input import DealInput
from .spec import GameSpec

__all__ = ["GROUP_SPLIT", "CardLedger", "deal_from_text", "format_deal_text", "parse_deal_text", "parse_tokens"]

_GROUP_NAMES = ("forehand", "middlehand", "rearhand", "skat")
#: What separates the four groups of a deal.
GROUP_SPLIT = re.compile(r"[/|]")


class CardLedger:
    """Remembers where each card was seen, to report a card given twice with both places."""

    def __init__(self) -> None:
        self._where: dict[Card, tuple[str, str]] = {}

    def add(self, card: Card, token: str, place: str) -> None:
        if card in self._where:
            other_place, other_token = self._where[card]
            first = f"{quote(other_token)} in {other_place}"
            second = f"{quote(token)} in {place}" if other_place != place else "again"
            raise DuplicateCardError(
                f"card {card_name(card)!r} appears twice: {first} and {second}; every card must be distinct"
            )
        self._where[card] = (place, token)


def parse_tokens(tokens: Iterable[str], place: str, ledger: CardLedger | None = None) -> list[Card]:
    """Parse card *tokens* found in *place*; duplicates (within *place* or the *ledger*) are errors."""
    own = ledger if ledger is not None else CardLedger()
    cards = []
    for token in tokens:
        try:
            card = parse_card(token)
        except InvalidCardError as exc:
            raise with_context(exc, place) from None
        own.add(card, token, place)
        cards.append(card)
    return cards


# ---------------------------------------------------------------------------
# Deal text


def parse_deal_text(text: str) -> tuple[list[list[Card]], list[Card]]:
    """Parse a full deal written as text; returns ``(hands, skat)``.

    The text holds four groups separated by ``/`` or ``|`` (forehand,
    middlehand, rearhand, skat); cards inside a group are separated by spaces
    or commas and may use any form :func:`~skatdd.core.cards.parse_card` accepts.
    The deal must be complete: 10, 10, 10 and 2 cards, all 32 distinct.
    Cards keep the order they were written in.

    >>> hands, skat = parse_deal_text("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 /"
    ...                               " HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ")
    >>> format_cards(skat)
    'DK DQ'

    Raises:
        DealFormatError: not exactly four groups.
        InvalidCardError: a token is not a card (the message names it and its group).
        DuplicateCardError: a card appears twice (both places are named).
        CardCountError: a group holds the wrong number of cards.
    """
    if not isinstance(text, str):
        raise DealFormatError(f"a deal must be text, got {type(text).__name__}")
    groups = GROUP_SPLIT.split(text)
    if len(groups) != 4:
        raise DealFormatError(
            f"deal {quote(text.strip())} has {len(groups)} group{'s' if len(groups) != 1 else ''}: expected four "
            "groups separated by '/' or '|' (forehand / middlehand / rearhand / skat)"
        )
    ledger = CardLedger()
    parsed = [
        parse_tokens(split_card_tokens(group), f"the {name} group", ledger)
        for name, group in zip(_GROUP_NAMES, groups, strict=True)
    ]
    for name, cards, want in zip(_GROUP_NAMES, parsed, (10, 10, 10, 2), strict=True):
        if len(cards) != want:
            raise CardCountError(
                f"the {name} group has {len(cards)} card{'s' if len(cards) != 1 else ''} "
                f"{quote(format_cards(cards))}: expected {want}"
            )
    return parsed[:3], parsed[3]


def format_deal_text(hands: Iterable[Iterable[Card] | Mask], skat: Iterable[Card] | Mask, *, symbols: bool = False) -> str:
    """Write a deal as text, the inverse of :func:`parse_deal_text`.

    *hands* and *skat* are card lists (kept in their order) or masks (written
    in display order).  ``parse_deal_text(format_deal_text(h, s)) == (h, s)``
    for card lists.
    """
    def group(cards: Iterable[Card] | Mask) -> str:
        if isinstance(cards, int):
            return format_mask(cards, symbols=symbols)
        return format_cards(cards, symbols=symbols)

    return " / ".join([group(h) for h in hands] + [group(skat)])



def deal_from_text(text: str, *, game: Game | None = None, ouvert: bool = False,
                   declarer: int | None = None) -> DealInput:
    """Read deal text (:func:`parse_deal_text`) into a :class:`~skatdd.formats.readers.DealInput`.

    Text names no contract: with *game* (and *ouvert* for null ouvert) and
    *declarer* the input has a ``spec`` (the deal before the first card,
    the fourth group being the skat or discard), without them only the
    hands and skat as dealt.
    """
    hands, skat = parse_deal_text(text)
    masks, skat_mask = [mask_of(h) for h in hands], mask_of(skat)
    missing: DealFormatError | None = None
    spec: GameSpec | None = None
    if game is None:
        missing = DealFormatError("a deal given as text does not name the contract: --game is required")
    elif declarer is None:
        missing = DealFormatError("a deal given as text does not name the declarer: --declarer is required")
    else:
        spec = GameSpec(game=game, ouvert=ouvert, declarer=declarer, hands=list(masks), skat=skat_mask)
        spec.validate()
    return DealInput(kind="text", spec=spec, missing_spec=missing, dealt_hands=masks, dealt_skat=skat_mask,
                     declarer=declarer)
