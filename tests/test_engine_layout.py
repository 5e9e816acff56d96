"""The engine's own card layout, legal moves and trick winner against :mod:`skatdd.core.rules`.

The engine permutes the cards of each contract into internal bits so that a
follow group is a contiguous run ordered by strength (README, "How the
engine works").  These tests hold its three small exported
helpers to the plain rules, and then check through :class:`Solver` on
one-card endgames that the search itself awards each trick as the rules do.
"""
from __future__ import annotations

import itertools
import random

import pytest

from skatdd.core.cards import CARD_POINTS, Card
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, TRUMP_GROUP, Game, follow_group, legal_mask, power, trick_winner, trump_mask
from skatdd.engine import _engine
from skatdd.engine.solve import Solver


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
def test_layout_orders_each_follow_group_by_strength(game: Game) -> None:
    to_internal, group_of, group_masks, internal_trumps = _engine.layout(int(game))
    assert sorted(to_internal) == list(range(32))
    # The engine's groups are the rules' follow groups, whatever it numbers them.
    engine_group = {c: group_of[to_internal[c]] for c in range(32)}
    for a, b in itertools.combinations(range(32), 2):
        same_rules = follow_group(a, game) == follow_group(b, game)
        assert same_rules == (engine_group[a] == engine_group[b]), (a, b)
        if same_rules:
            # Within a group, the internal bit order is the order of strength.
            assert (to_internal[a] < to_internal[b]) == (power(a, game) < power(b, game)), (a, b)
    for c in range(32):
        assert group_masks[engine_group[c]] >> to_internal[c] & 1
    for group_mask in group_masks:
        if group_mask:  # a contiguous run of bits
            low = group_mask & -group_mask
            assert (group_mask + low) & group_mask == 0
    assert internal_trumps == sum(1 << to_internal[c] for c in range(32) if trump_mask(game) >> c & 1)
    trumps = [c for c in range(32) if follow_group(c, game) == TRUMP_GROUP]
    # Trumps lie above every plain card.
    if trumps:
        lowest_trump = min(to_internal[c] for c in trumps)
        assert all(to_internal[c] < lowest_trump for c in range(32) if c not in trumps)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
def test_engine_trick_winner_is_the_rules_winner_for_every_trick(game: Game) -> None:
    """All 29,760 ordered tricks of three different cards."""
    wrong = [trick for trick in itertools.permutations(range(32), 3)
             if _engine.trick_winner(int(game), trick) != trick_winner(trick, game)]
    assert not wrong, f"{len(wrong)} tricks, first {wrong[:3]}"


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
def test_engine_legal_cards_are_the_rules_legal_cards(game: Game) -> None:
    rng = random.Random(int(game))
    for _ in range(300):
        hand = sum(1 << c for c in rng.sample(range(32), rng.randint(1, 10)))
        assert _engine.legal_cards(int(game), hand, -1) == legal_mask(hand, None, game)
        for led in range(32):
            if not hand >> led & 1:  # the led card lies on the table, not in this hand
                assert _engine.legal_cards(int(game), hand, led) == legal_mask(hand, led, game), (hand, led)


def _last_trick(game: Game, rng: random.Random) -> tuple[Position, list[Card]]:
    """A one-card endgame: random cards, declarer, leader and cards already on the table."""
    cards = rng.sample(range(32), 5)
    trick_cards, skat = cards[:3], cards[3:]
    leader, declarer, on_table = rng.randrange(3), rng.randrange(3), rng.randrange(3)
    hands = [0, 0, 0]
    for i in range(on_table, 3):
        hands[(leader + i) % 3] = 1 << trick_cards[i]
    pos = Position(game, declarer, hands, sum(1 << c for c in skat), leader, trick_cards[:on_table],
                   declarer_points=rng.randrange(0, 40), declarer_tricks=rng.randrange(0, 5), defender_tricks=1)
    if game.is_null:
        pos.declarer_points = pos.declarer_tricks = 0
    return pos, trick_cards


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
def test_solver_awards_the_last_trick_as_the_rules_do(game: Game, solver: Solver) -> None:
    rng = random.Random(1000 + int(game))
    for _ in range(2000):
        pos, trick = _last_trick(game, rng)
        declarer_wins_trick = (pos.leader + trick_winner(trick, game)) % 3 == pos.declarer
        if game.is_null:
            assert solver.declarer_wins(pos) is (not declarer_wins_trick), pos
            continue
        skat_points = sum(CARD_POINTS[c] for c in range(32) if pos.skat >> c & 1)
        trick_points = sum(CARD_POINTS[c] for c in trick) if declarer_wins_trick else 0
        assert solver.value(pos) == pos.declarer_points + skat_points + trick_points, pos
        assert solver.declarer_takes_all(pos) is False  # the defenders took a trick before
