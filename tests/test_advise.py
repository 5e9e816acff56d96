"""Single-dummy advice (``skatdd advise``, ``analyse --worlds``) against brute force.

* late positions (three or fewer cards a hand): every consistent world is
  enumerated, and the set of worlds equals an independent enumeration (every
  split of the cards the mover cannot see that keeps the recorded play
  legal, with the skat and an ouvert declarer's hand hidden or seen as the
  declaration says); each card's win count and summed points equal the
  plain reference solver's over the same worlds, for every winning level
  (61, schneider and schwarz announced, null);
* a position with one consistent world gives the double-dummy answer;
* the same seed gives the same output with one or two worker processes, for
  ``advise``, ``analyse --worlds`` and a file of games;
* the ``analyse --worlds`` fields and summary, and that without ``--worlds``
  nothing changes;
* bad input exits 2 with one line.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from skatdd.analysis.advise.api import WinRule, advise, best_cards, judge_analysis, mover_view
from skatdd.analysis.analyse.api import analyse_iss
from skatdd.analysis.worlds.space import SKAT, WorldSpace
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.core.scoring import Declaration
from skatdd.engine.reference import reference_can_take_all, reference_card_values
from skatdd.engine.solve import Solver
from skatdd.tools.generate import random_deal
from test_worlds import replayable_splits

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
RECORDS = [line for line in FIXTURES.read_text().splitlines() if line.strip()]
GAME_541932 = next(r for r in RECORDS if "ID[541932]" in r)  # diamonds, 30 cards
NULL_RECORD = next(r for r in RECORDS if "ID[1390253]" in r)


def random_position(rng: random.Random, game: Game, cards_played: int) -> Position:
    """A random deal played on with random legal cards, redealt until the game is still on (null)."""
    while True:
        hands, skat = random_deal(rng)
        pos = Position(game, rng.randrange(3), list(hands), skat)
        for _ in range(cards_played):
            pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            return pos


def declaration_for(game: Game, variant: int) -> Declaration:
    """Picked up, hand, schneider announced, schwarz announced, ouvert; null: plain, hand, ouvert."""
    if game.is_null:
        return [Declaration(game), Declaration(game, hand=True), Declaration(game, ouvert=True)][variant % 3]
    return [
        Declaration(game), Declaration(game, hand=True), Declaration(game, hand=True, schneider=True),
        Declaration(game, hand=True, schwarz=True), Declaration(game, ouvert=True),
    ][variant % 5]


def independent_worlds(pos: Position, declaration: Declaration) -> set[tuple[int, int, int, int]]:
    """Every split of what the mover cannot see that keeps the play legal (no use of skatdd.analysis.worlds)."""
    seat = pos.to_move
    seen = {seat}
    if seat == pos.declarer and not declaration.hand:
        seen.add(SKAT)
    if declaration.ouvert and seat != pos.declarer:
        seen.add(pos.declarer)
    held = [pos.hands[0], pos.hands[1], pos.hands[2], pos.skat]
    return replayable_splits(pos, [p for p in range(4) if p not in seen and held[p]])


def brute_force(pos: Position, worlds: set[tuple[int, int, int, int]], rule: WinRule) -> dict[int, tuple[int, int]]:
    """``{card: (wins, summed points)}`` over *worlds* with the plain reference solver."""
    totals: dict[int, tuple[int, int]] = {}
    for a, b, c, skat in worlds:
        world = Position(pos.game, pos.declarer, [a, b, c], skat, pos.leader, list(pos.trick),
                         pos.declarer_points, pos.declarer_tricks, pos.defender_tricks)
        for card, value in reference_card_values(world).items():
            if rule.kind == "null":
                won, points = bool(value), 0
            else:
                assert not isinstance(value, bool)
                points = value
                if rule.kind == "schwarz":
                    world.play(card)
                    won = world.defender_tricks == 0 and reference_can_take_all(world, True)
                    world.undo()
                else:
                    won = value >= rule.points
            wins, total = totals.get(card, (0, 0))
            totals[card] = (wins + won, total + points)
    return totals


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_mb=16)


@pytest.mark.parametrize("seed", range(24))
def test_late_positions_match_brute_force_over_every_world(seed, solver):
    rng = random.Random(1000 + seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    pos = random_position(rng, game, 21 + seed % 4 + (3 if seed % 3 == 0 else 0))  # 1 to 3 cards a hand
    declaration = declaration_for(game, seed // len(ALL_GAMES) + seed)
    rule = WinRule.of(declaration)
    expected_worlds = independent_worlds(pos, declaration)
    space = WorldSpace(mover_view(pos, declaration))
    assert {(*w.hands, w.skat) for w in space} == expected_worlds
    for world in space:  # never reassigned: the mover's cards, and whatever he sees
        assert world.hands[pos.to_move] == pos.hands[pos.to_move]
    advice = advise(pos, declaration, worlds=10**6, seed=seed, solver=solver)
    assert advice.exact and advice.worlds == advice.evaluated == len(expected_worlds)
    truth = brute_force(pos, expected_worlds, rule)
    assert {c.card for c in advice.cards} == set(truth)
    for card in advice.cards:
        wins, points = truth[card.card]
        assert card.wins == wins
        assert card.win == wins / len(expected_worlds)
        if game.is_null:
            assert card.mean_value is None
        else:
            assert card.points == points
            assert card.mean_value == points / len(expected_worlds)
    mover_declares = pos.to_move == pos.declarer
    keys = {card: (w, 0 if game.is_null else p) for card, (w, p) in truth.items()}
    target = max(keys.values()) if mover_declares else min(keys.values())
    assert set(advice.best) == {card for card, key in keys.items() if key == target}


def test_one_consistent_world_gives_the_double_dummy_answer(solver):
    rng = random.Random(7)
    found = 0
    while found < 6:
        game = rng.choice([Game.GRAND, Game.CLUBS, Game.HEARTS, Game.NULL])
        pos = random_position(rng, game, rng.randrange(12, 27))
        declaration = Declaration(game)
        if WorldSpace(mover_view(pos, declaration)).size != 1:
            continue
        found += 1
        advice = advise(pos, declaration, worlds=5, seed=1, solver=solver)
        assert advice.exact and advice.worlds == advice.evaluated == 1
        for card, value in solver.card_values(pos).items():
            got = advice.card(card)
            assert got.win == float(value.declarer_wins)
            assert got.mean_value == (None if game.is_null else float(value.value or 0))


def test_what_each_player_sees():
    pos = Position(Game.SPADES, 0, *random_deal(random.Random(3)))
    unseen_skat = mover_view(pos, Declaration(Game.SPADES, hand=True))
    assert unseen_skat.known[SKAT] == 0 and unseen_skat.needs[SKAT] == 2
    picked_up = mover_view(pos, Declaration(Game.SPADES))
    assert picked_up.known[SKAT] == pos.skat
    pos.play(pos.legal_moves()[0])  # now a defender moves: the skat is hidden, the declarer's hand too
    defender = mover_view(pos, Declaration(Game.SPADES))
    assert defender.known[SKAT] == 0 and defender.known[0] == 0
    ouvert = mover_view(pos, Declaration(Game.SPADES, ouvert=True))
    assert ouvert.known[0] == pos.hands[0] and ouvert.known[SKAT] == 0


def test_best_cards_follow_the_movers_side():
    from skatdd.analysis.advise.api import CardAdvice

    cards = [CardAdvice(1, 3, 200, 5), CardAdvice(2, 3, 210, 5), CardAdvice(3, 1, 250, 5)]
    assert best_cards(cards, True) == [2]
    assert best_cards(cards, False) == [3]


# --------------------------------------------------------------------------- analyse --worlds


@pytest.fixture(scope="module")
def judged():
    solver = Solver(tt_mb=32)
    analysis = analyse_iss(GAME_541932, solver=solver, review=False)
    return judge_analysis(analysis, worlds=4, seed=3, solver=solver)


def test_analyse_worlds_fields(judged):
    out = judged.to_json()
    plays = out["plays"]
    assert len(plays) == 30
    for i, play in enumerate(plays):
        assert 0 <= play["sd_win"] <= 1 and 0 <= play["sd_mean_value"] <= 120
        assert play["sd_cost"]["win"] >= 0 and play["sd_cost"]["points"] >= 0
        assert (play["sd_cost"]["win"] == 0 and play["sd_cost"]["points"] == 0) == (play["card"] in play["sd_best"])
        assert play["sd_worlds"] >= play["sd_evaluated"] == min(4, play["sd_worlds"])
        sd = judged.single_dummy.plays[i]
        assert sd.seat == play["seat"]
    summary = out["summary"]
    costs = [0.0, 0.0, 0.0]
    for play in plays:
        costs[play["seat"]] += play["sd_cost"]["win"]
    assert summary["sd_costs"] == pytest.approx(costs)
    mistakes = [i for i, play in enumerate(plays) if play["sd_cost"]["win"] > 0]
    assert summary["sd_first_mistake"] == (mistakes[0] if mistakes else None)
    # The last card of the game is forced and seen by everyone: no cost, a known outcome.
    assert plays[-1]["sd_cost"] == {"win": 0, "points": 0} and plays[-1]["sd_worlds"] == 1


def test_analyse_sd_numbers_are_advise_numbers(judged):
    """Where every world was solved, card i's numbers are advise's from the position before it."""
    analysis = judged
    pos = analysis.start.copy()
    compared = 0
    for play, sd in zip(analysis.plays, analysis.single_dummy.plays, strict=True):
        if sd.exact:
            advice = advise(pos, analysis.declaration, worlds=10**6, seed=1)
            card = advice.card(play.card)
            assert (sd.win, sd.mean_value, sd.worlds) == (card.win, card.mean_value, advice.worlds)
            assert list(sd.best) == advice.best
            compared += 1
        pos.play(play.card)
    assert compared >= 3


def test_a_game_without_cards_and_json_after(solver, tmp_path):
    record = next(r for r in RECORDS if "ID[18358]" in r)  # declared, then no card played
    analysis = judge_analysis(analyse_iss(record, solver=solver, review=False), worlds=5, seed=1,
                              jobs=2)
    summary = analysis.to_json()["summary"]
    assert summary["sd_costs"] == [0, 0, 0] and summary["sd_first_mistake"] is None
    from skatdd.formats.readers import load_deal

    spec = load_deal(GAME_541932)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(spec.to_json()))
    after = run("advise", str(path), "--after", "27", "--json", "--jobs", "1")
    record_after = run("advise", GAME_541932, "--after", "27", "--json", "--jobs", "1")
    assert after.returncode == 0, after.stderr
    assert without_timing(after.stdout) == without_timing(record_after.stdout)
    assert json.loads(after.stdout)["exact"] is True


def test_null_game_has_no_points(solver):
    analysis = analyse_iss(NULL_RECORD, solver=solver, review=False)
    judge_analysis(analysis, worlds=3, seed=1, solver=solver)
    for play in analysis.to_json()["plays"]:
        assert play["sd_mean_value"] is None and play["sd_cost"]["points"] == 0


# --------------------------------------------------------------------------- the command line


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, input=stdin,
                          timeout=300)


def without_timing(text: str) -> str:
    obj = json.loads(text)
    for key in ("nodes", "seconds"):
        obj.pop(key, None)
    return json.dumps(obj, sort_keys=True)


def test_advise_same_seed_same_output_whatever_jobs():
    args = ["advise", GAME_541932, "--after", "4", "--worlds", "6", "--seed", "5", "--json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert without_timing(one.stdout) == without_timing(two.stdout)
    obj = json.loads(one.stdout)
    assert obj["exact"] is False and obj["evaluated"] == 6 and obj["worlds"] > 6 and obj["seat"] == 0
    other = run(*args[:-3], "--seed", "6", "--json", "--jobs", "1")
    assert without_timing(other.stdout) != without_timing(one.stdout)


def test_advise_text_and_deal_text():
    deal = ("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
            "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ")
    played = "HA S9 H7 DA C9 DJ C7 D7 CQ HT ST H8 HK SK"  # middlehand shows no hearts and no trumps
    result = run("advise", deal, "--game", "diamonds", "--declarer", "F", "--played", played, "--worlds", "50",
                 "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert "What rearhand (defender) sees:" in result.stdout
    assert "Best for the defenders:" in result.stdout
    assert "forehand: ♣; middlehand: trumps, ♥" in result.stdout  # the voids shown
    assert "all 21 consistent" in result.stdout


def test_analyse_worlds_jobs_and_files_agree(tmp_path):
    # A partial game keeps this quick: the first six cards of the diamonds game.
    from skatdd.formats.readers import load_deal

    spec = load_deal(GAME_541932)
    spec.played = spec.played[:6]
    game = json.dumps(spec.to_json())
    args = ["analyse", game, "--worlds", "3", "--seed", "2", "--no-review", "--json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert without_timing(one.stdout) == without_timing(two.stdout)
    single = json.loads(one.stdout)
    assert all("sd_win" in play for play in single["plays"])
    path = tmp_path / "games.jsonl"
    path.write_text(game + "\n" + game + "\n")
    files = [run("analyse", str(path), "--worlds", "3", "--seed", "2", "--no-review", "--jobs", j) for j in "12"]
    assert files[0].returncode == files[1].returncode == 0
    lines = [[without_timing(line) for line in f.stdout.splitlines()] for f in files]
    assert lines[0] == lines[1] and lines[0][0] == lines[0][1] == without_timing(one.stdout)
    plain = run("analyse", game, "--no-review", "--json")
    assert "sd_" not in plain.stdout
    text = run("analyse", game, "--worlds", "3", "--no-review", "--jobs", "1")
    assert "sd win" in text.stdout and "Single-dummy" in text.stdout


@pytest.mark.parametrize("args, token", [
    (["--worlds", "0"], "--worlds"),
    (["--after", "31"], "--after 31"),
    (["--after", "30"], "game is over"),
    (["--after", "2", "--played", "XX"], "XX"),
    (["--after", "2", "--played", "CJ"], "CJ"),
])
def test_advise_bad_input_exits_2_with_one_line(args, token):
    result = run("advise", GAME_541932, *args)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and token in errors[0] and "Traceback" not in result.stderr


def test_analyse_bad_worlds_exits_2():
    result = run("analyse", GAME_541932, "--worlds", "0")
    assert result.returncode == 2 and "--worlds" in result.stderr and "Traceback" not in result.stderr
