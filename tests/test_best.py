"""Tests for :mod:`skatdd.analysis.best.api` and ``skatdd best`` (docs/cli.md).

* The best discard of every suit and grand game equals an exhaustive engine
  run over all 66 discards (value, tricks and score of each), on sample deals
  from ``tests/data/best-cases.jsonl`` (kind ``exhaustive``), with and
  without a bid; the hand options and null are checked the same way.
* The selection logic (score bands, the value and tie-order rules, trickless
  and every-trick edges, overbid) against brute force on random outcome
  tables served by a fake solver: many cases, no engine.
* Worked cases (kind ``worked``) whose scores were computed by hand:
  matadors with and without, schneider, schwarz, ouvert, overbid, a deal
  where hand beats picked up and one where null ouvert is best.
* JSON fields per docs/cli.md, and the CLI: every input form, exit codes,
  bad input (exit 2, one message naming the token, no traceback).
"""
from __future__ import annotations

import json
import random
from functools import partial
from itertools import combinations, pairwise
from pathlib import Path

import pytest

import cli_runner
from skatdd.analysis.best import api as best_module
from skatdd.analysis.best.api import Option, SeatReport, best_contracts, discard_order_key, option_position
from skatdd.analysis.best.discards import discard_classes
from skatdd.core.cards import CARD_NAMES, DISPLAY_ORDER, card_name, cards_of, mask_of, parse_cards, points_of
from skatdd.core.equivalence import hand_signature
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.solve import Solver
from skatdd.formats.readers import parse_deal_text

ROOT = Path(__file__).resolve().parent.parent
CASES = [json.loads(line) for line in (ROOT / "tests" / "data" / "best-cases.jsonl").read_text().splitlines() if line.strip()]
WORKED = [c for c in CASES if c["kind"] == "worked"]
EXHAUSTIVE = [c for c in CASES if c["kind"] == "exhaustive"]
ISS_RECORD = (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines()[0]

OPTION_KEYS = {"game", "hand", "discard", "announce", "value", "declarer_wins", "schneider", "schwarz",
               "matadors", "game_value", "score", "line"}
REPORT_KEYS = {"declarer", "bid", "best", "options", "nodes", "seconds"}
POINT_GAMES = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS)
_DISPLAY = {c: i for i, c in enumerate(DISPLAY_ORDER)}

#: An easy deal for CLI tests (every search is tiny).
EASY = WORKED[0]["deal"]


def masks(case: dict) -> tuple[list[int], int]:
    if "deal" in case:
        hands, skat = parse_deal_text(case["deal"])
        return [mask_of(h) for h in hands], mask_of(skat)
    return [mask_of(parse_cards(h)) for h in case["hands"]], mask_of(parse_cards(case["skat"]))


# ---------------------------------------------------------------------------
# Exhaustive reference: every discard solved, nothing skipped


def order_key(pair: tuple[int, int]) -> tuple[int, int]:
    """The documented tie order: the pair's cards in display order, compared lexicographically."""
    a, b = sorted(pair, key=_DISPLAY.__getitem__)
    return _DISPLAY[a], _DISPLAY[b]


def outcomes(solver: Solver, hands: list[int], skat: int, declarer: int, game: Game) -> dict:
    """``{discard pair: (value, takes_all, trickless)}`` (null: ``{pair: wins}``) for all 66 discards."""
    twelve = hands[declarer] | skat
    out = {}
    for pair in combinations(cards_of(twelve), 2):
        dmask = 1 << pair[0] | 1 << pair[1]
        hs = list(hands)
        hs[declarer] = twelve & ~dmask
        pos = Position(game, declarer, hs, dmask)
        if game.is_null:
            out[pair] = solver.declarer_wins(pos)
        else:
            value = solver.value(pos)
            out[pair] = (value, value == 120 and solver.declarer_takes_all(pos), solver.defenders_take_all(pos))
    assert len(out) == 66
    return out


def picked_score(game: Game, twelve: int, outcome: tuple, bid: int | None) -> int:
    value, takes_all, trickless = outcome
    tricks = 10 if takes_all else 0 if trickless else None
    return score_game(Declaration(game), matadors=matadors(game, twelve), points=value, tricks=tricks, bid=bid).score


def expected_picked(game: Game, twelve: int, table: dict, bid: int | None) -> tuple[tuple[int, int], int]:
    """The table's key of the discard with the highest score, then value, then first in order; and its score."""
    def key(pair):
        return picked_score(game, twelve, table[pair], bid), table[pair][0], tuple(-k for k in order_key(pair))
    pair = max(table, key=key)
    return pair, key(pair)[0]


def shown(pair: tuple[int, int]) -> tuple[int, int]:
    """A discard as options show it: display order."""
    return tuple(sorted(pair, key=_DISPLAY.__getitem__))  # type: ignore[return-value]


@pytest.mark.parametrize("case", EXHAUSTIVE, ids=[c["id"] for c in EXHAUSTIVE])
def test_best_discard_equals_exhaustive_run(case: dict, solver: Solver) -> None:
    hands, skat = masks(case)
    d = case["declarer"]
    twelve = hands[d] | skat
    tables = {g: outcomes(solver, hands, skat, d, g) for g in ALL_GAMES}
    for bid in case["bids"]:
        report = best_contracts(hands, skat, d, bid=bid, solver=solver)
        check_report_invariants(report, hands, skat)
        for game in POINT_GAMES:
            opt = one(report, game, hand=False)
            pair, score = expected_picked(game, twelve, tables[game], bid)
            value, takes_all, trickless = tables[game][pair]
            assert (tuple(opt.discard), opt.value, opt.score) == (shown(pair), value, score), (game, bid)
            assert opt.schwarz == ("declarer" if takes_all else "defenders" if trickless else None)
            # The hand game is the dealt skat's discard.
            skat_pair = tuple(sorted(cards_of(skat)))
            hand = one(report, game, hand=True)
            assert hand.value == tables[game][skat_pair][0]
        null_pairs = sorted(tables[Game.NULL], key=order_key)
        winners = [p for p in null_pairs if tables[Game.NULL][p]]
        expected = winners[0] if winners else null_pairs[0]
        for opt in report.options:
            if opt.game.is_null and not opt.hand:
                assert tuple(opt.discard) == shown(expected)
                assert opt.declarer_wins == bool(winners)


def one(report: SeatReport, game: Game, *, hand: bool, ouvert: bool = False) -> Option:
    found = [o for o in report.options
             if o.game == game and o.hand == hand and (o.ouvert and game.is_null) == ouvert]
    assert len(found) == 1, (game, hand, ouvert)
    return found[0]


def check_report_invariants(report: SeatReport, hands: list[int], skat: int) -> None:
    """Scores recomputed from each option's own fields, option set and order, best = max score."""
    twelve = hands[report.declarer] | skat
    for opt in report.options:
        decl = opt.declaration
        if opt.game.is_null:
            assert opt.value is None and opt.matadors == 0 and opt.schneider is None and opt.schwarz is None
            tricks = 0 if opt.declarer_wins else 1
            assert score_game(decl, tricks=tricks, bid=report.bid).score == opt.score
        else:
            assert opt.matadors == matadors(opt.game, twelve)
            tricks = 10 if opt.schwarz == "declarer" else 0 if opt.schwarz == "defenders" else None
            sc = score_game(decl, matadors=opt.matadors, points=opt.value, tricks=tricks, bid=report.bid)
            assert (sc.score, sc.game_value, sc.declarer_wins, sc.schneider) == (
                opt.score, opt.game_value, opt.declarer_wins, opt.schneider)
            if not opt.hand:
                assert opt.announce == []
        if opt.discard is not None:
            assert len(opt.discard) == 2 and mask_of(opt.discard) & ~twelve == 0
            assert opt.discard == sorted(opt.discard, key=_DISPLAY.__getitem__)
        assert opt.hand == (opt.discard is None)
    assert report.best.score == max(o.score for o in report.options)
    assert report.best.to_json() == report.options[report.best_index].to_json()
    # One picked-up and one hand option per game type (null ouvert counts as one), listed in order.
    kinds = [(o.game, o.ouvert and o.game.is_null, o.hand) for o in report.options]
    assert len(set(kinds)) == len(kinds)
    assert kinds == sorted(kinds, key=lambda k: (best_module.GAME_ORDER.index(k[0]), k[1], k[2]))


# ---------------------------------------------------------------------------
# Selection logic against brute force, with a fake solver


class FakeSolver:
    """Answers the :class:`~skatdd.engine.solve.Solver` queries ``best`` asks from a random outcome table.

    Outcomes depend on (game, the declarer's hand up to the equivalence
    ``best`` relies on, the discard's points), so equivalent discards agree
    as they do in real play.  Consistency as in real play: every trick
    means 120 points; no trick means exactly the discard's points.
    """

    nodes = 0

    def __init__(self, rng: random.Random, hands: list[int], skat: int, declarer: int) -> None:
        self.rng = rng
        self.declarer = declarer
        self.defenders = ((1 << 32) - 1) & ~(hands[declarer] | skat)
        self.table: dict = {}

    def outcome(self, pos: Position):
        hand = pos.hands[self.declarer]
        null = pos.game.is_null
        key = (pos.game, 0 if null else points_of(pos.skat),
               hand_signature(pos.game, hand, self.defenders, points=not null))
        if key not in self.table:
            rng, pts = self.rng, points_of(pos.skat)
            if pos.game.is_null:
                self.table[key] = rng.random() < 0.3
            else:
                edges = [pts, pts + 1, 30, 31, 60, 61, 89, 90, 119, 120]
                value = rng.choice([e for e in edges if pts <= e <= 120]) if rng.random() < 0.6 else rng.randint(pts, 120)
                takes_all = value == 120 and rng.random() < 0.5
                trickless = value == pts and rng.random() < 0.5
                self.table[key] = (value, takes_all, trickless)
        return self.table[key]

    def value(self, pos: Position, *, lower: int | None = None, upper: int | None = None) -> int:
        value = self.outcome(pos)[0]
        assert (lower is None or lower <= value) and (upper is None or value <= upper), "value() got a false bound"
        return value

    def reaches(self, pos: Position, target: int) -> bool:
        return self.outcome(pos)[0] >= target

    def declarer_takes_all(self, pos: Position) -> bool:
        return self.outcome(pos)[1]

    def defenders_take_all(self, pos: Position) -> bool:
        return self.outcome(pos)[2]

    def declarer_wins(self, pos: Position) -> bool:
        return self.outcome(pos)

    def line(self, pos: Position, value: int | None = None) -> list[int]:
        return []


@pytest.mark.parametrize("seed", range(40))
def test_selection_logic_against_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [mask_of(cards[0:10]), mask_of(cards[10:20]), mask_of(cards[20:30])]
    skat = mask_of(cards[30:32])
    declarer = rng.randrange(3)
    twelve = hands[declarer] | skat
    fake = FakeSolver(rng, hands, skat, declarer)
    for bid in (None, 18, 23, 30, 46, 60, 96, 200):
        report = best_contracts(hands, skat, declarer, bid=bid, solver=fake)  # type: ignore[arg-type]
        for game in POINT_GAMES:
            table = {}
            for pair in combinations(cards_of(twelve), 2):
                dmask = 1 << pair[0] | 1 << pair[1]
                hs = list(hands)
                hs[declarer] = twelve & ~dmask
                table[pair] = fake.outcome(Position(game, declarer, hs, dmask))
            pair, score = expected_picked(game, twelve, table, bid)
            opt = one(report, game, hand=False)
            assert (tuple(opt.discard), opt.score, opt.value) == (shown(pair), score, table[pair][0]), (game, bid)


# ---------------------------------------------------------------------------
# Worked cases, scores computed by hand (see each case's note)


@pytest.mark.parametrize("case", WORKED, ids=[c["id"] for c in WORKED])
def test_worked_case(case: dict, solver: Solver) -> None:
    hands, skat = masks(case)
    report = best_contracts(hands, skat, case["declarer"], bid=case["bid"], solver=solver)
    check_report_invariants(report, hands, skat)
    expect = case["expect"]
    assert len(report.options) == expect["count"]
    best = report.best.to_json()
    for key, want in expect["best"].items():
        assert best[key] == want, key
    for want in expect["options"]:
        game = Game[want["game"].upper()]
        ouvert = game.is_null and "ouvert" in want.get("announce", [])
        got = one(report, game, hand=want["hand"], ouvert=ouvert).to_json()
        for key, value in want.items():
            assert got[key] == value, (want["game"], want["hand"], key)


def test_hand_beats_picked_up(solver: Solver) -> None:
    case = next(c for c in WORKED if c["id"] == "grand-hand-schneider")
    hands, skat = masks(case)
    report = best_contracts(hands, skat, 0, solver=solver)
    assert report.best.hand and report.best.game == Game.GRAND
    assert report.best.score > one(report, Game.GRAND, hand=False).score


def test_null_ouvert_is_best(solver: Solver) -> None:
    case = next(c for c in WORKED if c["id"] == "null-ouvert-hand")
    hands, skat = masks(case)
    report = best_contracts(hands, skat, 1, solver=solver)
    assert report.best.game == Game.NULL and report.best.announce == ["ouvert"]
    assert report.best.score == max(o.score for o in report.options) == 59


def test_picked_up_null_ouvert_is_best(solver: Solver) -> None:
    # Forehand's lone CA would be forced to take a club trick; picked up he puts it away
    # and holds a perfect null: null ouvert, 46, beats null ouvert hand (lost) and every suit game.
    deal = "CA C8 C7 S9 S8 S7 H9 H8 H7 D8 / CJ SJ HJ DJ CT CK CQ SA ST SK / C9 SQ HA HT HK HQ DA DT DK DQ / D9 D7"
    hands, skat = masks({"deal": deal})
    report = best_contracts(hands, skat, 0, solver=solver)
    check_report_invariants(report, hands, skat)
    assert not one(report, Game.NULL, hand=True, ouvert=True).declarer_wins
    assert report.best.game == Game.NULL and not report.best.hand and report.best.announce == ["ouvert"]
    assert report.best.score == 46
    assert parse_cards("CA")[0] in report.best.discard  # the lone ace is put away


def test_null_below_bid_left_out(solver: Solver) -> None:
    hands, skat = masks(WORKED[0])
    for bid, count in ((23, 14), (24, 13), (36, 12), (47, 11), (60, 10)):
        report = best_contracts(hands, skat, 0, bid=bid, solver=solver)
        assert len(report.options) == count, bid


def test_equivalent_discards_have_equal_results(solver: Solver) -> None:
    case = EXHAUSTIVE[0]
    hands, skat = masks(case)
    d = case["declarer"]
    twelve = hands[d] | skat
    defenders = ((1 << 32) - 1) & ~twelve
    for game in (Game.CLUBS, Game.NULL):
        table = outcomes(solver, hands, skat, d, game)
        classes = discard_classes(game, twelve, defenders)
        assert sum(len(c.members) for c in classes) == 66
        assert any(len(c.members) > 1 for c in classes)
        for cls in classes:
            results = {table[tuple(sorted(p))] for p in cls.members}
            assert len(results) == 1, (game, cls.members)
            assert cls.discard == min(cls.members, key=discard_order_key)


def test_discard_order_is_display_order() -> None:
    cj, sj, c7 = parse_cards("CJ SJ C7")
    ha, d7 = parse_cards("HA D7")
    assert discard_order_key([sj, cj]) < discard_order_key([cj, c7]) < discard_order_key([sj, ha])
    assert discard_order_key([ha, d7]) == discard_order_key([d7, ha])


def test_option_position_and_line(solver: Solver) -> None:
    hands, skat = masks(WORKED[1])
    report = best_contracts(hands, skat, 0, solver=solver, all_lines=True)
    for opt in report.options:
        pos = option_position(opt, hands, skat, 0)
        assert pos.hands[0].bit_count() == 10 and pos.skat.bit_count() == 2
        assert (pos.hands[0] | pos.skat) == hands[0] | skat
        assert opt.line, opt.label
        for card in opt.line:  # the line is legal from the option's position
            pos.play(card)
        if not opt.game.is_null:
            assert len(opt.line) == 30 and pos.value_so_far == opt.value


def test_progress_reaches_the_total(solver: Solver) -> None:
    hands, skat = masks(WORKED[3])
    calls: list[tuple[int, int]] = []
    best_contracts(hands, skat, 1, solver=solver, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1]
    assert all(a[0] <= b[0] for a, b in pairwise(calls))


def test_bad_arguments() -> None:
    hands, skat = masks(WORKED[0])
    from skatdd.core.errors import CardCountError, DuplicateCardError, InvalidSeatError, ScoringError
    with pytest.raises(InvalidSeatError):
        best_contracts(hands, skat, 3)
    with pytest.raises(CardCountError):
        best_contracts(hands, skat & (skat - 1), 0)
    with pytest.raises(DuplicateCardError):
        best_contracts([hands[0], hands[0], hands[2]], skat, 0)
    with pytest.raises(ScoringError):
        best_contracts(hands, skat, 0, bid=17)


# ---------------------------------------------------------------------------
# JSON


def test_json_fields_as_docs_cli_lists_them(solver: Solver) -> None:
    hands, skat = masks(WORKED[1])
    report = best_contracts(hands, skat, 0, bid=18, solver=solver)
    data = json.loads(json.dumps(report.to_json()))
    assert set(data) == REPORT_KEYS
    assert data["declarer"] == 0 and data["bid"] == 18 and data["nodes"] > 0
    for opt in data["options"] + [data["best"]]:
        assert set(opt) == OPTION_KEYS
        assert opt["game"] in {"grand", "clubs", "spades", "hearts", "diamonds", "null"}
        assert opt["discard"] is None or (len(opt["discard"]) == 2 and all(c in CARD_NAMES for c in opt["discard"]))
        assert set(opt["announce"]) <= {"schneider", "schwarz", "ouvert"}
        assert opt["schneider"] in {"declarer", "defenders", None} and opt["schwarz"] in {"declarer", "defenders", None}
        assert all(isinstance(c, str) and len(c) == 2 for c in opt["line"])
    assert data["best"]["line"], "the best option carries its line"
    nulls = [o for o in data["options"] if o["game"] == "null"]
    assert sorted(o["announce"] for o in nulls) == [[], [], ["ouvert"], ["ouvert"]]


# ---------------------------------------------------------------------------
# CLI


invoke = partial(cli_runner.invoke, "best", "--tt-mb", "16")
run_process = partial(cli_runner.run_skatdd, "best", "--tt-mb", "16")


def test_cli_json_one_seat() -> None:
    result = invoke(EASY, "--declarer", "F", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == REPORT_KEYS
    assert data["best"]["game"] == "grand" and data["best"]["score"] == 264
    assert len(data["options"]) == 14


def test_cli_every_seat_json_and_text() -> None:
    deal = WORKED[3]["deal"]
    result = invoke(deal, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"seats"}
    assert [s["declarer"] for s in data["seats"]] == [0, 1, 2]
    assert all(set(s) == REPORT_KEYS for s in data["seats"])
    text = invoke(deal)
    assert text.exit_code == 0
    for name in ("Forehand declares", "Middlehand declares", "Rearhand declares", "Who should play:"):
        assert name in text.stdout


def test_cli_readable_report() -> None:
    result = invoke(WORKED[1]["deal"], "--declarer", "0", "--bid", "180")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Best for forehand: grand hand schneider announced" in out and "score +192" in out
    assert "overbid" in out and "Line of play:" in out
    assert out.count("(declarer)") >= 9  # nine tricks won by the declarer in the line
    assert "Nodes:" in out


def test_cli_file_json_and_iss_inputs(tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text("# a comment\n" + EASY + "\n")
    from_file = invoke(str(path), "--declarer", "0", "--json")
    assert from_file.exit_code == 0, from_file.output
    hands, skat = parse_deal_text(EASY)
    obj = {"hands": [" ".join(card_name(c) for c in h) for h in hands], "skat": [card_name(c) for c in skat],
           "declarer": "forehand", "bid": 18}
    from_json = invoke(json.dumps(obj), "--json")
    assert from_json.exit_code == 0, from_json.output
    data = json.loads(from_json.stdout)
    assert data["declarer"] == 0 and data["bid"] == 18  # the deal's own declarer and bid are the defaults
    assert json.loads(from_file.stdout)["best"] == data["best"]
    iss = invoke(ISS_RECORD, "--json")
    assert iss.exit_code == 0, iss.output
    data = json.loads(iss.stdout)
    assert data["declarer"] == 2 and data["bid"] == 18  # the record's declarer and bid


@pytest.mark.parametrize("args, tokens", [
    pytest.param(["CJ SJ HJ DJ CA CT CK CQ C9 X9 / SA ST SK SQ S9 S8 S7 HA HT HK / HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7"],
                 ["X9"], id="unknown-card"),
    pytest.param(["CJ SJ HJ DJ CA CT CK CQ C9 C8 / SA ST SK SQ S9 S8 S7 HA HT CJ / HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7"],
                 ["CJ"], id="card-twice"),
    pytest.param(["CJ SJ HJ DJ CA CT CK CQ C9 / SA ST SK SQ S9 S8 S7 HA HT HK / HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7 C8"],
                 ["forehand", "expected 10"], id="wrong-count"),
    pytest.param(["CJ SJ HJ DJ CA CT CK CQ C9 C8 / SA ST SK SQ S9 S8 S7 HA HT HK"], ["2 groups"], id="groups"),
    pytest.param(["nosuchfile.txt"], ["nosuchfile.txt"], id="not-a-file"),
    pytest.param(['{"hands": ["CJ SJ", "CA", "C7"], "skat": "D7 D8"}'], ["hands hold 2/1/1 cards"], id="json-count"),
    pytest.param(['{"hands": 3}'], ["hands"], id="json-hands"),
    pytest.param(['{"hands": [1, 2'], ["JSON"], id="json-syntax"),
    pytest.param([ISS_RECORD.replace("MV[w ", "MV[w ZZ.")], ["ZZ"], id="malformed-iss"),
    pytest.param([EASY, "--declarer", "5"], ["5"], id="seat"),
    pytest.param([EASY, "--bid", "10"], ["10"], id="bid"),
])
def test_cli_bad_input_exits_2(args: list[str], tokens: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for token in tokens:
        assert token in result.stderr, (token, result.stderr)


def test_cli_bad_input_in_a_real_process() -> None:
    proc = run_process("CJ SJ HJ DJ CA CT CK CQ C9 Q9 / SA ST SK SQ S9 S8 S7 HA HT HK / HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "Q9" in errors[0]
    ok = run_process(EASY, "--declarer", "F", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["best"]["score"] == 264


def test_cli_help_names_the_command() -> None:
    result = invoke("--help")
    assert result.exit_code == 0 and "--declarer" in result.output and "--bid" in result.output
