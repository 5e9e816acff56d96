"""``skatdd best`` on a file of records: one result per record, like ``analyse``."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from skatdd.analysis.best.games import best_for_input, best_line
from skatdd.cli import cli
from skatdd.engine.solve import Solver
from skatdd.formats.readers import parse_input

ROOT = Path(__file__).resolve().parents[1]
LINES = [line for line in (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines() if line.strip()]
PASSED = LINES[3]  # ID 756788: everyone passed
REVOKE = LINES[0].replace("0 SA 1 S7 ", "0 SA 1 HQ ", 1)  # middlehand holds spades


def best(*args: str):
    return CliRunner().invoke(cli, ["best", *args, "--tt-mb", "16"])


def test_a_file_of_records_gives_one_result_per_record_in_order(tmp_path: Path) -> None:
    path = tmp_path / "games.iss"
    path.write_text("\n".join(["# a comment keeps its line number", LINES[0], "", PASSED, REVOKE, LINES[5]]) + "\n")
    result = best(str(path), "--jobs", "2")
    assert result.exit_code == 2, result.output  # the revoke; every other line is answered
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 4
    first, passed, bad, last = records
    assert first["id"] == "541932" and first["declarer"] == 2 and first["bid"] == 18
    assert passed == {"line": 4, "id": "756788", "skipped": passed["skipped"]} and "everyone passed" in passed["skipped"]
    assert bad["line"] == 5 and bad["id"] == "541932" and "HQ" in bad["error"]
    assert last["id"] == "1039093" and last["declarer"] == 1
    assert "Error: line 5:" in result.stderr
    # The same answer as for the record alone (search effort aside).
    alone = json.loads(best(LINES[0], "--json").stdout)
    effort = ("nodes", "seconds")
    assert {k: v for k, v in first.items() if k not in effort} == {k: v for k, v in alone.items() if k not in effort}


def test_one_seat_or_every_seat_per_record(tmp_path: Path) -> None:
    path = tmp_path / "games.iss"
    path.write_text("\n".join([PASSED, LINES[5], PASSED]) + "\n")
    records = [json.loads(line) for line in best(str(path), "--declarer", "F", "--jobs", "1").stdout.splitlines()]
    assert [r.get("declarer") for r in records] == [None, 0, None]
    assert best(str(path), "--jobs", "1").exit_code == 0


def test_best_line_and_best_for_input_agree() -> None:
    solver = Solver(tt_mb=16)
    outcome = best_line(solver, 7, LINES[5], declarer=None, bid=None)
    reports = best_for_input(parse_input(LINES[5]), solver=solver)
    effort = {"seconds": 0, "nodes": 0}
    assert outcome.record | effort == {"id": "1039093", **reports[0].to_json()} | effort
    skipped = best_line(solver, 3, PASSED)
    assert skipped.record["line"] == 3 and "skipped" in skipped.record and not skipped.is_error
