"""Reading what ``skatdd odds`` is asked about: the seat's view of its cards, and the contracts wanted.

:func:`read_view` accepts the seat's ten cards (a card string, card ints or a
mask) with its seat and the skat it picked up, or a ready
:class:`~skatdd.analysis.worlds.space.View` before the first card; :func:`contracts`
reads ``games=`` (``Game`` values, names such as ``'clubs'`` or
``'null-ouvert'``, ``(game, ouvert)`` pairs); :func:`parse_auction` the
auction so far (``odds --bids``).  Bad input raises
:class:`~skatdd.core.errors.SkatddError` subclasses naming the offending token.
"""
from __future__ import annotations

from collections.abc import Iterable

from skatdd.analysis.best.results import GAME_ORDER
from skatdd.analysis.inference.bids import bid_intervals
from skatdd.analysis.worlds.space import SKAT, View, hand_view
from skatdd.core.cards import ALL_CARDS, Card, Mask, card_name, cards_of, display_sorted, mask_of, parse_cards
from skatdd.core.errors import CardCountError, DealFormatError, DuplicateCardError, InvalidSeatError, plural, quote
from skatdd.core.rules import Game, parse_game, parse_seat

from .results import Contract

__all__ = ["contracts", "parse_auction", "read_cards", "read_view"]


def contracts(games: Iterable[Game | str | tuple[Game, bool]] | None) -> list[Contract]:
    """The requested contracts in list order (all seven when *games* is ``None``)."""
    every: list[Contract] = [(g, False) for g in GAME_ORDER] + [(Game.NULL, True)]
    if games is None:
        return every
    wanted = set()
    for g in games:
        if isinstance(g, tuple):
            wanted.add((Game(g[0]), bool(g[1])))
        elif isinstance(g, Game):
            wanted.add((g, False))
        else:
            wanted.add(parse_game(g))
    return [c for c in every if c in wanted]


def read_cards(cards: Mask | str | Iterable[Card], what: str, count: int) -> Mask:
    """*count* different cards as a mask; *what* names them in the error (a bad card, not *count* of them)."""
    if isinstance(cards, bool):
        raise CardCountError(f"{what} must be cards, got {cards!r}")
    if isinstance(cards, int):
        if not 0 <= cards <= ALL_CARDS:
            raise CardCountError(f"{what} must be a 32-bit card mask, got {cards!r}")
        parsed = cards_of(cards)
    elif isinstance(cards, str):
        parsed = parse_cards(cards, what=what)
    else:
        parsed = parse_cards([card_name(c) for c in cards], what=what)
    if len(parsed) != count:
        shown = " ".join(card_name(c) for c in display_sorted(parsed))
        raise CardCountError(f"{what} has {plural(len(parsed), 'card')} {shown[:80]!r}: expected {count}")
    return mask_of(parsed)


def read_view(cards: View | Mask | str | Iterable[Card], seat: int | str | None,
              skat: Mask | str | Iterable[Card] | None) -> View:
    """The seat's view before the first card: its ten cards and seat, and the skat when it has picked it up."""
    if isinstance(cards, View):
        view = cards
        if view.played or view.sizes != (10, 10, 10, 2):
            raise DealFormatError("odds needs a view before the first card: ten cards a hand and the skat")
        if seat is not None and parse_seat(seat) != view.seat:
            raise DealFormatError(f"seat {seat!r} is not the view's seat {view.seat}")
        if view.known[SKAT] and view.known[SKAT].bit_count() != 2:
            raise DealFormatError("the view knows one skat card: a seat sees both or neither")
        return view
    if seat is None:
        raise DealFormatError("odds needs the seat of the hand (0, 1, 2 or F, M, R)")
    seat_index = parse_seat(seat)
    hand = read_cards(cards, "the hand", 10)
    skat_mask = None
    if skat is not None:
        skat_mask = read_cards(skat, "the skat", 2)
        if skat_mask & hand:
            clash = card_name(cards_of(skat_mask & hand)[0])
            raise DuplicateCardError(f"card {clash!r} is both in the hand and in the skat")
    return hand_view(seat_index, hand, skat_mask)



def parse_auction(text: str) -> list[tuple[int, str]]:
    """The auction so far from text: moves ``SEAT:MOVE`` in order, separated by spaces or commas.

    SEAT is 0/1/2 or F/M/R (forehand, middlehand, rearhand); MOVE a bid said
    (``18``), ``y`` (held) or ``p`` (passed), as ISS records write them:
    ``"M:18 F:y M:20 F:p R:p"``.  Raises
    :class:`~skatdd.core.errors.DealFormatError` naming a token that is not
    such a move, or a bid not above the one before
    (:func:`skatdd.analysis.inference.bids.bid_intervals` checks the moves).
    """
    moves: list[tuple[int, str]] = []
    for token in text.replace(",", " ").split():
        seat_text, colon, move = token.partition(":")
        if not colon or not move:
            raise DealFormatError(f"bidding move {quote(token)}: expected SEAT:MOVE such as M:18, F:y or R:p")
        try:
            seat = parse_seat(seat_text)
        except InvalidSeatError as err:
            raise DealFormatError(f"bidding move {quote(token)}: {err}") from None
        moves.append((seat, move.lower()))
    if not moves:
        raise DealFormatError(f"no bidding move in {quote(text)}: expected SEAT:MOVE such as M:18, F:y or R:p")
    bid_intervals(moves)
    return moves
