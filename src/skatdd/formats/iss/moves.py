"""The moves of an ISS record, ``MV[...]``: card tokens and the reader that checks the phases of a game.

:class:`MoveReader` reads the ``WHO MOVE`` pairs in order -- the deal, the
bidding, the pick-up, the declaration and discard, the card plays and the
early-ending events -- and refuses a move out of its phase, naming it and its
position ``MV move N`` (the deal is move 1).
"""
from __future__ import annotations

import re

from skatdd.core.cards import CARD_NAMES, Card
from skatdd.core.errors import ISSFormatError, SkatddError, plural, quote
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

from .model import HIDDEN, IssEvent

__all__ = ["MoveReader"]

_CARD_CODES: dict[str, Card] = {name: Card(i) for i, name in enumerate(CARD_NAMES)}
_GAME_LETTERS = {
    "G": Game.GRAND, "C": Game.CLUBS, "S": Game.SPADES, "H": Game.HEARTS, "D": Game.DIAMONDS, "N": Game.NULL,
}
_DECLARATION_RE = re.compile(r"([GCSHDN])([HOSZ]*)((?:\.[^.]*)*)")
_SEAT_EVENT_RE = re.compile(r"(TI|LE)\.([0-2])")
_EXPECTED_CARD = "expected a card code like 'CJ', 'HT' or 'D7' (or '??' for a hidden card)"
_EVENT_KINDS = ("SC", "RE", "TI", "LE")


def _card(token: str, where: str) -> Card | None:
    """One card code, or ``None`` for ``??``; raises naming *token* and *where*."""
    if token == HIDDEN:
        return None
    card = _CARD_CODES.get(token)
    if card is None:
        raise ISSFormatError(f"unknown card {quote(token)} in {where}: {_EXPECTED_CARD}")
    return card


def _card_list(text: str, where: str) -> list[Card | None]:
    """Cards joined by '.', each a code or '??'; known cards must be distinct."""
    out: list[Card | None] = []
    seen = 0
    for token in text.split("."):
        card = _card(token, where)
        if card is not None:
            if seen >> card & 1:
                raise ISSFormatError(f"card {quote(token)} appears twice in {where}")
            seen |= 1 << card
        out.append(card)
    return out


def _is_bid(move: str) -> bool:
    """A bid move: ASCII digits only (``'²'.isdigit()`` is true, but no bid)."""
    return move.isascii() and move.isdigit()


def _is_card_list(move: str) -> bool:
    """A move of two or more card codes (or ``??``) joined by '.': a skat, a discard or a claim."""
    parts = move.split(".")
    return len(parts) >= 2 and all(p == HIDDEN or p in _CARD_CODES for p in parts)


class MoveReader:
    """Reads the ``WHO MOVE`` pairs of ``MV[...]`` in order, checking the phases of a game."""

    def __init__(self, moves: str) -> None:
        tokens = moves.split()
        if not tokens:
            raise ISSFormatError("MV[] is empty: expected the deal 'w CARD.CARD...' first")
        if len(tokens) % 2:
            raise ISSFormatError(
                f"MV ends with {quote(tokens[-1])} alone: expected 'WHO MOVE' pairs (the record is truncated?)"
            )
        self.pairs = [(tokens[i], tokens[i + 1]) for i in range(0, len(tokens), 2)]
        self.deal: list[Card | None] = []
        self.bids: list[tuple[int, str]] = []
        self.bid: int | None = None
        self.declarer: int | None = None
        self.picked_up = False
        self.skat_answer: list[Card | None] | None = None
        self.declaration: Declaration | None = None
        self.declaration_move = 0
        self.discard_move = 0
        self.discard: list[Card | None] | None = None
        self.ouvert_cards: list[Card | None] | None = None
        self.plays: list[tuple[int, Card]] = []
        self.play_moves: list[int] = []
        self.hidden_plays: list[tuple[int, int]] = []
        self.events: list[IssEvent] = []

    def read(self) -> None:
        for number, (who, move) in enumerate(self.pairs, start=1):
            if who not in ("w", "0", "1", "2"):
                raise ISSFormatError(f"unknown player {quote(who)} at MV move {number}: expected w, 0, 1 or 2")
            where = f"MV move {number} ({quote(who + ' ' + move)})"
            if number == 1:
                if who != "w":
                    raise ISSFormatError(f"{where}: expected the deal 'w CARD.CARD...' (32 cards) first")
                self._read_deal(move)
                continue
            if who == "w":
                self._read_server(move, number, where)
            else:
                self._read_seat(int(who), move, number, where)

    # -- server moves
    def _read_deal(self, move: str) -> None:
        # Archive records join all 32 cards with '.'; the live protocol separates the hands with '|'.
        cards = _card_list(move.replace("|", "."), "the deal at MV move 1")
        if len(cards) != 32:
            raise ISSFormatError(f"the deal {quote(move)} at MV move 1 has {plural(len(cards), 'card')}: "
                                 "expected 32 (10+10+10+2)")
        self.deal = cards

    def _read_server(self, move: str, number: int, where: str) -> None:
        event = _SEAT_EVENT_RE.fullmatch(move)
        if event is not None:
            self.events.append(IssEvent(event.group(1), int(event.group(2)), number, (), move))
            return
        if move in ("y", "p", "s", "RE") or move.startswith("SC") or _is_bid(move):
            raise ISSFormatError(f"{where}: the server 'w' cannot make the move {quote(move)}")
        if _is_card_list(move) and move.count(".") == 1:
            if not self.picked_up:
                raise ISSFormatError(f"{where}: the skat {quote(move)} is shown without a pick-up 's' before it")
            if self.skat_answer is not None:
                raise ISSFormatError(f"{where}: the skat {quote(move)} is shown twice")
            self.skat_answer = _card_list(move, f"the skat shown at {where}")
            return
        if move.startswith(("TI", "LE")):
            raise ISSFormatError(f"{where}: bad event {quote(move)}: expected TI.n or LE.n with n 0, 1 or 2")
        raise ISSFormatError(f"unknown move {quote(move)} by the server at {where}")

    # -- seat moves
    def _set_declarer(self, seat: int, move: str, where: str) -> None:
        if self.declarer is not None and self.declarer != seat:
            raise ISSFormatError(
                f"{where}: seat {seat} makes the declarer's move {quote(move)}, but seat {self.declarer} is declarer"
            )
        self.declarer = seat

    def _read_seat(self, seat: int, move: str, number: int, where: str) -> None:
        started = self.declaration is not None or self.picked_up
        if move in ("y", "p") or _is_bid(move):
            if started:
                raise ISSFormatError(f"{where}: bidding move {quote(move)} after the bidding ended")
            if _is_bid(move):
                if len(move) > 3:
                    raise ISSFormatError(f"{where}: bid {quote(move)} is too high: bids go up to 264")
                value = int(move)
                if self.bid is not None and value <= self.bid:
                    raise ISSFormatError(f"{where}: bid {quote(move)} does not exceed the previous bid {self.bid}")
                self.bid = value
            self.bids.append((seat, move))
            return
        if move == "s":
            if self.picked_up:
                raise ISSFormatError(f"{where}: the skat is picked up twice")
            if self.declaration is not None:
                raise ISSFormatError(f"{where}: pick-up 's' after the game was declared")
            self._set_declarer(seat, move, where)
            self.picked_up = True
            return
        if move == "RE":
            self.events.append(IssEvent("RE", seat, number, (), move))
            return
        if move == "SC" or move.startswith("SC."):
            if self.declaration is None:
                raise ISSFormatError(f"{where}: claim {quote(move)} before the game was declared")
            if seat != self.declarer:
                raise ISSFormatError(f"{where}: claim {quote(move)} by seat {seat}, who is not the declarer")
            cards = _card_list(move[3:], f"the claim at {where}") if move != "SC" else []
            if any(c is None for c in cards):
                raise ISSFormatError(f"{where}: claim {quote(move)} shows a hidden card '??'")
            self.events.append(IssEvent("SC", seat, number, tuple(c for c in cards if c is not None), move))
            return
        if move.startswith(("TI.", "LE.")):
            event = _SEAT_EVENT_RE.fullmatch(move)
            if event is None:
                raise ISSFormatError(f"{where}: bad event {quote(move)}: expected TI.n or LE.n with n 0, 1 or 2")
            self.events.append(IssEvent(event.group(1), int(event.group(2)), number, (), move))
            return
        if move == HIDDEN or move in _CARD_CODES:
            self._read_play(seat, move, number, where)
            return
        if _is_card_list(move):
            self._read_discard(seat, move, number, where)
            return
        match = _DECLARATION_RE.fullmatch(move)
        if match is not None:
            self._read_declaration(seat, move, match, number, where)
            return
        raise ISSFormatError(
            f"unknown move {quote(move)} by seat {seat} at {where}: expected a bid, y, p, s, a declaration, "
            "a card, SC, RE, TI.n or LE.n"
        )

    def _read_play(self, seat: int, move: str, number: int, where: str) -> None:
        if self.declaration is None:
            raise ISSFormatError(f"{where}: card play {quote(move)} before the game was declared")
        if move == HIDDEN:
            self.hidden_plays.append((seat, number))
            return
        if self.hidden_plays:
            hidden_seat, hidden_move = self.hidden_plays[0]
            raise ISSFormatError(
                f"{where}: card play {quote(move)} follows the hidden play '??' of seat {hidden_seat} at MV move "
                f"{hidden_move}; a record whose play continues after a hidden card cannot be replayed"
            )
        self.plays.append((seat, _CARD_CODES[move]))
        self.play_moves.append(number)

    def _read_discard(self, seat: int, move: str, number: int, where: str) -> None:
        if not self.picked_up or seat != self.declarer:
            raise ISSFormatError(f"{where}: cards {quote(move)} put away by seat {seat}, who did not pick up the skat")
        if self.discard is not None:
            raise ISSFormatError(f"{where}: discard {quote(move)} given twice")
        if self.plays or self.hidden_plays:
            raise ISSFormatError(f"{where}: discard {quote(move)} after the first card was played")
        cards = _card_list(move, f"the discard at {where}")
        if len(cards) != 2:
            raise ISSFormatError(f"{where}: discard {quote(move)} has {plural(len(cards), 'card')}: expected 2")
        self.discard = cards
        self.discard_move = number

    def _read_declaration(self, seat: int, move: str, match: re.Match[str], number: int, where: str) -> None:
        if self.declaration is not None:
            raise ISSFormatError(f"{where}: the game is declared twice ({quote(move)})")
        self._set_declarer(seat, move, where)
        game = _GAME_LETTERS[match.group(1)]
        mods = match.group(2)
        if len(set(mods)) != len(mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)} repeats a modifier")
        ouvert = "O" in mods
        hand = "H" in mods or (ouvert and not game.is_null)
        if game.is_null and ("S" in mods or "Z" in mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)}: null cannot announce schneider or schwarz")
        if hand and self.picked_up:
            raise ISSFormatError(f"{where}: hand declaration {quote(move)} after the skat was picked up")
        if not hand and not self.picked_up:
            raise ISSFormatError(
                f"{where}: declaration {quote(move)} is not a hand game, but the skat was not picked up ('s')"
            )
        if not hand and ("S" in mods or "Z" in mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)} announces schneider or schwarz without hand")
        cards = _card_list(match.group(3)[1:], f"the declaration at {where}") if match.group(3) else []
        if not hand:
            if len(cards) == 1:
                raise ISSFormatError(f"{where}: declaration {quote(move)} lists one card: expected the two discarded cards")
            if cards:
                self.discard = cards[:2]
                self.discard_move = number
            shown = cards[2:]
        else:
            shown = cards
        if shown:
            if not ouvert:
                raise ISSFormatError(f"{where}: declaration {quote(move)} shows cards but is not ouvert")
            if len(shown) > 10:
                raise ISSFormatError(f"{where}: declaration {quote(move)} shows {len(shown)} cards: at most 10")
            self.ouvert_cards = shown
        try:
            self.declaration = Declaration(
                game=game, hand=hand, schneider="S" in mods or "Z" in mods, schwarz="Z" in mods, ouvert=ouvert,
            )
        except SkatddError as exc:
            raise ISSFormatError(f"{where}: declaration {quote(move)} is not valid: {exc}") from None
        self.declaration_move = number
