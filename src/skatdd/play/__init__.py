"""Playing Skat: players, what a player may know, and the referee of duplicate matches (``skatdd match``).

* :mod:`~skatdd.play.state`: :class:`PlayerState`, exactly what the seat to move may know;
* :mod:`~skatdd.play.players`: the built-in players (``random``, ``heuristic``, ``pimc[:N]``, ``dd``) and
  plug-ins (``module.path:factory``); :mod:`~skatdd.play.heuristic` holds the heuristic's rules;
* :mod:`~skatdd.play.advanced`: the players on weighted worlds and honest endgames;
* :mod:`~skatdd.play.loading`: :func:`load_player`, a player from its name;
* :mod:`~skatdd.play.deals`: the deals a match is played on (generated, JSON, ISS), with their auction
  (:mod:`~skatdd.play.auction` for generated deals);
* :mod:`~skatdd.play.match`: the referee and :func:`match`, the Python API;
* :mod:`~skatdd.play.summary`: the match summary with its paired intervals;
* :mod:`~skatdd.play.worlds_used`: the worlds the PIMC players' decisions used, in both referees' records;
* :mod:`~skatdd.play.referee`: what both referees share (timeout, failures, hosted plug-ins);
* the whole game, the subpackage :mod:`~skatdd.play.full` (docs/game.md, whose first section lists the
  names this package gives for it):

  * :mod:`~skatdd.play.full.actions`: the phases and actions;
  * :mod:`~skatdd.play.full.game`: :class:`FullGame`, the whole game (auction, pick-up, discard,
    declaration, play, score) as a state machine;
  * :mod:`~skatdd.play.full.state`: each seat's :class:`SeatState` and the :class:`GameResult`;
  * :mod:`~skatdd.play.full.random_player`: :class:`RandomPlayer`, a seeded random policy;
  * :mod:`~skatdd.play.full.heuristic_player`: the heuristic's bid, pick-up, discard and declaration;
  * :mod:`~skatdd.play.full.players`: the :class:`FullPlayer` protocol, :func:`ask`, :func:`play_game`,
    and every built-in whole-game player by name (:func:`load_full_player`, :func:`full_player`);
  * :mod:`~skatdd.play.full.match` and :mod:`~skatdd.play.full.summary`: ``match --full``, the six
    seatings, the edge and the profiles.

  The first four import only core and formats.

May import core, formats, engine, runner (a match runs its games as lines) and analysis
(generated deals come from :mod:`skatdd.analysis.deals.realistic`).
"""
from __future__ import annotations

from .deals import MatchDeal, generated_deal
from .full.actions import BIDS, Action, Declare, Discard, Hold, Pass, Phase, PickUp, Play, PlayHand, Say, parse_action
from .full.game import FullGame
from .full.players import FullPlayer, ask, card_state, full_player, load_full_player, play_game
from .full.random_player import RandomPlayer
from .full.state import GameResult, SeatState
from .loading import load_player
from .match import MatchConfig, MatchResult, match
from .players import CheatingPlayer, Player, PlayerFactory, PlayerSpec
from .state import PlayerState, state_for
from .summary import MatchSummary

__all__ = [
    "BIDS",
    "Action",
    "CheatingPlayer",
    "Declare",
    "Discard",
    "FullGame",
    "FullPlayer",
    "GameResult",
    "Hold",
    "MatchConfig",
    "MatchDeal",
    "MatchResult",
    "MatchSummary",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "PlayHand",
    "Player",
    "PlayerFactory",
    "PlayerSpec",
    "PlayerState",
    "RandomPlayer",
    "Say",
    "SeatState",
    "ask",
    "card_state",
    "full_player",
    "generated_deal",
    "load_full_player",
    "load_player",
    "match",
    "parse_action",
    "play_game",
    "state_for",
]
