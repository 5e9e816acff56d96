"""Tests for ``skatdd score`` (docs/cli.md)."""
from __future__ import annotations

import json
import signal
from functools import partial

import pytest

import cli_runner
from skatdd.cli import main

SCORE_KEYS = {
    "game", "hand", "announce", "bid", "matadors", "multiplier", "game_value", "declarer_wins",
    "schneider", "schwarz", "overbid", "score", "seeger", "seeger_defenders",
}


run = partial(cli_runner.invoke, "score")
run_process = partial(cli_runner.run_skatdd, "score")


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """Call the console entry point (which turns SkatddError into exit 2) in-process."""
    with pytest.raises(SystemExit) as exc:
        main(["score", *args])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# --------------------------------------------------------------------------- JSON

def test_json_keys_and_one_line():
    result = run("--game", "clubs", "--matadors", "1", "--points", "70", "--json")
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 1
    data = json.loads(result.stdout)
    assert set(data) == SCORE_KEYS
    assert data == {
        "game": "clubs", "hand": False, "announce": [], "bid": None, "matadors": 1, "multiplier": 2,
        "game_value": 24, "declarer_wins": True, "schneider": None, "schwarz": None, "overbid": False,
        "score": 24, "seeger": 74, "seeger_defenders": 0,
    }


def test_clubs_ouvert_with_two_from_cards():
    data = run_json(
        "--game", "C", "--announce", "ouvert", "--cards", "CJ SJ CA CT CK CQ C9 C8 C7 SA HA DA",
        "--points", "120", "--tricks", "10",
    )
    assert data["matadors"] == 2 and data["multiplier"] == 9 and data["score"] == 108
    assert data["hand"] is True and data["announce"] == ["schneider", "schwarz", "ouvert"]
    assert (data["schneider"], data["schwarz"]) == ("declarer", "declarer")


def test_grand_ouvert_with_four():
    data = run_json("--game", "grand", "--announce", "OUVERT", "--matadors", "4", "--points", "120", "--tricks", "10")
    assert (data["multiplier"], data["game_value"], data["score"], data["seeger"]) == (11, 264, 264, 314)


def test_clubs_hand_schwarz_announced():
    data = run_json(
        "--game", "clubs", "--hand", "--announce", "schwarz", "--matadors", "3", "--points", "120", "--tricks", "10",
    )
    assert data["score"] == 108 and data["announce"] == ["schneider", "schwarz"]


def test_overbid_diamonds_with_one_at_22():
    data = run_json("--game", "diamonds", "--matadors", "1", "--points", "75", "--bid", "22")
    assert (data["game_value"], data["overbid"], data["declarer_wins"], data["score"], data["bid"]) == (18, True, False, -54, 22)
    assert (data["seeger"], data["seeger_defenders"]) == (-104, 40)


def test_iss_second_record():
    # R[d:2 loss v:-72 m:1 overbid p:41 t:4]: rearhand's hand plus skat DK HK, diamonds, bid 36.
    data = run_json(
        "--game", "D", "--cards", "D9,DQ,CQ,HJ,SQ,SA,CJ,H7,CA,ST,DK,HK", "--points", "41", "--tricks", "4", "--bid", "36",
    )
    assert (data["matadors"], data["score"], data["overbid"]) == (1, -72, True)


def test_without_eleven_from_cards():
    data = run_json("--game", "hearts", "--cards", "CA CT CK CQ C9 C8 C7 SA ST SK SQ S9", "--points", "61")
    assert (data["matadors"], data["multiplier"], data["score"]) == (-11, 12, 120)


def test_negative_matadors_option():
    data = run_json("--game", "grand", "--matadors", "-4", "--points", "20")
    assert data["matadors"] == -4 and data["schneider"] == "defenders"
    assert (data["multiplier"], data["score"]) == (6, -288)


def test_cards_and_matadors_that_agree():
    data = run_json("--game", "grand", "--cards", "CJ SJ CA CT CK CQ C9 C8 C7 SA HA DA", "--matadors", "2", "--points", "61")
    assert data["matadors"] == 2


@pytest.mark.parametrize("args, value", [
    (["--game", "null"], 23),
    (["--game", "null", "--hand"], 35),
    (["--game", "null-ouvert"], 46),
    (["--game", "null", "--announce", "ouvert"], 46),
    (["--game", "NO", "--hand"], 59),
])
def test_null_values(args, value):
    won = run_json(*args, "--tricks", "0")
    lost = run_json(*args, "--tricks", "1")
    assert (won["game_value"], won["score"], won["declarer_wins"]) == (value, value, True)
    assert (lost["score"], lost["seeger"]) == (-2 * value, -2 * value - 50)
    assert won["game"] == "null" and won["matadors"] == 0 and won["multiplier"] == 0


def test_null_ouvert_hand_lost():
    data = run_json("--game", "null-ouvert", "--hand", "--tricks", "1")
    assert data["announce"] == ["ouvert"] and data["hand"] is True and data["score"] == -118


def test_null_accepts_cards_and_ignores_points():
    data = run_json("--game", "null", "--cards", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 D8 D9", "--points", "14", "--tricks", "0")
    assert data["score"] == 23


# --------------------------------------------------------------------------- readable output

def test_readable_report():
    result = run("--game", "clubs", "--hand", "--announce", "schwarz", "--matadors", "3", "--points", "120", "--tricks", "10")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Game:        clubs hand schwarz announced",
        "Matadors:    with 3",
        "Multiplier:  9 = with 3 (3) + game + hand + schneider + schneider announced + schwarz + schwarz announced",
        "Game value:  9 x 12 = 108",
        "Result:      won with 120 points, 10 tricks; the defenders are schneider and schwarz",
        "Score:       +108",
        "Seeger:      +158 for the declarer, 0 for each defender",
    ]


def test_readable_overbid():
    result = run("--game", "diamonds", "--matadors", "1", "--points", "75", "--bid", "22")
    assert result.exit_code == 0
    out = result.stdout
    assert "Game:        diamonds (bid 22)" in out
    assert "overbid: game value 18 is below the bid 22, charged 27 = 3 x 9" in out
    assert "Score:       -54" in out
    assert "Seeger:      -104 for the declarer, +40 for each defender" in out


def test_readable_lost_without_schneider():
    out = run("--game", "spades", "--matadors", "-2", "--points", "30").stdout
    assert "Multiplier:  4 = without 2 (2) + game + schneider" in out
    assert "lost with 30 points (61 points needed); the declarer is schneider" in out
    assert "Score:       -88" in out


def test_readable_null():
    result = run("--game", "null-ouvert", "--hand", "--tricks", "1")
    assert result.stdout.splitlines() == [
        "Game:        null ouvert hand",
        "Game value:  59 (fixed null value)",
        "Result:      lost: the declarer took 1 trick",
        "Score:       -118",
        "Seeger:      -168 for the declarer, +40 for each defender",
    ]


def test_help():
    result = run("--help")
    assert result.exit_code == 0
    for option in ("--game", "--cards", "--matadors", "--hand", "--announce", "--points", "--tricks", "--bid", "--json"):
        assert option in result.stdout


# --------------------------------------------------------------------------- usage errors (Click, exit 2)

@pytest.mark.parametrize("args, message", [
    (["--matadors", "1", "--points", "70"], "Missing option '--game'"),
    (["--game", "bogus", "--matadors", "1", "--points", "70"], "unknown game 'bogus'"),
    (["--game", "clubs", "--points", "70"], "--cards or --matadors is required for clubs"),
    (["--game", "clubs", "--matadors", "1"], "--points is required for clubs"),
    (["--game", "null"], "--tricks is required for null"),
    (["--game", "null", "--matadors", "2", "--tricks", "0"], "--matadors 2: a null game has no matadors"),
    (["--game", "clubs", "--matadors", "1", "--points", "121"], "'--points': 121 is not in the range"),
    (["--game", "clubs", "--matadors", "1", "--points", "70", "--tricks", "11"], "'--tricks': 11 is not in the range"),
    (["--game", "clubs", "--matadors", "1", "--points", "70", "--bid", "17"], "'--bid': 17 is not a bid: expected 18 to 264"),
    (["--game", "clubs", "--matadors", "1", "--points", "70", "--announce", "contra"], "'contra' is not one of"),
    (["--game", "grand", "--cards", "CJ SJ CA CT CK CQ C9 C8 C7 SA HA DA", "--matadors", "3", "--points", "70"],
     "--matadors 3 disagrees with --cards, which are with 2 (2)"),
])
def test_usage_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- input errors (SkatddError, exit 2)

@pytest.mark.parametrize("args, message", [
    (["--game", "clubs", "--cards", "CJ SJ X9 CT CK CQ C9 C8 C7 SA HA DA", "--points", "70"], "unknown card 'X9'"),
    (["--game", "clubs", "--cards", "CJ SJ SJ CT CK CQ C9 C8 C7 SA HA DA", "--points", "70"],
     "card 'SJ' appears twice in --cards"),
    (["--game", "clubs", "--cards", "CJ SJ CA", "--points", "70"], "--cards has 3 cards 'CJ SJ CA': expected 12"),
    (["--game", "clubs", "--announce", "schneider", "--matadors", "1", "--points", "95"], "'schneider' announced without hand"),
    (["--game", "null", "--hand", "--announce", "schwarz", "--tricks", "0"], "'schwarz' cannot be announced in a null game"),
    (["--game", "null", "--tricks", "0", "--bid", "24"], "null (value 23) cannot be declared after a bid of 24"),
    (["--game", "grand", "--matadors", "5", "--points", "70"], "matadors 5 is not possible in grand"),
    (["--game", "clubs", "--matadors", "1", "--points", "100", "--tricks", "10"], "points 100 contradict tricks 10"),
])
def test_input_errors_exit_2_with_one_line(capsys, args, message):
    code, out, err = run_main(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1
    assert message in err


def test_success_through_main_exits_0(capsys):
    code, out, err = run_main(capsys, "--game", "clubs", "--matadors", "1", "--points", "70", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["score"] == 24


@pytest.mark.parametrize("args, token", [
    (["--game", "clubs", "--cards", "CJ SJ Z9 CT CK CQ C9 C8 C7 SA HA DA", "--points", "70"], "'Z9'"),
    (["--game", "hearts", "--announce", "schwarz", "--matadors", "1", "--points", "70"], "'schwarz'"),
    (["--game", "null", "--hand", "--tricks", "0", "--bid", "36"], "bid of 36"),
    (["--game", "clubs", "--announce", "bogus", "--matadors", "1", "--points", "70"], "'bogus'"),
])
def test_subprocess_errors(args, token):
    proc = run_process(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert token in proc.stderr
    assert "Traceback" not in proc.stderr
    error_lines = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and token in error_lines[0]


def test_subprocess_overbid_is_a_result_not_an_error():
    # diamonds hand schwarz announced with 1: 7 x 9 = 63 < 260, charged 261 -> -522
    proc = run_process(
        "--game", "diamonds", "--hand", "--announce", "schwarz", "--announce", "schneider", "--matadors", "1",
        "--points", "70", "--bid", "260",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Score:       -522" in proc.stdout


def test_subprocess_json():
    proc = run_process("--game", "G", "--announce", "ouvert", "--matadors", "4", "--points", "120", "--tricks", "10", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == 264


def test_main_called_in_process_keeps_the_callers_ctrl_c(capsys) -> None:
    # The console entry point ignores Ctrl-C once it has decided its status, but only when the process
    # ends there: a caller's later child processes would inherit an ignored SIGINT.
    before = signal.getsignal(signal.SIGINT)
    code, _, _ = run_main(capsys, "--game", "clubs", "--matadors", "1", "--points", "70")
    assert code == 0 and signal.getsignal(signal.SIGINT) is before
