"""One reader, one verdict: every command accepts, refuses or warns about the same input alike.

* A declaration the rules forbid (schneider or schwarz announced without
  hand, either in null) is refused by the reader, so ``solve``, ``batch`` and
  ``best`` refuse it as ``analyse`` and ``advise`` always did.
* A JSON deal that names no game (or no declarer) and holds play is refused
  for the missing field, not for a card that would be illegal in a guessed game.
* An ISS record whose ``v:`` or ``p:`` disagrees with its replay is read with
  a warning (one line on stderr, ``warnings`` in JSON), where a mismatched
  ``d:`` is refused; the fixture records, which agree, give none.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skatdd.analysis.analyse.api import analyse_iss
from skatdd.cli import cli
from skatdd.core.errors import DealFormatError, ScoringError
from skatdd.core.rules import Game
from skatdd.formats.iss import parse_iss, replay, replay_warnings
from skatdd.formats.readers import deal_from_json, parse_input

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = [line for line in (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines() if line.strip()]
EXAMPLE = (ROOT / "examples" / "game.iss").read_text().strip()
RECORD = FIXTURES[0]  # ID 541932: rearhand plays diamonds and loses, R[d:2 loss v:-54 ... p:59 ...]
DEAL = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"
DEAL_JSON: dict[str, Any] = {"hands": DEAL.split(" / ")[:3], "skat": "DK DQ"}
#: Six cards legal in diamonds (rearhand's D7 is trump there) but not in grand (it must follow CJ with a jack).
SIX_PLAYED: dict[str, Any] = {
    "hands": ["CJ SJ HA HT HK DA DT D9 D8 C8", "CA CT CK CQ C9 SA ST SK SQ S9", "HJ DJ D7 C7 S8 S7 HQ H9 H8 H7"],
    "skat": "DK DQ", "played": "CJ CA D7 SJ C9 DJ",
}


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# --------------------------------------------------------------------------- declarations

ANNOUNCED = {"schneider": ["schneider"], "schwarz": ["schwarz"]}
ONE_DEAL_COMMANDS = {
    "solve": [], "best": ["--declarer", "0"], "advise": ["--worlds", "2"], "analyse": ["--no-review"],
}


@pytest.mark.parametrize("level", sorted(ANNOUNCED))
@pytest.mark.parametrize("command", sorted(ONE_DEAL_COMMANDS))
def test_an_announcement_without_hand_is_refused_by_every_command(command: str, level: str) -> None:
    obj = {**DEAL_JSON, "game": "diamonds", "declarer": 0, "announce": ANNOUNCED[level]}
    result = invoke(command, json.dumps(obj), *ONE_DEAL_COMMANDS[command])
    assert_one_line_error(result, f"'{level}' announced without hand")
    assert result.stdout == ""


@pytest.mark.parametrize("level", sorted(ANNOUNCED))
def test_batch_refuses_an_announcement_without_hand_on_its_line(level: str) -> None:
    good = {**DEAL_JSON, "id": 1, "game": "diamonds", "declarer": 0, "hand": True, "announce": ANNOUNCED[level]}
    bad = {**good, "id": 2, "hand": False}
    result = invoke("batch", "-", "--jobs", "1", "--tt-mb", "16", input=json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["id"] == 1 and rows[0]["value"] == 120
    assert rows[1]["id"] == 2 and f"'{level}' announced without hand" in rows[1]["error"]


def test_best_refuses_it_in_a_file_of_deals_too() -> None:
    bad = {**DEAL_JSON, "id": 2, "game": "diamonds", "declarer": 0, "announce": ["schneider"]}
    text = json.dumps({**DEAL_JSON, "id": 1}) + "\n" + json.dumps(bad) + "\n"
    result = invoke("best", "-", "--jobs", "1", "--declarer", "0", "--tt-mb", "16", input=text)
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert "error" not in rows[0] and "announced without hand" in rows[1]["error"]


@pytest.mark.parametrize("fields", [
    {"game": "diamonds", "hand": True, "announce": ["schneider"]},
    {"game": "grand", "announce": ["ouvert"]},  # ouvert implies hand
    {"game": "null", "announce": ["ouvert"]},
    {"announce": ["schneider"], "hand": True},  # no game: nothing to judge the announcement by
])
def test_a_lawful_declaration_is_read(fields: dict[str, Any]) -> None:
    found = deal_from_json({**DEAL_JSON, "declarer": 0, **fields})
    assert found.dealt_hands is not None


def test_the_reader_itself_refuses_them() -> None:
    with pytest.raises(ScoringError, match="'schneider' announced without hand"):
        deal_from_json({**DEAL_JSON, "game": "clubs", "declarer": 1, "announce": "schneider"})
    with pytest.raises(ScoringError, match="cannot be announced in a null game"):
        deal_from_json({**DEAL_JSON, "game": "null", "declarer": 1, "hand": True, "announce": ["schwarz"]})
    with pytest.raises(ScoringError, match="announced without hand"):
        # A deal that names no game is judged as a grand would be: no game takes schneider without hand.
        deal_from_json({**DEAL_JSON, "declarer": 1, "announce": ["schneider"]})


# --------------------------------------------------------------------------- missing fields first


@pytest.mark.parametrize("command", ["solve", "advise", "analyse", "best"])
def test_a_deal_with_play_but_no_game_is_refused_for_the_missing_game(command: str) -> None:
    obj = {**SIX_PLAYED, "declarer": 0}
    assert deal_from_json({**obj, "game": "diamonds"}).spec is not None  # the play is legal in diamonds
    result = invoke(command, json.dumps(obj), *ONE_DEAL_COMMANDS[command])
    assert_one_line_error(result, "field 'game' is missing")
    assert "D7" not in result.stderr


def test_a_position_with_play_but_no_declarer_is_refused_for_the_missing_declarer() -> None:
    # Null with forehand's trick would end the game, but whose trick it is depends on the declarer.
    obj = {"game": "null", "hands": SIX_PLAYED["hands"], "skat": "DK DQ", "played": "HA C9 H7 C8 CA C7"}
    with pytest.raises(DealFormatError, match="field 'declarer' is missing"):
        deal_from_json(obj)
    result = invoke("batch", "-", "--jobs", "1", "--tt-mb", "16", input=json.dumps(obj) + "\n")
    assert result.exit_code == 2 and "field 'declarer' is missing" in json.loads(result.stdout)["error"]


def test_a_position_with_a_trick_but_no_game_is_refused_for_the_missing_game() -> None:
    # Forehand's D8 follows rearhand's HJ in diamonds (both trump), not in grand (he holds two jacks).
    hands = ["CJ SJ HA HT HK DA DT D9 C8", "CA CT CK CQ C9 SA ST SK SQ S9", "DJ D7 C7 S8 S7 HQ H9 H8 H7"]
    obj = {"declarer": 0, "hands": hands, "skat": "DK DQ", "leader": 2, "trick": "HJ D8"}
    assert deal_from_json({**obj, "game": "diamonds"}).spec is not None
    with pytest.raises(DealFormatError, match="field 'game' is missing"):
        deal_from_json(obj)


def test_a_deal_before_play_without_a_game_is_still_read_for_best() -> None:
    found = deal_from_json({**DEAL_JSON, "declarer": 0})
    assert found.spec is None and found.dealt_hands is not None
    with pytest.raises(DealFormatError, match="field 'game' is missing"):
        found.require_spec()
    # ... and its cards are still checked.
    with pytest.raises(DealFormatError, match="declarer_points"):
        deal_from_json({**DEAL_JSON, "declarer": 0, "declarer_points": 200})


# --------------------------------------------------------------------------- ISS v: and p:


def test_the_fixture_records_agree_with_their_replay() -> None:
    """So none of them gets a warning and no existing output changes."""
    for line in [*FIXTURES, EXAMPLE]:
        record = parse_iss(line)
        if record.declaration is None:
            continue  # passed, or a penalty in the bidding
        played = replay(record)
        assert (played.score.score, played.declarer_points) == (record.result.value, record.result.points), record.id
        assert replay_warnings(record) == []
        assert parse_input(line).warnings == []


MISMATCHED = {
    "v": ("v:-54 ", "v:-60 ", ["v:-60", "-54"]),
    "p": ("p:59 ", "p:58 ", ["p:58", "59"]),
    "both": ("v:-54 m:-2 bidok p:59 ", "v:54 m:-2 bidok p:61 ", ["v:54", "-54", "p:61", "59"]),
}


@pytest.mark.parametrize("name", sorted(MISMATCHED))
def test_the_reader_warns_about_a_result_the_replay_does_not_give(name: str) -> None:
    old, new, fragments = MISMATCHED[name]
    found = parse_input(RECORD.replace(old, new))
    assert len(found.warnings) == 1
    for fragment in [*fragments, "541932"]:
        assert fragment in found.warnings[0]
    analysis = analyse_iss(RECORD.replace(old, new), review=False)
    assert analysis.warnings == found.warnings
    assert analysis.result.score == -54  # the game is analysed as it was played


@pytest.mark.parametrize("name", sorted(MISMATCHED))
def test_analyse_warns_on_stderr_and_in_json(name: str) -> None:
    old, new, _ = MISMATCHED[name]
    result = invoke("analyse", RECORD.replace(old, new), "--no-review", "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Warning: "), result.stderr
    out = json.loads(result.stdout)
    assert out["warnings"] == [lines[0].removeprefix("Warning: ")]
    assert out["result"]["score"] == -54
    plain = invoke("analyse", RECORD.replace(old, new), "--no-review")
    assert plain.exit_code == 0 and plain.stderr.strip() == lines[0]


def test_an_agreeing_record_gets_no_warning_and_no_new_field() -> None:
    result = invoke("analyse", RECORD, "--no-review", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    assert "warnings" not in json.loads(result.stdout)


@pytest.mark.parametrize("command", ["solve", "best", "advise"])
def test_other_commands_reading_the_record_warn_too(command: str) -> None:
    extra = {"advise": ["--after", "27", "--worlds", "2"]}.get(command, [])
    result = invoke(command, RECORD.replace("v:-54 ", "v:-60 "), *extra)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning: ")]
    assert len(warnings) == 1 and "v:-60" in warnings[0]
    assert invoke(command, RECORD, *extra).stderr == ""


def test_a_file_of_records_warns_per_line(tmp_path: Path) -> None:
    path = tmp_path / "games.iss"
    path.write_text("\n".join([FIXTURES[1], RECORD.replace("p:59 ", "p:58 "), *FIXTURES[2:]]) + "\n")
    result = invoke("analyse", str(path), "--no-review", "--jobs", "1", "--tt-mb", "16")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row.get("warnings") is not None for row in rows] == [i == 1 for i in range(len(rows))]
    assert result.stderr.strip().splitlines() == [f"Warning: line 2: {rows[1]['warnings'][0]}"]


def test_best_lists_the_warning_in_its_json_too(tmp_path: Path) -> None:
    bad = RECORD.replace("v:-54 ", "v:-60 ")
    one = invoke("best", bad, "--json", "--tt-mb", "16")
    assert one.exit_code == 0 and "v:-60" in json.loads(one.stdout)["warnings"][0]
    assert "warnings" not in json.loads(invoke("best", RECORD, "--json", "--tt-mb", "16").stdout)
    path = tmp_path / "games.iss"
    path.write_text(FIXTURES[2] + "\n" + bad + "\n")
    many = invoke("best", str(path), "--jobs", "1", "--tt-mb", "16")
    rows = [json.loads(line) for line in many.stdout.splitlines()]
    assert "warnings" not in rows[0] and "v:-60" in rows[1]["warnings"][0]
    assert many.stderr.strip().splitlines() == [f"Warning: line 2: {rows[1]['warnings'][0]}"]


def test_a_null_put_in_by_game_drops_the_announcements_a_null_cannot_take() -> None:
    # Record 26496 is clubs hand schwarz announced: --game null asks how the same cards play as a null.
    record = next(line for line in FIXTURES if "ID[26496]" in line)
    found = parse_input(record, game=Game.NULL)
    assert found.spec is not None and found.spec.announce == [] and found.spec.hand
    assert parse_input(record, game=Game.GRAND).require_spec().announce == ["schneider", "schwarz"]
    obj = {**DEAL_JSON, "game": "clubs", "declarer": 0, "hand": True, "announce": ["schwarz"]}
    assert invoke("solve", json.dumps(obj), "--game", "null").exit_code == 0
    assert invoke("solve", record, "--game", "null").exit_code == 0
