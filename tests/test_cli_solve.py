"""Tests for ``skatdd solve`` and ``skatdd bench`` (docs/cli.md), through CliRunner and a real process.

Input errors must exit 2 with a message that names the offending token and
no traceback, whichever route the command is run by: ``python -m skatdd``
(the console entry point) or CliRunner on :data:`skatdd.cli.cli`.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from cli_runner import invoke
from cli_runner import run_skatdd as run_process
from skatdd.core.cards import card_name, parse_cards
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver
from skatdd.formats.readers import load_deal

ROOT = Path(__file__).resolve().parent.parent
DEAL = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"
ISS_RECORD = (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines()[0]
SOLVE_KEYS = {"game", "declarer", "to_move", "value", "declarer_wins", "line", "nodes", "seconds"}


def solve_json(*args: str) -> dict:
    result = invoke("solve", *args, "--json", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1
    return json.loads(result.stdout)


def assert_input_error(result, *tokens: str) -> str:
    """Exit 2, exactly one ``Error:`` line naming every token, no traceback; returns that line."""
    stderr = result.stderr
    assert result.exit_code == 2 if hasattr(result, "exit_code") else result.returncode == 2, stderr
    assert "Traceback" not in stderr and "Traceback" not in (result.stdout or "")
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, stderr
    for token in tokens:
        assert token in errors[0], (token, errors[0])
    return errors[0]


# --------------------------------------------------------------------------- JSON output

def test_json_fields_are_exactly_those_of_docs_cli(solver: Solver) -> None:
    data = solve_json(DEAL, "--game", "diamonds", "--declarer", "F")
    assert set(data) == SOLVE_KEYS
    pos = load_deal(DEAL, game=Game.DIAMONDS, declarer=0).position()
    assert data["game"] == "diamonds" and data["declarer"] == 0 and data["to_move"] == 0
    assert data["value"] == solver.value(pos)
    assert data["declarer_wins"] == (data["value"] >= 61)
    assert len(data["line"]) == 30 and all(len(c) == 2 for c in data["line"])
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert isinstance(data["seconds"], float)


def test_json_line_replays_to_the_value() -> None:
    data = solve_json(DEAL, "--game", "spades", "--declarer", "middlehand")
    pos = load_deal(DEAL, game=Game.SPADES, declarer=1).position()
    for card in parse_cards(data["line"]):
        pos.play(card)
    assert pos.is_over() and pos.value_so_far == data["value"]


def test_mode_all_lists_every_legal_card(solver: Solver) -> None:
    data = solve_json(DEAL, "--game", "grand", "--declarer", "0", "--mode", "all")
    assert set(data) == SOLVE_KEYS | {"cards"}
    pos = load_deal(DEAL, game=Game.GRAND, declarer=0).position()
    assert {c["card"] for c in data["cards"]} == {card_name(c) for c in pos.legal_moves()}
    for entry in data["cards"]:
        assert set(entry) == {"card", "value", "declarer_wins"}
        assert entry["declarer_wins"] == (entry["value"] >= 61)
    assert data["value"] == max(c["value"] for c in data["cards"])


def test_mode_win_has_no_value() -> None:
    data = solve_json(DEAL, "--game", "clubs", "--declarer", "R", "--mode", "win")
    assert data["value"] is None and isinstance(data["declarer_wins"], bool)
    assert "cards" not in data


def test_null_value_is_null_and_line_ends_with_forced_trick() -> None:
    data = solve_json(DEAL, "--game", "null", "--declarer", "0")
    assert data["game"] == "null" and data["value"] is None
    pos = load_deal(DEAL, game=Game.NULL, declarer=0).position()
    for card in parse_cards(data["line"]):
        pos.play(card)
    if data["declarer_wins"]:
        assert pos.cards_left == 0 and pos.declarer_tricks == 0
    else:
        assert pos.declarer_tricks == 1 and not pos.trick


def test_null_ouvert_plays_as_null() -> None:
    assert solve_json(DEAL, "--game", "NO", "--declarer", "1")["game"] == "null"


def test_seat_and_game_aliases_agree() -> None:
    results = [solve_json(DEAL, "--game", game, "--declarer", seat)
               for game, seat in (("diamonds", "0"), ("D", "F"), ("Diamonds", "forehand"), ("d", "f"))]
    assert all(r["value"] == results[0]["value"] and r["declarer"] == 0 for r in results)
    assert all(r["game"] == "diamonds" for r in results)


def test_played_cards_continue_the_deal(solver: Solver) -> None:
    data = solve_json(DEAL, "--game", "grand", "--declarer", "F", "--played", "HA S9 H9 hk")
    pos = load_deal(DEAL, game=Game.GRAND, declarer=0).position()
    for card in parse_cards("HA S9 H9 HK"):
        pos.play(card)
    assert data["to_move"] == pos.to_move == 1  # forehand won trick 1, led HK, middlehand to follow
    assert data["value"] == solver.value(pos)
    assert len(data["line"]) == 26


def test_deal_from_file_and_json_object(tmp_path: Path) -> None:
    by_text = solve_json(DEAL, "--game", "clubs", "--declarer", "0")
    by_file = solve_json(str(ROOT / "examples" / "deal.txt"), "--game", "clubs", "--declarer", "0")
    hands = [g.strip() for g in DEAL.split("/")]
    obj = {"game": "clubs", "declarer": 0, "hands": hands[:3], "skat": hands[3]}
    by_json = solve_json(json.dumps(obj))
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(obj))
    by_json_file = solve_json(str(path))
    assert by_text["value"] == by_file["value"] == by_json["value"] == by_json_file["value"]


def test_json_object_with_played_and_game_override(solver: Solver) -> None:
    hands = [g.strip() for g in DEAL.split("/")]
    obj = {"id": 7, "game": "clubs", "declarer": 0, "hands": hands[:3], "skat": hands[3], "played": "HA S9"}
    data = solve_json(json.dumps(obj), "--game", "spades")
    pos = load_deal(DEAL, game=Game.SPADES, declarer=0).position()
    pos.play(parse_cards("HA")[0])
    pos.play(parse_cards("S9")[0])
    assert data["game"] == "spades" and data["to_move"] == 2 and data["value"] == solver.value(pos)


def test_iss_record_solves_the_position_before_the_first_card(solver: Solver, tmp_path: Path) -> None:
    spec = load_deal(ISS_RECORD)
    start = spec.start_position()
    data = solve_json(ISS_RECORD)
    assert data["game"] == spec.game.label and data["declarer"] == spec.declarer
    assert data["to_move"] == 0 and len(data["line"]) == 30
    assert data["value"] == solver.value(start)
    path = tmp_path / "game.iss"
    path.write_text(ISS_RECORD + "\n")
    assert solve_json(str(path))["value"] == data["value"]
    # --played replays the record's own first cards.
    first = spec.played[:2]
    after = solve_json(ISS_RECORD, "--played", " ".join(card_name(c) for c in first))
    for card in first:
        start.play(card)
    assert after["to_move"] == start.to_move and after["value"] == solver.value(start)


def test_endgame_json_position(solver: Solver) -> None:
    obj = {"game": "clubs", "declarer": 2, "hands": ["SJ HJ CQ", "CT H9 DA D8", "C8 HT DK D7"], "skat": "HK D9",
           "leader": 0, "trick": "DQ", "declarer_points": 37, "declarer_tricks": 3, "defender_tricks": 3}
    data = solve_json(json.dumps(obj), "--mode", "all")
    assert data["to_move"] == 1
    assert {c["card"] for c in data["cards"]} == {"DA", "D8"}
    assert data["value"] == min(c["value"] for c in data["cards"])


# --------------------------------------------------------------------------- readable output

def test_readable_report_shows_position_value_and_tricks() -> None:
    result = invoke("solve", DEAL, "--game", "diamonds", "--declarer", "F", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    out = result.stdout
    data = solve_json(DEAL, "--game", "diamonds", "--declarer", "F")
    assert "Diamonds, declarer forehand" in out
    assert "♣J ♠J ♥A ♥10 ♥K ♦A ♦10 ♦9 ♦8 ♦7" in out  # hands with symbols
    assert f"Value: {data['value']} card points" in out
    assert "declarer wins" in out
    assert "Optimal line:" in out and "won by" in out
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert len(rows) == 10
    assert rows[-1].split()[-1] == str(data["value"])  # running total ends at the value
    assert "(declarer)" in out and "Nodes:" in out


def test_readable_mode_all_lists_card_values() -> None:
    result = invoke("solve", DEAL, "--game", "grand", "--declarer", "F", "--mode", "all", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    assert "Card values (forehand, declarer, to play; * = best):" in result.stdout
    card_rows = [line for line in result.stdout.splitlines() if line.startswith("  * ") or line.startswith("    ♣")]
    assert card_rows


def test_readable_null_and_mid_trick() -> None:
    result = invoke("solve", DEAL, "--game", "null", "--declarer", "M", "--played", "D7", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    assert "Null, declarer middlehand" in result.stdout
    assert "table       forehand ♦7" in result.stdout
    assert "Result: the declarer" in result.stdout
    assert "^" in result.stdout  # the card already on the table is marked


def test_readable_win_mode() -> None:
    result = invoke("solve", DEAL, "--game", "diamonds", "--declarer", "F", "--mode", "win", "--tt-mb", "16")
    assert result.exit_code == 0
    assert "Result: the declarer wins: he reaches 61 card points" in result.stdout
    assert "A line that keeps this result:" in result.stdout


# --------------------------------------------------------------------------- errors

BAD_INPUTS = [
    pytest.param([DEAL.replace("HA", "X9"), "--game", "grand", "--declarer", "0"], ["X9"], id="unknown-card"),
    pytest.param([DEAL.replace("HA", "CJ", 1), "--game", "grand", "--declarer", "0"], ["CJ"], id="card-twice"),
    pytest.param([DEAL.replace(" D7 /", " /"), "--game", "grand", "--declarer", "0"], ["9 cards"], id="wrong-count"),
    pytest.param([DEAL, "--game", "bridge", "--declarer", "0"], ["bridge"], id="unknown-game"),
    pytest.param([DEAL, "--game", "grand", "--declarer", "west"], ["west"], id="unknown-seat"),
    pytest.param([DEAL, "--game", "grand", "--declarer", "0", "--played", "HA S9 S8"], ["S8", "--played", "follow"],
                 id="played-not-following"),
    pytest.param([DEAL, "--game", "grand", "--declarer", "0", "--played", "CA"], ["CA", "--played"],
                 id="played-not-held"),
    pytest.param([DEAL, "--game", "grand", "--declarer", "0", "--played", "HA Q7"], ["Q7"], id="played-bad-token"),
    pytest.param([DEAL, "--game", "grand", "--declarer", "0", "--played", "HA HA"], ["HA"], id="played-twice"),
    pytest.param([DEAL, "--declarer", "0"], ["--game"], id="text-without-game"),
    pytest.param([DEAL, "--game", "grand"], ["--declarer"], id="text-without-declarer"),
    pytest.param([ISS_RECORD.replace("MV[w ", "MV[w ZZ."), ], ["ZZ"], id="malformed-iss"),
    pytest.param(['{"game": "grand", "declarer": 0, "hands": ["CJ"]}'], ["hands"], id="bad-json-object"),
    pytest.param(["no-such-file.txt"], ["no-such-file.txt"], id="not-a-file-nor-deal"),
]


@pytest.mark.parametrize("args,tokens", BAD_INPUTS)
def test_bad_input_exits_2_naming_the_token_cli_runner(args: list[str], tokens: list[str]) -> None:
    result = invoke("solve", *args, "--tt-mb", "16")
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert_input_error(result, *tokens)
    assert result.stdout == ""


@pytest.mark.parametrize("args,tokens", BAD_INPUTS[:6] + BAD_INPUTS[11:12])
def test_bad_input_exits_2_in_a_real_process(args: list[str], tokens: list[str]) -> None:
    proc = run_process("solve", *args, "--tt-mb", "16")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and all(t in errors[0] for t in tokens), proc.stderr
    assert proc.stdout == ""


def test_played_after_the_end_of_a_null_game() -> None:
    # Forehand (declarer) leads D7, M plays CA, R must take... then the declarer wins trick 2 with HA.
    result = invoke("solve", DEAL, "--game", "null", "--declarer", "0", "--played", "D7 CA DJ H9 HA CK D8")
    assert_input_error(result, "D8", "end of the game")


def test_real_process_json_success() -> None:
    proc = run_process("solve", str(ROOT / "examples" / "deal.txt"), "--game", "G", "--declarer", "F", "--json",
                       "--tt-mb", "16")
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout)) == SOLVE_KEYS


# --------------------------------------------------------------------------- bench and help

BENCH_KEYS = {"deals", "seed", "game", "tt_mb", "solves_per_second", "median_ms", "p90_ms", "max_ms",
              "total_seconds", "nodes", "cpu", "per_game", "card_values", "generate_seconds", "machine",
              "close", "queries"}


def test_bench_json_is_deterministic_in_nodes() -> None:
    args = ["bench", "--deals", "6", "--seed", "5", "--game", "null", "--tt-mb", "16", "--json"]
    first, second = invoke(*args), invoke(*args)
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert set(a) == BENCH_KEYS
    assert a["deals"] == 6 and a["game"] == "null" and a["tt_mb"] == 16
    assert a["nodes"] == b["nodes"] > 0  # the fingerprint: same seed, same nodes
    assert set(a["per_game"]) == {"null"} and a["per_game"]["null"]["deals"] == 6
    assert a["median_ms"] <= a["p90_ms"] <= a["max_ms"]
    assert a["card_values"]["ratio_total"] > 0


def test_bench_readable_report() -> None:
    result = invoke("bench", "--deals", "2", "--seed", "3", "--game", "grand", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "skatdd bench: 2 realistic grand deals, seed 3" in out
    assert "solves/s" in out and "median" in out and "p90" in out and "nodes" in out
    assert "relative to one solve" in out


def test_bench_rejects_bad_options() -> None:
    assert invoke("bench", "--deals", "0").exit_code == 2
    result = invoke("bench", "--game", "skat")
    assert result.exit_code == 2 and "skat" in result.stderr


@pytest.mark.parametrize("name", ["solve", "batch", "bench"])
def test_every_command_has_help(name: str) -> None:
    result = invoke(name, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "--tt-mb" in result.stdout


def test_solve_help_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``skatdd solve`` example in the help text works as printed (run from the repository root)."""
    text = invoke("solve", "--help").stdout
    examples = [line.strip() for line in text.splitlines() if line.strip().startswith("skatdd solve ")]
    assert len(examples) >= 3
    monkeypatch.chdir(ROOT)
    for example in examples:
        result = invoke(*shlex.split(example)[1:], "--tt-mb", "16")
        assert result.exit_code == 0, (example, result.output)
