"""The engine's quasi-symmetric table against the reference solver.

Two trick-boundary positions whose live cards, follow group by follow
group, are held by the same seats in the same rank order ("twins") play
alike; their values differ by at most the points of the cards that differ,
and the engine uses one's bounds, widened by that difference, for the other
(solver/qsym.pxi).  Here each position is solved right after its twin in
the same solver, so the twin's entries are there to be used, and the value,
the thresholds around it and every first card's value must still match the
plain reference solver.  The twins are made by swapping live cards for
cards already played that are adjacent to them in their group's order, so
no other live card lies between them and the holders' order is unchanged.
"""
from __future__ import annotations

import random

from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine._engine import layout
from skatdd.engine.reference import reference_card_values, reference_value
from skatdd.engine.solve import Solver
from skatdd.tools.generate import random_position

POINT_GAMES = [Game.DIAMONDS, Game.HEARTS, Game.SPADES, Game.CLUBS, Game.GRAND]
ALL_CARDS = (1 << 32) - 1
CARD_POINTS = {3: 10, 4: 2, 5: 3, 6: 4, 7: 11}  # rank ints T J Q K A; 7 8 9 weigh nothing


def _points(card: int) -> int:
    return CARD_POINTS.get(card & 7, 0)


def _swaps(pos: Position) -> list[tuple[int, int, int]]:
    """``(seat, live card, played card)`` swaps that keep every group's holder order but change the points."""
    to_internal, group_of, _, _ = layout(int(pos.game))
    live = pos.hands[0] | pos.hands[1] | pos.hands[2]
    gone = ALL_CARDS & ~live & ~pos.skat
    live_bits = {to_internal[c] for c in range(32) if live >> c & 1}
    out = []
    for seat, hand in enumerate(pos.hands):
        for card in (c for c in range(32) if hand >> c & 1):
            here = to_internal[card]
            for other in (c for c in range(32) if gone >> c & 1):
                there = to_internal[other]
                if group_of[here] != group_of[there] or _points(card) == _points(other):
                    continue
                low, high = min(here, there), max(here, there)
                if not any(low < b < high and group_of[b] == group_of[here] for b in live_bits):
                    out.append((seat, card, other))
    return out


def _twin(pos: Position, rng: random.Random, swaps: int) -> Position | None:
    """A quasi-symmetric twin of *pos* after up to *swaps* swaps, or None when no swap changes any points."""
    twin = pos.copy()
    done = 0
    for _ in range(swaps):
        choices = _swaps(twin)
        if not choices:
            break
        seat, card, other = rng.choice(choices)
        twin.hands[seat] = twin.hands[seat] & ~(1 << card) | 1 << other
        done += 1
    return twin if done else None


def _pairs(seed: int, n: int, tricks: int) -> list[tuple[Position, Position]]:
    rng = random.Random(seed)
    pairs: list[tuple[Position, Position]] = []
    while len(pairs) < n:
        pos = random_position(rng, game=POINT_GAMES[len(pairs) % len(POINT_GAMES)], tricks=tricks, trick_cards=0)
        twin = _twin(pos, rng, swaps=1 + len(pairs) % 3)
        if twin is not None:
            pairs.append((pos, twin))
    return pairs


def test_twins_are_solved_exactly_after_each_other() -> None:
    solver = Solver(tt_mb=4)
    problems: list[str] = []
    cuts = 0
    for first, second in _pairs(seed=11, n=150, tricks=4):
        solver.clear()
        for pos in (first, second):
            want = reference_value(pos)
            solver.engine.reset_stats()
            got = solver.value(pos)
            cuts += solver.engine.stats()["qs_cuts"]
            if got != want:
                problems.append(f"{pos}: value {got}, reference {want}")
            for target in (want - 1, want + 1, want + 2):
                if solver.reaches(pos, target) != (want >= target):
                    problems.append(f"{pos}: reaches({target}) wrong, reference {want}")
    assert not problems, "\n".join(problems[:5])
    assert cuts > 0, "no twin was settled by its twin's entry: the test did not reach the table"


def test_twins_card_values_match_the_reference() -> None:
    solver = Solver(tt_mb=4)
    problems: list[str] = []
    for first, second in _pairs(seed=12, n=60, tricks=4):
        solver.clear()
        for pos in (first, second):
            want = reference_card_values(pos)
            got = {card: cv.value for card, cv in solver.card_values(pos).items()}
            if got != want:
                problems.append(f"{pos}: card values {got}, reference {want}")
    assert not problems, "\n".join(problems[:5])


def test_five_cards_a_hand_with_a_kept_table() -> None:
    """Entries of earlier, unrelated positions stay sound: one table for all the pairs."""
    solver = Solver(tt_mb=4)
    problems: list[str] = []
    for first, second in _pairs(seed=13, n=12, tricks=5):
        for pos in (first, second):
            got, want = solver.value(pos), reference_value(pos)
            if got != want:
                problems.append(f"{pos}: value {got}, reference {want}")
    assert not problems, "\n".join(problems[:5])
