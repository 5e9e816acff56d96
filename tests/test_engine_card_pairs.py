"""Paired cards at the root of :meth:`Solver.card_values`: the bound it uses, and the values it gives.

``all_card_values`` (solver/drivers.pxi) passes each card's bounds on to
the mover's *paired* cards: two cards of one follow group with no card of
another seat (in a hand or on the table) between them in power.  Swapping
them maps every line onto a line, and only their own points differ, so
their values lie at most their difference in points apart.  Checked here:

* the bound itself, on the plain reference solver's values of small
  endgames (independent of the engine);
* the engine's values of positions where the mover holds such pairs
  (declarer and defenders to move, leads and mid-trick), against an
  exact solve of the position after each card, one card at a time; and
  against the reference solver on small endgames.
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from skatdd.analysis.deals.realistic import realistic_deals
from skatdd.core.cards import CARD_POINTS, Card, mask_of
from skatdd.core.position import Position
from skatdd.core.rules import Game, follow_group, power
from skatdd.engine.reference import reference_card_values
from skatdd.engine.solve import Solver
from skatdd.tools.generate import random_position

POINT_GAMES = [g for g in Game if not g.is_null]


def paired(pos: Position, a: Card, b: Card) -> bool:
    """a and b (the mover's) share a follow group and no card of another seat lies between them in power."""
    game = pos.game
    if follow_group(a, game) != follow_group(b, game):
        return False
    others = (pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)) & ~pos.hands[pos.to_move]
    lo, hi = sorted((power(a, game), power(b, game)))
    return not any(others >> c & 1 and follow_group(c, game) == follow_group(a, game) and lo < power(c, game) < hi
                   for c in range(32))


def point_pairs(pos: Position) -> list[tuple[Card, Card]]:
    """The mover's paired legal cards whose points differ (the pairs the bound is about)."""
    legal = pos.legal_moves()
    return [(a, b) for a, b in combinations(legal, 2) if CARD_POINTS[a] != CARD_POINTS[b] and paired(pos, a, b)]


def positions_with_pairs(seed: int, count: int, tricks: tuple[int, int]) -> list[Position]:
    """*count* random suit and grand positions (hands of *tricks* cards) where the mover holds a point pair."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = random_position(rng, game=rng.choice(POINT_GAMES), tricks=rng.randint(*tricks))
        if point_pairs(pos):
            out.append(pos)
    return out


def solve_each(solver: Solver, pos: Position) -> dict[Card, int]:
    """The declarer's final points after each legal card, each by its own exact solve (no card_values)."""
    values = {}
    for card in pos.legal_moves():
        child = pos.copy()
        child.play(card)
        solver.clear()
        value = solver.value(child)
        assert value is not None
        values[card] = value
    return values


@pytest.mark.parametrize("seed", range(6))
def test_paired_values_lie_within_their_points_on_the_reference_solver(seed: int) -> None:
    for pos in positions_with_pairs(100 + seed, 12, (2, 4)):
        ref = reference_card_values(pos)
        for a, b in point_pairs(pos):
            assert abs(int(ref[a]) - int(ref[b])) <= abs(CARD_POINTS[a] - CARD_POINTS[b]), (pos, a, b, ref)


@pytest.mark.parametrize("seed", range(4))
def test_card_values_of_positions_with_pairs_match_the_reference_solver(seed: int) -> None:
    solver = Solver(tt_mb=16)
    for pos in positions_with_pairs(200 + seed, 12, (2, 4)):
        ref = reference_card_values(pos)
        solver.clear()
        assert {c: v.value for c, v in solver.card_values(pos).items()} == ref, pos


@pytest.mark.parametrize("seed", range(4))
def test_card_values_of_positions_with_pairs_match_solves_card_by_card(seed: int) -> None:
    solver = Solver(tt_mb=16)
    movers = {True: 0, False: 0}
    for pos in positions_with_pairs(300 + seed, 10, (5, 9)):
        movers[pos.to_move == pos.declarer] += 1
        solver.clear()
        got = {c: v.value for c, v in solver.card_values(pos).items()}
        assert got == solve_each(solver, pos), pos
    assert all(movers.values()), movers       # both the maximiser's and the minimiser's root


def test_first_lead_card_values_match_solves_card_by_card() -> None:
    """Full deals: the first lead of realistic suit and grand deals, declarer or defender on lead."""
    solver = Solver(tt_mb=32)
    checked = 0
    for pos in realistic_deals(5, 40):
        if pos.game.is_null or not point_pairs(pos):
            continue
        solver.clear()
        got = {c: v.value for c, v in solver.card_values(pos).items()}
        assert got == solve_each(solver, pos), pos
        checked += 1
        if checked == 8:
            break
    assert checked == 8
