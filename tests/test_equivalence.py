"""core/equivalence: equivalent cards and hands, against brute-force definitions, the engine and the reference solver.

* :func:`equivalence_classes` / :func:`representatives` against the pairwise
  definition (same follow group, and every card between them in power is
  the hand's own with the same points), on random splits of the 32 cards;
* :func:`hand_signature` against the definition it stands for: a bijection
  between the hands that keeps each card's group, its points and its order
  against every card of *others* (tried over every permutation);
* the engine: equivalent cards of the player to move always get the same
  :meth:`Solver.card_values` on random positions, and the same values from
  the plain reference solver on small endgames (it has no equivalent-card
  reduction of its own, so the check is independent of the engine's).
"""
from __future__ import annotations

import random
from itertools import combinations, permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatdd.core.cards import ALL_CARDS, CARD_POINTS, Card, Mask, cards_of, mask_of
from skatdd.core.equivalence import equivalence_classes, group_orders, hand_signature, representatives, segments
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game, follow_group, power
from skatdd.engine.reference import reference_card_values
from skatdd.engine.solve import Solver
from skatdd.tools.generate import random_position

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ENGINE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.sampled_from(ALL_GAMES)


@st.composite
def splits(draw: st.DrawFn) -> tuple[Game, Mask, Mask]:
    """A game and two disjoint card sets: a hand and the others (cards in neither are dead)."""
    game = draw(games)
    owner = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=32, max_size=32))
    hand = sum(1 << c for c in range(32) if owner[c] == 0)
    others = sum(1 << c for c in range(32) if owner[c] == 1)
    return game, hand, others


def between(game: Game, a: Card, b: Card) -> list[Card]:
    """The cards of a's and b's follow group strictly between them in power."""
    lo, hi = sorted((power(a, game), power(b, game)))
    return [c for c in range(32) if follow_group(c, game) == follow_group(a, game) and lo < power(c, game) < hi]


def brute_equivalent(game: Game, hand: Mask, others: Mask, a: Card, b: Card, points: bool) -> bool:
    """The pairwise definition: same group, nothing of *others* between, and (with *points*) all equal points."""
    if follow_group(a, game) != follow_group(b, game):
        return False
    for c in between(game, a, b):
        if others >> c & 1:
            return False
        if points and hand >> c & 1 and CARD_POINTS[c] != CARD_POINTS[a]:
            return False
    return not points or CARD_POINTS[a] == CARD_POINTS[b]


@FAST
@given(splits(), st.booleans())
def test_card_classes_match_the_pairwise_definition(split: tuple[Game, Mask, Mask], points: bool) -> None:
    game, hand, others = split
    classes = equivalence_classes(game, hand, others, points=points)
    assert sorted(c for cls in classes for c in cls) == cards_of(hand)
    for cls in classes:
        assert [power(c, game) for c in cls] == sorted(power(c, game) for c in cls)
    reps = representatives(game, hand, others, points=points)
    for a, b in combinations(cards_of(hand), 2):
        assert (reps[a] == reps[b]) == brute_equivalent(game, hand, others, a, b, points), (game, a, b)
    # Cards outside the hand map to themselves when asked for.
    outside = cards_of(ALL_CARDS & ~hand)[:3]
    assert representatives(game, hand, others, outside, points=points) == {c: c for c in outside}


@FAST
@given(games, st.integers(min_value=0, max_value=ALL_CARDS))
def test_segments_cut_every_group_at_the_others(game: Game, others: Mask) -> None:
    found = segments(game, others)
    assert len(found) == len(group_orders(game)) + others.bit_count()
    assert sum(found) == ALL_CARDS & ~others and all(a & b == 0 for a, b in combinations(found, 2))
    for seg in found:
        cards = cards_of(seg)
        if cards:
            assert len({follow_group(c, game) for c in cards}) == 1
            lo, hi = min(cards, key=lambda c: power(c, game)), max(cards, key=lambda c: power(c, game))
            assert not any(others >> c & 1 for c in between(game, lo, hi))


def brute_alike(game: Game, one: Mask, two: Mask, others: Mask, points: bool) -> bool:
    """A bijection from *one* to *two* keeping group, points (with *points*) and order against every card of *others*."""
    def profile(card: Card) -> tuple[int, int, frozenset[Card]]:
        below = frozenset(o for o in cards_of(others)
                          if follow_group(o, game) == follow_group(card, game) and power(o, game) < power(card, game))
        return follow_group(card, game), CARD_POINTS[card] if points else 0, below

    first, second = cards_of(one), cards_of(two)
    if len(first) != len(second):
        return False
    return any(all(profile(a) == profile(b) for a, b in zip(first, perm, strict=True)) for perm in permutations(second))


@FAST
@given(games, st.integers(min_value=0, max_value=ALL_CARDS), st.randoms(use_true_random=False),
       st.integers(min_value=1, max_value=3), st.booleans())
def test_hand_signatures_match_the_bijection_definition(game: Game, others: Mask, rng: random.Random, size: int,
                                                        points: bool) -> None:
    free = cards_of(ALL_CARDS & ~others)
    if len(free) < size:
        return
    pool = rng.sample(free, min(len(free), 7))
    hands = [mask_of(h) for h in combinations(pool, size)]
    for one, two in combinations(hands, 2):
        same = hand_signature(game, one, others, points=points) == hand_signature(game, two, others, points=points)
        assert same == brute_alike(game, one, two, others, points), (game, cards_of(one), cards_of(two))


def live_classes(pos: Position) -> list[list[Card]]:
    """The mover's classes of equivalent legal cards, as the analysis derives them."""
    hand = pos.hands[pos.to_move]
    live = pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)
    legal = set(pos.legal_moves())
    classes = equivalence_classes(pos.game, hand, live & ~hand, points=not pos.game.is_null)
    return [[c for c in cls if c in legal] for cls in classes if any(c in legal for c in cls)]


SOLVER = Solver(tt_mb=16)


@ENGINE
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=7), games)
def test_equivalent_cards_get_the_same_engine_values(seed: int, tricks: int, game: Game) -> None:
    pos = random_position(random.Random(seed), game=game, tricks=tricks)
    values = SOLVER.card_values(pos)
    for cls in live_classes(pos):
        assert len({(values[c].value, values[c].declarer_wins) for c in cls}) == 1, (pos, cls)


@ENGINE
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=4), games)
def test_equivalent_cards_get_the_same_reference_values(seed: int, tricks: int, game: Game) -> None:
    pos = random_position(random.Random(seed), game=game, tricks=tricks)
    values = reference_card_values(pos)
    assert sorted(c for cls in live_classes(pos) for c in cls) == sorted(values)
    for cls in live_classes(pos):
        assert len({values[c] for c in cls}) == 1, (pos, cls)
