"""The auction a generated deal is given, so that its players hear bids as at a real table.

The realistic generator (:func:`skatdd.analysis.deals.realistic.realistic_deal`) picks the
declarer and his contract but runs no auction.  A match's players are told
the bids heard (:attr:`skatdd.play.state.PlayerState.bids`), so a generated
deal gets an auction derived from what the generator found, by these rules:

* Each seat's *limit* is the value of the best contract the generator found
  playable for it (its ten cards with the skat, as the generator judges
  every seat), valued at the simplest level a player bids on before play:
  matadors plus one for the game (no hand, no schneider), times the base
  value; a null counts 23.  A seat with no playable contract has no limit
  and passes at once.
* The declarer's limit is the value of the contract he plays, so the bid
  never exceeds what his game is worth (no generated game is overbid).
* The auction must end with the generator's declarer.  Between two seats
  the earlier one (forehand before middlehand before rearhand) is the
  listener, who holds at an equal bid, so another seat bids at most the
  declarer's limit when it speaks after him, and at most the bid below it
  when it speaks before him.
* The moves follow the order of play (ISkO 3.3): middlehand says bids to
  forehand, who holds (``y``) or passes (``p``); rearhand then says bids to
  the winner; each seat says the next bid value while it is within its
  limit.  When middlehand and rearhand both pass without a bid, forehand
  opens at 18 himself.

The moves are written as ISS records write them: ``(seat, "18")``,
``(seat, "y")``, ``(seat, "p")``.

>>> derived_auction({0: 30, 1: 22, 2: 0}, declarer=0)
([(1, '18'), (0, 'y'), (1, '20'), (0, 'y'), (1, '22'), (0, 'y'), (1, 'p'), (2, 'p')], 22)
>>> derived_auction({0: 0, 1: 0, 2: 23}, declarer=2)
([(1, 'p'), (2, '18'), (0, 'p')], 18)
"""
from __future__ import annotations

from collections.abc import Mapping

from skatdd.core.cards import Mask
from skatdd.core.rules import Game, parse_game
from skatdd.core.scoring import BASE_VALUES, MIN_BID, NULL_VALUES, matadors

__all__ = ["BID_VALUES", "contract_limit", "derived_auction", "generated_auction"]

#: Every value a bid can take (a game value of some suit, grand or null game), from 18 up.
BID_VALUES: tuple[int, ...] = tuple(sorted(
    {base * m for base in BASE_VALUES.values() for m in range(2, 19) if base * m >= MIN_BID}
    | set(NULL_VALUES.values())
))


def contract_limit(game: Game, twelve: Mask) -> int:
    """What a seat bids up to for *game* with these twelve cards: (matadors + 1) x base value; null 23."""
    if game.is_null:
        return NULL_VALUES[False, False]
    return (abs(matadors(game, twelve)) + 1) * BASE_VALUES[game]


def _below(value: int) -> int:
    """The highest bid value below *value* (0 when there is none)."""
    lower = [v for v in BID_VALUES if v < value]
    return lower[-1] if lower else 0


def _next_bid(highest: int) -> int:
    """The bid value after *highest* (18 when nothing was bid)."""
    return next(v for v in BID_VALUES if v > highest)


def derived_auction(limits: Mapping[int, int], declarer: int) -> tuple[list[tuple[int, str]], int]:
    """The moves and final bid of an auction the *declarer* wins, each seat bidding up to its limit.

    *limits* maps each seat to the highest value it would bid (0: it passes
    at once); the other seats' limits are capped so the declarer wins
    (module docstring).  The declarer's limit must be at least 18.
    """
    top = limits[declarer]
    if top < MIN_BID:
        raise ValueError(f"the declarer's limit {top} is below the lowest bid {MIN_BID}")
    cap = {seat: top if seat > declarer else _below(top) for seat in range(3)}
    limit = {seat: top if seat == declarer else min(limits.get(seat, 0), cap[seat]) for seat in range(3)}
    moves: list[tuple[int, str]] = []
    highest = 0

    def duel(listener: int, speaker: int) -> int:
        """The *speaker* says bids to the *listener*; returns the winner."""
        nonlocal highest
        while True:
            value = _next_bid(highest)
            if value > limit[speaker]:
                moves.append((speaker, "p"))
                return listener
            moves.append((speaker, str(value)))
            if value > limit[listener]:
                moves.append((listener, "p"))
                highest = value
                return speaker
            moves.append((listener, "y"))
            highest = value

    winner = duel(0, 1)
    winner = duel(winner, 2)
    if highest == 0:
        # Nobody said a bid: forehand may open at 18 himself; here he is the declarer.
        moves.append((winner, str(MIN_BID)))
        highest = MIN_BID
    assert winner == declarer, "the capped limits leave the auction to the declarer"
    return moves, highest


def generated_auction(hands: list[Mask], skat: Mask, declarer: int, game: Game,
                      playable: list[dict[str, object]]) -> tuple[list[tuple[int, str]], int]:
    """The auction of a generated deal: the hands and skat as dealt, the declarer and his contract, and the
    generator's list of playable contracts (``{"seat", "game", ...}``, :func:`skatdd.analysis.deals.realistic.realistic_deal`).
    """
    limits = {seat: 0 for seat in range(3)}
    for entry in playable:
        seat = int(str(entry["seat"]))
        other_game = parse_game(str(entry["game"]))[0]
        limits[seat] = max(limits[seat], contract_limit(other_game, hands[seat] | skat))
    limits[declarer] = contract_limit(game, hands[declarer] | skat)
    return derived_auction(limits, declarer)
