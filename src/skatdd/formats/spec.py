"""A deal or position to solve, with its declaration: :class:`GameSpec`.

Every reader (:mod:`skatdd.formats.readers`: deal text, JSON objects, ISS records)
produces a :class:`GameSpec`; :meth:`GameSpec.validate` is the one place the
input's consistency is checked (every card once, hand sizes that fit the
trick, earlier points and tricks that fit the cards gone, each played card
legal in turn), and :meth:`GameSpec.position` turns it into the
:class:`~skatdd.core.position.Position` the solvers take.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from skatdd.core.cards import (
    ALL_CARDS,
    Card,
    Mask,
    card_name,
    cards_of,
    format_cards,
    format_mask,
    mask_of,
    parse_cards,
    points_of,
    split_card_tokens,
)
from skatdd.core.errors import (
    CardCountError,
    DealFormatError,
    DuplicateCardError,
    IllegalPlayError,
    InvalidCardError,
    InvalidSeatError,
    plural,
    quote,
    with_context,
)
from skatdd.core.position import Position
from skatdd.core.rules import SEAT_NAMES, Game, follow_group, group_mask, parse_game
from skatdd.core.scoring import ANNOUNCEMENTS, Declaration

__all__ = ["ANNOUNCEMENTS", "GameSpec", "kept_announcements", "normalise_announce", "replay_cards"]



def normalise_announce(items: Iterable[Any], context: str = "announce") -> list[str]:
    """Lower-cased, de-duplicated announcements in canonical order (schneider, schwarz, ouvert)."""
    seen = set()
    for item in items:
        if not isinstance(item, str):
            raise DealFormatError(
                f"{context}: announcement {quote(item)} is not a string: expected schneider, schwarz or ouvert"
            )
        key = item.strip().lower()
        if key not in ANNOUNCEMENTS:
            raise DealFormatError(f"{context}: unknown announcement {quote(item)}: expected schneider, schwarz or ouvert")
        seen.add(key)
    return [a for a in ANNOUNCEMENTS if a in seen]


def kept_announcements(announce: Iterable[str], game: Game) -> list[str]:
    """The announcements an input's contract keeps when ``--game`` replaces it by *game*.

    ``ouvert`` never stays (the override says whether the new game is
    played open), and a null keeps no ``schneider`` or ``schwarz``, which it
    cannot take: they belong to the contract replaced.  A suit or grand
    keeps them (and needs ``hand`` for them, as always).
    """
    return [a for a in announce if a != "ouvert" and not (game.is_null and a in ("schneider", "schwarz"))]


def _mask(cards: Any, what: str) -> Any:
    """A hand or skat given as card codes (``"CJ SJ"``) as its mask; anything else as it is (validated later)."""
    return mask_of(parse_cards(cards, what=what)) if isinstance(cards, str) else cards


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
    and :meth:`position`); every reader in :mod:`skatdd.formats.readers` returns
    validated specs only.

    Hands, skat, trick and played cards may also be given as card codes
    (``hands=["CJ SJ ...", ...], skat="DK DQ"``), which is how ``repr()``
    writes them: ``eval(repr(spec)) == spec`` with :class:`GameSpec` in scope.
    ``str(spec)`` is the deal as deal text (hands and skat, ``/`` between).
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
        self.hands = [_mask(h, f"hand {i}") for i, h in enumerate(self.hands)]
        self.skat = _mask(self.skat, "skat")
        self.trick = parse_cards(self.trick, what="trick") if isinstance(self.trick, str) else list(self.trick)
        self.played = parse_cards(self.played, what="played") if isinstance(self.played, str) else list(self.played)
        items = split_card_tokens(self.announce) if isinstance(self.announce, str) else self.announce
        announce = normalise_announce(items)
        if self.ouvert and "ouvert" not in announce:
            announce = normalise_announce([*announce, "ouvert"])
        self.ouvert = bool(self.ouvert) or "ouvert" in announce
        self.announce = announce

    def __repr__(self) -> str:
        """``GameSpec(game='diamonds', declarer=2, hands=['CJ ...', ...], skat='C8 ST', ...)``: the fields not
        at their defaults, cards as codes; evaluates back to an equal spec."""
        fields: list[tuple[str, Any]] = [("id", self.id), ("game", self.game.label), ("declarer", self.declarer),
                                         ("hands", [format_mask(h) for h in self.hands]),
                                         ("skat", format_mask(self.skat))]
        defaults = {"leader": 0, "trick": "", "declarer_points": 0, "declarer_tricks": None,
                    "defender_tricks": None, "played": "", "hand": False, "announce": [], "bid": None}
        values = {"leader": self.leader, "trick": format_cards(self.trick), "declarer_points": self.declarer_points,
                  "declarer_tricks": self.declarer_tricks, "defender_tricks": self.defender_tricks,
                  "played": format_cards(self.played), "hand": self.hand, "announce": list(self.announce),
                  "bid": self.bid}
        fields += [(name, value) for name, value in values.items() if value != defaults[name]]
        shown = ", ".join(f"{name}={value!r}" for name, value in fields if name != "id" or value is not None)
        return f"GameSpec({shown})"

    def __str__(self) -> str:
        """The deal as deal text: the three hands and the skat, ``/`` between (the hands at the start of ``played``)."""
        return " / ".join(format_mask(m) for m in [*self.hands, self.skat])

    # -- validation ---------------------------------------------------------

    def _check_types(self) -> None:
        for name in ("declarer", "leader"):
            seat = getattr(self, name)
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise DealFormatError(f"{name} must be a seat number 0, 1 or 2, got {quote(seat)}")
            if not 0 <= seat <= 2:
                raise InvalidSeatError(f"unknown seat {quote(seat)} for {name}: expected 0, 1 or 2")
        if not isinstance(self.hands, list) or len(self.hands) != 3:
            raise DealFormatError(f"hands must be three masks (forehand, middlehand, rearhand), got {quote(self.hands)}")
        for name, mask in [(f"hands[{i}]", h) for i, h in enumerate(self.hands)] + [("skat", self.skat)]:
            if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= ALL_CARDS:
                raise DealFormatError(f"{name} must be a 32-bit card mask, got {quote(mask)}")
        for name, cards in (("trick", self.trick), ("played", self.played)):
            for i, card in enumerate(cards):
                if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 32:
                    raise InvalidCardError(f"{name}[{i}]: unknown card {quote(card)}: expected an int 0..31")
        for name in ("declarer_points", "declarer_tricks", "defender_tricks", "bid"):
            value = getattr(self, name)
            if value is None and name != "declarer_points":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise DealFormatError(f"{name} must be an integer, got {quote(value)}")
        if self.bid is not None and self.bid < 0:
            raise DealFormatError(f"bid {self.bid} is negative: expected a bid such as 18")
        if not isinstance(self.hand, bool):
            raise DealFormatError(f"hand must be true or false, got {quote(self.hand)}")

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
                f"the skat has {skat_size} card{'s' if skat_size != 1 else ''} {quote(format_mask(self.skat))}: "
                f"expected {what} (the skat or the declarer's discard)"
            )
        sizes = [h.bit_count() for h in self.hands]
        if self.played:
            if self.trick:
                raise DealFormatError(
                    f"trick {quote(format_cards(self.trick))} cannot be combined with 'played': "
                    "the played cards already say what is on the table"
                )
            if self.leader != 0:
                raise DealFormatError(
                    f"leader {self.leader} cannot be combined with 'played': forehand (0) leads the first trick"
                )
            for seat in range(3):
                if sizes[seat] != 10:
                    raise CardCountError(
                        f"{_seat_label(seat)}'s hand has {plural(sizes[seat], 'card')} {quote(format_mask(self.hands[seat]))}: "
                        "expected 10, the hand before the first trick, because 'played' is given"
                    )
            return 0
        k = len(self.trick)
        if k > 2:
            raise CardCountError(
                f"the trick has {plural(k, 'card')} {quote(format_cards(self.trick))}: expected 0, 1 or 2 "
                "(a trick of three is complete and belongs to earlier tricks)"
            )
        for seat in range(3):
            if sizes[seat] > 10:
                raise CardCountError(
                    f"{_seat_label(seat)}'s hand has {plural(sizes[seat], 'card')} {quote(format_mask(self.hands[seat]))}: "
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
                state = (f"with {k} card{'s' if k != 1 else ''} {quote(format_cards(self.trick))} in the current trick "
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
                    f"{card_name(led)!r}, but {_seat_label(seat)} still holds {quote(format_mask(still))}"
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

        Rule (the contract leaves it open): a count that is given is used;
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
        return replay_cards(self.start_position(), self.played)

    def validate(self) -> None:
        """Check the spec; raise a :class:`~skatdd.core.errors.SkatddError` subclass on the first problem.

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
        with the points; and a declaration the rules allow (:meth:`declaration`:
        schneider or schwarz announced only in a suit or grand hand game), so
        every command gives a deal the same verdict, whether it scores the
        game or only plays it.
        """
        self.position()
        self.declaration()

    def declaration(self) -> Declaration:
        """The declaration as :class:`skatdd.core.scoring.Declaration` (game, hand, announcements, ouvert).

        Raises :class:`~skatdd.core.errors.ScoringError` for a declaration the
        rules forbid (schneider announced without hand, ...).
        """
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



def replay_cards(pos: Position, played: Iterable[Card], where: Callable[[int, Card], str] | None = None) -> Position:
    """Play *played* on *pos* (in place) and return it.

    Errors (:class:`IllegalPlayError`) name each card by ``where(index,
    card)`` (default ``played[i] 'CJ'``): a card not held by the seat to move,
    one that does not follow suit, or one after the end of the game (every
    card played, or a null declarer took a trick).
    """
    for i, card in enumerate(played):
        label = where(i, card) if where is not None else f"played[{i}] {card_name(card)!r}"
        if pos.is_over():
            why = ("the null declarer already took a trick" if pos.game.is_null and pos.declarer_tricks
                   else "every card has been played")
            raise IllegalPlayError(f"{label} comes after the end of the game: {why}")
        try:
            pos.play(card)
        except IllegalPlayError as exc:
            raise with_context(exc, label) from None
    return pos
