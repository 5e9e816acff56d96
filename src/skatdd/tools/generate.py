"""Random positions for tests and their JSON objects (fixture writing); realistic deals re-exported.

* :func:`random_position`: positions reached by random legal play from a
  uniform deal (:func:`skatdd.core.dealing.random_deal`), for every game,
  trick count and trick stage (property tests, engine-vs-reference
  comparisons).
* :func:`position_to_json`: the JSON position object (read back by
  :func:`skatdd.formats.readers.position_from_json`, like every other JSON input).

The realistic deals (:func:`realistic_deal`, :func:`realistic_deals`,
:mod:`skatdd.analysis.deals.realistic`) and the hand evaluator
(:func:`evaluate_contract`, :mod:`skatdd.analysis.deals.evaluation`) live
in analysis; they are re-exported here, where the tests and benchmarks have
always found them.  Every function takes its randomness from the
``random.Random`` it is given (or a seed), so results are reproducible.
"""
from __future__ import annotations

import random
from typing import Any

from skatdd.analysis.deals.evaluation import ContractEvaluation, evaluate_contract, null_danger
from skatdd.analysis.deals.realistic import realistic_deal, realistic_deals
from skatdd.core.cards import format_cards, format_mask
from skatdd.core.dealing import random_deal
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game, game_of, parse_seat, trick_winner

__all__ = [
    "ContractEvaluation",
    "evaluate_contract",
    "null_danger",
    "position_to_json",
    "random_deal",
    "random_position",
    "realistic_deal",
    "realistic_deals",
]


def _random_play(rng: random.Random, pos: Position) -> int:
    """A random legal card for the player to move.

    In null the declarer, when following, prefers cards that do not win the
    trick so far, so random play keeps null positions alive more often.
    """
    legal = pos.legal_moves()
    if pos.game.is_null and pos.to_move == pos.declarer and pos.trick:
        ducking = [c for c in legal if trick_winner(pos.trick + [c], pos.game) != len(pos.trick)]
        if ducking:
            legal = ducking
    return rng.choice(legal)


def random_position(
    rng: random.Random,
    *,
    game: Game | None = None,
    tricks: int = 10,
    trick_cards: int | None = None,
    declarer: int | None = None,
) -> Position:
    """A position reached by random legal play from a random deal.

    Each hand holds *tricks* cards (1..10) before the current trick's plays:
    ``10 - tricks`` complete tricks were played at random from a deal with
    forehand leading, then *trick_cards* (0..2; random when ``None``) cards
    of the current trick.  ``declarer_points`` and the trick counts are those
    the random play produced, so the 120 card points are accounted for:
    hands + trick + skat + points of the completed tricks, of which the
    declarer holds ``declarer_points``.  *game* (random of the six when
    ``None``) and *declarer* (random seat when ``None``) are fixed before the
    deal; the skat is the dealt skat.  ``tricks=0`` gives a finished game
    (then *trick_cards* must be 0 or ``None``).

    Null positions are live: the declarer has taken no trick yet.  Random
    play lets the declarer duck when following; deals where he still takes a
    trick are replaced by a new deal (from the same *rng*).

    The returned position has an empty play history (like an endgame read
    from JSON).  Raises ``ValueError`` for arguments out of range.
    """
    if not isinstance(tricks, int) or not 0 <= tricks <= 10:
        raise ValueError(f"tricks={tricks!r}: expected 0..10")
    if trick_cards is not None and (not isinstance(trick_cards, int) or not 0 <= trick_cards <= 2):
        raise ValueError(f"trick_cards={trick_cards!r}: expected 0, 1, 2 or None")
    if tricks == 0 and trick_cards:
        raise ValueError("trick_cards must be 0 when no trick is left (tricks=0)")
    chosen_game = rng.choice(ALL_GAMES) if game is None else game_of(game)
    seat = rng.randrange(3) if declarer is None else parse_seat(declarer)
    on_table = (rng.randrange(3) if tricks else 0) if trick_cards is None else trick_cards
    plays = 3 * (10 - tricks) + on_table
    while True:
        hands, skat = random_deal(rng)
        pos = Position(chosen_game, seat, hands, skat, leader=0)
        for _ in range(plays):
            pos.play(_random_play(rng, pos))
        if chosen_game.is_null and pos.declarer_tricks:
            continue
        return Position(
            chosen_game, seat, list(pos.hands), pos.skat, pos.leader, list(pos.trick),
            pos.declarer_points, pos.declarer_tricks, pos.defender_tricks,
        )


def position_to_json(pos: Position) -> dict[str, Any]:
    """The JSON object (docs/cli.md) for *pos* (no ``played``: an endgame when cards are gone).

    Fields: ``game`` (label), ``declarer``, ``hands`` (three card strings,
    display order), ``skat``, ``leader``, ``trick`` (card string, leader
    first, ``""`` when empty), ``declarer_points``, ``declarer_tricks``,
    ``defender_tricks``.  ``skatdd.formats.readers.position_from_json(obj).position()`` reads it back.
    """
    return {
        "game": pos.game.label,
        "declarer": pos.declarer,
        "hands": [format_mask(h) for h in pos.hands],
        "skat": format_mask(pos.skat),
        "leader": pos.leader,
        "trick": format_cards(pos.trick),
        "declarer_points": pos.declarer_points,
        "declarer_tricks": pos.declarer_tricks,
        "defender_tricks": pos.defender_tricks,
    }
