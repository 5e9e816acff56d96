"""Reading deals and positions: deal text, JSON objects, files and ISS records.

Three input forms (docs/cli.md, "A deal as text", "A deal or position as
JSON"):

* **Deal text**: four groups separated by ``/`` (or ``|``): forehand,
  middlehand, rearhand, skat; cards inside a group separated by spaces or
  commas.  :func:`parse_deal_text` reads it; :func:`format_deal_text` writes
  it back.
* **JSON**: one object with the fields of docs/cli.md; :func:`position_from_json`
  reads it into a :class:`GameSpec`, :meth:`GameSpec.to_json` writes it back.
* **ISS game records** (``(;GM[Skat]...``), read through :mod:`skatdd.iss`.

:func:`load_deal` takes a command-line DEAL argument (a path, or the deal
itself in any of the three forms) and returns a validated :class:`GameSpec`.

Validation is strict: every problem raises a specific
:class:`~skatdd.errors.SkatddError` subclass whose message quotes the
offending token or field and says what was expected.  Nothing else escapes
these functions for bad input.
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, NoReturn

from .cards import (
    ALL_CARDS, Card, Mask, card_name, cards_of, format_cards, format_mask,
    mask_of, parse_card, points_of, split_card_tokens,
)
from .errors import (
    CardCountError, DealFormatError, DuplicateCardError, IllegalPlayError,
    InvalidCardError, InvalidSeatError, ISSFormatError, SkatddError,
)
from .position import Position
from .rules import SEAT_NAMES, Game, follow_group, group_mask, parse_game, parse_seat

if TYPE_CHECKING:
    from .scoring import Declaration

__all__ = [
    "ANNOUNCEMENTS", "GameSpec", "format_deal_text", "load_deal", "parse_deal_text",
    "position_from_json",
]

#: Announcements a declaration may carry, in canonical order.
ANNOUNCEMENTS = ("schneider", "schwarz", "ouvert")

_GROUP_NAMES = ("forehand", "middlehand", "rearhand", "skat")
_GROUP_SPLIT = re.compile(r"[/|]")
_MAX_QUOTE = 120


def _quote(text: str) -> str:
    """``repr`` of *text*, shortened for error messages."""
    if len(text) > _MAX_QUOTE:
        text = text[: _MAX_QUOTE - 3] + "..."
    return repr(text)


def _reraise(exc: SkatddError, context: str) -> NoReturn:
    """Raise an error of the same class as *exc* with *context* in front of its message."""
    raise type(exc)(f"{context}: {exc}") from None


class _CardLedger:
    """Remembers where each card was seen, to report a card given twice with both places."""

    def __init__(self) -> None:
        self._where: dict[Card, tuple[str, str]] = {}

    def add(self, card: Card, token: str, place: str) -> None:
        if card in self._where:
            other_place, other_token = self._where[card]
            first = f"{other_token!r} in {other_place}"
            second = f"{token!r} in {place}" if other_place != place else "again"
            raise DuplicateCardError(
                f"card {card_name(card)!r} appears twice: {first} and {second}; every card must be distinct"
            )
        self._where[card] = (place, token)


def _parse_tokens(tokens: Iterable[str], place: str, ledger: _CardLedger | None = None) -> list[Card]:
    """Parse card *tokens* found in *place*; duplicates (within *place* or the *ledger*) are errors."""
    own = ledger if ledger is not None else _CardLedger()
    cards = []
    for token in tokens:
        try:
            card = parse_card(token)
        except InvalidCardError as exc:
            _reraise(exc, place)
        own.add(card, token, place)
        cards.append(card)
    return cards


# ---------------------------------------------------------------------------
# Deal text


def parse_deal_text(text: str) -> tuple[list[list[Card]], list[Card]]:
    """Parse a full deal written as text; returns ``(hands, skat)``.

    The text holds four groups separated by ``/`` or ``|`` (forehand,
    middlehand, rearhand, skat); cards inside a group are separated by spaces
    or commas and may use any form :func:`~skatdd.cards.parse_card` accepts.
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
    groups = _GROUP_SPLIT.split(text)
    if len(groups) != 4:
        raise DealFormatError(
            f"deal {_quote(text.strip())} has {len(groups)} group{'s' if len(groups) != 1 else ''}: expected four "
            "groups separated by '/' or '|' (forehand / middlehand / rearhand / skat)"
        )
    ledger = _CardLedger()
    parsed = [
        _parse_tokens(split_card_tokens(group), f"the {name} group", ledger)
        for name, group in zip(_GROUP_NAMES, groups)
    ]
    for name, cards, want in zip(_GROUP_NAMES, parsed, (10, 10, 10, 2)):
        if len(cards) != want:
            raise CardCountError(
                f"the {name} group has {len(cards)} card{'s' if len(cards) != 1 else ''} "
                f"{format_cards(cards)!r}: expected {want}"
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


# ---------------------------------------------------------------------------
# GameSpec


def _normalise_announce(items: Iterable[Any], context: str = "announce") -> list[str]:
    """Lower-cased, de-duplicated announcements in canonical order (schneider, schwarz, ouvert)."""
    seen = set()
    for item in items:
        if not isinstance(item, str):
            raise DealFormatError(
                f"{context}: announcement {item!r} is not a string: expected schneider, schwarz or ouvert"
            )
        key = item.strip().lower()
        if key not in ANNOUNCEMENTS:
            raise DealFormatError(f"{context}: unknown announcement {item!r}: expected schneider, schwarz or ouvert")
        seen.add(key)
    return [a for a in ANNOUNCEMENTS if a in seen]


def _seat_label(seat: int) -> str:
    return SEAT_NAMES[seat]


@dataclass(frozen=True)
class _Derived:
    """Facts about a validated spec's starting position."""

    completed: int        # tricks completed before the start position
    declarer_tricks: int  # given or inferred (see GameSpec.trick_counts)
    defender_tricks: int


@dataclass
class GameSpec:
    """A deal or position to solve, with its declaration; built from text, JSON or an ISS record.

    Attributes:
        id: any value, echoed in results.
        game: the contract for play (null ouvert plays as ``Game.NULL``).
        ouvert: ouvert declared.  For null this is null ouvert; for suit and
            grand it means the same as ``'ouvert' in announce``.  Kept in sync
            with :attr:`announce`: either one set sets both.
        declarer: seat 0/1/2.
        hands: card masks by seat: the hands at the start of :attr:`played`
            (ten cards each), or the current hands when :attr:`played` is empty.
        skat: mask of the skat (hand game) or discard, two cards; required for
            suit and grand, optional (0) for null.
        leader: seat that leads the current trick (only without :attr:`played`).
        trick: cards already played to the current trick, leader first (only
            without :attr:`played`).
        declarer_points: card points the declarer won in earlier tricks
            (skat not included).
        declarer_tricks, defender_tricks: tricks each side won earlier, or
            ``None`` when not given (then inferred, see :meth:`trick_counts`).
        played: every card played since trick 1, in order; then :attr:`hands`
            are the ten-card starting hands and the position to solve is the
            one after these cards.
        hand, announce, bid: the declaration (hand game; announcements from
            ``schneider``/``schwarz``/``ouvert`` in that order; the bid).

    Validation happens in :meth:`validate` (also run by :meth:`start_position`
    and :meth:`position`); the parsers :func:`position_from_json` and
    :func:`load_deal` only return validated specs.
    """

    id: Any = None
    game: Game = Game.GRAND
    ouvert: bool = False
    declarer: int = 0
    hands: list[Mask] = field(default_factory=lambda: [0, 0, 0])
    skat: Mask = 0
    leader: int = 0
    trick: list[Card] = field(default_factory=list)
    declarer_points: int = 0
    declarer_tricks: int | None = None
    defender_tricks: int | None = None
    played: list[Card] = field(default_factory=list)
    hand: bool = False
    announce: list[str] = field(default_factory=list)
    bid: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            if isinstance(self.game, int) and not isinstance(self.game, bool) and 0 <= self.game <= 5:
                self.game = Game(self.game)
            else:
                game, ouvert = parse_game(self.game)
                self.game, self.ouvert = game, self.ouvert or ouvert
        self.hands = list(self.hands)
        self.trick = list(self.trick)
        self.played = list(self.played)
        items = split_card_tokens(self.announce) if isinstance(self.announce, str) else self.announce
        announce = _normalise_announce(items)
        if self.ouvert and "ouvert" not in announce:
            announce = _normalise_announce(announce + ["ouvert"])
        self.ouvert = bool(self.ouvert) or "ouvert" in announce
        self.announce = announce

    # -- validation ---------------------------------------------------------

    def _check_types(self) -> None:
        for name in ("declarer", "leader"):
            seat = getattr(self, name)
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise DealFormatError(f"{name} must be a seat number 0, 1 or 2, got {seat!r}")
            if not 0 <= seat <= 2:
                raise InvalidSeatError(f"unknown seat {seat!r} for {name}: expected 0, 1 or 2")
        if not isinstance(self.hands, list) or len(self.hands) != 3:
            raise DealFormatError(f"hands must be three masks (forehand, middlehand, rearhand), got {self.hands!r}")
        for name, mask in [(f"hands[{i}]", h) for i, h in enumerate(self.hands)] + [("skat", self.skat)]:
            if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= ALL_CARDS:
                raise DealFormatError(f"{name} must be a 32-bit card mask, got {mask!r}")
        for name, cards in (("trick", self.trick), ("played", self.played)):
            for i, card in enumerate(cards):
                if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 32:
                    raise InvalidCardError(f"{name}[{i}]: unknown card {card!r}: expected an int 0..31")
        for name in ("declarer_points", "declarer_tricks", "defender_tricks", "bid"):
            value = getattr(self, name)
            if value is None and name != "declarer_points":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise DealFormatError(f"{name} must be an integer, got {value!r}")
        if self.bid is not None and self.bid < 0:
            raise DealFormatError(f"bid {self.bid} is negative: expected a bid such as 18")
        if not isinstance(self.hand, bool):
            raise DealFormatError(f"hand must be true or false, got {self.hand!r}")

    def _check_cards(self) -> None:
        """Every card once: hands, skat and trick are disjoint; played has no repeats and avoids skat."""
        places = [(_seat_label(s) + "'s hand", self.hands[s]) for s in range(3)]
        places.append(("the skat", self.skat))
        places.append(("the trick", mask_of(self.trick)))
        for i in range(len(places)):
            for j in range(i + 1, len(places)):
                both = places[i][1] & places[j][1]
                if both:
                    card = cards_of(both)[0]
                    raise DuplicateCardError(
                        f"card {card_name(card)!r} appears twice: in {places[i][0]} and in {places[j][0]}; "
                        "every card must be distinct"
                    )
        for name, cards in (("trick", self.trick), ("played", self.played)):
            seen = Counter(cards)
            for card, n in seen.items():
                if n > 1:
                    raise DuplicateCardError(f"card {card_name(card)!r} appears {n} times in {name}")
        for i, card in enumerate(self.played):
            if self.skat >> card & 1:
                raise DuplicateCardError(
                    f"played[{i}] {card_name(card)!r} is in the skat: a card of the skat cannot be played"
                )

    def _check_sizes(self) -> int:
        """Check hand, skat and trick sizes; return the number of completed tricks."""
        skat_size = self.skat.bit_count()
        if not (skat_size == 2 or (skat_size == 0 and self.game.is_null)):
            what = "two cards" if not self.game.is_null else "two cards, or none in null"
            raise CardCountError(
                f"the skat has {skat_size} card{'s' if skat_size != 1 else ''} {format_mask(self.skat)!r}: "
                f"expected {what} (the skat or the declarer's discard)"
            )
        sizes = [h.bit_count() for h in self.hands]
        if self.played:
            if self.trick:
                raise DealFormatError(
                    f"trick {format_cards(self.trick)!r} cannot be combined with 'played': "
                    "the played cards already say what is on the table"
                )
            if self.leader != 0:
                raise DealFormatError(
                    f"leader {self.leader} cannot be combined with 'played': forehand (0) leads the first trick"
                )
            for seat in range(3):
                if sizes[seat] != 10:
                    raise CardCountError(
                        f"{_seat_label(seat)}'s hand has {sizes[seat]} cards {format_mask(self.hands[seat])!r}: "
                        "expected 10, the hand before the first trick, because 'played' is given"
                    )
            return 0
        k = len(self.trick)
        if k > 2:
            raise CardCountError(
                f"the trick has {k} cards {format_cards(self.trick)!r}: expected 0, 1 or 2 "
                "(a trick of three is complete and belongs to earlier tricks)"
            )
        for seat in range(3):
            if sizes[seat] > 10:
                raise CardCountError(
                    f"{_seat_label(seat)}'s hand has {sizes[seat]} cards {format_mask(self.hands[seat])!r}: "
                    "expected at most 10"
                )
        done = [(self.leader + i) % 3 for i in range(k)]  # seats that played to the current trick
        # The hand size of a seat still to play, as each seat's size implies it: take the most common,
        # ties going to the seat to move, so the message blames the odd one out.
        implied = [sizes[s] + (1 if s in done else 0) for s in range(3)]
        counts = Counter(n for n in implied if n >= 1) or Counter(implied)
        to_move = (self.leader + k) % 3
        size = max(counts, key=lambda n: (counts[n], n == implied[to_move]))
        expected = [size - 1 if s in done else size for s in range(3)]
        if expected != sizes:
            if k:
                state = (f"with {k} card{'s' if k != 1 else ''} {format_cards(self.trick)!r} in the current trick "
                         f"led by {_seat_label(self.leader)}, a seat that played to it holds one card fewer")
            else:
                state = "with no card in the current trick, every hand holds the same number"
            raise CardCountError(
                f"the hands hold {sizes[0]}/{sizes[1]}/{sizes[2]} cards (forehand/middlehand/rearhand): "
                f"expected {expected[0]}/{expected[1]}/{expected[2]}: {state}"
            )
        if size < 1:
            raise CardCountError("the hands are empty: expected 1 to 10 cards a hand still to play")
        return 10 - size

    def _check_trick(self) -> None:
        """Cards after the lead must follow unless the seat that played them holds no card of the led group."""
        if len(self.trick) < 2:
            return
        led = self.trick[0]
        group = follow_group(led, self.game)
        cards_of_group = group_mask(group, self.game)
        for i in range(1, len(self.trick)):
            card = self.trick[i]
            seat = (self.leader + i) % 3
            still = self.hands[seat] & cards_of_group
            if follow_group(card, self.game) != group and still:
                raise IllegalPlayError(
                    f"trick card {card_name(card)!r} of {_seat_label(seat)} does not follow the lead "
                    f"{card_name(led)!r}, but {_seat_label(seat)} still holds {format_mask(still)!r}"
                )

    def _check_score(self, completed: int) -> _Derived:
        """Check earlier points and trick counts against the cards gone; infer missing counts."""
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.skat | mask_of(self.trick)
        gone = ALL_CARDS & ~in_play
        gone_exact = self.skat != 0
        gone_points = points_of(gone)
        dp = self.declarer_points
        if not 0 <= dp <= 120:
            raise DealFormatError(f"declarer_points {dp} is out of range: expected 0..120")
        if dp > gone_points or (completed == 0 and dp > 0):
            limit = 0 if completed == 0 else gone_points
            raise DealFormatError(
                f"declarer_points {dp} is more than the {limit} points of the cards already played "
                f"({format_mask(gone) if completed else 'none'})"
            )
        given = {"declarer_tricks": self.declarer_tricks, "defender_tricks": self.defender_tricks}
        for name, value in given.items():
            if value is not None and value < 0:
                raise DealFormatError(f"{name} {value} is negative: expected a count of tricks won, 0 or more")
            if value is not None and value > completed:
                raise DealFormatError(
                    f"{name} {value} is more than the {completed} trick{'s' if completed != 1 else ''} "
                    "completed before this position"
                )
        dt, ft = self.declarer_tricks, self.defender_tricks
        if dt is not None and ft is not None:
            if dt + ft != completed:
                raise DealFormatError(
                    f"declarer_tricks {dt} + defender_tricks {ft} = {dt + ft}: expected {completed}, "
                    "the number of tricks completed before this position"
                )
        elif dt is not None:
            ft = completed - dt
        elif ft is not None:
            dt = completed - ft
        else:
            dt = 1 if dp > 0 else 0
            if self.game.is_null:
                ft = completed - dt
            else:
                ft = 1 if gone_points - dp > 0 else 0
                if dt + ft > completed:
                    raise DealFormatError(
                        f"declarer_points {dp} leaves {gone_points - dp} points of the played cards to the "
                        f"defenders, so both sides won a trick, but only {completed} trick was completed"
                    )
        if dt == 0 and dp > 0:
            raise DealFormatError(f"declarer_points {dp} but the declarer won no trick: expected 0 points")
        if ft == 0 and gone_exact and gone_points - dp > 0:
            raise DealFormatError(
                f"the defenders won no trick, so declarer_points must be all {gone_points} points of the "
                f"cards already played, got {dp}"
            )
        return _Derived(completed, dt, ft)

    def _derive(self) -> _Derived:
        self._check_types()
        self._check_cards()
        completed = self._check_sizes()
        self._check_trick()
        return self._check_score(completed)

    def trick_counts(self) -> tuple[int, int]:
        """``(declarer_tricks, defender_tricks)`` won before the start position, inferred when not given.

        Rule (docs/cli.md, Endgames): a count that is given is used;
        when only one is given the other is the rest of the completed tricks.
        When neither is given, the declarer has 1 trick if ``declarer_points
        > 0`` else 0; in suit and grand the defenders have 1 trick if the
        cards already played hold points the declarer did not win, else 0 (a
        side with points took at least one trick; nothing more is known); in
        null the defenders have every other completed trick (the skat may be
        unknown there, so its points say nothing).
        """
        derived = self._derive()
        return derived.declarer_tricks, derived.defender_tricks

    def start_position(self) -> Position:
        """The position before any card of :attr:`played` (the position itself when it is empty).

        Validates the spec first (see :meth:`validate`); trick counts that
        were not given are inferred as :meth:`trick_counts` describes.
        """
        derived = self._derive()
        return Position(
            game=self.game, declarer=self.declarer, hands=list(self.hands), skat=self.skat,
            leader=self.leader, trick=list(self.trick), declarer_points=self.declarer_points,
            declarer_tricks=derived.declarer_tricks, defender_tricks=derived.defender_tricks,
        )

    def position(self) -> Position:
        """The position after replaying :attr:`played` (its ``history`` holds those plays).

        Raises :class:`IllegalPlayError` naming the card and its index in
        ``played`` when a card is not held by the seat to move, does not
        follow suit, or comes after the game is over (a null declarer took a
        trick).  Every other validation error of :meth:`validate` as well.
        """
        return _replay(self.start_position(), self.played)

    def validate(self) -> None:
        """Check the spec; raise a :class:`~skatdd.errors.SkatddError` subclass on the first problem.

        Checks: every card once (hands, skat, trick; ``played`` without
        repeats and not from the skat); a skat of two cards (or none in
        null); with ``played``: ten-card hands, no ``trick``, leader 0, and
        every played card held and legal in turn; without it: hand sizes fit
        the trick (a seat that already played to the current trick holds one
        card fewer, 1..10 cards for a seat still to play), at most two trick
        cards, each following the lead unless its seat holds no card of the
        led group; ``declarer_points`` in 0..120 and at most the points of
        the cards already gone; trick counts non-negative, within the
        completed tricks, summing to them when both are given, and consistent
        with the points.
        """
        self.position()

    def declaration(self) -> Declaration:
        """The declaration as :class:`skatdd.scoring.Declaration` (game, hand, announcements, ouvert).

        Raises :class:`~skatdd.errors.ScoringError` for a declaration the
        rules forbid (schneider announced without hand, ...).
        """
        from .scoring import Declaration

        return Declaration.from_options(self.game, hand=self.hand, announce=self.announce, ouvert=self.ouvert)

    # -- output ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/cli.md, with canonical card codes.

        ``position_from_json(spec.to_json()) == spec`` for every valid spec.
        Null ouvert is written as ``game: "null"`` with ``"ouvert"`` in
        ``announce``.  ``leader`` and ``trick`` are written only without
        ``played``; ``skat`` is left out only for a null without skat.
        """
        out: dict[str, Any] = {}
        if self.id is not None:
            out["id"] = self.id
        out["game"] = self.game.label
        out["declarer"] = self.declarer
        out["hands"] = [format_mask(h) for h in self.hands]
        if self.skat or not self.game.is_null:
            out["skat"] = format_mask(self.skat)
        if self.played:
            out["played"] = format_cards(self.played)
        else:
            out["leader"] = self.leader
            out["trick"] = format_cards(self.trick)
        out["declarer_points"] = self.declarer_points
        if self.declarer_tricks is not None:
            out["declarer_tricks"] = self.declarer_tricks
        if self.defender_tricks is not None:
            out["defender_tricks"] = self.defender_tricks
        out["hand"] = self.hand
        out["announce"] = list(self.announce)
        if self.bid is not None:
            out["bid"] = self.bid
        return out


# ---------------------------------------------------------------------------
# JSON


def _json_type(value: Any) -> str:
    """JSON name of *value*'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _describe(value: Any) -> str:
    """Short description of a JSON value: ``number 3``, ``array``..."""
    kind = _json_type(value)
    if kind in ("number", "boolean", "string"):
        return f"{kind} {_quote(value) if isinstance(value, str) else json.dumps(value)}"
    return kind


def _load_json(text: str | bytes | bytearray) -> Any:
    """``json.loads`` with every failure turned into :class:`DealFormatError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        hint = ": one deal per input expected (use 'skatdd batch' for many)" if exc.msg == "Extra data" else ""
        raise DealFormatError(f"malformed JSON: {exc}{hint}") from None
    except (UnicodeDecodeError, RecursionError, ValueError) as exc:
        raise DealFormatError(f"malformed JSON: {exc}") from None


def _card_field(value: Any, name: str, label: str | None, ledger: _CardLedger | None) -> list[Card]:
    """Cards of JSON field *name* given as one string or a list of card strings; *label* describes it."""
    place = f"field '{name}'" + (f" ({label})" if label else "")
    if value is None:
        return []
    if isinstance(value, str):
        tokens = split_card_tokens(value)
    elif isinstance(value, list):
        tokens = []
        for i, token in enumerate(value):
            if not isinstance(token, str):
                raise DealFormatError(f"field '{name}[{i}]' must be a card string such as 'CJ', got {_describe(token)}")
            tokens.append(token)
    else:
        raise DealFormatError(f"{place} must be a string of cards or a list of card strings, got {_describe(value)}")
    return _parse_tokens(tokens, place, ledger)


def _seat_field(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise DealFormatError(
            f"field '{name}' must be a seat 0/1/2 or F/M/R or forehand/middlehand/rearhand, got {_describe(value)}"
        )
    try:
        return parse_seat(value)
    except InvalidSeatError as exc:
        _reraise(exc, f"field '{name}'")


def _int_field(obj: dict[str, Any], name: str, default: int | None) -> int | None:
    value = obj.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealFormatError(f"field '{name}' must be an integer, got {_describe(value)}")
    return value


def position_from_json(
    obj: dict[str, Any] | str | bytes, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None,
) -> GameSpec:
    """Read a deal or position from its JSON object (docs/cli.md), validated.

    *obj* is the decoded object or its JSON text.  Fields: ``id`` (any),
    ``game`` (a contract name, ``null-ouvert``/``NO`` included), ``declarer``
    (0/1/2 or F/M/R/forehand/...), ``hands`` (three card strings or lists,
    index = seat), ``skat``, ``played``, ``leader``, ``trick`` (card strings or
    lists), ``declarer_points``, ``declarer_tricks``, ``defender_tricks``
    (integers), ``hand`` (boolean), ``announce`` (list of
    ``schneider``/``schwarz``/``ouvert``, or one string of them), ``bid``
    (integer).  A null field counts as absent; unknown fields are ignored.
    ``game``, ``declarer`` and ``hands`` are required (``skat`` too, for suit
    and grand).  ``game: "null"`` with ``"ouvert"`` announced is null ouvert.

    Keyword arguments override the object: *game* (with *ouvert*) replaces
    the contract (the object's announcements other than ``ouvert`` stay),
    *declarer* the declarer.

    Raises :class:`DealFormatError` (malformed JSON, a field of the wrong
    type or out of range, a missing field), :class:`InvalidCardError`,
    :class:`DuplicateCardError`, :class:`CardCountError`,
    :class:`InvalidGameError`, :class:`InvalidSeatError` or
    :class:`IllegalPlayError`, each naming the field and token.
    """
    if isinstance(obj, (str, bytes, bytearray)):
        obj = _load_json(obj)
    if not isinstance(obj, dict):
        raise DealFormatError(f"a deal in JSON must be an object with 'game', 'declarer' and 'hands', got {_describe(obj)}")

    # Declaration.
    announce_value = obj.get("announce")
    if announce_value is None:
        announce_items: list[Any] = []
    elif isinstance(announce_value, str):
        announce_items = list(split_card_tokens(announce_value))
    elif isinstance(announce_value, list):
        announce_items = announce_value
    else:
        raise DealFormatError(
            f"field 'announce' must be a list of schneider/schwarz/ouvert, got {_describe(announce_value)}"
        )
    announce = _normalise_announce(announce_items, "field 'announce'")
    if game is not None:
        the_game, the_ouvert = game, ouvert
        announce = [a for a in announce if a != "ouvert"]
    else:
        value = obj.get("game")
        if value is None:
            raise DealFormatError(
                "field 'game' is missing: expected grand, clubs, spades, hearts, diamonds, null or null-ouvert"
            )
        if not isinstance(value, str):
            raise DealFormatError(f"field 'game' must be a string such as 'grand', got {_describe(value)}")
        try:
            the_game, the_ouvert = parse_game(value)
        except SkatddError as exc:
            _reraise(exc, "field 'game'")
    if declarer is not None:
        the_declarer = declarer
    else:
        if obj.get("declarer") is None:
            raise DealFormatError("field 'declarer' is missing: expected a seat 0, 1 or 2")
        the_declarer = _seat_field(obj["declarer"], "declarer")
    leader = 0 if obj.get("leader") is None else _seat_field(obj["leader"], "leader")
    hand = obj.get("hand")
    if hand is None:
        hand = False
    elif not isinstance(hand, bool):
        raise DealFormatError(f"field 'hand' must be true or false, got {_describe(hand)}")

    # Cards.
    hands_value = obj.get("hands")
    if hands_value is None:
        raise DealFormatError("field 'hands' is missing: expected three card strings (forehand, middlehand, rearhand)")
    if not isinstance(hands_value, list) or len(hands_value) != 3:
        got = f"{len(hands_value)} items" if isinstance(hands_value, list) else _describe(hands_value)
        raise DealFormatError(
            f"field 'hands' must be a list of three hands (forehand, middlehand, rearhand), got {got}"
        )
    ledger = _CardLedger()
    for seat in range(3):
        if hands_value[seat] is None:
            raise DealFormatError(f"field 'hands[{seat}]' is null: expected the cards of {SEAT_NAMES[seat]}")
    hands = [_card_field(hands_value[seat], f"hands[{seat}]", SEAT_NAMES[seat], ledger) for seat in range(3)]
    skat = _card_field(obj.get("skat"), "skat", None, ledger)
    trick = _card_field(obj.get("trick"), "trick", None, ledger)
    played = _card_field(obj.get("played"), "played", None, None)

    points = _int_field(obj, "declarer_points", 0)
    assert points is not None
    spec = GameSpec(
        id=obj.get("id"), game=the_game, ouvert=the_ouvert, declarer=the_declarer,
        hands=[mask_of(h) for h in hands], skat=mask_of(skat), leader=leader, trick=trick,
        declarer_points=points,
        declarer_tricks=_int_field(obj, "declarer_tricks", None),
        defender_tricks=_int_field(obj, "defender_tricks", None),
        played=played, hand=hand, announce=announce, bid=_int_field(obj, "bid", None),
    )
    spec.validate()
    return spec


# ---------------------------------------------------------------------------
# load_deal


def read_source(arg: str) -> tuple[str, str | None]:
    """``(text, path)``: the deal's text, and the file it came from (``None`` when *arg* is the deal)."""
    head = arg.lstrip()
    if head.startswith("{") or head.startswith("(;"):
        return arg, None
    if arg and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8-sig") as fh:
                return fh.read(), arg
        except (OSError, UnicodeDecodeError) as exc:
            raise DealFormatError(f"cannot read deal file {arg!r}: {exc}") from None
    return arg, None


def _strip_comments(text: str) -> str:
    """Drop blank lines and lines starting with ``#``."""
    return "\n".join(line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def load_deal(arg: str, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None) -> GameSpec:
    """Read a command line's DEAL argument into a validated :class:`GameSpec`.

    *arg* is a path to a file holding a deal, or the deal itself: a JSON
    object (``{`` first), an ISS game record (``(;`` first) or deal text
    (:func:`parse_deal_text`).  In a file, blank lines and lines starting
    with ``#`` are ignored; the rest must be one deal.

    * Deal text names no contract: *game* and *declarer* are required
      (:class:`DealFormatError` "... --game is required" otherwise).  The
      fourth group is the skat or the declarer's discard; every hand has ten
      cards.  *ouvert* marks null ouvert.
    * JSON: see :func:`position_from_json`; *game*/*ouvert* and *declarer*,
      when given, override the object's.
    * ISS: the record's deal from the first lead, its declarer, contract,
      skat or discard, declaration, bid and every card played (``played``),
      so :meth:`GameSpec.start_position` is the position before the first
      card.  *game*/*declarer*, when given, override the record's; when they
      change the contract for play or the declarer, the recorded plays
      (which belong to the recorded game) are dropped and ``played`` is empty.

    Errors raised while reading a file name the file.  Raises only
    :class:`~skatdd.errors.SkatddError` subclasses for bad input.
    """
    if not isinstance(arg, str):
        raise DealFormatError(f"a deal must be given as text or a path, got {type(arg).__name__}")
    raw, path = read_source(arg)
    try:
        return _load_text(raw, path, game=game, ouvert=ouvert, declarer=declarer)
    except SkatddError as exc:
        if path is None:
            raise
        _reraise(exc, path)


def _load_text(raw: str, path: str | None, *, game: Game | None, ouvert: bool, declarer: int | None) -> GameSpec:
    text = _strip_comments(raw).strip()
    if not text:
        raise DealFormatError(
            "the deal is empty: expected four groups of cards separated by '/', a JSON object or an ISS record"
        )
    if text.startswith("{"):
        return position_from_json(text, game=game, ouvert=ouvert, declarer=declarer)
    if text.startswith("(;"):
        return _from_iss(text, game=game, ouvert=ouvert, declarer=declarer)
    if path is None and len(_GROUP_SPLIT.split(text)) < 4 and not any(ch.isspace() for ch in text):
        raise DealFormatError(
            f"{_quote(text)} is neither a file nor a deal: expected a path, a JSON object, an ISS record, "
            "or four groups of cards separated by '/' (forehand / middlehand / rearhand / skat)"
        )
    hands, skat = parse_deal_text(text)
    if game is None:
        raise DealFormatError("a deal given as text does not name the contract: --game is required")
    if declarer is None:
        raise DealFormatError("a deal given as text does not name the declarer: --declarer is required")
    spec = GameSpec(
        game=game, ouvert=ouvert, declarer=declarer, hands=[mask_of(h) for h in hands], skat=mask_of(skat),
    )
    spec.validate()
    return spec


def _from_iss(text: str, *, game: Game | None, ouvert: bool, declarer: int | None) -> GameSpec:
    """A :class:`GameSpec` from one ISS game record (see :func:`load_deal`)."""
    from . import iss  # imported here: the ISS reader is optional for every other input form

    records = [line for line in text.splitlines() if line.lstrip().startswith("(;")]
    if len(records) > 1:
        raise ISSFormatError(f"the input holds {len(records)} ISS records: expected one")
    record = iss.parse_iss(text)
    hands = record.start_hands()  # raises ISSFormatError for a passed game or hidden cards
    skat = record.skat_for_declarer()
    declaration = record.declaration
    assert declaration is not None and record.declarer is not None  # start_hands() checked both
    the_game, the_ouvert, the_declarer = declaration.game, declaration.ouvert, record.declarer
    announce = list(declaration.announce)
    if game is not None and (game, ouvert) != (the_game, the_ouvert):
        the_game, the_ouvert = game, ouvert
        announce = [a for a in announce if a != "ouvert"]
    if declarer is not None:
        the_declarer = declarer
    # The recorded plays belong to the recorded contract; another contract or declarer starts from the deal.
    own_contract = (the_game, the_declarer) == (declaration.game, record.declarer)
    plays = list(record.plays) if own_contract else []
    spec = GameSpec(
        id=record.id, game=the_game, ouvert=the_ouvert, declarer=the_declarer,
        hands=list(hands), skat=skat, played=[card for _, card in plays], hand=declaration.hand,
        announce=announce, bid=record.bid,
    )
    _replay(spec.start_position(), spec.played, [seat for seat, _ in plays])
    return spec


def _replay(pos: Position, played: list[Card], seats: list[int] | None = None) -> Position:
    """Play *played* on *pos* (in place) and return it; errors name each card and its index.

    With *seats* (an ISS record's), each card must also be played by that seat.
    """
    for i, card in enumerate(played):
        if pos.game.is_null and pos.declarer_tricks > 0:
            raise IllegalPlayError(
                f"played[{i}] {card_name(card)!r} comes after the end of the game: "
                "the null declarer already took a trick"
            )
        if seats is not None and seats[i] != pos.to_move:
            raise ISSFormatError(
                f"the ISS record plays {card_name(card)!r} (card {i + 1}) for seat {seats[i]}, "
                f"but it is {SEAT_NAMES[pos.to_move]}'s turn"
            )
        try:
            pos.play(card)
        except IllegalPlayError as exc:
            _reraise(exc, f"played[{i}] {card_name(card)!r}")
    return pos
