"""Players that judge cards better than plain PIMC: weighted worlds (bidding, play) and honest endgames.

Named on the command line (:func:`advanced_player`, reached through
:func:`skatdd.play.loading.load_player`):

``pimc:N+bids``, ``pimc:N+play``, ``pimc:N+all``
    PIMC over at most N worlds drawn and weighed by
    :func:`skatdd.analysis.inference.api.weighted_worlds` with that inference
    (the bidding's pool of ``max(8 N, 64)`` distinct worlds weighed by the
    model's tables, :data:`POOL_ESS`): each
    world's double-dummy results count with its weight; the best card for
    the side by the weighted mean score of the declared game, then weighted
    mean card points (:func:`skatdd.analysis.advise.adaptive.decide_weighted`:
    the bidding's resampled worlds, whole-number weights, are solved in a
    random order until the plain player's stopping rule settles the card;
    the play's likelihood weights are solved in full).
``alphamu:N:K``
    plain PIMC over N uniform worlds until the declarer has at most K cards;
    from then on the declarer plays the best honest card
    (:func:`skatdd.analysis.honest.api.honest_card_values` over the same N worlds: highest
    ``honest_win``, then ``pimc_win``, then PIMC's mean points).  Defenders
    play PIMC throughout.  A search that exceeds its node budget falls back
    to PIMC for that card.  ``alphamu:N:K+bids`` (or ``+play``, ``+all``)
    draws the worlds with that inference.

Among equally good cards the cheapest is played
(:func:`skatdd.play.heuristic.cheapest`), as the built-in players do.  Every
random choice comes from ``random.Random(seed)``, one seed per decision.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from skatdd.analysis.advise.adaptive import decide_weighted
from skatdd.analysis.advise.api import WinRule, card_results, world_position
from skatdd.analysis.honest.api import DEFAULT_TRICKS, HonestBudgetExceeded, honest_card_values
from skatdd.analysis.inference.api import INFERENCES, Evidence, weighted_worlds
from skatdd.analysis.worlds.space import World
from skatdd.core.cards import Card
from skatdd.core.errors import SkatddError, quote
from skatdd.core.position import Position

from .heuristic import cheapest
from .players import PimcPlayer, PlayerFactory, PlayerSpec, thread_solver
from .state import PlayerState

__all__ = ["POOL_ESS", "AdvancedPlayer", "advanced_player", "weighted_best"]

#: ``None``: the bidding pool is always ``max(8 N, 64)`` distinct worlds, the pool the edge over pimc:N was
#: measured with (the same worlds as before the model's tables: the same edge on the same deals).  A number: the
#: pool is drawn i.i.d. and grows N worlds at a time until the model's likelihoods (without the floor) are worth
#: this many equal worlds per world asked, or reaches that cap: 2 saved little CPU and its edge was no better
#: (docs/engine.md).
POOL_ESS: float | None = None


def weighted_best(pos: Position, worlds: Sequence[World], weights: Sequence[float], rule: WinRule,
                  declarer_moves: bool) -> tuple[list[Card], dict[Card, tuple[float, float]]]:
    """The best cards by weighted (win fraction, mean points) over *worlds*, and every card's pair.

    The declarer maximises the pair, a defender minimises it.  Each world is
    solved double-dummy in this thread's solver (emptied before each world,
    as :mod:`skatdd.analysis.advise.api` does).
    """
    solver = thread_solver()
    total = sum(weights)
    sums: dict[Card, list[float]] = {}
    for world, weight in zip(worlds, weights, strict=True):
        solver.clear()
        for card, (value, wins) in card_results(world_position(pos, world), rule, solver=solver).items():
            acc = sums.setdefault(card, [0.0, 0.0])
            acc[0] += weight * wins
            acc[1] += weight * (value or 0)
    pairs = {card: (acc[0] / total, acc[1] / total) for card, acc in sums.items()}
    target = max(pairs.values()) if declarer_moves else min(pairs.values())
    return [card for card, pair in pairs.items() if pair == target], pairs


class AdvancedPlayer(PimcPlayer):
    """PIMC over weighted worlds, optionally honest in the declarer's endgame (module docstring).

    The decision loop (a seed per decision, a forced card without a search)
    is the plain PIMC player's; only :meth:`choose` differs.
    """

    def __init__(self, seat: int, seed: int, worlds: int, inference: str = "none", honest: int | None = None,
                 full: bool = False) -> None:
        super().__init__(seat, seed, worlds, full)
        self.inference = inference
        self.honest = honest

    def choose(self, state: PlayerState, pos: Position, seed: int) -> Card:
        """The chosen card for *state* at *pos* (module docstring), its worlds drawn from *seed*."""
        evidence = Evidence.of(pos, state.declaration, state.bids)
        solver = thread_solver()
        rng = random.Random(seed)
        drawn = weighted_worlds(state.view, evidence, self.worlds, rng, inference=self.inference,
                                solver=solver, iid=POOL_ESS is not None,
                                enough=None if POOL_ESS is None else POOL_ESS * self.worlds)
        rule = WinRule.of(state.declaration)
        if self.honest is not None and state.is_declarer and len(state.hand) <= self.honest:
            try:
                result = honest_card_values(pos, state.declaration, drawn.worlds, self.honest,
                                            weights=drawn.weights, solver=solver)
            except HonestBudgetExceeded:
                pass
            else:
                _, pairs = weighted_best(pos, drawn.worlds, drawn.weights, rule, True)
                keys = {c.card: (c.honest_win, c.pimc_win, pairs[c.card][1]) for c in result.cards}
                top = max(keys.values())
                return cheapest([card for card, key in keys.items() if key == top], state.game)
        # The worlds as the plain player judges them: mean score from threshold questions, the resampled worlds
        # (whole-number weights) drawn in a random order until the stopping rule settles the card.
        declarer_played = 0
        for seat, card in state.played:
            if seat == state.declarer:
                declarer_played |= 1 << card
        choice = decide_weighted(pos, state.declaration, drawn.worlds, drawn.weights, rng,
                                 solver=solver, bid=state.bid, declarer_played=declarer_played, adaptive=not self.full)
        self.used.append(choice.used)
        return cheapest(choice.best, state.game)


def _bad(name: str, why: str) -> SkatddError:
    return SkatddError(f"player {quote(name)}: {why}: expected pimc:N+bids, pimc:N+play, pimc:N+all or "
                       "alphamu:N:K[+bids|+play|+all]")


def _count(text: str, name: str, what: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise _bad(name, f"{what} must be a number from {low} to {high}, not {quote(text)}")
    return int(text)


def advanced_player(name: str) -> PlayerSpec:
    """The player named *name*: ``pimc:N+INFERENCE`` or ``alphamu:N:K[+INFERENCE]`` (module docstring).

    Raises :class:`~skatdd.core.errors.SkatddError` naming the token otherwise.
    """
    text = name.strip()
    base, plus, inference = text.partition("+")
    if plus and inference not in INFERENCES[1:]:
        raise _bad(name, f"unknown inference {quote(inference)}")
    parts = base.split(":")
    honest: int | None = None
    if parts[0] == "pimc" and len(parts) == 2 and plus:
        worlds = _count(parts[1], name, "N", 1, 100_000)
    elif parts[0] == "alphamu" and len(parts) in (2, 3):
        worlds = _count(parts[1], name, "N", 1, 100_000)
        honest = _count(parts[2], name, "K", 1, 10) if len(parts) == 3 else DEFAULT_TRICKS
    else:
        raise _bad(name, "not an advanced player")
    factory: PlayerFactory = functools.partial(AdvancedPlayer, worlds=worlds, inference=inference or "none",
                                               honest=honest)
    return PlayerSpec(text, factory, False)
