"""The one discrete action space of the Skat environment: every choice of a whole game as an index.

================  =====  ==============================================================
indices           count  actions (:mod:`skatdd.play.full.actions`)
================  =====  ==============================================================
0 .. 62           63     ``Say(v)`` for each value of :data:`~skatdd.play.full.actions.BIDS` (18 .. 264)
63                1      ``Hold()``
64                1      ``Pass()``
65                1      ``PickUp()``
66                1      ``PlayHand()``
67 .. 562         496    ``Discard`` of a pair of cards: every pair ``a < b`` of the 32 cards, in order
563 .. 591        29     ``Declare``: :data:`DECLARATIONS`
592 .. 623        32     ``Play(card)``, card 0 (D7) .. 31 (CA)
================  =====  ==============================================================

A discard is one action over the 496 pairs of the deck, not two single-card
steps: every step of the environment is then one move of the game, and the
observation is the game's own state with nothing half-done to show.  Only the
66 pairs of the declarer's twelve cards are ever legal.

>>> N_ACTIONS, str(ACTIONS[0]), str(ACTIONS[64]), str(ACTIONS[67]), str(ACTIONS[N_ACTIONS - 1])
(624, '18', 'p', 'D8.D7', 'CA')
>>> index_of(parse_action("CA", Phase.PLAY)), str(ACTIONS[index_of(parse_action("GO", Phase.DECLARE))])
(623, 'GO')
"""
from __future__ import annotations

import itertools
import operator

from skatdd.core.cards import Card, CardSet
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.play.full.actions import (
    BIDS,
    Action,
    Declare,
    Discard,
    Hold,
    Pass,
    Phase,
    PickUp,
    Play,
    PlayHand,
    Say,
    parse_action,
)

__all__ = ["ACTIONS", "DECLARATIONS", "N_ACTIONS", "Phase", "action_of", "index_of", "parse_action"]

_SUIT_AND_GRAND = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS)

#: Every declaration a game can have, in a fixed order: for grand, clubs, spades, hearts, diamonds each
#: plain (after the pick-up), hand, hand schneider announced, hand schwarz announced, ouvert; then null,
#: null hand, null ouvert, null ouvert hand.
DECLARATIONS: tuple[Declaration, ...] = (
    *(d for game in _SUIT_AND_GRAND for d in (
        Declaration(game), Declaration(game, hand=True), Declaration(game, hand=True, schneider=True),
        Declaration(game, hand=True, schwarz=True), Declaration(game, ouvert=True))),
    Declaration(Game.NULL), Declaration(Game.NULL, hand=True), Declaration(Game.NULL, ouvert=True),
    Declaration(Game.NULL, hand=True, ouvert=True),
)

#: Every action, by its index (module docstring).
ACTIONS: tuple[Action, ...] = (
    *(Say(v) for v in BIDS), Hold(), Pass(), PickUp(), PlayHand(),
    *(Discard(CardSet((1 << a) | (1 << b))) for a, b in itertools.combinations(range(32), 2)),
    *(Declare(d) for d in DECLARATIONS),
    *(Play(Card(c)) for c in range(32)),
)
#: The size of the action space.
N_ACTIONS = len(ACTIONS)

_INDEX: dict[Action, int] = {action: i for i, action in enumerate(ACTIONS)}


def index_of(action: Action) -> int:
    """The index of *action* in :data:`ACTIONS`; :class:`KeyError` for an object that is no action of a game."""
    return _INDEX[action]


def action_of(index: int) -> Action:
    """The action at *index* (any int type, numpy's included); :class:`IndexError` outside ``0 .. N_ACTIONS-1``.

    Anything that is not an integer (a float such as ``1.5``, a string) raises :class:`TypeError`: ``int()``
    would round a float to some other action.
    """
    try:
        i = operator.index(index)
    except TypeError:
        raise TypeError(f"action {str(index)[:40]!r} is not an index of the action space "
                        f"(an integer 0..{N_ACTIONS - 1})") from None
    if not 0 <= i < N_ACTIONS:
        raise IndexError(f"action {i} is outside the action space 0..{N_ACTIONS - 1}")
    return ACTIONS[i]
