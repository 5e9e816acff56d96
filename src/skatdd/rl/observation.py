"""A seat's state as a fixed-size vector: :func:`encode`, with its layout :data:`LAYOUT`.

The vector is exactly a :class:`~skatdd.play.full.state.SeatState`: what one
seat may know at one moment, nothing more (the game's information test,
tests/test_full_game_state.py, checks the state; tests/test_rl_env.py checks
that two states with the same vector are the same state).  Every entry is
a float32 in [0, 1]: one-hot and 0/1 blocks, and a few counts scaled to
their largest value.  The blocks, in order (:data:`LAYOUT`):

=================  =====  ===================================================================
block              size   holds
=================  =====  ===================================================================
seat               3      whose state: forehand, middlehand, rearhand (one-hot)
phase              6      auction, pick_up, discard, declare, play, over (one-hot)
to_move            3      the seat to move (one-hot; zeros once the game is over)
hand               32     the seat's cards now (bit = card index, D7 = 0 .. CA = 31)
said_by            189    for each bid value of BIDS (63), which seat said it: 3 blocks of 63
held               63     the bid value was held ("y")
passed             3      the seats that passed
bid                1      the highest bid so far / 264 (0 before the first)
declarer           3      the auction's winner (one-hot; zeros before and when passed in)
picked_up          2      [hand game, picked up], once chosen
declaration        29     the game declared, one-hot over :data:`~skatdd.rl.actions.DECLARATIONS`
skat               32     the dealt skat: only for a declarer who picked it up
discard            32     his discard: only for himself
open_hand          32     an ouvert declarer's cards now: only for a defender
played_by          96     for each seat, the cards it has played: 3 blocks of 32
play_order         32     for each played card, its place in the play: k / 30 for the k-th card
leader             3      the seat that leads (led) the trick now (one-hot)
trick              32     the cards on the table
declarer_points    1      card points in the declarer's tricks (skat not counted) / 120
declarer_tricks    1      the declarer's tricks / 10
defender_tricks    1      the defenders' tricks / 10
result             8      once over and played: won, overbid, decided early, schneider, schwarz,
                          the declarer's points with the skat / 120, his tricks / 10,
                          (matadors + 11) / 22
=================  =====  ===================================================================

The auction is kept whole by ``said_by``, ``held`` and ``passed``: bids rise,
so each value is said at most once, and who answers it and when each seat
passed follow from the rules.  The play is kept whole by ``played_by`` and
``play_order``.  The legal actions are not in the vector: they are the
environment's action mask.

>>> from skatdd.play import FullGame
>>> vector = encode(FullGame.from_seed(7).state_for(1))
>>> vector.shape == (SIZE,), SIZE, vector.dtype.name
(True, 604, 'float32')
>>> vector[block("seat")].tolist(), vector[block("phase")].tolist()
([0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skatdd.core.cards import cards_of
from skatdd.play.full.actions import BIDS, Phase
from skatdd.play.full.state import SeatState

from .actions import DECLARATIONS

__all__ = ["LAYOUT", "SIZE", "block", "encode"]

_PHASES = tuple(Phase)
_MAX_BID = BIDS[-1]
_BID_INDEX = {str(v): i for i, v in enumerate(BIDS)}
_DECLARATION_INDEX = {d: i for i, d in enumerate(DECLARATIONS)}

#: The blocks of the vector, in order: ``(name, size)`` (module docstring).
LAYOUT: tuple[tuple[str, int], ...] = (
    ("seat", 3), ("phase", len(_PHASES)), ("to_move", 3), ("hand", 32),
    ("said_by", 3 * len(BIDS)), ("held", len(BIDS)), ("passed", 3), ("bid", 1),
    ("declarer", 3), ("picked_up", 2), ("declaration", len(DECLARATIONS)),
    ("skat", 32), ("discard", 32), ("open_hand", 32),
    ("played_by", 96), ("play_order", 32), ("leader", 3), ("trick", 32),
    ("declarer_points", 1), ("declarer_tricks", 1), ("defender_tricks", 1), ("result", 8),
)
_START: dict[str, int] = {}
_offset = 0
for _name, _size in LAYOUT:
    _START[_name] = _offset
    _offset += _size
#: The length of the vector.
SIZE = _offset


def block(name: str) -> slice:
    """The slice of the vector that holds block *name* of :data:`LAYOUT`; :class:`KeyError` for another name."""
    start = _START[name]
    return slice(start, start + dict(LAYOUT)[name])


def _cards(vector: npt.NDArray[np.float32], name: str, mask: int | None, offset: int = 0) -> None:
    if mask:
        start = _START[name] + offset
        for card in cards_of(mask):
            vector[start + card] = 1.0


def encode(state: SeatState) -> npt.NDArray[np.float32]:
    """*state* as a vector of :data:`SIZE` float32 in [0, 1], laid out as :data:`LAYOUT` says."""
    v = np.zeros(SIZE, dtype=np.float32)
    s = _START
    v[s["seat"] + state.seat] = 1.0
    v[s["phase"] + _PHASES.index(state.phase)] = 1.0
    if state.to_move is not None:
        v[s["to_move"] + state.to_move] = 1.0
    _cards(v, "hand", state.hand.mask)
    # The auction: bids rise, so a value names its moment; the answer to it follows it.
    last = -1
    for seat, move in state.bids:
        if move == "y":
            v[s["held"] + last] = 1.0
        elif move == "p":
            v[s["passed"] + seat] = 1.0
        else:
            last = _BID_INDEX[move]
            v[s["said_by"] + seat * len(BIDS) + last] = 1.0
    if state.bid is not None:
        v[s["bid"]] = state.bid / _MAX_BID
    if state.declarer is not None:
        v[s["declarer"] + state.declarer] = 1.0
    if state.picked_up is not None:
        v[s["picked_up"] + int(state.picked_up)] = 1.0
    if state.declaration is not None:
        v[s["declaration"] + _DECLARATION_INDEX[state.declaration]] = 1.0
    _cards(v, "skat", None if state.skat is None else state.skat.mask)
    _cards(v, "discard", None if state.discard is None else state.discard.mask)
    _cards(v, "open_hand", None if state.open_hand is None else state.open_hand.mask)
    for k, (seat, card) in enumerate(state.played, start=1):
        v[s["played_by"] + 32 * seat + card] = 1.0
        v[s["play_order"] + card] = k / 30
    v[s["leader"] + state.leader] = 1.0
    for card in state.trick:
        v[s["trick"] + card] = 1.0
    v[s["declarer_points"]] = state.declarer_points / 120
    v[s["declarer_tricks"]] = state.declarer_tricks / 10
    v[s["defender_tricks"]] = state.defender_tricks / 10
    result = state.result
    if result is not None and not result.passed:
        r = s["result"]
        v[r:r + 8] = (result.won, result.overbid, result.early, result.schneider, result.schwarz,
                      result.declarer_points / 120, result.declarer_tricks / 10, (result.matadors + 11) / 22)
    return v
