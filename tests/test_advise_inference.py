"""``advise`` and ``analyse --worlds`` with ``--inference`` and ``--honest``, and the batched world runner.

* a decision's worlds in one engine call give every world's results and
  nodes exactly as world by world (every winning level, schwarz included);
* with inference the card numbers are the weighted means under the model's
  weights (the bidding's likelihoods when every world is solved; a passed
  seat holding a grand weighs less);
* the same seed gives the same output with one and two worker processes;
* ``honest_win`` equals a brute force over every declarer strategy on small
  positions and is never above PIMC's win fraction (hypothesis, bounded);
* the text marks an honest best card that is not PIMC's;
* bad options exit 2 with one line naming the token.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_runner import run_skatdd
from honest_brute import brute_honest
from skatdd.analysis.advise.api import WinRule, advise, mover_view, world_position
from skatdd.analysis.inference.api import Evidence, bid_weighted_worlds
from skatdd.analysis.inference.bids import auction_likelihood
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import WorldSpace
from skatdd.analysis.worlds.values import card_results, card_results_many
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame, iter_iss
from skatdd.present.advise import advice_lines
from test_honest import endgame

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
GAMES = [g for _, g in iter_iss(FIXTURES.read_text()) if isinstance(g, IssGame) and g.declaration is not None]
GAME_541932 = next(g for g in GAMES if str(g.id) == "541932")  # diamonds, 30 cards, declarer rearhand
RECORD_541932 = next(line for line in FIXTURES.read_text().splitlines() if "ID[541932]" in line)


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_mb=16)


def _after(game: IssGame, cards: int) -> Position:
    pos = game.start_position()
    for _, card in game.plays[:cards]:
        pos.play(card)
    return pos


def _without_timing(obj: dict) -> dict:
    obj = dict(obj)
    obj.pop("seconds", None)
    if isinstance(obj.get("honest"), dict):
        obj["honest"] = {k: v for k, v in obj["honest"].items() if k != "seconds"}
    return obj


# --------------------------------------------------------------------------- the batched runner


@pytest.mark.parametrize("announce", ["none", "schneider", "schwarz"])
def test_one_engine_call_equals_world_by_world(solver: Solver, announce: str) -> None:
    for game in GAMES[:6]:
        assert game.declaration is not None
        decl = game.declaration
        if not decl.game.is_null and announce != "none":
            decl = Declaration(decl.game, hand=True, schneider=True, schwarz=announce == "schwarz")
        for cards in (0, 7, 21):
            pos = _after(game, cards)
            if pos.is_over():
                continue
            worlds, _ = choose_worlds(mover_view(pos, decl), 12, random.Random(cards))
            public = world_position(pos, worlds[0])
            rule = WinRule.of(decl)
            many, nodes = card_results_many(public, rule, worlds, solver=solver)
            one, total = [], 0
            for world in worlds:
                solver.clear()
                one.append(card_results(world_position(pos, world), rule, solver=solver))
                total += solver.nodes
            assert many == one
            assert nodes == total  # the same search, world for world: the golden node counts stay


# --------------------------------------------------------------------------- inference


def test_weights_are_the_bidding_models_when_every_world_is_solved(solver: Solver) -> None:
    """A late decision: every world solved, each weighing its auction likelihood; the numbers are the weighted means."""
    pos = _after(GAME_541932, 22)
    decl = GAME_541932.declaration
    assert decl is not None
    bids = GAME_541932.bids
    view = mover_view(pos, decl)
    advice = advise(pos, decl, worlds=10_000, inference="bids", bids=bids, solver=solver)
    assert advice.exact and advice.inference == "bids"
    others = [s for s in range(3) if s != view.seat]
    auction = Evidence.of(pos, decl, bids).auction
    worlds = list(WorldSpace(view))
    weights = [auction_likelihood(auction, w.start_hands(view), others) for w in worlds]
    assert len(set(weights)) > 1  # the bidding does tell these worlds apart
    rule = WinRule.of(decl)
    results = [card_results(world_position(pos, w), rule, solver=solver) for w in worlds]
    total = sum(weights)
    for card in advice.cards:
        win = sum(w for w, r in zip(weights, results, strict=True) if r[card.card][1]) / total
        mean = sum(w * (r[card.card][0] or 0) for w, r in zip(weights, results, strict=True)) / total
        assert card.win == pytest.approx(win) and card.mean_value == pytest.approx(mean)
    assert advice.ess == pytest.approx(total ** 2 / sum(w * w for w in weights))
    assert advice.ess is not None and advice.ess < len(worlds)


def test_a_world_where_the_passed_seat_holds_a_grand_weighs_less() -> None:
    """Forehand's view after a 18-pass auction: the worlds giving the passed middlehand the grand weigh less."""
    grand = mask_of(parse_cards("CJ SJ HJ DJ CA CT CK SA ST HA"))
    own = mask_of(parse_cards("C9 S9 HT HK D7 DA DT DK H7 H8"))
    rest = [c for c in range(32) if not (grand | own) >> c & 1]
    hands = [own, grand, mask_of(rest[:10])]
    pos = Position(Game.CLUBS, 2, hands, mask_of(rest[10:]), 0, [], 0, 0, 0)
    decl = Declaration(Game.CLUBS)
    bids = [(1, "p"), (2, "18"), (0, "p")]
    view = mover_view(pos, decl)
    drawn = bid_weighted_worlds(view, Evidence.of(pos, decl, bids), 200, random.Random(3), inference="bids",
                                pool=4000)
    assert drawn.pool_ess < drawn.pool  # the auction narrowed the pool

    def strength(hand: int) -> int:
        return (hand & grand).bit_count()

    # Resampled by weight: the kept worlds give the passed middlehand fewer of the grand's cards than the pool.
    kept = sum(strength(w.hands[1]) * k for w, k in zip(drawn.worlds, drawn.weights, strict=True)) / sum(drawn.weights)
    uniform, _ = choose_worlds(view, 4000, random.Random(3))
    assert kept < sum(strength(w.hands[1]) for w in uniform) / len(uniform) - 0.3


@pytest.mark.parametrize("inference", ["bids", "play", "all"])
def test_weighted_advise_same_output_with_one_and_two_jobs(inference: str) -> None:
    pos = _after(GAME_541932, 18)  # rearhand, the declarer, to lead trick 7 with four cards
    decl = GAME_541932.declaration
    assert decl is not None
    kwargs = {"worlds": 20, "seed": 4, "inference": inference, "bids": GAME_541932.bids, "honest": 4}
    one = advise(pos, decl, jobs=1, **kwargs)  # type: ignore[arg-type]
    two = advise(pos, decl, jobs=2, **kwargs)  # type: ignore[arg-type]
    assert _without_timing(one.to_json()) == _without_timing(two.to_json())
    assert one.ess is not None and 0 < one.ess <= one.evaluated
    assert one.honest is not None and one.honest.result is not None
    for card in one.cards:
        honest = one.honest.honest_win(card.card)
        assert honest is not None and honest <= card.win + 1e-12


def test_analyse_worlds_inference_and_honest_same_output_whatever_jobs(tmp_path: Path) -> None:
    args = ["analyse", RECORD_541932, "--worlds", "4", "--seed", "3", "--no-review", "--inference", "all",
            "--honest", "--json"]
    one, two = run_skatdd(*args, "--jobs", "1"), run_skatdd(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert a["summary"]["sd_inference"] == "all" and a["summary"]["sd_honest_tricks"] == 4
    judged = [p for p in a["plays"] if p["sd_honest_win"] is not None]
    assert judged and all(p["seat"] == a["declarer"] for p in judged)
    assert all(p["sd_honest_win"] <= p["sd_win"] + 1e-12 for p in judged)
    assert all(p["sd_ess"] is not None and p["sd_ess"] <= p["sd_evaluated"] + 1e-9 for p in a["plays"])


def test_without_the_options_the_numbers_are_plain_pimcs(solver: Solver) -> None:
    """``play`` inference draws the same worlds as plain PIMC; only their weights differ."""
    pos = _after(GAME_541932, 10)
    decl = GAME_541932.declaration
    assert decl is not None
    plain = advise(pos, decl, worlds=12, seed=2, solver=solver)
    assert "inference" not in plain.to_json() and "honest" not in plain.to_json()
    played = advise(pos, decl, worlds=12, seed=2, inference="play", solver=solver)
    assert played.evaluated == plain.evaluated and played.worlds == plain.worlds
    view = mover_view(pos, decl)
    assert choose_worlds(view, 12, generator(2))[0] == bid_weighted_worlds(view, Evidence.of(pos, decl), 12,
                                                                            generator(2), inference="play").worlds


# --------------------------------------------------------------------------- honest


def _honest_matches_brute(pos: Position, decl: Declaration, solver: Solver) -> bool:
    advice = advise(pos, decl, worlds=100_000, honest=4, solver=solver)
    assert advice.exact and advice.honest is not None and advice.honest.result is not None
    for card in advice.cards:
        honest = advice.honest.honest_win(card.card)
        assert honest is not None and honest <= card.win + 1e-12
    worlds = [world_position(pos, w) for w in WorldSpace(mover_view(pos, decl))]
    if len(worlds) > 12:
        return False
    brute = brute_honest(worlds, [1.0] * len(worlds), WinRule.of(decl), limit=2000)
    if brute is None:
        return False
    for card in advice.cards:
        assert advice.honest.honest_win(card.card) == pytest.approx(brute[card.card])
    return True


def test_advise_honest_equals_brute_force(solver: Solver) -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        game = rng.choice([Game.CLUBS, Game.GRAND, Game.HEARTS, Game.NULL])
        pos, decl = endgame(rng, game, 2 + rng.randrange(2), hand=False)
        checked += _honest_matches_brute(pos, decl, solver)
        if checked >= 8:
            break
    assert checked >= 8


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10_000), st.sampled_from([Game.CLUBS, Game.GRAND, Game.SPADES, Game.NULL]), st.booleans())
def test_honest_win_never_above_pimc(solver: Solver, seed: int, game: Game, hand: bool) -> None:
    pos, decl = endgame(random.Random(seed), game, 3, hand=hand)
    advice = advise(pos, decl, worlds=40, seed=seed, honest=3, solver=solver)
    assert advice.honest is not None
    if advice.honest.result is None:
        return  # the node budget stopped it (reported as such)
    for card in advice.cards:
        honest = advice.honest.honest_win(card.card)
        assert honest is not None and honest <= card.win + 1e-12


def test_text_marks_an_honest_best_card_that_pimc_does_not_choose(solver: Solver) -> None:
    # Found by a bounded search over random three-trick endgames: PIMC's best card fuses strategies.
    rng = random.Random(56)
    game = rng.choice([Game.CLUBS, Game.GRAND, Game.SPADES, Game.NULL])
    pos, decl = endgame(rng, game, 3, hand=rng.random() < 0.5)
    advice = advise(pos, decl, worlds=1000, honest=3, solver=solver)
    assert advice.honest is not None and advice.honest.differs
    assert not set(advice.honest.best) & set(advice.best)
    text = "\n".join(advice_lines(advice, pos, decl))
    assert "honest wins" in text and "differs from the PIMC best" in text
    assert advice.to_json()["honest"]["differs"] is True


# --------------------------------------------------------------------------- bad options


@pytest.mark.parametrize("args, token", [
    (["advise", RECORD_541932, "--inference", "foo"], "foo"),
    (["advise", RECORD_541932, "--after", "0", "--honest"], "--honest"),  # forehand, a defender, to move
    (["advise", RECORD_541932, "--after", "2", "--honest"], "--honest"),  # the declarer with ten cards
    (["advise", RECORD_541932, "--after", "18", "--honest", "--honest-tricks", "9"], "--honest-tricks"),
    (["advise", RECORD_541932, "--after", "18", "--honest", "--honest-tricks", "3"], "--honest"),
    (["analyse", RECORD_541932, "--inference", "bids"], "--inference"),
    (["analyse", RECORD_541932, "--honest"], "--honest"),
    (["analyse", RECORD_541932, "--worlds", "3", "--inference", "bids,play"], "bids,play"),
    (["advise", RECORD_541932, "--worlds", "20000", "--inference", "bids"], "--worlds 20000"),
    (["analyse", RECORD_541932, "--worlds", "20000", "--inference", "play"], "--worlds 20000"),
])
def test_bad_options_exit_2_with_one_line(args: list[str], token: str) -> None:
    result = run_skatdd(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("Error") and token in errors[0], result.stderr
    assert result.stdout == ""


def test_a_json_deals_bids_are_read_and_checked() -> None:
    from skatdd.formats.readers import load_deal

    spec = load_deal(RECORD_541932)
    spec.played = []
    deal = spec.to_json()
    good = run_skatdd("advise", json.dumps({**deal, "bids": [[1, "18"], [0, "p"], [2, "20"], [1, "p"]]}),
                      "--worlds", "4", "--inference", "bids", "--json", "--jobs", "1")
    assert good.returncode == 0, good.stderr
    obj = json.loads(good.stdout)
    assert obj["inference"] == "bids" and obj["pool_ess"] < obj["pool"]  # the auction was read and weighed
    bad = run_skatdd("advise", json.dumps({**deal, "bids": [[1, "x"]]}), "--worlds", "4", "--inference", "bids")
    assert bad.returncode == 2 and "'x'" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("bids", "token"), [
    ("18", "string '18'"), ([[1, 18]], "[1, 18]"), ([[7, "18"]], "7"), ([[1, "x"]], "'x'")])
def test_a_json_deals_bids_are_checked_by_every_reader(bids: object, token: str) -> None:
    # One reader (formats.json_object) checks the field's form, so a command that never weighs the
    # auction refuses a malformed one as advise and match do.
    from skatdd.formats.json_object import deal_from_json
    from skatdd.formats.readers import load_deal

    spec = load_deal(RECORD_541932)
    spec.played = []
    deal = spec.to_json()
    assert deal_from_json({**deal, "bids": [[1, "18"], ["F", "p"]]}).bids == ((1, "18"), (0, "p"))
    result = run_skatdd("solve", json.dumps({**deal, "bids": bids}))
    assert result.returncode == 2 and result.stdout == ""
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and "field 'bids" in errors[0] and token in errors[0], result.stderr


def test_an_auction_of_wellformed_moves_that_are_no_bids_is_refused_before_any_world() -> None:
    from skatdd.formats.readers import load_deal

    spec = load_deal(RECORD_541932)
    spec.played = []
    deal = json.dumps({**spec.to_json(), "bids": [[1, "20"], [0, "18"]]})  # 18 does not exceed 20
    for command in (("advise", deal), ("analyse", deal, "--no-review")):
        result = run_skatdd(*command, "--worlds", "4", "--inference", "bids", "--jobs", "1")
        assert result.returncode == 2 and result.stdout == "", result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "18" in result.stderr, result.stderr


def test_a_file_of_games_gives_each_game_its_single_game_numbers(tmp_path: Path) -> None:
    """The worker side (analyse_line) reads a JSON deal's bids and weighs as a single game does."""
    from skatdd.formats.readers import load_deal

    spec = load_deal(RECORD_541932)
    spec.played = spec.played[:8]
    game = json.dumps({**spec.to_json(), "bids": [[1, "18"], [0, "p"], [2, "20"], [1, "p"]]})
    args = ["--worlds", "3", "--seed", "2", "--no-review", "--inference", "all"]
    single = run_skatdd("analyse", game, *args, "--json", "--jobs", "1")
    assert single.returncode == 0, single.stderr
    path = tmp_path / "games.jsonl"
    path.write_text(game + "\n" + game + "\n")
    lines = run_skatdd("analyse", str(path), *args, "--jobs", "1")
    assert lines.returncode == 0, lines.stderr

    def numbers(text: str) -> dict:
        obj = json.loads(text)
        for key in ("seconds", "nodes", "line"):  # a file's later games find the solver's table warm
            obj.pop(key, None)
        return obj

    expected = numbers(single.stdout)
    assert [numbers(line) for line in lines.stdout.splitlines()] == [expected, expected]
    plain = json.loads(run_skatdd("analyse", json.dumps(spec.to_json()), *args, "--json", "--jobs", "1").stdout)
    # Without the auction the bidding weighs nothing, so some card's numbers differ.
    assert [p["sd_ess"] for p in plain["plays"]] != [p["sd_ess"] for p in expected["plays"]]


def test_every_world_is_enumerated_in_index_order() -> None:
    """WorldSpace's direct enumeration (what an exact draw uses) gives space[0], space[1], ... exactly."""
    checked = 0
    for game in GAMES:
        assert game.declaration is not None
        for cards in (15, 18, 21, 24):
            pos = _after(game, cards)
            if pos.is_over():
                continue
            space = WorldSpace(mover_view(pos, game.declaration))
            if len(space) > 20_000:
                continue  # a game recorded without its play: the first lead's 42 million worlds
            assert list(space) == [space[i] for i in range(len(space))]
            checked += len(space)
    assert checked > 1000
