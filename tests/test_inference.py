"""Inference from the bidding and the play (skatdd.analysis.inference.api, inference_bids, inference_play)."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatdd.analysis.advise.api import mover_view
from skatdd.analysis.inference.api import (
    Evidence,
    _systematic,
    bid_weighted_worlds,
    effective_size,
    parse_inference,
    weighted_worlds,
    world_positions,
)
from skatdd.analysis.inference.bids import (
    FLOOR,
    Auction,
    auction_likelihood,
    auction_weigher,
    bid_intervals,
    game_value,
    limit_at_least,
    seat_likelihood,
    win_chance,
)
from skatdd.analysis.inference.play import card_probability, play_likelihood
from skatdd.analysis.inference.pool import _POOL_TABLES, auction_pool_weigher
from skatdd.analysis.worlds.space import View, World, WorldSpace, hand_view
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, JACKS, Game
from skatdd.core.scoring import Declaration, trump_order
from skatdd.engine.solve import Solver
from skatdd.tools.generate import realistic_deal

GRAND_HAND = mask_of(parse_cards("CJ SJ HJ DJ CA CT CK SA ST HA"))
NOTHING = mask_of(parse_cards("C7 C8 S7 S8 H8 H9 HQ D8 D9 DQ"))


def test_bid_intervals_read_the_auction() -> None:
    # Middlehand says 18 and 20, forehand holds both, middlehand passes; rearhand passes; forehand declares.
    moves = [(1, "18"), (0, "y"), (1, "20"), (0, "y"), (1, "p"), (2, "p")]
    assert bid_intervals(moves) == {1: (20, 22), 0: (20, None), 2: (0, 22)}
    # Forehand passes when asked 18: his limit is below 18.
    assert bid_intervals([(1, "18"), (0, "p"), (2, "p")]) == {1: (18, None), 0: (0, 18), 2: (0, 20)}
    # Everyone passes at once but forehand, who opens.
    assert bid_intervals([(1, "p"), (2, "p"), (0, "18")]) == {1: (0, 18), 2: (0, 18), 0: (18, None)}
    with pytest.raises(DealFormatError, match="'x'"):
        bid_intervals([(1, "x")])
    with pytest.raises(DealFormatError, match="'18'"):
        bid_intervals([(1, "20"), (0, "y"), (1, "18")])


def test_bidding_model_orders_hands() -> None:
    assert win_chance(GRAND_HAND, Game.GRAND, forehand=False) > 0.9
    assert win_chance(NOTHING, Game.GRAND, forehand=False) < 0.01
    assert win_chance(NOTHING, Game.CLUBS, forehand=False) < 0.01
    values = [18, 20, 24, 36, 48, 72, 96, 120]
    chances = [limit_at_least(GRAND_HAND, v, forehand=False) for v in values]
    assert chances == sorted(chances, reverse=True)
    assert limit_at_least(GRAND_HAND, 0, forehand=False) == 1.0
    assert limit_at_least(GRAND_HAND, None, forehand=False) == 0.0
    # A seat that passed at 18 (limit below 18) is far likelier to hold nothing than the grand.
    assert seat_likelihood(NOTHING, 0, 18, forehand=False) > 10 * seat_likelihood(GRAND_HAND, 0, 18, forehand=False)
    # A seat that bid 48 more likely holds the grand.
    assert seat_likelihood(GRAND_HAND, 48, None, forehand=False) > seat_likelihood(NOTHING, 48, None, forehand=False)


def _defender_view_with_grand_elsewhere() -> tuple[World, World, Auction]:
    """Two worlds of forehand's view: in one the passed middlehand holds the grand, in the other rearhand does."""
    own = mask_of(parse_cards("C9 S9 HT HK D7 DA DT DK H7 H8"))
    other = 0xFFFFFFFF & ~own & ~GRAND_HAND
    rest = [c for c in range(32) if other >> c & 1]
    filler, skat = mask_of(rest[:10]), mask_of(rest[10:12])
    auction = Auction.of([(1, "p"), (2, "18"), (0, "p")], declarer=2, game=Game.CLUBS, hand_game=False)
    return World((own, GRAND_HAND, filler), skat), World((own, filler, GRAND_HAND), skat), auction


def test_a_passed_seat_holding_a_grand_weighs_less() -> None:
    with_middle, with_rear, auction = _defender_view_with_grand_elsewhere()
    w_middle = auction_likelihood(auction, with_middle.hands, [1, 2])
    w_rear = auction_likelihood(auction, with_rear.hands, [1, 2])
    assert w_middle < w_rear / 5
    # The viewer's own bidding says nothing: leaving seat 0 out or in changes nothing here.
    assert auction_likelihood(auction, with_middle.hands, [1]) == pytest.approx(
        seat_likelihood(GRAND_HAND, 0, 18, forehand=False))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=10.0), min_size=1, max_size=30), st.integers(1, 40),
       st.integers(0, 2**32))
def test_systematic_resampling_is_proportional(weights: list[float], n: int, seed: int) -> None:
    counts = _systematic(weights, n, random.Random(seed))
    total = sum(weights)
    if total == 0:
        assert counts == [0] * len(weights)
        return
    assert sum(counts) == n
    for w, k in zip(weights, counts, strict=True):
        assert math.floor(n * w / total) - 1 <= k <= math.ceil(n * w / total) + 1
        if w == 0:
            assert k == 0


def _game_in_play(seed: int, cards: int) -> tuple[Position, Declaration, list[tuple[int, str]]]:
    rng = random.Random(seed)
    pos, _ = realistic_deal(rng)
    decl = Declaration(pos.game)
    bids = {0: [(1, "18"), (0, "y"), (1, "p"), (2, "p")], 1: [(1, "18"), (0, "p"), (2, "p")],
            2: [(1, "p"), (2, "18"), (0, "p")]}[pos.declarer]
    solver = Solver(tt_mb=16)
    for _ in range(cards):
        values = solver.card_values(pos)
        pick = max if pos.to_move == pos.declarer else min
        scores = {c: float(v.declarer_wins) if pos.game.is_null else float(v.value or 0) for c, v in values.items()}
        pos.play(pick(scores, key=scores.__getitem__))
    return pos, decl, bids


@pytest.mark.parametrize("inference", ["none", "bids", "play", "all"])
def test_weighted_worlds_reproducible_by_seed(inference: str) -> None:
    pos, decl, bids = _game_in_play(4, 7)
    view = mover_view(pos, decl)
    evidence = Evidence.of(pos, decl, bids)
    first = weighted_worlds(view, evidence, 6, random.Random(11), inference=inference, solver=Solver(tt_mb=8))
    again = weighted_worlds(view, evidence, 6, random.Random(11), inference=inference, solver=Solver(tt_mb=32))
    assert first.worlds == again.worlds and first.weights == again.weights
    assert 1 <= len(first.worlds) <= 6 and all(w > 0 for w in first.weights)
    assert 0 < first.ess <= len(first.worlds) + 1e-9
    assert first.ess == pytest.approx(effective_size(first.weights))
    space = WorldSpace(view)
    assert first.count == len(space)
    for world, now in zip(first.worlds, world_positions(view, evidence, first.worlds), strict=True):
        assert now.hands[view.seat] == pos.hands[view.seat] and world.hands[view.seat] == pos.hands[view.seat]
    if inference in ("none", "bids"):
        assert first.searches == 0
    else:
        assert first.searches > 0
    if inference == "none":
        assert first.weights == [1.0] * len(first.worlds)


def test_exact_when_every_world_fits() -> None:
    pos, decl, bids = _game_in_play(4, 22)
    view = mover_view(pos, decl)
    evidence = Evidence.of(pos, decl, bids)
    space = list(WorldSpace(view))
    result = weighted_worlds(view, evidence, len(space), random.Random(1), inference="bids")
    assert result.exact and result.worlds == space
    others = [s for s in range(3) if s != view.seat]
    for world, weight in zip(result.worlds, result.weights, strict=True):
        assert weight == auction_likelihood(evidence.auction, world.start_hands(view), others)


def test_play_likelihood_is_the_product_of_softmax_probabilities() -> None:
    pos, _, _ = _game_in_play(6, 5)
    solver = Solver(tt_mb=16)
    # The true world: rebuild the start from the hands now plus the cards played.
    hands = list(pos.hands)
    for seat, card in pos.history:
        hands[seat] |= 1 << card
    start = Position(pos.game, pos.declarer, hands, pos.skat, 0)
    seats = [s for s in range(3) if s != pos.to_move]
    likelihood, searches = play_likelihood(start, pos.history, seats, solver=solver, max_cards=10)
    replay = start.copy()
    expected, asked = 1.0, 0
    for seat, card in pos.history:
        if seat in seats and len(replay.legal_moves()) > 1:
            p, n = card_probability(replay, card, solver=solver)
            expected *= p
            asked += n
        replay.play(card)
    assert likelihood == pytest.approx(expected) and searches == asked
    # Probabilities over the legal cards sum to one; the double-dummy best card is the likeliest.
    probe = start.copy()
    probs = {c: card_probability(probe, c, solver=solver)[0] for c in probe.legal_moves()}
    assert sum(probs.values()) == pytest.approx(1.0)
    values = solver.card_values(probe)
    side = 1 if probe.to_move == probe.declarer else -1
    best = max(values, key=lambda c: side * (values[c].value or 0))
    assert probs[best] == max(probs.values())
    hot = {c: card_probability(probe, c, solver=solver, temperature=1e9)[0] for c in probe.legal_moves()}
    assert all(p == pytest.approx(1 / len(hot)) for p in hot.values())


def test_bad_arguments() -> None:
    with pytest.raises(DealFormatError, match="'bidding'"):
        parse_inference("bidding")
    view = hand_view(0, GRAND_HAND)
    evidence = Evidence(Game.GRAND, 0, Declaration(Game.GRAND))
    with pytest.raises(DealFormatError, match="at least 1"):
        weighted_worlds(view, evidence, 0, random.Random(1))
    with pytest.raises(DealFormatError, match="pool"):
        weighted_worlds(view, evidence, 10, random.Random(1), pool=5)
    with pytest.raises(DealFormatError, match="'x'"):
        weighted_worlds(view, evidence, 10, random.Random(1), inference="x")


def test_game_value_counts_the_matadors_of_the_ten_cards() -> None:
    """The cached count by trumps held equals scoring's count on the ten cards plus two non-trumps."""
    from skatdd.analysis.inference.bids import game_value
    from skatdd.core.rules import ALL_GAMES, trump_mask
    from skatdd.core.scoring import BASE_VALUES, matadors
    rng = random.Random(33)
    for _ in range(2000):
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        for game in ALL_GAMES:
            if game.is_null:
                continue
            spare = [c for c in range(32) if not (hand | trump_mask(game)) >> c & 1][:2]
            tops = abs(matadors(game, hand | 1 << spare[0] | 1 << spare[1]))
            for hand_game in (False, True):
                assert game_value(hand, game, hand_game=hand_game) == (tops + 1 + hand_game) * BASE_VALUES[game]


def _features_by_the_cards(hand: int, game: Game, forehand: bool) -> tuple[float, ...]:
    """hand_features' counts taken card by card, as the docstring states them (the tables must agree)."""
    from skatdd.analysis.deals.evaluation import null_danger
    from skatdd.core.rules import JACKS, suit_mask
    fh = 1.0 if forehand else 0.0
    if game.is_null:
        suits = [hand >> (s * 8) & 0xFF for s in range(4)]
        danger = sum(null_danger([r for r in range(8) if cards >> r & 1]) for cards in suits)
        voids = sum(not cards for cards in suits)
        high = sum(cards >> r & 1 for cards in suits for r in (5, 6, 7))
        return (1.0, float(danger), float(high), float(sum(cards & 1 for cards in suits)), float(min(voids, 2)), fh)
    aces = tens_with = bare = voids = solid = 0
    for s in range(4):
        if game != Game.GRAND and s == int(game):
            continue
        cards = hand & suit_mask(s) & ~JACKS
        ace, ten = cards >> (s * 8 + 7) & 1, cards >> (s * 8 + 3) & 1
        voids += not cards
        aces += ace
        tens_with += ace & ten
        bare += ten & (ace ^ 1)
        solid += cards.bit_count() - 3 if ace and ten and cards.bit_count() > 3 else 0
    jacks = hand & JACKS
    head = (1.0,) if game == Game.GRAND else (1.0, float((hand & (JACKS | suit_mask(int(game)))).bit_count()))
    top = () if game == Game.GRAND else (float((hand >> (int(game) * 8 + 7) & 1) + (hand >> (int(game) * 8 + 3) & 1)),)
    return (*head, float(jacks.bit_count()), float(jacks >> 28 & 1), float(jacks >> 20 & 1), *top, float(aces),
            float(tens_with), float(bare), *((float(solid),) if game == Game.GRAND else ()), float(voids), fh)


def test_hand_features_tables_count_what_the_cards_hold() -> None:
    from skatdd.analysis.inference.bids import hand_features
    from skatdd.core.cards import CJ, SJ
    from skatdd.core.rules import ALL_GAMES
    assert (CJ, SJ) == (28, 20)
    rng = random.Random(34)
    for _ in range(1500):
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        for game in ALL_GAMES:
            for forehand in (False, True):
                assert hand_features(hand, game, forehand=forehand) == _features_by_the_cards(hand, game, forehand)


def test_regrouped_tables_give_the_features_win_chances() -> None:
    # _games sums per-suit table entries; win_chance takes the dot product of hand_features: equal up to rounding.
    from skatdd.analysis.inference.bids import _games, game_value, play_chance
    from skatdd.core.rules import ALL_GAMES
    rng = random.Random(8)
    for _ in range(400):
        hand = mask_of(rng.sample(range(32), 10))
        for forehand in (False, True):
            games = _games(hand, forehand)
            for game, value, play in zip(ALL_GAMES, games.values, games.plays, strict=True):
                assert value == game_value(hand, game)
                assert play == pytest.approx(play_chance(win_chance(hand, game, forehand=forehand)), rel=1e-12, abs=1e-300)


def _grand_declarer_view() -> tuple[View, Evidence]:
    """Forehand's view late in a grand of middlehand's, the four jacks among the 8 unseen cards (560 worlds)."""
    unseen = mask_of(parse_cards("CJ SJ HJ DJ CA SA D7 D8"))
    own = mask_of(parse_cards("HA HT HK"))
    rest = [c for c in range(32) if not (unseen | own) >> c & 1]
    played = tuple((s, c) for s, chunk in ((0, rest[:7]), (1, rest[7:14]), (2, rest[14:21])) for c in chunk)
    view = View(0, (3, 3, 3, 2), (own, 0, 0, 0), (0, 0, 0, 0), unseen, played)
    return view, Evidence(Game.GRAND, 1, Declaration(Game.GRAND), ((1, "18"), (0, "p"), (2, "p")))


def test_iid_pool_resamples_the_auctions_posterior() -> None:
    # The player's pool (i.i.d. worlds, resampled by their auction likelihood) against the exact posterior of
    # brute force over all 560 worlds: how many jacks the grand's declarer holds.
    view, evidence = _grand_declarer_view()
    space = list(WorldSpace(view))
    weights = [auction_likelihood(evidence.auction, w.start_hands(view), [1, 2]) for w in space]

    def jacks(world: World) -> int:
        return (world.hands[1] & JACKS).bit_count()

    exact, uniform, seen = [0.0] * 4, [0.0] * 4, [0.0] * 4
    for world, weight in zip(space, weights, strict=True):
        exact[jacks(world)] += weight / sum(weights)
        uniform[jacks(world)] += 1 / len(space)
    for seed in range(200):
        drawn = bid_weighted_worlds(view, evidence, 5, random.Random(seed), pool=120, iid=True)
        assert not drawn.exact and drawn.pool == 120 and sum(drawn.weights) == 5
        assert len(set(drawn.worlds)) == len(drawn.worlds)
        for world, k in zip(drawn.worlds, drawn.weights, strict=True):
            seen[jacks(world)] += k / 1000
    assert 0.5 * sum(abs(a - b) for a, b in zip(exact, uniform, strict=True)) > 0.25  # the auction says much
    assert 0.5 * sum(abs(a - b) for a, b in zip(exact, seen, strict=True)) < 0.1


def test_iid_pool_grows_until_its_weights_are_worth_enough() -> None:
    view, evidence = _grand_declarer_view()
    assert bid_weighted_worlds(view, evidence, 5, random.Random(1), pool=120, iid=True, enough=1).pool == 5
    grown = bid_weighted_worlds(view, evidence, 5, random.Random(1), pool=120, iid=True, enough=12)
    assert 5 < grown.pool <= 120 and grown.pool % 5 == 0
    assert bid_weighted_worlds(view, evidence, 5, random.Random(1), pool=120, iid=True, enough=1e9).pool == 120
    first = bid_weighted_worlds(view, evidence, 5, random.Random(3), pool=120, iid=True, enough=12)
    again = bid_weighted_worlds(view, evidence, 5, random.Random(3), pool=120, iid=True, enough=12)
    assert first.worlds == again.worlds and first.weights == again.weights


@pytest.mark.parametrize("hand_game", [False, True])
@pytest.mark.parametrize("game", [Game.GRAND, Game.HEARTS, Game.NULL])
def test_auction_weigher_is_auction_likelihood(game: Game, hand_game: bool) -> None:
    rng = random.Random(int(game) * 2 + hand_game)
    for bids, declarer in (([(1, "18"), (0, "y"), (1, "20"), (0, "y"), (1, "p"), (2, "p")], 0),
                           ([(1, "p"), (2, "23"), (0, "p")], 2), ([(1, "18"), (0, "p"), (2, "p")], 1)):
        auction = Auction.of(bids, declarer, game, hand_game)
        for seats in ([0, 1, 2], [1, 2], [0, 2]):
            weigh = auction_weigher(auction, seats)
            for _ in range(30):
                cards = rng.sample(range(32), 30)
                hands = (mask_of(cards[:10]), mask_of(cards[10:20]), mask_of(cards[20:]))
                assert weigh(hands) == auction_likelihood(auction, hands, seats)


@pytest.mark.parametrize("hand_game", [False, True])
@pytest.mark.parametrize("game", list(ALL_GAMES))
@pytest.mark.parametrize("floor", [FLOOR, 0.0])
def test_auction_pool_weigher_gives_auction_weighers_floats(game: Game, hand_game: bool, floor: float) -> None:
    # The C kernel against the Python weigher, bit for bit, with what each seat played added to its hand.
    rng = random.Random(int(game) * 4 + hand_game * 2 + (floor > 0))
    for bids, declarer in (([(1, "18"), (0, "y"), (1, "20"), (0, "y"), (1, "p"), (2, "p")], 0),
                           ([(1, "p"), (2, "23"), (0, "p")], 2), ([(1, "18"), (0, "p"), (2, "p")], 1),
                           ([(1, "18"), (0, "y"), (1, "60"), (0, "p"), (2, "p")], 1), ([], 0)):
        auction = Auction.of(bids, declarer, game, hand_game)
        for seats in ([0, 1, 2], [1, 2], [0, 2], [0, 1]):
            weigh = auction_weigher(auction, seats, floor=floor)
            pool = auction_pool_weigher(auction, seats, floor=floor)
            worlds = []
            for _ in range(40):
                cards = rng.sample(range(32), 32)
                worlds.append(World((mask_of(cards[:10]), mask_of(cards[10:20]), mask_of(cards[20:30])),
                                    mask_of(cards[30:])))
            assert pool(worlds, (0, 0, 0)) == [weigh(w.hands) for w in worlds]
            played = (mask_of([0, 9]), 0, mask_of([31]))
            kept = [World((w.hands[0] & ~played[0], w.hands[1], w.hands[2] & ~played[2]), w.skat) for w in worlds]
            assert pool(kept, played) == [weigh((w.hands[0] | played[0], w.hands[1], w.hands[2] | played[2]))
                                          for w in kept]


def test_auction_pool_weigher_counts_the_matadors_as_game_value() -> None:
    # Every holding of trumps a ten-card hand can have, for each suit game and grand: the C kernel's value
    # must be game_value's, or some threshold would fall on the other side.
    for game in ALL_GAMES:
        if game.is_null:
            continue
        order = trump_order(game)
        fill = [c for c in range(32) if c not in order]
        for bits in range(1 << len(order)):
            held = [card for i, card in enumerate(order) if bits >> i & 1]
            if len(held) > 10:
                continue
            hand = mask_of(held + fill[:10 - len(held)])
            for hand_game in (False, True):
                assert _POOL_TABLES.game_value(hand, ALL_GAMES.index(game), hand_game) == \
                    game_value(hand, game, hand_game=hand_game)
    null = ALL_GAMES.index(Game.NULL)
    assert _POOL_TABLES.game_value(0xFF, null, False) == game_value(0xFF, Game.NULL)
    assert _POOL_TABLES.game_value(0xFF, null, True) == game_value(0xFF, Game.NULL, hand_game=True)


def test_bid_weighted_pool_is_the_one_worlds_unranked_and_weighed_one_by_one() -> None:
    # The pool unranked and weighed in C gives what the Python path gave (rng.sample's indices unranked one by
    # one, auction_weigher per world, the same resampling): the same worlds, weights and pool ESS, on 200 views.
    rng = random.Random(41)
    resampled = 0
    for i in range(200):
        pos, _ = realistic_deal(rng)
        for _ in range(rng.randrange(0, 27)):
            pos.play(rng.choice(pos.legal_moves()))
        decl = Declaration(pos.game, hand=i % 7 == 0)
        bids = {0: [(1, "18"), (0, "y"), (1, "p"), (2, "p")], 1: [(1, "18"), (0, "p"), (2, "p")],
                2: [(1, "p"), (2, "18"), (0, "p")]}[pos.declarer]
        view = mover_view(pos, decl)
        evidence = Evidence.of(pos, decl, bids)
        seed = rng.randrange(1 << 30)
        got = bid_weighted_worlds(view, evidence, 10, random.Random(seed))
        draw, space = random.Random(seed), WorldSpace(view)
        exact = len(space) <= 80
        pool = list(space) if exact else [space[j] for j in draw.sample(range(len(space)), 80)]
        weigh = auction_weigher(evidence.auction, [s for s in range(3) if s != view.seat])
        weights = [weigh(world.start_hands(view)) for world in pool]
        assert got.pool == len(pool) and got.pool_ess == effective_size(weights)
        if exact and len(pool) <= 10:
            assert got.worlds == pool and got.weights == weights
            continue
        resampled += 1
        counts = _systematic(weights, 10, draw)
        assert got.worlds == [w for w, k in zip(pool, counts, strict=True) if k]
        assert got.weights == [float(k) for k in counts if k]
    assert resampled > 150
