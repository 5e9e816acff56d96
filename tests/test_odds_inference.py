"""``odds --inference bids``: worlds weighed by the bidding, checked against solving the same weighted worlds directly.

Also the pick-up search of each world (odds_tasks): the discards it skips as
dominated never beat their dominator, and its answer equals the best over
every discard class solved exactly.
"""
from __future__ import annotations

import random

import pytest

from cli_runner import run_skatdd
from skatdd.analysis.best.api import SeatSearch
from skatdd.analysis.best.bands import Bands, Probe, band_of
from skatdd.analysis.best.discards import discard_order_key
from skatdd.analysis.inference.api import effective_size
from skatdd.analysis.inference.bids import bid_intervals
from skatdd.analysis.odds.api import odds
from skatdd.analysis.odds.discard_ranking import discard_classes_of, dominance_links, settle
from skatdd.analysis.odds.draw import bid_weighted_draw
from skatdd.analysis.odds.input import parse_auction
from skatdd.analysis.odds.pickup import undominated
from skatdd.analysis.odds.results import world_outcome
from skatdd.analysis.odds.tasks import OddsJob, solve_world
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import hand_view
from skatdd.core.cards import parse_cards
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import JACKS, Game
from skatdd.core.scoring import matadors
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver

HAND = "CJ SJ HJ CA CT C9 SA ST H7 D8"
#: Middlehand bid up to 30 against forehand, who held every bid, then passed; rearhand passed.
BIDS = [(1, "18"), (0, "y"), (1, "20"), (0, "y"), (1, "30"), (0, "p"), (2, "p")]
TT = 16


def test_parse_auction_reads_seat_move_tokens_and_names_a_bad_one() -> None:
    assert parse_auction("M:18 F:y M:20, F:p R:P") == [(1, "18"), (0, "y"), (1, "20"), (0, "p"), (2, "p")]
    for text, token in (("M18", "M18"), ("X:18", "X:18"), ("M:", "M:")):
        with pytest.raises(DealFormatError, match=token):
            parse_auction(text)
    with pytest.raises(DealFormatError, match="does not exceed"):
        parse_auction("M:20 F:18")
    with pytest.raises(DealFormatError, match="no bidding move"):
        parse_auction("  ")


def test_weighted_report_equals_the_weighted_worlds_solved_directly() -> None:
    """Every figure is the weighted sum over the worlds bid_weighted_draw gives for the same seed."""
    seed, n = 4, 12
    report = odds(HAND, seat=2, games=["clubs", "null"], picked_up=False, worlds=n, seed=seed, bid=18,
                  solver=Solver(tt_mb=TT), inference="bids", bids=BIDS, points=True)
    draw = bid_weighted_draw(hand_view(2, report.hand), BIDS, n, generator(seed))
    assert report.evaluated == draw.count == n and sum(draw.weights) == n
    assert report.ess == pytest.approx(effective_size(draw.weights)) and report.pool == draw.pool
    solver = Solver(tt_mb=TT)
    wins = {Game.CLUBS: 0.0, Game.NULL: 0.0}
    points = score = 0.0
    for world, weight in zip(draw.worlds, draw.weights, strict=True):
        pos = SeatSearch(solver, list(world.hands), world.skat, 2, 18, None).position(Game.CLUBS, world.hands[2], world.skat)
        o = world_outcome((Game.CLUBS, False), True, report.hand | world.skat, 18, settle(Probe(solver, pos)))
        wins[Game.CLUBS] += weight * o.wins
        assert o.points is not None
        points += weight * o.points
        score += weight * o.score
        null = Position(Game.NULL, 2, list(world.hands), world.skat, leader=0)
        wins[Game.NULL] += weight * solver.declarer_wins(null)
    clubs, null = report.options
    assert clubs.wins == pytest.approx(wins[Game.CLUBS]) and clubs.total_points == pytest.approx(points)
    assert clubs.total_score == pytest.approx(score) and null.wins == pytest.approx(wins[Game.NULL])
    assert clubs.sample_size == report.ess


def test_bidding_weights_follow_the_model() -> None:
    """Middlehand bid 30: the weighted worlds give it more jacks than uniform ones, as its likelihood says."""
    view = hand_view(2, sum(1 << c for c in parse_cards("C7 C8 C9 S7 S8 H7 H8 H9 D7 D8")))
    draw = bid_weighted_draw(view, BIDS, 200, generator(1))
    uniform, _ = choose_worlds(view, 200, random.Random(1))

    def jacks(world_hands: tuple[int, int, int]) -> int:
        return (world_hands[1] & JACKS).bit_count()

    weighted = sum(k * jacks(w.hands) for w, k in zip(draw.worlds, draw.weights, strict=True)) / draw.count
    plain = sum(jacks(w.hands) for w in uniform) / len(uniform)
    assert weighted > plain + 0.1   # 2.0 against 1.835 with these seeds
    intervals = bid_intervals(BIDS)
    assert intervals[1] == (30, None) and intervals[2][1] == 33   # rearhand passed rather than say 33


def test_same_seed_same_output_whatever_jobs() -> None:
    args = ["odds", HAND, "--seat", "R", "--inference", "bids", "--bids", "M:18 F:y M:20 F:p", "--worlds", "20",
            "--game", "grand", "--game", "null", "--seed", "3", "--json", "--tt-mb", str(TT)]
    one = run_skatdd(*args, "--jobs", "1")
    two = run_skatdd(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    strip = [line for line in one.stdout.split(", ") if '"seconds"' not in line]
    assert strip == [line for line in two.stdout.split(", ") if '"seconds"' not in line]
    assert '"inference": "bids"' in one.stdout and '"ess": ' in one.stdout


def test_known_skat_with_bids_ranks_over_the_drawn_worlds() -> None:
    report = odds(HAND, seat=2, skat="H8 D9", games=["grand"], worlds=8, seed=2, solver=Solver(tt_mb=TT),
                  inference="bids", bids=BIDS)
    (grand,) = report.options
    assert grand.evaluated == report.evaluated == 8 and report.ess is not None and 1 <= report.ess <= 8
    assert grand.discard is not None and len(grand.alternatives or []) == 2


@pytest.mark.parametrize(("args", "needle"), [
    (["--inference", "play", "--bids", "M:18"], "--inference play needs cards played"),
    (["--inference", "all", "--bids", "M:18"], "--inference all needs cards played"),
    (["--inference", "bids"], "--inference bids needs the auction"),
    (["--bids", "M:18"], "--bids is used only with --inference bids"),
    (["--inference", "bids", "--bids", "M:18 Q:p"], "bidding move 'Q:p'"),
    (["--inference", "bids", "--bids", "M:18 F:x"], "bidding move 'x'"),
    (["--inference", "guess"], "guess"),
])
def test_bad_inference_options_exit_2_with_one_line(args: list[str], needle: str) -> None:
    result = run_skatdd("odds", HAND, "--seat", "R", "--worlds", "2", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and needle in result.stderr, result.stderr


def test_the_api_refuses_what_odds_cannot_use() -> None:
    for kwargs, needle in (({"inference": "play", "bids": BIDS}, "needs cards played"),
                           ({"inference": "bids"}, "needs the auction"),
                           ({"inference": "bids", "bids": BIDS, "accept": lambda w: True}, "exclude each other"),
                           ({"inference": "nope"}, "unknown inference")):
        with pytest.raises(DealFormatError, match=needle):
            odds(HAND, seat=2, worlds=2, **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The pick-up search of one world


def _worlds(seat: int, hand: str, n: int, seed: int) -> list:  # type: ignore[type-arg]
    view = hand_view(seat, sum(1 << c for c in parse_cards(hand)))
    return choose_worlds(view, n, random.Random(seed))[0]


def test_a_dominance_link_bounds_the_values_and_keeps_the_trick_facts() -> None:
    """Every link (top, low, delta): V(low) <= V(top) <= V(low) + delta, the same trick facts; undominated drops the lows."""
    solver = Solver(tt_mb=TT)
    checked = 0
    for world in _worlds(1, "CJ DJ C8 HA HT HK H9 DT D8 D7", 2, 5):
        twelve = world.hands[1] | world.skat
        for game in (Game.HEARTS, Game.GRAND):
            classes = discard_classes_of(game, twelve)
            links = dominance_links(game, twelve, classes)
            kept = undominated(game, twelve, classes)
            assert len(kept) == len(classes) - len(links) and {id(c) for c in kept}.isdisjoint(
                id(classes[low]) for _, low, _ in links)
            seat = SeatSearch(solver, list(world.hands), world.skat, 1, None, None)
            results = [Probe(solver, seat.position(game, c.hand, twelve & ~c.hand)).outcome() for c in classes]
            for top, low, delta in links:
                assert results[low][0] <= results[top][0] <= results[low][0] + delta
                assert results[top][1:] == results[low][1:]
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("points", [True, False])
@pytest.mark.parametrize("bid", [18, 36, 60, 120])
def test_world_pick_up_equals_the_best_of_every_class(bid: int, points: bool) -> None:
    """solve_world's picked-up result is the (score, value, tie order) best over every class solved exactly.

    With *points* the best's exact outcome, without it the best's band alone (asked by threshold
    questions); the overbids of 36, 60 and 120 tie bands' scores, so the tie rule is exercised.
    """
    solver = Solver(tt_mb=TT)
    games = (Game.CLUBS, Game.HEARTS)
    job = OddsJob(1, 0, None, bid, games, hand_games=True, picked_up=True, points=points)
    memory: dict = {}  # type: ignore[type-arg]
    for world in _worlds(1, "CJ DJ C8 HA HT HK H9 DT D8 D7", 3, 7):
        got, _ = solve_world(solver, job, world, memory)
        twelve = world.hands[1] | world.skat
        seat = SeatSearch(solver, list(world.hands), world.skat, 1, bid, None)
        for game, (hand, picked) in zip(games, got, strict=True):
            bands = Bands(game, matadors(game, twelve), bid)
            best = None
            for cls in discard_classes_of(game, twelve):
                outcome = Probe(solver, seat.position(game, cls.hand, twelve & ~cls.hand)).outcome()
                key = (bands.score[band_of(*outcome)], outcome[0], tuple(-k for k in discard_order_key(cls.discard)))
                if best is None or key > best[0]:
                    best = (key, list(outcome))
            assert best is not None
            assert picked == (best[1] if points else [band_of(*best[1])])
            exact_hand = list(Probe(solver, seat.position(game, world.hands[1], world.skat)).outcome())
            assert hand == (exact_hand if points else [band_of(*exact_hand)])
