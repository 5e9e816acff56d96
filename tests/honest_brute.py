"""A plain brute force over every declarer strategy, for checking :mod:`skatdd.analysis.honest.api` (tests only).

A strategy maps each declarer information set (the cards played since the
root, which is all he sees change) to a legal card.  Every choice at an
information set that two or more worlds reach is listed explicitly; at one
only a single world reaches, the choice touches that world alone, so its best
is the world's double-dummy play (and so is everything below it).  Each
strategy is played out in each world by plain minimax, the defenders
choosing per world, on :class:`skatdd.core.position.Position` (no engine, no
fronts, no pruning).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from skatdd.analysis.advise.api import WinRule
from skatdd.core.cards import Card
from skatdd.core.position import Position

History = tuple[Card, ...]


def _wins_at_end(pos: Position, rule: WinRule) -> bool:
    if rule.kind == "null":
        return pos.declarer_tricks == 0
    if rule.kind == "schwarz":
        return pos.defender_tricks == 0
    return pos.declarer_points + pos.skat_points >= rule.points


def _over(pos: Position) -> bool:
    return pos.is_over()


def decision_points(worlds: Sequence[Position], first: Card) -> dict[History, list[Card]]:
    """Every declarer information set after the root card *first* that two or more worlds reach and that has
    more than one legal card, with its cards."""
    found: dict[History, list[Card]] = {}
    reached: dict[History, set[int]] = {}

    def walk(pos: Position, history: History, index: int) -> None:
        if _over(pos):
            return
        legal = pos.legal_moves()
        if pos.to_move == pos.declarer and len(legal) > 1:
            found[history] = legal
            reached.setdefault(history, set()).add(index)
        for card in legal:
            pos.play(card)
            walk(pos, (*history, card), index)
            pos.undo()

    for index, world in enumerate(worlds):
        pos = world.copy()
        pos.play(first)
        walk(pos, (first,), index)
    return {h: cards for h, cards in found.items() if len(reached[h]) > 1}


def strategy_wins(world: Position, strategy: dict[History, Card], first: Card, rule: WinRule) -> bool:
    """Does the declarer win *world* with *strategy* (root card *first*) against defenders who see everything?"""

    def value(pos: Position, history: History) -> bool:
        if _over(pos):
            return _wins_at_end(pos, rule)
        legal = pos.legal_moves()
        if pos.to_move == pos.declarer:
            chosen = [strategy[history]] if history in strategy else legal  # not listed: this world's best
            for card in chosen:
                pos.play(card)
                result = value(pos, (*history, card))
                pos.undo()
                if result:
                    return True
            return False
        for card in legal:
            pos.play(card)
            result = value(pos, (*history, card))
            pos.undo()
            if not result:
                return False
        return True

    pos = world.copy()
    pos.play(first)
    return value(pos, (first,))


def brute_honest(worlds: Sequence[Position], weights: Sequence[float], rule: WinRule,
                 limit: int = 4096) -> dict[Card, float] | None:
    """Per root card, the best weighted win fraction over every strategy; ``None`` when some card has more
    than *limit* strategies."""
    total = sum(weights)
    out: dict[Card, float] = {}
    for first in worlds[0].legal_moves():
        points = decision_points(worlds, first)
        keys = sorted(points)
        count = 1
        for key in keys:
            count *= len(points[key])
        if count > limit:
            return None
        best = 0.0
        for choice in itertools.product(*(points[k] for k in keys)):
            strategy = dict(zip(keys, choice, strict=True))
            won = sum(w for world, w in zip(worlds, weights, strict=True) if strategy_wins(world, strategy, first, rule))
            best = max(best, won / total)
        out[first] = best
    return out


def brute_pimc(worlds: Sequence[Position], weights: Sequence[float], rule: WinRule) -> dict[Card, float]:
    """Per root card, the weighted fraction of worlds the declarer wins double-dummy (plain minimax)."""

    def dd(pos: Position) -> bool:
        if _over(pos):
            return _wins_at_end(pos, rule)
        results = []
        for card in pos.legal_moves():
            pos.play(card)
            results.append(dd(pos))
            pos.undo()
        return any(results) if pos.to_move == pos.declarer else all(results)

    total = sum(weights)
    out = {}
    for first in worlds[0].legal_moves():
        won = 0.0
        for world, w in zip(worlds, weights, strict=True):
            pos = world.copy()
            pos.play(first)
            won += w * dd(pos)
        out[first] = won / total
    return out


def pareto_honest(worlds: Sequence[Position], weights: Sequence[float], rule: WinRule) -> dict[Card, float]:
    """Per root card, the best weighted win fraction: the plain Pareto-front recursion (tests only).

    A node's value is the full front of maximal sets of worlds (bit masks) some declarer strategy wins: at
    his node the union of his cards' fronts, at a defender node every choice of one set per card played,
    each world won when it is won after every card it allows.  No floor, no bound, no cut; nodes are shared
    only when the cards played, the trick, the score and the worlds are the same.  Exact but slow: for a
    few worlds, or four cards a hand with a small list of them.
    """
    total = sum(weights)
    memo: dict[tuple[object, ...], list[int]] = {}

    def maximal(sets: Iterable[int]) -> list[int]:
        out: list[int] = []
        for s in sorted(set(sets), key=lambda m: -m.bit_count()):
            if not any(s | t == t for t in out):
                out.append(s)
        return out

    def front(positions: dict[int, Position], played: frozenset[Card]) -> list[int]:
        mask = sum(1 << i for i in positions)
        first = next(iter(positions.values()))
        if _over(first):
            return [sum(1 << i for i, p in positions.items() if _wins_at_end(p, rule))]
        key = (played, tuple(first.trick), first.leader, first.declarer_points, first.declarer_tricks,
               first.defender_tricks, mask)
        if key in memo:
            return memo[key]
        by_card: dict[Card, list[int]] = {}
        for i, p in positions.items():
            for card in p.legal_moves():
                by_card.setdefault(card, []).append(i)
        children: list[tuple[int, list[int]]] = []
        for card, reaching in by_card.items():
            for i in reaching:
                positions[i].play(card)
            children.append((sum(1 << i for i in reaching),
                             front({i: positions[i] for i in reaching}, played | {card})))
            for i in reaching:
                positions[i].undo()
        if first.to_move == first.declarer:
            result = maximal(s for _, child in children for s in child)
        else:
            result = [mask]
            for reach, child in children:
                result = maximal(r & (s | ~reach) for r in result for s in child)
        memo[key] = result
        return result

    out: dict[Card, float] = {}
    for card in worlds[0].legal_moves():
        positions = {i: w.copy() for i, w in enumerate(worlds)}
        for p in positions.values():
            p.play(card)
        best = max(front(positions, frozenset([card])), key=lambda m: sum(w for i, w in enumerate(weights) if m >> i & 1))
        out[card] = sum(w for i, w in enumerate(weights) if best >> i & 1) / total
    return out
