"""``skatdd odds``: reproducibility, sure wins, exact counts, brute force over the same worlds, bad input."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import combinations

import pytest

from skatdd.analysis.best.discards import discard_classes, discard_order_key
from skatdd.analysis.odds.api import WorldConditionError, draw_worlds, odds, wilson_interval
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import SKAT, View, WorldSpace, hand_view
from skatdd.core.cards import ALL_CARDS, cards_of, display_sorted, mask_of, parse_cards
from skatdd.core.errors import CardCountError, DuplicateCardError, SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.nullouvert import analyse
from skatdd.engine.solve import Solver

HAND = "CJ HJ CA CT CK C9 SA ST H7 D8"
TT = 16


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", "odds", *args], capture_output=True, text=True, timeout=600)


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("nodes", "seconds")}


# ---------------------------------------------------------------------------
# Reproducibility


def test_same_seed_same_report_for_one_and_two_jobs() -> None:
    def args(seed: int) -> list[str]:
        return [HAND, "--seat", "M", "--game", "clubs", "--game", "null-ouvert", "--worlds", "6", "--seed", str(seed),
                "--tt-mb", str(TT), "--json"]

    one, two = run_cli(*args(7), "--jobs", "1"), run_cli(*args(7), "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert without_timing(a) == without_timing(b)
    assert a["evaluated"] == 6 and a["seed"] == 7 and a["worlds"] == 42_678_636
    assert [(o["game"], o["hand"], o["announce"]) for o in a["options"]] == [
        ("clubs", False, []), ("clubs", True, []), ("null", False, ["ouvert"]), ("null", True, ["ouvert"])]
    hand_only = json.loads(run_cli(*args(7), "--jobs", "1", "--hand").stdout)
    assert hand_only["options"] == [a["options"][1], a["options"][3]]
    other = json.loads(run_cli(*args(8), "--jobs", "1", "--hand").stdout)
    assert other["options"] != hand_only["options"]


def test_known_skat_same_for_one_and_two_jobs() -> None:
    kwargs = dict(seat=0, skat="S7 D7", games=["grand", "diamonds", "null"], worlds=4, seed=3, solver=Solver(tt_mb=TT))
    a = odds(HAND, jobs=1, **kwargs).to_json()  # type: ignore[arg-type]
    b = odds(HAND, jobs=2, **kwargs).to_json()  # type: ignore[arg-type]
    assert without_timing(a) == without_timing(b)
    assert a["nodes"] == b["nodes"] > 0      # each game's task starts from an emptied table
    assert a["skat"] == "S7 D7" and a["worlds"] == 184_756
    for option in a["options"]:
        assert option["hand"] is False and len(option["discard"]) == 2 and len(option["alternatives"]) == 2


def test_known_skat_report_does_not_depend_on_the_order_of_the_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games go to the workers longest first; any other order gives the same report, nodes included."""
    import skatdd.analysis.odds.api as odds_module
    from skatdd.analysis.odds.tasks import known_skat_order

    kwargs = dict(seat=1, skat="S7 D7", games=["hearts", "null", "grand", "diamonds"], worlds=5, seed=4,
                  solver=Solver(tt_mb=TT))
    twelve = mask_of(parse_cards(HAND)) | mask_of(parse_cards("S7 D7"))
    # Grand first, then the suits by trumps (diamonds: the two jacks, D8, D7; hearts: the jacks and H7), null last.
    shipped = known_skat_order((Game.HEARTS, Game.DIAMONDS, Game.GRAND, Game.NULL), twelve)
    assert shipped == [Game.GRAND, Game.DIAMONDS, Game.HEARTS, Game.NULL]
    reports = []
    for order in (known_skat_order, lambda games, _: list(reversed(games)), lambda games, _: list(games)):
        monkeypatch.setattr(odds_module, "known_skat_order", order)
        for jobs in (1, 2):
            reports.append(odds(HAND, jobs=jobs, **kwargs).to_json())  # type: ignore[arg-type]
    first = reports[0]
    assert [o["game"] for o in first["options"]] == ["grand", "hearts", "diamonds", "null"]   # the options' order
    for report in reports[1:]:
        assert without_timing(report) == without_timing(first) and report["nodes"] == first["nodes"]


# ---------------------------------------------------------------------------
# Known answers


def test_four_jacks_and_top_clubs_win_every_world() -> None:
    report = odds("CJ SJ HJ DJ CA CT CK CQ C9 C8", seat=0, games=["grand"], picked_up=False, worlds=10, solver=Solver(tt_mb=TT),
                  points=True)
    (grand,) = report.options
    assert grand.label == "grand hand"
    assert grand.win == 1.0 and grand.schwarz == 10 and grand.mean_points == 120
    assert grand.win_ci[1] == 1.0 and grand.win_ci[0] < 1.0   # sampled, so an interval
    assert report.recommendation is grand
    # Grand hand schwarz with 4: (4 + 1 + 1 + 1 + 1) x 24 = 192 (no announcement).
    assert grand.mean_score == 192


def test_null_ouvert_hand_agrees_with_the_exact_count() -> None:
    hand = "C7 C8 C9 S7 S8 S9 H7 H8 H9 DT"
    exact = analyse(hand, declarer=0)
    truth = 1 - exact.worlds_lost / exact.worlds
    report = odds(hand, seat=0, games=["null-ouvert"], picked_up=False, worlds=60, seed=1, solver=Solver(tt_mb=TT))
    (option,) = report.options
    assert option.label == "null ouvert hand"
    assert 0 < option.wins < 60
    low, high = option.win_ci
    assert low <= truth <= high
    assert option.mean_score == (59 * option.wins - 118 * (60 - option.wins)) / 60


def test_null_ouvert_with_known_skat_agrees_with_the_exact_count_of_its_discard() -> None:
    hand, skat = "C7 C8 CQ S7 S8 S9 H7 H8 H9 D8", "DA CA"
    report = odds(hand, seat=0, skat=skat, games=["null-ouvert"], worlds=40, seed=2, solver=Solver(tt_mb=TT))
    (option,) = report.options
    assert option.discard is not None
    twelve = mask_of(parse_cards(hand)) | mask_of(parse_cards(skat))
    discard = mask_of(option.discard)
    exact = analyse(twelve & ~discard, declarer=0, skat=discard)
    truth = 1 - exact.worlds_lost / exact.worlds
    assert 0 < exact.worlds_lost < exact.worlds
    low, high = option.win_ci
    assert low <= truth <= high


# ---------------------------------------------------------------------------
# Brute force over the same worlds


def brute_outcome(solver: Solver, pos: Position) -> tuple[int, bool, bool]:
    value = solver.value(pos)
    assert value is not None
    return value, solver.declarer_takes_all(pos), solver.defenders_take_all(pos)


def brute_score(game: Game, hand: bool, twelve: int, bid: int, outcome: tuple[int, bool, bool]) -> tuple[int, bool]:
    value, takes_all, trickless = outcome
    sc = score_game(Declaration(game, hand=hand), matadors=matadors(game, twelve), points=value,
                    tricks=10 if takes_all else 0 if trickless else None, bid=bid)
    return sc.score, sc.declarer_wins


def tiny_view() -> View:
    """Forehand's view when he has seen every card but the skat and one of middlehand's: 3 worlds."""
    rng = random.Random(11)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [mask_of(deck[0:10]), mask_of(deck[10:20]), mask_of(deck[20:30])]
    hidden = mask_of(deck[19:20] + deck[30:32])
    view = hand_view(0, hands[0])
    return View(0, view.sizes, (hands[0], hands[1] & ~hidden, hands[2], 0), view.banned, hidden)


@pytest.mark.parametrize("points", [True, False])
def test_tiny_world_count_equals_brute_force_with_the_solver(points: bool) -> None:
    view = tiny_view()
    space = list(WorldSpace(view))
    assert len(space) == 3
    bid = 20
    report = odds(view, games=["clubs", "null"], worlds=50, bid=bid, solver=Solver(tt_mb=TT), points=points)
    assert report.exact and report.evaluated == 3 and report.worlds == 3
    solver = Solver(tt_mb=TT)
    hand = view.known[0]
    options = {o.label: o for o in report.options}
    assert set(options) == {"clubs", "clubs hand", "null", "null hand"}
    for option in options.values():
        assert option.win_ci == [option.win, option.win]            # every world evaluated: no interval
    clubs_hand = [brute_outcome(solver, Position(Game.CLUBS, 0, list(w.hands), w.skat)) for w in space]
    scored = [brute_score(Game.CLUBS, True, hand | w.skat, bid, o) for w, o in zip(space, clubs_hand, strict=True)]
    assert options["clubs hand"].wins == sum(won for _, won in scored)
    assert options["clubs hand"].total_score == sum(s for s, _ in scored)
    assert options["clubs hand"].total_points == (sum(o[0] for o in clubs_hand) if points else None)
    assert options["clubs hand"].schneider == sum(o[0] >= 90 for o in clubs_hand)
    assert options["clubs hand"].schwarzed == sum(o[2] for o in clubs_hand)
    picked_scores, picked_points, picked_schneidered = 0, 0, 0
    for w in space:
        twelve = hand | w.skat
        best = None
        for pair in combinations(cards_of(twelve), 2):
            dmask = mask_of(pair)
            hands = list(w.hands)
            hands[0] = twelve & ~dmask
            outcome = brute_outcome(solver, Position(Game.CLUBS, 0, hands, dmask))
            key = (brute_score(Game.CLUBS, False, twelve, bid, outcome)[0], outcome[0])
            best = key if best is None else max(best, key)
        assert best is not None
        picked_scores += best[0]
        picked_points += best[1]
        picked_schneidered += best[1] <= 30
    assert options["clubs"].total_score == picked_scores
    assert options["clubs"].total_points == (picked_points if points else None)
    assert options["clubs"].schneidered == picked_schneidered
    null_wins = sum(solver.declarer_wins(Position(Game.NULL, 0, list(w.hands), w.skat)) for w in space)
    assert options["null hand"].wins == null_wins


@pytest.mark.parametrize("points", [True, False])
def test_known_skat_ranking_equals_brute_force_over_every_discard(points: bool) -> None:
    hand, skat, seed, n = mask_of(parse_cards(HAND)), mask_of(parse_cards("S7 D7")), 5, 2
    report = odds(hand, seat=1, skat=skat, games=["spades"], worlds=n, seed=seed, bid=22, solver=Solver(tt_mb=TT),
                  points=points)
    (option,) = report.options
    worlds, _ = choose_worlds(hand_view(1, hand, skat), n, random.Random(seed))
    solver = Solver(tt_mb=TT)
    twelve = hand | skat
    totals = {}
    for pair in combinations(display_sorted(cards_of(twelve)), 2):
        dmask = mask_of(pair)
        rows = []
        for w in worlds:
            hands = list(w.hands)
            hands[1] = twelve & ~dmask
            outcome = brute_outcome(solver, Position(Game.SPADES, 1, hands, dmask))
            rows.append((*brute_score(Game.SPADES, False, twelve, 22, outcome), outcome))
        totals[pair] = rows
    ranking = sorted(totals, key=lambda p: (-sum(r[0] for r in totals[p]), discard_order_key(p)))
    top = totals[ranking[0]]
    assert tuple(option.discard or ()) == ranking[0]
    assert option.total_score == sum(r[0] for r in top) and option.wins == sum(r[1] for r in top)
    assert option.total_points == (sum(r[2][0] for r in top) if points else None)
    assert option.schneider == sum(r[2][0] >= 90 for r in top)
    assert option.alternatives is not None and len(option.alternatives) == 2
    shown = [tuple(option.discard or ())] + [tuple(a.discard) for a in option.alternatives]
    for alt in option.alternatives:
        rows = totals[tuple(alt.discard)]  # type: ignore[index]
        assert alt.total_score == sum(r[0] for r in rows) and alt.wins == sum(r[1] for r in rows)
    third = option.alternatives[-1].total_score
    classes = discard_classes(Game.SPADES, twelve, ALL_CARDS & ~twelve)
    shown_members = {m for c in classes if c.discard in shown for m in c.members}
    assert len({c.discard for c in classes if c.discard in shown}) == 3      # three different classes
    for pair, rows in totals.items():
        if pair not in shown_members:
            assert sum(r[0] for r in rows) <= third
    shown_totals = [sum(r[0] for r in totals[s]) for s in shown]
    assert shown_totals == sorted(shown_totals, reverse=True)


# ---------------------------------------------------------------------------
# Worlds, intervals, conditions


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)


def test_accept_conditions_the_worlds_by_rejection() -> None:
    view = hand_view(0, mask_of(parse_cards(HAND)))
    club_jack = parse_cards("SJ")[0]

    def middlehand_has_sj(world) -> bool:  # type: ignore[no-untyped-def]
        return bool(world.hands[1] >> club_jack & 1)

    worlds, exact, consistent = draw_worlds(view, 20, random.Random(4), middlehand_has_sj)
    assert len(worlds) == 20 and not exact and consistent == 42_678_636
    assert all(middlehand_has_sj(w) for w in worlds) and len({(w.hands, w.skat) for w in worlds}) == 20
    again, _, _ = draw_worlds(view, 20, random.Random(4), middlehand_has_sj)
    assert again == worlds
    with pytest.raises(WorldConditionError, match="too rare"):
        draw_worlds(view, 5, random.Random(4), lambda w: False, max_draws=50)
    report = odds(view, games=["grand"], picked_up=False, worlds=3, accept=middlehand_has_sj, solver=Solver(tt_mb=TT))
    assert report.evaluated == 3


def test_accept_on_a_small_space_tests_every_world() -> None:
    view = tiny_view()
    unseen = cards_of(view.unseen)
    worlds, exact, _ = draw_worlds(view, 10, random.Random(0), lambda w: bool(w.hands[1] >> unseen[0] & 1))
    assert exact and len(worlds) == 1


def test_api_errors() -> None:
    with pytest.raises(CardCountError):
        odds("CJ SJ", seat=0)
    with pytest.raises(DuplicateCardError):
        odds(HAND, seat=0, skat="CJ S7")
    with pytest.raises(SkatddError, match="no option left"):
        odds(HAND, seat=0, games=["null"], bid=60)
    view = hand_view(0, mask_of(parse_cards(HAND)))
    with pytest.raises(SkatddError):
        odds(View(0, view.sizes, view.known, view.banned, view.unseen, ((1, 5),)))
    assert view.known[SKAT] == 0


def test_left_out_nulls_below_the_bid() -> None:
    report = odds(HAND, seat=0, games=["null", "null-ouvert"], picked_up=False, worlds=2, bid=40, solver=Solver(tt_mb=TT))
    assert [o.label for o in report.options] == ["null ouvert hand"]
    assert report.left_out == ["null hand (value 35) cannot be declared after a bid of 40"]


# ---------------------------------------------------------------------------
# The command line


def test_text_report() -> None:
    result = run_cli(HAND, "--seat", "R", "--game", "grand", "--worlds", "3", "--tt-mb", str(TT), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Rearhand holds" in out and "3 of 42,678,636 consistent worlds" in out
    assert "grand hand" in out and "double-dummy" in out and "Recommendation:" in out
    assert "optimistic bound" in out


@pytest.mark.parametrize("args, token", [
    ([HAND + " D7", "--seat", "F"], "11 cards"),
    (["CJ CJ HJ CA CT CK C9 SA ST H7"], "twice"),
    ([HAND, "--seat", "F", "--worlds", "0"], "--worlds"),
    ([HAND, "--seat", "X"], "X"),
    ([HAND, "--seat", "F", "--skat", "CJ D7"], "CJ"),
    ([HAND, "--seat", "F", "--skat", "S7 D7", "--hand"], "--hand"),
    ([HAND, "--seat", "F", "--game", "Q"], "Q"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], token: str) -> None:
    if args[0].startswith("CJ CJ"):
        args = [*args, "--seat", "F"]
    result = run_cli(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 or lines[-1].startswith("Error:"), result.stderr
    assert token in result.stderr and "Traceback" not in result.stderr
