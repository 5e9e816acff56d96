"""Realistic deals: full deals with the declarer and contract a sensible player would choose.

:func:`realistic_deal` deals at random (:func:`skatdd.core.dealing.random_deal`)
and lets the seat and contract with the largest margin of
:func:`skatdd.analysis.deals.evaluation.evaluate_contract` declare,
redealing when nobody has a playable game; :func:`realistic_deals` makes a
seeded list of them.  Matches, benchmarks and the board's "deal" play on them.
"""
from __future__ import annotations

import random
from typing import Any

from skatdd.core.cards import Mask, format_mask
from skatdd.core.dealing import random_deal
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, JACKS, Game, game_of, trump_mask
from skatdd.core.seeds import generator

from .evaluation import ContractEvaluation, evaluate_contract

__all__ = ["FORCED_GAME_ATTEMPTS", "realistic_deal", "realistic_deals"]

FORCED_GAME_ATTEMPTS = 200  #: deals tried for a forced contract before settling for the best unplayable one


def _worth_evaluating(cards12: Mask, game: Game) -> bool:
    """Cheap pre-check: can *game* be playable at all with these twelve cards?"""
    if game.is_null:
        return True
    if game == Game.GRAND:
        return (cards12 & JACKS).bit_count() >= 2
    return (cards12 & trump_mask(game)).bit_count() >= 5


def realistic_deal(rng: random.Random, *, game: Game | None = None) -> tuple[Position, dict[str, Any]]:
    """A full deal with the declarer and contract a sensible player would choose.

    Deals 32 cards, judges every seat's twelve cards (hand plus skat) for
    every contract with :func:`evaluate_contract`, and picks the playable
    seat and contract with the largest margin (ties: the earlier seat, as
    forehand holds in the auction).  When nobody has a playable game the
    cards are redealt.  With *game* the contract is forced: the seat that
    suits it best declares; deals are redealt until someone can play it
    (at most :data:`FORCED_GAME_ATTEMPTS`, then the best seat plays it
    anyway).

    Returns the starting position (forehand leads; the declarer's hand is
    after the discard, ``skat`` is the discard) and metadata: ``declarer``,
    ``game`` (label), ``declarer_hand12`` (his twelve cards), ``skat`` (as dealt), ``discard``, ``reason`` (the
    evaluation's account), ``margin``, ``redeals`` and ``playable`` (every
    playable seat/contract of the final deal with its margin).
    """
    forced = None if game is None else game_of(game)
    games = ALL_GAMES if forced is None else (forced,)
    redeals = 0
    while True:
        hands, skat = random_deal(rng)
        best: tuple[tuple[bool, float, int], int, ContractEvaluation] | None = None
        playable: list[dict[str, Any]] = []
        for seat in range(3):
            cards12 = hands[seat] | skat
            for g in games:
                if forced is None and not _worth_evaluating(cards12, g):
                    continue
                ev = evaluate_contract(cards12, g, forehand=seat == 0)
                if ev.playable:
                    playable.append({"seat": seat, "game": g.label, "margin": round(ev.margin, 3)})
                key = (ev.playable, ev.margin, -seat)
                if best is None or key > best[0]:
                    best = (key, seat, ev)
        if best is not None and (best[2].playable or (forced is not None and redeals + 1 >= FORCED_GAME_ATTEMPTS)):
            break
        redeals += 1
    assert best is not None
    _, seat, ev = best
    cards12 = hands[seat] | skat
    final_hands = list(hands)
    final_hands[seat] = cards12 & ~ev.discard
    pos = Position(ev.game, seat, final_hands, ev.discard, leader=0)
    meta = {
        "declarer": seat,
        "game": ev.game.label,
        "declarer_hand12": format_mask(cards12),
        "skat": format_mask(skat),
        "discard": format_mask(ev.discard),
        "reason": ev.reason,
        "margin": round(ev.margin, 3),
        "redeals": redeals,
        "playable": sorted(playable, key=lambda p: -p["margin"]),
    }
    return pos, meta


def realistic_deals(seed: int, n: int, *, game: Game | None = None) -> list[Position]:
    """*n* realistic deals (:func:`realistic_deal`) from ``generator(seed)``; the same seed gives the same list."""
    rng = generator(seed)
    return [realistic_deal(rng, game=game)[0] for _ in range(n)]
