"""``skatdd bid``: brute force over the same worlds, agreement with ``odds --skat``, the known answers, bad input."""
from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

import skatdd.analysis.bid.api as bid_module
from cli_runner import ROOT, default_ctrl_c, run_skatdd
from skatdd.analysis.best.api import GAME_ORDER
from skatdd.analysis.best.discards import all_discards
from skatdd.analysis.bid.api import PICK_UP, BidReport, _Table, bid, bid_ladder, check_counts, draw_skats
from skatdd.analysis.odds.api import odds
from skatdd.analysis.worlds.draw import WorldCountError
from skatdd.core.cards import card_name, mask_of, parse_cards
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.solve import Solver
from skatdd.present.bid import ladder_rows

HAND = "CJ HJ CA CT CK C9 SA ST H7 D8"
TT = 16


def small(hand: str = HAND, seat: int = 1, **kwargs: Any) -> BidReport:
    options: dict[str, Any] = {"skats": 2, "worlds": 2, "seed": 1, "solver": Solver(tt_mb=TT), **kwargs}
    return bid(hand, seat=seat, **options)


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ("nodes", "seconds")}


# ---------------------------------------------------------------------------
# The ladder


def test_the_ladder_is_every_game_value() -> None:
    ladder = bid_ladder()
    assert ladder[:10] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)
    assert ladder[-3:] == (216, 240, 264) and len(ladder) == 63
    assert {23, 35, 46, 59} <= set(ladder) and 19 not in ladder and 21 not in ladder


# ---------------------------------------------------------------------------
# Brute force: every discard of every game solved exactly in every world


def _exact(solver: Solver, pos: Position) -> tuple[int, int | None]:
    """(points, tricks for score_game) of a suit or grand position."""
    value = solver.value(pos)
    assert value is not None
    tricks = 10 if solver.declarer_takes_all(pos) else 0 if solver.defenders_take_all(pos) else None
    return value, tricks


def _brute(hand: str, seat: int, skats: int, worlds: int, seed: int) -> dict[str, Any]:
    """Per skat, per world: every hand declaration's and every (game, discard)'s exact play, by plain search."""
    hand_mask = mask_of(parse_cards(hand))
    draws, _ = draw_skats(seat, hand_mask, skats, worlds, random.Random(seed))
    solver = Solver(tt_mb=TT)
    out = []
    for d in draws:
        twelve = hand_mask | d.skat
        per_world = []
        for w in d.worlds:
            def position(game: Game, own: int, w: Any = w, twelve: int = twelve) -> Position:
                hands = list(w.hands)
                hands[seat] = own
                return Position(game, seat, hands, twelve & ~own, leader=0)
            games: dict[Game, Any] = {}
            for game in GAME_ORDER:
                plays = []
                for pair in all_discards(twelve):
                    own = twelve & ~mask_of(pair)
                    pos = position(game, own)
                    plays.append(solver.declarer_wins(pos) if game.is_null else _exact(solver, pos))
                hand_pos = position(game, hand_mask)
                hand_play = solver.declarer_wins(hand_pos) if game.is_null else _exact(solver, hand_pos)
                games[game] = (hand_play, plays)
            per_world.append(games)
        out.append((twelve, per_world))
    return {"draws": out}


def _score(decl: Declaration, twelve: int, play: Any, bid_value: int) -> tuple[int, int, bool]:
    if decl.game.is_null:
        sc = score_game(decl, tricks=0 if play else 1, bid=bid_value)
    else:
        sc = score_game(decl, matadors=matadors(decl.game, twelve), points=play[0], tricks=play[1], bid=bid_value)
    return sc.score, sc.seeger, sc.declarer_wins


def test_every_figure_equals_brute_force_over_the_same_worlds() -> None:
    seed, skats, worlds = 4, 2, 2
    report = small(skats=skats, worlds=worlds, seed=seed)
    brute = _brute(HAND, 1, skats, worlds, seed)
    table = _Table(report.skats, worlds, picked_up=True)
    assert [lv.bid for lv in report.levels] == [b for b in bid_ladder() if b <= report.levels[-1].bid]
    best_means: dict[bool, list[float]] = {False: [], True: []}
    for level in report.levels:
        b = level.bid
        for tournament in (False, True):
            k = 1 if tournament else 0
            candidates: list[int] = []  # every declaration's total over all the worlds, in this scoring
            pick_up_total = 0
            # The honest pick-up: per skat, the contract and discard with the highest total at this bid.
            for s, (twelve, per_world) in zip(report.skats, brute["draws"], strict=True):
                best: tuple[int, str, tuple[int, int, int]] | None = None
                for game in GAME_ORDER:
                    for ouvert in (False, True) if game.is_null else (False,):
                        decl = Declaration(game, ouvert=ouvert)
                        if game.is_null and score_game(decl, tricks=0).game_value < b:
                            continue
                        for i in range(66):
                            rows = [_score(decl, twelve, games[game][1][i], b) for games in per_world]
                            totals = (sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows))
                            if best is None or totals[k] > best[0]:
                                best = (totals[k], str(decl), totals)
                assert best is not None
                assert s.picked_up(b, tournament) == (best[1], *best[2]), (b, tournament)
                pick_up_total += best[0]
            candidates.append(pick_up_total)
            # Every hand declaration, summed per skat.
            for decl in table.hand_decls:
                if decl.game.is_null and score_game(decl, tricks=0).game_value < b:
                    continue
                expected = []
                for twelve, per_world in brute["draws"]:
                    rows = [_score(decl, twelve, games[decl.game][0], b) for games in per_world]
                    expected.append((sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows)))
                assert table.hand_totals(decl, b) == expected, (decl, b)
                candidates.append(sum(e[k] for e in expected))
            # The best mean in this scoring is the best declaration's, and the table shows it.
            best_means[tournament].append(max(candidates) / (skats * worlds))
            assert level.picks[tournament].mean(tournament) == pytest.approx(best_means[tournament][-1]), b
    # A higher bid only removes declarations and lowers scores: no scoring's best mean rises with the bid.
    for tournament, means in best_means.items():
        assert all(a >= b for a, b in itertools.pairwise(means)), (tournament, means)
    # The per-world bound at bid 18: the best discard of each world.
    for option in report.options:
        if option.decl.hand:
            continue
        rows = []
        for twelve, per_world in brute["draws"]:
            for games in per_world:
                rows.append(max(_score(option.decl, twelve, play, 18) for play in games[option.decl.game][1]))
        n = len(rows)
        assert option.optimistic_score == pytest.approx(sum(r[0] for r in rows) / n)
        assert option.optimistic_win == pytest.approx(sum(r[2] for r in rows) / n)


# ---------------------------------------------------------------------------
# Agreement with odds --skat


def test_each_skat_agrees_with_odds_known_skat_on_the_same_worlds() -> None:
    report = small(skats=3, worlds=5, seed=2, scoring="list")
    for entry in report.per_skat():
        known = odds(HAND, seat=1, skat=entry["skat"], worlds=5, seed=entry["seed"], solver=Solver(tt_mb=TT))
        theirs = [{"game": o.label, "discard": [card_name(c) for c in o.discard or []], "win": round(o.win, 6),
                   "mean_score": round(o.mean_score, 4)} for o in known.options]
        assert entry["games"] == theirs
        rec = known.recommendation
        if rec is not None:
            assert entry["choice"] == rec.label


# ---------------------------------------------------------------------------
# Properties and known answers


@pytest.mark.parametrize(("hand", "seat"), [(HAND, 1), ("CJ SJ SA ST S9 HA HK D7 D8 C7", 1),
                                            ("SJ DJ CA CT C8 ST SK S8 S7 D7", 0)])
def test_honest_pick_up_never_beats_the_per_world_bound(hand: str, seat: int) -> None:
    report = small(hand, seat, skats=3, worlds=3, seed=5)
    picked = [o for o in report.options if not o.decl.hand]
    assert len(picked) == 7
    for option in picked:
        assert option.optimistic_win is not None and option.optimistic_score is not None
        assert option.win <= option.optimistic_win + 1e-12, option
        assert option.score <= option.optimistic_score + 1e-9, option
        assert option.optimistic_tournament is not None and option.tournament <= option.optimistic_tournament + 1e-9
    if hand.startswith("CJ SJ SA"):  # the two-jack grand from middle hand shows the gap even on 3 worlds a skat
        grand = picked[0]
        assert grand.decl.game == Game.GRAND and grand.optimistic_score is not None
        assert grand.score < grand.optimistic_score


def test_best_mean_never_rises_with_the_bid() -> None:
    report = small(skats=3, worlds=3, seed=3)
    assert len(report.levels) > 5
    for tournament in (False, True):
        means = [lv.picks[tournament].mean(tournament) for lv in report.levels]
        assert all(a >= b for a, b in itertools.pairwise(means)), means
    # Beyond the answer every bid loses on average.
    for tournament in (False, True):
        top = report.max_bid(tournament)
        assert top is not None
        assert all((lv.picks[tournament].mean(tournament) > 0) == (lv.bid <= top) for lv in report.levels)


def test_no_mean_column_of_the_table_rises_with_the_bid() -> None:
    """Each half of the table shows the mean its scoring chose by; no such column rises with the bid.

    Here the list choice's Seeger-Fabian points rise (76.0 at 55, 86.4 at 59,
    where grand hand replaces a pick-up that scores better in list scoring):
    the table showed them in the list half, a "points" column that rose.
    """
    report = small(skats=3, worlds=3, seed=2)
    cross = [lv.picks[False].tournament for lv in report.levels]
    assert any(b > a for a, b in itertools.pairwise(cross)), cross  # the other scoring's figure may rise (--json)
    for scoring in ("both", "list", "tournament"):
        header, rows, _ = ladder_rows(small(skats=3, worlds=3, seed=2, scoring=scoring))
        means = [k for k, name in enumerate(header) if name in ("score", "points")]
        assert means, header
        for k in means:
            column = [float(row[k]) for row in rows]
            assert all(a >= b for a, b in itertools.pairwise(column)), (scoring, header[k], column)


def test_four_jacks_and_top_clubs_bid_to_grand_ouvert_and_play_grand_hand() -> None:
    report = small("CJ SJ HJ DJ CA CT CK CQ C9 C8", 0, skats=3, worlds=3)
    for tournament in (False, True):
        assert report.max_bid(tournament) == 264        # grand ouvert with 4: 11 x 24
        played = report.play(tournament)
        assert played is not None
        pick, rule = played
        assert pick.decl == Declaration(Game.GRAND, ouvert=True) and pick.hand and rule is None
        assert pick.win == 1.0 and pick.score == 264
    assert report.levels[-1].bid == 264
    assert all(lv.picks[False].label == "grand ouvert" for lv in report.levels)
    payload = report.to_json()
    assert payload["max_bid"] == {"score": 264, "tournament": 264}
    assert payload["play"]["score"]["game"] == "grand" and payload["play"]["score"]["hand"] is True


def test_hand_without_jack_ace_or_safe_null_suit_passes() -> None:
    report = small("CT CK CQ ST SK SQ HT HK HQ DT", 2, skats=3, worlds=3)
    assert report.max_bid(False) is None and report.max_bid(True) is None
    assert report.play(False) is None
    assert report.to_json()["max_bid"] == {"score": None, "tournament": None}
    assert report.stegen.bid is None


def test_hand_games_alone_are_the_full_runs_hand_rows() -> None:
    full = small(skats=2, worlds=3, seed=9).to_json()
    alone = small(skats=2, worlds=3, seed=9, hand_only=True).to_json()
    assert [o for o in full["options"] if o["hand"]] == alone["options"]
    assert alone["picked_up"] is False and alone["per_skat"] == []
    assert all(lv["best"] != PICK_UP for lv in alone["levels"])


def test_a_pick_up_answer_says_what_the_skat_changes() -> None:
    report = small(skats=6, worlds=2, seed=1, scoring="list")
    lv = next(lv for lv in report.levels if lv.picks[False].label == PICK_UP)
    pick = lv.picks[False]
    assert pick.choices is not None and len(pick.choices) == 6 and sum((pick.games or {}).values()) == 6
    payload = report.to_json()
    assert payload["scoring"] == "list" and "by_tournament" not in payload["levels"][0]
    assert payload["max_bid"]["tournament"] is None and payload["play"]["tournament"] is None
    answer = payload["play"]["score"]
    if answer["best"] == PICK_UP:
        assert answer["skat_rule"] and 0 < answer["skat_rule_fits"] <= 6


def test_json_fields() -> None:
    payload = small().to_json()
    for key in ("levels", "max_bid", "options", "stegen", "play", "per_skat", "skats", "worlds", "seed"):
        assert key in payload
    level = payload["levels"][0]
    assert level["bid"] == 18
    for key in ("best", "hand", "win", "score", "tournament", "by_tournament"):
        assert key in level
    picked = [o for o in payload["options"] if not o["hand"]]
    assert picked and all("honest_win" in o and "optimistic_win" in o for o in picked)
    assert all("honest_win" not in o for o in payload["options"] if o["hand"])
    assert payload["stegen"]["threshold"] == 10


# ---------------------------------------------------------------------------
# The command line


def test_same_seed_same_output_whatever_jobs() -> None:
    args = [HAND, "--seat", "M", "--skats", "3", "--worlds", "2", "--tt-mb", str(TT), "--json"]
    one = run_skatdd("bid", *args, "--seed", "5", "--jobs", "1")
    two = run_skatdd("bid", *args, "--seed", "5", "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert without_timing(a) == without_timing(b)
    # Every task starts from an emptied table, so even the node count does not depend on which worker ran what.
    assert a["nodes"] == b["nodes"] > 0
    other = run_skatdd("bid", *args, "--seed", "6", "--jobs", "1")
    assert [s["skat"] for s in json.loads(other.stdout)["per_skat"]] != [s["skat"] for s in a["per_skat"]]


def test_text_report() -> None:
    run = run_skatdd("bid", HAND, "--seat", "M", "--skats", "2", "--worlds", "2", "--tt-mb", str(TT), "--jobs", "1")
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert text.startswith("Middlehand holds ♣J ♥J")
    for phrase in ("2 of 231 skats drawn at random (seed 1), 2 worlds each", "list: best declaration",
                   "Answer (list scoring):", "Answer (tournament scoring):", "per-world bound", "Stegen count: 12",
                   "Double-dummy"):
        assert phrase in text, phrase


@pytest.mark.parametrize(("args", "token"), [
    (["CJ HJ CA CT CK C9 SA ST H7", "--seat", "M"], "9 cards"),
    (["CJ CJ CA CT CK C9 SA ST H7 D8", "--seat", "M"], "CJ"),
    ([HAND, "--seat", "X"], "X"),
    ([HAND, "--seat", "M", "--worlds", "0"], "--worlds 0"),
    ([HAND, "--seat", "M", "--skats", "0"], "--skats 0"),
    (["CJ HJ CA CT CK C9 SA ST H7 QQ", "--seat", "M"], "QQ"),
    ([HAND, "--seat", "F", "--skats", "1", "--worlds", "1000000000", "--jobs", "1"], "--worlds 1000000000"),
    ([HAND, "--seat", "F", "--skats", "231", "--worlds", "5000", "--jobs", "1"], "--skats 231 x --worlds 5000"),
    ([HAND, "--seat", "F", "--skats", str(10 ** 12), "--worlds", "4400"], "1,016,400 worlds"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], token: str) -> None:
    run = run_skatdd("bid", *args)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert token in lines[0], lines[0]
    assert run.stdout == ""


def test_counts_are_bounded_as_odds_bounds_them() -> None:
    with pytest.raises(WorldCountError, match="at most 5,000"):
        bid(HAND, seat=1, skats=1, worlds=5001)
    with pytest.raises(WorldCountError, match="at most 1,000,000"):
        bid(HAND, seat=1, skats=201, worlds=5000)
    check_counts(200, 5000)  # the largest runs are taken
    check_counts(10 ** 12, 4329)


def test_memory_does_not_grow_with_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worlds are drawn skat by skat as the tasks are solved, and each skat keeps counts, not one entry a world."""
    drawn: list[int] = []
    seen: list[tuple[int, int]] = []
    real_worlds, real_handle = bid_module.skat_worlds, bid_module.handle

    def counting_worlds(*args: Any) -> Any:
        drawn.append(args[2])
        return real_worlds(*args)

    def watching_handle(solver: Solver, line: int, raw: Any, *, job: Any) -> Any:
        seen.append((line, len(drawn)))
        return real_handle(solver, line, raw, job=job)

    monkeypatch.setattr(bid_module, "skat_worlds", counting_worlds)
    monkeypatch.setattr(bid_module, "handle", watching_handle)
    report = small(skats=4, worlds=30, seed=3, hand_only=True, jobs=1)
    games = len(GAME_ORDER)
    assert len(drawn) == 4 and len(seen) == 4 * games
    # When task i runs, only the skats up to its own have had their worlds drawn.
    assert all(skats_drawn == (line - 1) // games + 1 for line, skats_drawn in seen), seen
    for s in report.skats:
        assert s.worlds == 30
        for result in s.games.values():
            assert sum(result.hand.values()) == 30 and len(result.hand) <= 6  # at most the six bands


def test_ctrl_c_stops_cleanly() -> None:
    # 40 skats x 20 worlds take tens of seconds: the signal arrives while the workers are busy.
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "bid", HAND, "--seat", "M", "--skats", "40", "--jobs", "2",
                             "--tt-mb", str(TT)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
                            preexec_fn=default_ctrl_c)
    time.sleep(2.0)
    if proc.poll() is not None:
        pytest.skip("the run ended before the signal")
    os.killpg(proc.pid, signal.SIGINT)  # like Ctrl-C on a terminal: the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert out == "" and err.strip().splitlines()[-1].startswith("Interrupted") and "Traceback" not in err
