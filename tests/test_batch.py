"""Tests for ``skatdd batch`` and :mod:`skatdd.runner.lines` (docs/cli.md).

JSON lines in, JSON lines out in input order (also with two workers), bad
lines reported in place with their line number while every other line is
solved, exit status 2 afterwards, blank lines skipped, stdin, Ctrl-C, and a
worker that dies.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest

import cli_runner
from skatdd.core.rules import ALL_GAMES
from skatdd.engine.solve import Solver
from skatdd.formats.readers import position_from_json
from skatdd.runner import lines as batch
from skatdd.tools.generate import position_to_json, random_position, realistic_deals

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions.jsonl"
SOLVE_KEYS = {"game", "declarer", "to_move", "value", "declarer_wins", "line", "nodes", "seconds"}


invoke = partial(cli_runner.invoke, "batch")
run_process = partial(cli_runner.run_skatdd, "batch")


def records(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def strip_stats(rows: list[dict]) -> list[dict]:
    """Results without ``nodes`` and ``seconds`` (those depend on each worker's table)."""
    return [{k: v for k, v in row.items() if k not in ("nodes", "seconds")} for row in rows]


def mixed_lines(count: int, seed: int = 11) -> list[str]:
    """*count* JSON lines: endgames of every contract plus a few full realistic deals (slow ones first)."""
    rng = random.Random(seed)
    lines = []
    for i, pos in enumerate(realistic_deals(seed, 3)):
        lines.append(json.dumps({"id": f"deal-{i}", **position_to_json(pos)}))
    while len(lines) < count:
        i = len(lines)
        pos = random_position(rng, game=ALL_GAMES[i % 6], tricks=1 + i % 5, trick_cards=i % 3)
        lines.append(json.dumps({"id": i, **position_to_json(pos)}))
    return lines


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return mixed_lines(40)


@pytest.fixture(scope="module")
def expected(lines: list[str]) -> list[dict]:
    """What one Solver gives for every line, in order."""
    solver = Solver(tt_mb=16)
    out = []
    for line in lines:
        spec = position_from_json(json.loads(line))
        out.append({"id": spec.id, **solver.solve(spec.position(), "value").to_json()})
    return out


# --------------------------------------------------------------------------- order and fields

def test_examples_file_solves_every_line() -> None:
    result = invoke(str(EXAMPLES), "--jobs", "1", "--tt-mb", "16")
    assert result.exit_code == 0, result.output
    rows = records(result.stdout)
    ids = [json.loads(line)["id"] for line in EXAMPLES.read_text().splitlines() if line.strip()]
    assert [r["id"] for r in rows] == ids
    for row in rows:
        assert set(row) == {"id"} | SOLVE_KEYS
    games = {r["game"] for r in rows}
    assert "null" in games and len(games) >= 3
    assert result.stderr == ""


def test_jobs_2_keeps_input_order(tmp_path: Path, lines: list[str], expected: list[dict]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    proc = run_process(str(path), "--jobs", "2", "--tt-mb", "16")
    assert proc.returncode == 0, proc.stderr
    rows = records(proc.stdout)
    assert [r["id"] for r in rows] == [json.loads(line)["id"] for line in lines]
    assert strip_stats(rows) == strip_stats(expected)


def test_jobs_1_equals_jobs_2(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines[3:]) + "\n")  # endgames only: quick
    one = invoke(str(path), "--jobs", "1", "--tt-mb", "16")
    two = invoke(str(path), "--jobs", "2", "--tt-mb", "16")
    assert one.exit_code == two.exit_code == 0
    assert strip_stats(records(one.stdout)) == strip_stats(records(two.stdout))


def test_mode_all_and_win(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines[3:12]) + "\n")
    rows = records(invoke(str(path), "--mode", "all", "--jobs", "1", "--tt-mb", "16").stdout)
    assert len(rows) == 9 and all(set(r) == {"id", "cards"} | SOLVE_KEYS for r in rows)
    rows = records(invoke(str(path), "--mode", "win", "--jobs", "2", "--tt-mb", "16").stdout)
    assert len(rows) == 9 and all(r["value"] is None for r in rows)


def test_stdin_dash(lines: list[str], expected: list[dict]) -> None:
    text = "\n".join(lines[3:10]) + "\n"
    result = invoke("-", "--jobs", "1", "--tt-mb", "16", input=text)
    assert result.exit_code == 0, result.output
    assert strip_stats(records(result.stdout)) == strip_stats(expected[3:10])
    proc = run_process("-", "--jobs", "2", "--tt-mb", "16", input=text)
    assert proc.returncode == 0 and strip_stats(records(proc.stdout)) == strip_stats(expected[3:10])


def test_blank_lines_are_skipped_but_counted(lines: list[str]) -> None:
    text = "\n" + lines[5] + "\n   \n" + '{"id": "bad"}' + "\n\n"
    result = invoke("-", "--jobs", "1", "--tt-mb", "16", input=text)
    rows = records(result.stdout)
    assert len(rows) == 2
    assert rows[0]["id"] == json.loads(lines[5])["id"]
    assert rows[1]["line"] == 4 and rows[1]["id"] == "bad"  # physical line 4
    assert result.exit_code == 2


def test_empty_input_is_fine() -> None:
    result = invoke("-", "--jobs", "2", input="\n\n")
    assert result.exit_code == 0 and result.stdout == ""


# --------------------------------------------------------------------------- bad lines

BAD = [
    ('{"id": "x", "game": "grand", "declarer": 0, "hands": ["CJ X9", "SJ S7", "HA ST"], "skat": "D7 D8"}', "X9"),
    ("this is not json", "malformed JSON"),
    ('["a", "list"]', "object"),
    ('{"id": "dup", "game": "grand", "declarer": 0, "hands": ["CJ SA", "CJ S7", "HA ST"], "skat": "D7 D8"}', "CJ"),
    ('{"id": "count", "game": "grand", "declarer": 0, "hands": ["CJ SA", "SJ", "HA ST"], "skat": "D7 D8"}', "cards"),
    ('{"id": "g", "game": "bridge", "declarer": 0, "hands": ["CJ SA", "SJ S7", "HA ST"], "skat": "D7 D8"}', "bridge"),
    ('{"id": "s", "game": "grand", "declarer": 5, "hands": ["CJ SA", "SJ S7", "HA ST"], "skat": "D7 D8"}', "5"),
]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_lines_are_reported_in_place(tmp_path: Path, lines: list[str], expected: list[dict], jobs: str) -> None:
    good = lines[3:3 + len(BAD) + 1]
    mixed: list[str] = []
    for i, line in enumerate(good):
        mixed.append(line)
        if i < len(BAD):
            mixed.append(BAD[i][0])
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(mixed) + "\n")
    proc = run_process(str(path), "--jobs", jobs, "--tt-mb", "16")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    rows = records(proc.stdout)
    assert len(rows) == len(mixed)
    solved = [r for r in rows if "error" not in r]
    assert strip_stats(solved) == strip_stats(expected[3:3 + len(good)])
    errors = [r for r in rows if "error" in r]
    assert len(errors) == len(BAD)
    for k, (row, (_, token)) in enumerate(zip(errors, BAD, strict=True)):
        line_number = 2 * k + 2
        assert set(row) == {"line", "id", "error"}
        assert row["line"] == line_number
        assert token in row["error"]
        assert rows[line_number - 1] == row  # in its place
    assert errors[0]["id"] == "x" and errors[1]["id"] is None
    messages = [m for m in proc.stderr.splitlines() if m.startswith("Error: line ")]
    assert [int(m.split()[2].rstrip(":")) for m in messages] == [r["line"] for r in errors]


def test_illegal_played_card_in_a_line() -> None:
    hands = ["CJ SJ HA HT HK DA DT D9 D8 D7", "CA CT CK CQ C9 SA ST SK SQ S9", "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7"]
    line = json.dumps({"id": 1, "game": "grand", "declarer": 0, "hands": hands, "skat": "DK DQ",
                       "played": "HA S9 S8"})
    result = invoke("-", "--jobs", "1", input=line + "\n")
    assert result.exit_code == 2
    row = records(result.stdout)[0]
    assert row["line"] == 1 and row["id"] == 1 and "S8" in row["error"]


def test_missing_file_exits_2() -> None:
    result = invoke("no/such/file.jsonl")
    assert result.exit_code == 2 and "no/such/file.jsonl" in result.stderr


def test_not_utf8_line() -> None:
    outcome = batch.solve_line(Solver(tt_mb=1), 3, b'{"id": "\xff"}\n', "value")
    assert outcome.kind == batch.INPUT_ERROR and outcome.record["line"] == 3 and "UTF-8" in outcome.record["error"]


# --------------------------------------------------------------------------- library, crashes, Ctrl-C

def test_run_batch_streams_in_order(lines: list[str]) -> None:
    seen: list[int] = []
    items = [(n, line.encode()) for n, line in enumerate(lines[3:20], start=1)]
    summary = batch.run_batch(iter(items), jobs=2, mode="value", solver=Solver(tt_mb=8), emit=lambda o: seen.append(o.line))
    assert seen == list(range(1, 18))
    assert summary.lines == 17 and summary.exit_code == 0 and summary.nodes > 0


def _crashing_work(line: int, raw: bytes):
    """Stands in for batch._work in forked workers: dies on the line whose id is "crash"."""
    if b'"crash"' in raw:
        os._exit(3)
    return _real_work(line, raw)


_real_work = batch._work


def test_a_dead_worker_costs_only_its_line(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    if batch._context().get_start_method() != "fork":
        pytest.skip("needs fork: the workers must inherit the patched function")
    monkeypatch.setattr(batch, "_work", _crashing_work)
    body = lines[3:13]
    crash = json.loads(body[4])
    crash["id"] = "crash"
    body[4] = json.dumps(crash)
    out: list[batch.LineOutcome] = []
    summary = batch.run_batch(((n, text.encode()) for n, text in enumerate(body, start=1)), jobs=2, solver=Solver(tt_mb=8),
                              emit=out.append)
    assert [o.line for o in out] == list(range(1, 11))
    assert out[4].kind == batch.INTERNAL_ERROR and "died" in out[4].record["error"]
    assert summary.internal_errors >= 1 and summary.exit_code == 1
    assert sum(o.kind == batch.OK for o in out) >= 10 - summary.internal_errors


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    # Many full deals: slow enough to be interrupted midway (400 take about a second on two cores).
    rows = [json.dumps({"id": i, **position_to_json(p)}) for i, p in enumerate(realistic_deals(99, 400))]
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(rows) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "batch", str(path), "--jobs", "2", "--tt-mb", "16"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True, preexec_fn=cli_runner.default_ctrl_c)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # wait until at least one result is out
    time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)  # like Ctrl-C on a terminal: the whole process group
    guard = threading.Timer(60, proc.kill)  # never hang the suite if the batch does not stop
    guard.start()
    try:
        rest = proc.stdout.read()  # through the same buffer as readline(): nothing read ahead is lost
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait()
    finally:
        guard.cancel()
    if proc.returncode == 0:
        pytest.skip("the batch finished before the interrupt arrived")
    assert proc.returncode == 130
    assert "Traceback" not in err and "Interrupted" in err
    written = [first, *rest.splitlines()]
    for line in written:  # nothing written is truncated
        assert json.loads(line)["id"] is not None
    ids = [json.loads(line)["id"] for line in written]
    assert ids == list(range(len(ids))) and len(ids) < len(rows)
