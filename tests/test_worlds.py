"""The world sampler against brute force: counts, ranks, voids and uniformity."""
from __future__ import annotations

import itertools
import random

import pytest

from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import (
    SKAT,
    View,
    World,
    WorldSpace,
    count_worlds,
    hand_view,
    space_of,
    view_of,
    world_at,
)
from skatdd.core.cards import cards_of, mask_of, parse_cards
from skatdd.core.errors import DealFormatError, IllegalPlayError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.tools.generate import random_deal


def brute_force(view: View) -> set[tuple[int, int, int, int]]:
    """Every assignment of the unseen cards to the places that fits the sizes and bans."""
    needs = view.needs
    cards = cards_of(view.unseen)
    found = set()
    for places in itertools.product(range(4), repeat=len(cards)):
        if any(places.count(p) != needs[p] for p in range(4)):
            continue
        masks = list(view.known)
        ok = True
        for card, place in zip(cards, places, strict=True):
            if view.banned[place] >> card & 1:
                ok = False
                break
            masks[place] |= 1 << card
        if ok:
            found.add(tuple(masks))
    return found


def as_tuple(world) -> tuple[int, int, int, int]:
    return (*world.hands, world.skat)


@pytest.mark.parametrize("seed", range(12))
def test_counts_and_ranks_match_brute_force_on_reduced_decks(seed):
    rng = random.Random(seed)
    deck = rng.sample(range(32), 11)
    own, unseen = deck[:3], deck[3:]
    sizes = (3, 3, 3, 2)
    banned = [0, 0, 0, 0]
    for seat in (1, 2):  # random voids: a whole suit for one seat, sometimes for both
        if rng.random() < 0.7:
            banned[seat] = 0xFF << (8 * rng.randrange(4))
    view = View(0, sizes, (mask_of(own), 0, 0, 0), tuple(banned), mask_of(unseen))
    expected = brute_force(view)
    space = WorldSpace(view)
    assert len(space) == len(expected) == count_worlds(view)
    worlds = [as_tuple(w) for w in space]
    assert len(set(worlds)) == len(worlds)
    assert set(worlds) == expected
    if expected:
        assert as_tuple(world_at(view, len(space) - 1)) == worlds[-1]
    assert [as_tuple(space[i]) for i in range(len(space))] == worlds  # unranking gives the enumeration's order


def test_a_known_place_stays_fixed():
    hand = mask_of(parse_cards("CJ SJ HJ"))
    skat = mask_of(parse_cards("D7 D8"))
    unseen = mask_of(parse_cards("C7 C8 C9 S7 S8 S9"))
    view = View(0, (3, 3, 3, 2), (hand, 0, 0, skat), (0, 0, 0, 0), unseen)
    assert count_worlds(view) == 20  # C(6, 3)
    for world in WorldSpace(view):
        assert world.hands[0] == hand and world.skat == skat


def test_hand_view_counts():
    hand = mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8"))
    assert count_worlds(hand_view(0, hand)) == 42_678_636
    assert count_worlds(hand_view(0, hand, mask_of(parse_cards("C7 SA")))) == 184_756


def random_game_position(rng: random.Random, game: Game, cards_played: int) -> Position:
    hands, skat = random_deal(rng)
    pos = Position(game, rng.randrange(3), list(hands), skat)
    for _ in range(cards_played):
        pos.play(rng.choice(pos.legal_moves()))
    return pos


def replays(pos: Position, world) -> bool:
    """The independent oracle: the recorded cards are all legal plays from the world's starting hands."""
    start = list(world.hands)
    for seat, card in pos.history:
        start[seat] |= 1 << card
    trial = Position(pos.game, pos.declarer, start, world.skat)
    try:
        for _seat, card in pos.history:
            trial.play(card)
    except IllegalPlayError:
        return False
    return True


def replayable_splits(pos: Position, hidden: list[int]) -> set[tuple[int, int, int, int]]:
    """Brute force: every split of the cards of the *hidden* places (0-2 hands, 3 the skat) among them,
    each keeping its size, that keeps the recorded play legal; as ``(hand0, hand1, hand2, skat)``."""
    held = [pos.hands[0], pos.hands[1], pos.hands[2], pos.skat]
    cards = cards_of(sum(held[p] for p in hidden))
    found = set()
    for places in itertools.product(hidden, repeat=len(cards)):
        if any(places.count(p) != held[p].bit_count() for p in hidden):
            continue
        masks = list(held)
        for p in hidden:
            masks[p] = 0
        for card, place in zip(cards, places, strict=True):
            masks[place] |= 1 << card
        world = World((masks[0], masks[1], masks[2]), masks[SKAT])
        if replays(pos, world):
            found.add(as_tuple(world))
    return found


@pytest.mark.parametrize("seed", range(30))
def test_late_positions_enumerate_exactly_the_worlds_the_play_allows(seed):
    rng = random.Random(seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    pos = random_game_position(rng, game, 22 + seed % 4)  # 2 or 3 cards a hand left, 0-2 on the table
    seat = pos.to_move
    knows_skat = pos.declarer == seat and seed % 2 == 0
    view = view_of(pos, knows_skat=knows_skat)
    space = WorldSpace(view)
    worlds = {as_tuple(w) for w in space}
    assert len(worlds) == len(space)
    # Brute force: every split of the cards the mover cannot see that keeps the history legal.
    held = [pos.hands[0], pos.hands[1], pos.hands[2], pos.skat]
    hidden = [p for p in range(4) if p != seat and not (p == SKAT and knows_skat)]
    assert worlds == replayable_splits(pos, hidden)
    assert (held[0], held[1], held[2], held[SKAT]) in worlds
    for world in space:  # never reassigned: the mover's own cards and everything played
        assert world.hands[seat] == pos.hands[seat]
        assert world.start_hands(view)[seat] == pos.hands[seat] | mask_of(c for s, c in pos.history if s == seat)


def test_voids_are_never_violated_mid_game():
    rng = random.Random(5)
    for game in ALL_GAMES:
        for _ in range(10):
            pos = random_game_position(rng, game, rng.randrange(3, 25))
            view = view_of(pos)
            worlds, _exact = choose_worlds(view, 50, rng)
            for world in worlds:
                assert replays(pos, world)
                for seat in range(3):
                    assert not world.hands[seat] & view.banned[seat]


def test_sampling_is_uniform_chi_square():
    # 6 unseen cards, a void: few enough worlds to count how often each is drawn.
    view = View(
        0, (2, 2, 2, 2), (mask_of(parse_cards("CJ SJ")), 0, 0, 0),
        (0, 0xFF, 0, 0), mask_of(parse_cards("D7 D8 H7 H8 S7 S8")),
    )
    space = WorldSpace(view)
    n_worlds = len(space)
    assert 20 < n_worlds < 200
    rng = random.Random(2024)
    draws = 200 * n_worlds
    counts = [0] * n_worlds
    index = {as_tuple(w): i for i, w in enumerate(space)}
    for _ in range(draws):
        (world,), exact = choose_worlds(view, 1, rng)
        assert not exact
        counts[index[as_tuple(world)]] += 1
    expected = draws / n_worlds
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    # Far beyond the 0.999 quantile for fewer than 200 degrees of freedom (~267): a bias fails this.
    assert chi2 < 1.6 * n_worlds + 60


@pytest.mark.parametrize("seed", range(4))
def test_draw_is_uniform_over_brute_force_worlds_with_voids(seed):
    # WorldSpace.draw (i.i.d., no unranking) against every world brute force finds, voids making several classes.
    rng = random.Random(seed)
    deck = rng.sample(range(32), 11)
    banned = [0, 0xFF << (8 * rng.randrange(4)), 0, 0]
    if seed % 2:
        banned[2] = 0xFF << (8 * rng.randrange(4))
    view = View(0, (3, 3, 3, 2), (mask_of(deck[:3]), 0, 0, 0), tuple(banned), mask_of(deck[3:]))
    expected = brute_force(view)
    space = WorldSpace(view)
    if not expected:
        with pytest.raises(IndexError):
            space.draw(rng)
        return
    draws = 60 * len(expected)
    counts = dict.fromkeys(expected, 0)
    for _ in range(draws):
        counts[as_tuple(space.draw(rng))] += 1  # a KeyError here: a world the view does not allow
    mean = draws / len(expected)
    chi2 = sum((c - mean) ** 2 / mean for c in counts.values())
    assert chi2 < 1.6 * len(expected) + 60  # beyond the 0.999 quantile: a bias fails this


def test_choose_worlds_takes_all_when_few_and_distinct_otherwise():
    view = View(0, (1, 2, 2, 2), (mask_of(parse_cards("CJ")), 0, 0, 0), (0, 0, 0, 0),
                mask_of(parse_cards("D7 D8 H7 H8 S7 S8")))
    total = count_worlds(view)  # 6! / (2! 2! 2!) = 90
    assert total == 90
    everything, exact = choose_worlds(view, 90, random.Random(1))
    assert exact and len(everything) == 90
    some, exact = choose_worlds(view, 40, random.Random(1))
    assert not exact and len({as_tuple(w) for w in some}) == 40
    again, _ = choose_worlds(view, 40, random.Random(1))
    assert again == some


def test_bad_views_are_refused():
    with pytest.raises(DealFormatError):
        View(0, (2, 2, 2, 2), (mask_of(parse_cards("CJ")), 0, 0, 0), (0, 0, 0, 0), 0)
    with pytest.raises(DealFormatError):
        hand_view(0, mask_of(parse_cards("CJ SJ")))
    with pytest.raises(DealFormatError):
        choose_worlds(hand_view(0, mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8"))), 0, random.Random(1))


def test_worlds_at_unranks_as_getitem_on_mid_game_views():
    # The C kernel (WorldSpace.worlds_at) against the Python unranking, on 300 views with voids, known
    # skats and every game, at random indices, the ends, and repeated indices in any order.
    rng = random.Random(33)
    checked = 0
    for i in range(300):
        game = ALL_GAMES[i % len(ALL_GAMES)]
        pos = random_game_position(rng, game, rng.randrange(0, 28))
        view = view_of(pos, knows_skat=rng.random() < 0.3)
        space = WorldSpace(view)
        indices = [rng.randrange(len(space)) for _ in range(40)] + [0, len(space) - 1, 0]
        assert space.worlds_at(indices) == [space[index] for index in indices]
        checked += len(indices)
    assert checked == 300 * 43


def test_worlds_at_gives_every_world_of_a_small_space_in_order():
    rng = random.Random(2)
    pos = random_game_position(rng, Game.HEARTS, 21)
    space = WorldSpace(view_of(pos))
    assert 10 < len(space) < 5000
    assert space.worlds_at(range(len(space))) == list(space)
    assert space.worlds_at([]) == []
    with pytest.raises(IndexError):
        space.worlds_at([len(space)])
    with pytest.raises(IndexError):
        space.worlds_at([-1])


def test_choose_worlds_draws_the_indices_sample_draws():
    # choose_worlds unranks its sample together: the worlds at rng.sample's indices, in its order.
    rng = random.Random(8)
    for _ in range(20):
        view = view_of(random_game_position(rng, Game.GRAND, rng.randrange(0, 12)))
        space = WorldSpace(view)
        seed = rng.randrange(1 << 30)
        worlds, exact = choose_worlds(view, 80, random.Random(seed))
        assert not exact
        assert worlds == [space[i] for i in random.Random(seed).sample(range(len(space)), 80)]


def test_space_of_shares_one_space_per_view_and_ranks_as_a_new_one():
    # space_of keeps the space of a view asked for again (a decision asks several times): an equal view gets
    # the same space, and a kept space that has already answered ranks exactly as a fresh one.
    rng = random.Random(41)
    for i in range(40):
        pos = random_game_position(rng, ALL_GAMES[i % len(ALL_GAMES)], rng.randrange(0, 28))
        view = view_of(pos)
        kept = space_of(view)
        assert space_of(view_of(pos)) is kept
        fresh = WorldSpace(view)
        indices = [rng.randrange(len(fresh)) for _ in range(20)]
        assert [kept[j] for j in indices] == [fresh[j] for j in indices]
        assert space_of(view).worlds_at(indices) == fresh.worlds_at(indices)
        assert count_worlds(view) == len(fresh) and world_at(view, indices[0]) == fresh[indices[0]]
