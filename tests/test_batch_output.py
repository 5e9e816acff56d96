"""The batch runner's output, without a cluster: streaming from a pipe, odd ids, ``-o``/``--resume``, ``--table``.

* a caller that writes one line into ``batch - --jobs 2`` and waits gets its
  answer before writing the next;
* an ``id`` holding a lone surrogate (valid JSON) is echoed as valid UTF-8 JSON;
* ``-o FILE --resume`` after an interrupted run (a torn last line included)
  gives the same file as one uninterrupted run, and refuses a file that is
  not this input's output;
* ``analyse --table`` writes one row per analysed game (CSV and Parquet);
* a missing optional package gives a one-line message and exit 2.
"""
from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from skatdd.core.rules import ALL_GAMES
from skatdd.present.table import COLUMNS, table_row
from skatdd.tools.generate import position_to_json, random_position, realistic_deals

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cli_runner import default_ctrl_c  # noqa: E402
from run_records import records, strip_stats  # noqa: E402

ISS_GAMES = ROOT / "tests" / "data" / "iss-games.txt"
SURROGATE_LINE = '{"id": "\\ud800", "game": "grand", "declarer": 0, "hands": ["CJ", "SJ", "HJ"], "skat": "DJ CA"}'


def endgame_lines(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        pos = random_position(rng, game=ALL_GAMES[i % 6], tricks=1 + i % 4, trick_cards=i % 3)
        lines.append(json.dumps({"id": f"p{i}", **position_to_json(pos)}))
    return lines


def skatdd(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, **kwargs)


# --------------------------------------------------------------------------- streaming from a pipe


def test_a_piped_line_is_answered_before_the_next_is_written() -> None:
    lines = endgame_lines(3)
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "batch", "-", "--jobs", "2", "--tt-mb", "16"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    guard = threading.Timer(60, proc.kill)  # a deadlock fails the test instead of hanging the suite
    guard.start()
    try:
        for line in lines:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()  # before the next line is written
            assert answer, "no answer: the batch waited for more input"
            assert json.loads(answer)["id"] == json.loads(line)["id"]
        proc.stdin.close()
        assert proc.stdout.read() == ""
        assert proc.wait() == 0
    finally:
        guard.cancel()


# --------------------------------------------------------------------------- odd ids


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_lone_surrogate_id_is_echoed_as_valid_json(jobs: str) -> None:
    good = endgame_lines(2)
    text = "\n".join([good[0], SURROGATE_LINE, '{"id": "\\udc80", "game": "nonsense"}', good[1]]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "skatdd", "batch", "-", "--jobs", jobs, "--tt-mb", "16"],
                          input=text.encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc.stderr
    out = proc.stdout.decode("utf-8")  # strict: every byte is valid UTF-8
    rows = records(out)
    assert [r["id"] for r in rows] == ["p0", "\ud800", "\udc80", "p1"]
    assert rows[1]["value"] is not None and rows[2]["line"] == 3 and "error" in rows[2]
    assert b"Traceback" not in proc.stderr


def test_analyse_echoes_a_lone_surrogate_id(tmp_path: Path) -> None:
    bad = '{"id": "\\ud800", "game": "grand"}'
    path = tmp_path / "games.jsonl"
    path.write_text(ISS_GAMES.read_text().splitlines()[0] + "\n" + bad + "\n")
    proc = subprocess.run([sys.executable, "-m", "skatdd", "analyse", str(path), "--no-review", "--jobs", "1",
                           "--tt-mb", "16"], capture_output=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    rows = records(proc.stdout.decode("utf-8"))
    assert rows[1] == {"line": 2, "id": "\ud800", "error": rows[1]["error"]}


# --------------------------------------------------------------------------- -o and --resume


def full_deal_lines(count: int, seed: int = 99) -> list[str]:
    return [json.dumps({"id": i, **position_to_json(p)}) for i, p in enumerate(realistic_deals(seed, count))]


def test_output_file_and_resume_after_a_torn_line(tmp_path: Path) -> None:
    lines = endgame_lines(30)
    lines[7] = '{"id": "bad", "game": "grand"}'
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines[:10]) + "\n\n" + "\n".join(lines[10:]) + "\n")
    whole = tmp_path / "whole.jsonl"
    first = skatdd("batch", str(source), "--jobs", "1", "--tt-mb", "16", "-o", str(whole))
    assert first.returncode == 2 and first.stdout == ""
    full = whole.read_bytes()
    assert len(full.splitlines()) == 30
    for cut in (0, len(b"".join(full.splitlines(keepends=True)[:12])), len(full) - 5):
        part = tmp_path / f"part{cut}.jsonl"
        part.write_bytes(full[:cut] + (b'{"id": "p12", "ga' if cut and cut < len(full) - 5 else b""))
        Path(f"{part}.run.json").write_bytes(Path(f"{whole}.run.json").read_bytes())  # the run record goes with it
        again = skatdd("batch", str(source), "--jobs", "2", "--tt-mb", "16", "-o", str(part), "--resume")
        assert again.returncode == 2, again.stderr  # the bad line counts, whether resumed or redone
        assert "line 8" in again.stderr.splitlines()[-1]
        assert strip_stats(records(part.read_text())) == strip_stats(records(full.decode()))


def test_resume_refuses_another_inputs_output(tmp_path: Path) -> None:
    lines = endgame_lines(4)
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    assert skatdd("batch", str(source), "-o", str(out)).returncode == 0  # this run's record beside it
    out.write_text(json.dumps({"id": "other", "value": 1}) + "\n")
    proc = skatdd("batch", str(source), "-o", str(out), "--resume")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "'other'" not in proc.stderr and '"other"' in proc.stderr
    assert out.read_text() == json.dumps({"id": "other", "value": 1}) + "\n"  # nothing lost
    out.write_text("not json\n")
    assert skatdd("batch", str(source), "-o", str(out), "--resume").returncode == 2
    no_output = skatdd("batch", str(source), "--resume")
    assert no_output.returncode == 2 and "-o" in no_output.stderr


def test_interrupted_run_then_resume_equals_one_run(tmp_path: Path) -> None:
    lines = full_deal_lines(40)
    source = tmp_path / "deals.jsonl"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "batch", str(source), "--jobs", "2", "--tt-mb", "16",
                             "-o", str(out)], stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
                            preexec_fn=default_ctrl_c)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 2):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=60) in (0, 130)
    done = out.read_text().count("\n")
    resumed = skatdd("batch", str(source), "--jobs", "2", "--tt-mb", "16", "-o", str(out), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    rows = records(out.read_text())
    assert [r["id"] for r in rows] == list(range(40)) and done >= 2
    single = skatdd("batch", str(source), "--jobs", "1", "--tt-mb", "16")
    assert strip_stats(rows) == strip_stats(records(single.stdout))


# --------------------------------------------------------------------------- --table


@pytest.fixture(scope="module")
def analysed_to_parquet(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], Path]:
    """The fixture records analysed with ``-o`` and ``--table FILE.parquet``: (records, table path)."""
    pytest.importorskip("pyarrow")
    folder = tmp_path_factory.mktemp("table")
    table, out = folder / "games.parquet", folder / "out.jsonl"
    proc = skatdd("analyse", str(ISS_GAMES), "--jobs", "2", "--tt-mb", "16", "--table", str(table), "-o", str(out),
                  "--bid-skats", "1", "--bid-worlds", "2")  # the decisions review at a small budget
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    return records(out.read_text()), table


@pytest.fixture(scope="module")
def analysed(analysed_to_parquet: tuple[list[dict[str, Any]], Path]) -> list[dict[str, Any]]:
    return analysed_to_parquet[0]


def test_table_rows_follow_the_records(analysed: list[dict[str, Any]]) -> None:
    games = [r for r in analysed if "skipped" not in r]
    rows = [table_row(r) for r in analysed]
    assert sum(row is not None for row in rows) == len(games) == 9
    for record, row in zip(games, [r for r in rows if r is not None], strict=True):
        assert list(row) == [name for name, _ in COLUMNS]
        assert row["id"] == record["id"] and row["start_value"] == record["start_value"]
        assert row["score"] == record["result"]["score"]
        assert row["card_points"] == record["result"]["declarer_points"]
        assert [row["cost_forehand"], row["cost_middlehand"], row["cost_rearhand"]] == record["summary"]["costs"]
        assert row["best_score"] == record["contract_review"]["score"]
        assert row["forehand"] == record["players"][0] and row["date"].year >= 2007
    first = next(r for r in rows if r is not None)
    assert first["id"] == "541932" and first["game"] == "diamonds" and first["declarer"] == 2
    assert first["bid"] == 18 and first["hand"] is False and str(first["date"]) == "2010-12-06 18:59:24+00:00"
    ouvert = next(r for r in rows if r is not None and r["id"] == "727")
    assert ouvert["best_contract"] == "grand ouvert" and ouvert["best_discard"] is None


def test_table_row_names_the_first_decisive_card() -> None:
    record = {"id": 7, "game": "clubs", "declarer": 1, "start_value": 70,
              "plays": [{"card": "CA", "seat": 0}, {"card": "SJ", "seat": 1}],
              "result": {"declarer_points": 50, "score": -48, "declarer_wins": False},
              "summary": {"costs": [0, 20, 0], "first_decisive": 1}, "contract_review": None}
    row = table_row(record)
    assert row is not None
    assert (row["id"], row["first_decisive"], row["first_decisive_card"], row["first_decisive_seat"]) == ("7", 1, "SJ", 1)
    assert row["date"] is None and row["bid"] is None and row["best_contract"] is None
    assert table_row({"line": 3, "id": None, "error": "x"}) is None


def test_parquet_table_has_one_row_per_game(analysed_to_parquet: tuple[list[dict[str, Any]], Path]) -> None:
    parquet = pytest.importorskip("pyarrow.parquet")
    games, table = analysed_to_parquet
    expected = [row for row in map(table_row, games) if row is not None]
    assert parquet.read_table(table).to_pylist() == expected
    pandas = pytest.importorskip("pandas")
    assert list(pandas.read_parquet(table)["score"]) == [row["score"] for row in expected]


def test_csv_table_has_one_row_per_game(tmp_path: Path) -> None:
    table, out = tmp_path / "games.csv", tmp_path / "out.jsonl"
    proc = skatdd("analyse", str(ISS_GAMES), "--no-review", "--jobs", "2", "--tt-mb", "16", "--table", str(table),
                  "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    expected = [row for row in map(table_row, records(out.read_text())) if row is not None]
    with open(table, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [name for name, _ in COLUMNS] and len(rows) == len(expected) == 9
    assert [r["id"] for r in rows] == [row["id"] for row in expected]
    assert [int(r["score"]) for r in rows] == [row["score"] for row in expected]
    assert rows[0]["date"] == "2010-12-06T18:59:24+00:00" and rows[0]["first_decisive"] == ""
    assert rows[0]["best_contract"] == ""  # no review, no best option


def without_module(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``skatdd ARGS`` in a process where importing *module* fails, as when the extra is not installed."""
    code = f"import sys; sys.modules[{module!r}] = None; from skatdd.cli import main; main(sys.argv[1:])"
    return skatdd_code(code, *args)


def skatdd_code(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_table_format_and_missing_pyarrow(tmp_path: Path) -> None:
    bad = skatdd("analyse", str(ISS_GAMES), "--jobs", "1", "--no-review", "--table", str(tmp_path / "t.xlsx"))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "expected a file name ending in .parquet or .csv" in bad.stderr
    missing = without_module("pyarrow", "analyse", str(ISS_GAMES), "--table", str(tmp_path / "t.parquet"))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "pip install 'skatdd[dask]'" in missing.stderr and "Traceback" not in missing.stderr


def test_missing_dask_is_a_one_line_error(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(endgame_lines(1)[0] + "\n")
    proc = without_module("distributed", "batch", str(source), "--dask", "local:2")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "needs dask[distributed]" in proc.stderr


def test_a_refused_resume_keeps_the_old_table(tmp_path: Path) -> None:
    table, out = tmp_path / "games.csv", tmp_path / "out.jsonl"
    table.write_text("the old table\n")
    out.write_text(json.dumps({"line": 1, "id": "someone else's", "error": "x"}) + "\n")
    proc = skatdd("analyse", str(ISS_GAMES), "--no-review", "--jobs", "1", "--table", str(table), "-o", str(out),
                  "--resume")
    assert proc.returncode == 2 and "not this run's output" in proc.stderr
    assert table.read_text() == "the old table\n" and not list(tmp_path.glob("*.partial"))


def test_resume_refuses_html_rather_than_replace_the_index(tmp_path: Path) -> None:
    games = tmp_path / "games.iss"
    games.write_text("\n".join(ISS_GAMES.read_text().splitlines()[:2]) + "\n")
    proc = subprocess.run([sys.executable, "-m", "skatdd", "analyse", str(games), "--no-review", "-o",
                           str(tmp_path / "out.jsonl"), "--resume", "--html", str(tmp_path / "pages")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "--html and --resume" in proc.stderr
    assert not (tmp_path / "pages").exists() and not (tmp_path / "out.jsonl").exists()
