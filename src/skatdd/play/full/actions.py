"""The phases of a whole game of Skat and the choices made in each: the actions of :mod:`.game`.

A game (:class:`~skatdd.play.full.game.FullGame`) moves through the phases of
:class:`Phase`; in each, the seat to move picks one of its legal actions:

========== ================================ ===============================================
phase      who moves                        actions
========== ================================ ===============================================
AUCTION    the seat saying or answering     :class:`Say` a bid value, :class:`Hold`, :class:`Pass`
PICK_UP    the declarer                     :class:`PickUp` the skat, or :class:`PlayHand`
DISCARD    the declarer (after a pick-up)   :class:`Discard` two of his twelve cards
DECLARE    the declarer                     :class:`Declare` a game with its announcements
PLAY       the seat to play                 :class:`Play` a card
OVER       nobody                           none
========== ================================ ===============================================

Every action is a frozen dataclass that prints as its move in an ISS record
(``'18'``, ``'y'``, ``'p'``, ``'s'``, ``'SA.ST'``, ``'CHZ'``, ``'HA'``;
:class:`PlayHand` prints ``'hand'``, which ISS does not write), and
:func:`parse_action` reads those tokens back in the context of a phase:

>>> parse_action("18", Phase.AUCTION), parse_action("NO", Phase.DECLARE)
(Say(value=18), Declare(declaration=Declaration(game=<Game.NULL: 5>, hand=False, schneider=False, schwarz=False, ouvert=True)))
>>> str(Declare(Declaration(Game.SPADES, hand=True, schneider=True)))
'SHS'
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from skatdd.core.cards import Card, CardSet, card_name, parse_card, parse_cards
from skatdd.core.errors import SkatddError, quote
from skatdd.core.rules import Game
from skatdd.core.scoring import MAX_BID, Declaration
from skatdd.formats.iss.write import declaration_token

from ..auction import BID_VALUES

__all__ = [
    "BIDS", "Action", "Declare", "Discard", "Hold", "Pass", "Phase", "PickUp", "Play", "PlayHand", "Say",
    "parse_action",
]

#: Every value a bid can take, 18 to 264 (the highest game value, grand ouvert with 4).
BIDS: tuple[int, ...] = tuple(v for v in BID_VALUES if v <= MAX_BID)


class Phase(enum.Enum):
    """Where a game stands (module docstring)."""

    AUCTION = "auction"
    PICK_UP = "pick_up"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Say:
    """A bid said: *value*, one of :data:`BIDS` above the highest bid so far."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Hold:
    """The listener holds the bid just said ("yes")."""

    def __str__(self) -> str:
        return "y"


@dataclass(frozen=True)
class Pass:
    """The seat passes: out of the auction."""

    def __str__(self) -> str:
        return "p"


@dataclass(frozen=True)
class PickUp:
    """The declarer takes up the skat (then discards two cards)."""

    def __str__(self) -> str:
        return "s"


@dataclass(frozen=True)
class PlayHand:
    """The declarer leaves the skat face down: a hand game (ISS writes no move for it)."""

    def __str__(self) -> str:
        return "hand"


@dataclass(frozen=True)
class Discard:
    """The two cards the declarer puts away after the pick-up (they count for him)."""

    cards: CardSet

    def __str__(self) -> str:
        return ".".join(card_name(c) for c in self.cards)


@dataclass(frozen=True)
class Declare:
    """The game and its announcements (a normalised :class:`~skatdd.core.scoring.Declaration`)."""

    declaration: Declaration

    def __str__(self) -> str:
        return declaration_token(self.declaration)


@dataclass(frozen=True)
class Play:
    """A card played."""

    card: Card

    def __str__(self) -> str:
        return card_name(self.card)


#: Any action of the game.
Action = Say | Hold | Pass | PickUp | PlayHand | Discard | Declare | Play

_GAME_LETTERS = {"G": Game.GRAND, "C": Game.CLUBS, "S": Game.SPADES, "H": Game.HEARTS, "D": Game.DIAMONDS,
                 "N": Game.NULL}


def _declaration(token: str) -> Declaration:
    """A declaration token as ISS writes it (``'G'``, ``'CHS'``, ``'NOH'``, ``'GO'``), without cards."""
    game = _GAME_LETTERS.get(token[:1].upper())
    mods = token[1:].upper()
    if game is None or set(mods) - set("HOSZ") or len(set(mods)) != len(mods):
        raise SkatddError(f"unknown declaration {quote(token)}: expected G C S H D or N, then H O S Z (e.g. 'CH', 'NO')")
    try:
        return Declaration(game, hand="H" in mods, schneider="S" in mods or "Z" in mods, schwarz="Z" in mods,
                           ouvert="O" in mods)
    except SkatddError as exc:
        raise SkatddError(f"declaration {quote(token)}: {exc}") from None


def parse_action(token: str, phase: Phase) -> Action:
    """Read *token*, an action as it prints, in *phase*: ``'20'``/``'y'``/``'p'``, ``'s'``/``'hand'``,
    two cards, a declaration token, a card.

    Whether it is legal is the game's question (:meth:`~skatdd.play.full.game.FullGame.apply`).
    Raises :class:`~skatdd.core.errors.SkatddError` naming the token when it means nothing in *phase*.
    """
    text = token.strip()
    if phase is Phase.AUCTION:
        if text.lower() in ("y", "yes", "hold"):
            return Hold()
        if text.lower() in ("p", "pass"):
            return Pass()
        if text.isascii() and text.isdigit() and len(text) <= 3:
            return Say(int(text))
        raise SkatddError(f"unknown auction move {quote(token)}: expected a bid value, 'y' (hold) or 'p' (pass)")
    if phase is Phase.PICK_UP:
        if text.lower() in ("s", "pick-up", "pickup"):
            return PickUp()
        if text.lower() in ("h", "hand"):
            return PlayHand()
        raise SkatddError(f"unknown choice {quote(token)}: expected 's' (pick up the skat) or 'hand'")
    if phase is Phase.DISCARD:
        return Discard(CardSet(parse_cards(text.replace(".", " "), count=2, what="discard")))
    if phase is Phase.DECLARE:
        return Declare(_declaration(text))
    if phase is Phase.PLAY:
        return Play(parse_card(text))
    raise SkatddError(f"the game is over: no action {quote(token)} can be made")
