"""A Skat position that plays and takes back cards.

:class:`Position` holds the three hands (masks), the skat or discard, the
current trick and the score so far, and knows the rules: whose turn it is,
which cards are legal, who wins each trick.  It is the plain Python model the
reference solver and every command build on; the Cython engine gets its
masks once at the boundary.  Cards come back as :class:`~skatdd.core.cards.Card`
objects; :meth:`Position.play` takes a card, its int or its code.

>>> pos = Position(Game.GRAND, 0, ["CJ HA", "H7 S7", "HK D7"], skat="DA DT", declarer_points=40)
>>> pos.legal_moves()
[Card('HA'), Card('CJ')]
>>> pos.play("HA"), pos.play(Card("H7")), pos.play(14)    # a code, a Card, an int (HK)
(None, None, 0)
>>> pos.value_so_far        # 40 earlier + 15 in this trick + 21 in the skat
76
>>> pos
Position(game=Game.GRAND, declarer=0, hands=['CJ', 'S7', 'D7'], skat='DA DT', leader=0, trick=[], \
declarer_points=55, declarer_tricks=1, defender_tricks=0)
>>> pos.undo()
Card('HK')
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import SupportsIndex

from .cards import CARD_POINTS, Card, CardSet, Mask, card_name, cards_of, format_cards, format_mask, points_of
from .errors import DealFormatError, IllegalPlayError, plural, quote
from .rules import SEAT_NAMES, Game, legal_mask, trick_winner

#: What the constructor takes for a hand or the skat: a mask, a card string, a CardSet or an iterable of cards.
Cards = Mask | str | Iterable[int | str]
#: What :meth:`Position.play` takes: a :class:`~skatdd.core.cards.Card`, an int 0..31 or a code in any accepted form.
CardLike = str | SupportsIndex


def _mask(cards: Cards) -> Mask:
    """*cards* as a mask; a plain int is taken as the mask itself."""
    return cards if type(cards) is int else CardSet(cards).mask


@dataclass(init=False, repr=False)
class Position:
    """A position of a Skat game in play.

    Attributes:
        game: the contract for play (null ouvert plays as ``Game.NULL``).
        declarer: seat 0/1/2 of the declarer.
        hands: the cards each seat holds now, as masks, index = seat (:meth:`hand` gives a :class:`CardSet`).
        skat: the skat (hand game) or discard, a mask; counts for the declarer in suit and grand.
        leader: seat that led (or leads) the current trick.
        trick: cards already played to the current trick, leader first.
        declarer_points: card points the declarer took in completed tricks (skat not included).
        declarer_tricks, defender_tricks: completed tricks won by each side.
        history: every ``(seat, card)`` played through :meth:`play`, for :meth:`undo`.

    The constructor takes each hand and the skat as a mask, a card string
    (``"CJ SJ HA"``), a :class:`CardSet` or an iterable of cards, and the
    trick as cards, ints or codes; a list of masks is kept as given.
    ``repr()`` pastes back (with ``Game`` in scope) as the same position
    without its :attr:`history`; ``str()`` is a table of hands by seat.  The
    constructor does not check the position: :meth:`validate` does.
    """

    game: Game
    declarer: int
    hands: list[Mask]
    skat: Mask
    leader: int
    trick: list[Card]
    declarer_points: int
    declarer_tricks: int
    defender_tricks: int
    history: list[tuple[int, Card]]
    # Per played card: (leader, trick, declarer_points, declarer_tricks, defender_tricks) before it.
    _undo: list[tuple[int, list[Card], int, int, int]]

    def __init__(self, game: Game, declarer: int, hands: Sequence[Cards], skat: Cards = 0, leader: int = 0,
                 trick: Iterable[CardLike] = (), declarer_points: int = 0, declarer_tricks: int = 0,
                 defender_tricks: int = 0, history: Iterable[tuple[int, Card]] = (),
                 _undo: Iterable[tuple[int, list[Card], int, int, int]] = ()) -> None:
        self.game = game
        self.declarer = declarer
        if isinstance(hands, list) and all(type(h) is int for h in hands):
            self.hands = hands
        else:
            self.hands = [_mask(h) for h in hands]
        self.skat = _mask(skat)
        self.leader = leader
        self.trick = [c if isinstance(c, Card) else Card(c) for c in trick]
        self.declarer_points = declarer_points
        self.declarer_tricks = declarer_tricks
        self.defender_tricks = defender_tricks
        self.history = list(history)
        self._undo = list(_undo)

    def copy(self) -> Position:
        """An independent copy (history included)."""
        return Position(
            self.game, self.declarer, list(self.hands), self.skat, self.leader, list(self.trick),
            self.declarer_points, self.declarer_tricks, self.defender_tricks,
            list(self.history), [(lead, list(t), p, d, f) for lead, t, p, d, f in self._undo],
        )

    @property
    def to_move(self) -> int:
        """Seat whose turn it is."""
        return (self.leader + len(self.trick)) % 3

    @property
    def cards_left(self) -> int:
        """Cards still held by all three seats."""
        return sum(h.bit_count() for h in self.hands)

    @property
    def skat_points(self) -> int:
        """Points of the skat or discard (they count for the declarer in suit and grand)."""
        return 0 if self.game.is_null else points_of(self.skat)

    @property
    def value_so_far(self) -> int:
        """Declarer's points so far: completed tricks plus skat (suit/grand)."""
        return self.declarer_points + self.skat_points

    def validate(self) -> None:
        """Raise :class:`DealFormatError` unless this is a position play can continue from.

        Checks: the declarer and leader are seats 0..2; at most two cards lie in
        the current trick; hands, trick and skat are disjoint; the skat holds
        two cards (or none, in null games only); the seats that already played
        to the current trick hold one card fewer than the others (so every seat
        runs out of cards at the same trick).
        """
        if self.declarer not in (0, 1, 2) or self.leader not in (0, 1, 2):
            raise DealFormatError(f"declarer {quote(self.declarer)} and leader {quote(self.leader)} must be seats 0, 1 or 2")
        if len(self.trick) > 2:
            raise DealFormatError(f"the current trick holds {len(self.trick)} cards: expected at most 2")
        seen = 0
        groups = [(f"hand of seat {s}", self.hands[s]) for s in range(3)]
        groups += [("current trick", sum(1 << c for c in self.trick)), ("skat", self.skat)]
        for what, mask in groups:
            if seen & mask:
                repeated = card_name((seen & mask).bit_length() - 1)
                raise DealFormatError(f"{what} repeats a card held elsewhere: {repeated!r}")
            seen |= mask
        if len(set(self.trick)) != len(self.trick):
            raise DealFormatError("the current trick holds a card twice")
        skat_cards = self.skat.bit_count()
        if skat_cards != 2 and not (self.game.is_null and skat_cards == 0):
            raise DealFormatError(f"the skat holds {plural(skat_cards, 'card')}: expected 2")
        sizes = [h.bit_count() for h in self.hands]
        full = sizes[self.to_move]
        for i in range(3):
            seat = (self.leader + i) % 3
            expected = full - 1 if i < len(self.trick) else full
            if sizes[seat] != expected:
                raise DealFormatError(
                    f"seat {seat} holds {plural(sizes[seat], 'card')}: expected {expected} "
                    f"(seat {self.to_move} to move holds {full}, {plural(len(self.trick), 'card')} in the current trick)"
                )

    def is_over(self) -> bool:
        """True when every card is played, or a null declarer has taken a trick."""
        if self.game.is_null and self.declarer_tricks > 0:
            return True
        return self.cards_left == 0 and not self.trick

    def legal_moves_mask(self) -> Mask:
        """Legal cards of the player to move, as a mask."""
        led = self.trick[0] if self.trick else None
        return legal_mask(self.hands[self.to_move], led, self.game)

    def legal_moves(self) -> list[Card]:
        """Legal cards of the player to move, ascending card order."""
        return cards_of(self.legal_moves_mask())

    def hand(self, seat: int) -> CardSet:
        """The cards *seat* holds now."""
        return CardSet(self.hands[seat])

    def play(self, card: CardLike) -> int | None:
        """Play *card* for the player to move; returns the trick winner's seat when the trick completes.

        *card* is a :class:`~skatdd.core.cards.Card`, an int 0..31 or a code in
        any form :func:`~skatdd.core.cards.parse_card` reads (``"HA"``, ``"♥A"``).
        Raises :class:`~skatdd.core.errors.InvalidCardError` for a code or int that
        is no card, and :class:`IllegalPlayError` when the player does not hold
        the card or must follow the led suit with another one.
        """
        if not isinstance(card, Card):
            card = Card(card)
        seat = self.to_move
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalPlayError(
                f"card {card_name(card)!r} is not in the hand of seat {seat} ({format_mask(hand)})"
            )
        if not self.legal_moves_mask() >> card & 1:
            raise IllegalPlayError(
                f"card {card_name(card)!r} is illegal for seat {seat}: it must follow {card_name(self.trick[0])!r}"
            )
        self._undo.append((self.leader, list(self.trick), self.declarer_points, self.declarer_tricks, self.defender_tricks))
        self.history.append((seat, card))
        self.hands[seat] = hand & ~(1 << card)
        self.trick.append(card)
        if len(self.trick) < 3:
            return None
        winner = (self.leader + trick_winner(self.trick, self.game)) % 3
        if winner == self.declarer:
            self.declarer_points += sum(CARD_POINTS[c] for c in self.trick)
            self.declarer_tricks += 1
        else:
            self.defender_tricks += 1
        self.leader = winner
        self.trick = []
        return winner

    def undo(self) -> Card:
        """Take back the last card played through :meth:`play`; returns it."""
        seat, card = self.history.pop()
        leader, trick, points, dtricks, ftricks = self._undo.pop()
        self.leader, self.trick, self.declarer_points = leader, trick, points
        self.declarer_tricks, self.defender_tricks = dtricks, ftricks
        self.hands[seat] |= 1 << card
        return card

    def __repr__(self) -> str:
        hands = [format_mask(h) for h in self.hands]
        trick = [card_name(c) for c in self.trick]
        return (
            f"Position(game=Game.{Game(self.game).name}, declarer={self.declarer}, hands={hands!r}, "
            f"skat={format_mask(self.skat)!r}, leader={self.leader}, trick={trick!r}, "
            f"declarer_points={self.declarer_points}, declarer_tricks={self.declarer_tricks}, "
            f"defender_tricks={self.defender_tricks})"
        )

    def __str__(self) -> str:
        """The contract and who moves, each seat's hand, the skat, the trick and the score so far, one per line."""
        game = Game(self.game)
        rows = [f"{game.label}: declarer {self.declarer} {SEAT_NAMES[self.declarer]}, "
                f"{self.to_move} {SEAT_NAMES[self.to_move]} to move"]
        rows += [f"  {seat} {SEAT_NAMES[seat]:<11}{format_mask(h) or '-'}" for seat, h in enumerate(self.hands)]
        rows.append(f"  {'skat':<13}{format_mask(self.skat) or '-'}")
        led = f" (led by {self.leader})" if self.trick else ""
        rows.append(f"  {'trick':<13}{format_cards(self.trick) or '-'}{led}")
        tricks = plural(self.declarer_tricks, "trick")
        defenders = f"defenders {plural(self.defender_tricks, 'trick')}"
        if game.is_null:
            rows.append(f"declarer {tricks}, {defenders}")
        else:
            rows.append(f"declarer {self.value_so_far} points ({self.declarer_points} in {tricks} + skat "
                        f"{self.skat_points}), {defenders}")
        return "\n".join(rows)
