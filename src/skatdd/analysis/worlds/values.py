"""One world's double-dummy results for a decision: what winning means, every legal card's value and win.

A single-dummy answer (:mod:`skatdd.analysis.advise.api`, :mod:`skatdd.analysis.honest.api`,
the players of :mod:`skatdd.play`) asks the same of every world it weighs:
after each legal card of the player to move, the declarer's final card
points and whether he wins at the declared game's level (:class:`WinRule`).
:func:`card_results` answers for one world, :func:`card_results_many` for
all the worlds of one decision in one engine call
(:meth:`skatdd.engine.solve.Solver.card_values_many`, no Python work per world).
"""
from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import NamedTuple

from skatdd.core.cards import CARDS, Card
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, WIN_POINTS
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver, solver_or_default

from .space import World

__all__ = ["CardResults", "WinRule", "card_results", "card_results_each", "card_results_many", "world_position"]

#: One world's double-dummy results: ``{card: (declarer's final card points or None in null, declarer wins)}``.
CardResults = dict[Card, tuple[int | None, bool]]


class WinRule(NamedTuple):
    """How the declarer wins double-dummy: ``kind`` ``'null'``, ``'points'`` (with ``points``) or ``'schwarz'``."""

    kind: str
    points: int = WIN_POINTS

    @classmethod
    def of(cls, declaration: Declaration) -> WinRule:
        """The declared game's winning level: no trick (null), every trick (schwarz announced), 90 or 61."""
        if declaration.game.is_null:
            return cls("null", 0)
        if declaration.schwarz:
            return cls("schwarz", 120)
        return cls("points", SCHNEIDER_POINTS if declaration.schneider else WIN_POINTS)


def world_position(pos: Position, world: World) -> Position:
    """*pos* with the hands and skat of *world* (no history: the engine needs none)."""
    return Position(
        pos.game, pos.declarer, list(world.hands), world.skat, pos.leader, list(pos.trick),
        pos.declarer_points, pos.declarer_tricks, pos.defender_tricks,
    )


def card_results(pos: Position, rule: WinRule, *, solver: Solver | None = None) -> CardResults:
    """``{card: (value, declarer wins)}`` for every legal card of *pos*, double-dummy (*solver*: default a new one).

    ``value`` is the declarer's final card points after the card (``None`` in
    null); the win follows *rule*.  Under schwarz announced the declarer wins
    only with every trick, which needs 120 points, so the trick question is
    asked only for cards worth 120.
    """
    solver = solver_or_default(solver)
    values = solver.card_values(pos)
    if rule.kind == "null":
        return {card: (None, cv.declarer_wins) for card, cv in values.items()}
    out: CardResults = {}
    for card, cv in values.items():
        value = cv.value
        assert value is not None
        if rule.kind == "schwarz":
            wins = False
            if value == 120:
                pos.play(card)
                wins = solver.declarer_takes_all(pos)
                pos.undo()
        else:
            wins = value >= rule.points
        out[card] = (value, wins)
    return out


def card_results_each(pos: Position, rule: WinRule, worlds: Sequence[World], *,
                      solver: Solver | None = None) -> tuple[list[CardResults], int]:
    """:func:`card_results_many` world by world: the table emptied and :func:`card_results` asked for each world.

    The same results and nodes as the one engine call; used where a world's
    values need a follow-up question (schwarz announced), and as the
    baseline the benchmarks compare the one call against.
    """
    solver = solver_or_default(solver)
    results: list[CardResults] = []
    nodes = 0
    for world in worlds:
        solver.clear()
        results.append(card_results(world_position(pos, world), rule, solver=solver))
        nodes += solver.nodes
    return results, nodes


def card_results_many(pos: Position, rule: WinRule, worlds: Sequence[World], *,
                      solver: Solver | None = None) -> tuple[list[CardResults], int]:
    """Every world's :func:`card_results`, in order, and the nodes searched (*solver*: default a new one).

    *pos* gives the public state the worlds share (its hands are not used).
    The worlds go to the engine in one :meth:`~skatdd.engine.solve.Solver.card_values_many`
    call, the table emptied before each world: the worlds are unrelated
    deals, and a table that stays small stays in cache (measured on the
    first trick of six fixture games, 40 worlds each: 12-15% less CPU time
    than keeping the entries), and each world then searches exactly the
    nodes it would alone.  Under schwarz announced a card worth 120 also
    needs the trick question right after its world's values, so those
    worlds are solved one by one (:func:`card_results_each`).
    """
    if not worlds:
        return [], 0
    solver = solver_or_default(solver)
    if rule.kind == "schwarz":
        return card_results_each(pos, rule, worlds, solver=solver)
    results: list[CardResults] = []
    hands = array("I", [mask for world in worlds for mask in world.hands])
    skats = array("I", [world.skat for world in worlds])
    solver.reset_stats()
    out = solver.card_values_many(pos, hands, skats, tables="clear")
    null = rule.kind == "null"
    points = rule.points
    for w in range(len(worlds)):
        row = out[32 * w:32 * w + 32]
        legal = [card for card in CARDS if row[card] >= 0]
        if null:
            results.append({card: (None, row[card] == 1) for card in legal})
        else:
            results.append({card: (row[card], row[card] >= points) for card in legal})
    return results, solver.nodes
