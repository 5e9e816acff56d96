"""Bad input, tried as a hostile user would: every case exits 2 with one line and no traceback.

Each case was once answered with a traceback, a wrong exit status, a
megabyte-long message, or silently accepted.
"""
from __future__ import annotations

import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli_runner import default_ctrl_c
from skatdd.cli import cli
from skatdd.core.errors import quote
from skatdd.formats.files import MAX_LINE_BYTES, line_too_long
from skatdd.runner import memory
from skatdd.runner.lines import read_lines
from skatdd.runner.memory import available_mib

ROOT = Path(__file__).resolve().parents[1]
LINES = [line for line in (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines() if line.strip()]
RECORD = LINES[0]  # ID 541932: rearhand plays diamonds; forehand leads SA, middlehand S7, rearhand DA
DEAL = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"
DEAL_JSON = {"hands": DEAL.split(" / ")[:3], "skat": "DK DQ"}


def invoke(*args: str):
    return CliRunner().invoke(cli, [*args])


def process(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def assert_one_line_error(result, *fragments: str) -> None:
    """Exit 2, exactly one line on stderr naming every fragment, no traceback, a short message."""
    stderr = result.stderr
    assert result.exit_code == 2 if hasattr(result, "exit_code") else result.returncode == 2, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert len(lines[0]) < 400, lines[0][:500]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def record_with(old: str, new: str, line: str = RECORD) -> str:
    assert old in line
    return line.replace(old, new, 1)


# --------------------------------------------------------------------------- ISS numbers

HOSTILE_RECORDS = {
    "superscript-bid": (record_with("2 18 0 p", "2 \u00b2 0 p"), "\u00b2"),
    "arabic-indic-bid": (record_with("2 18 0 p", "2 \u0661\u0668 0 p"), "\u0661\u0668"),
    "huge-bid": (record_with("2 18 0 p", "2 " + "1" * 5000 + " 0 p"), "111"),
    "huge-score": (record_with("v:-54", "v:-" + "5" * 5000), "555"),
    "non-ascii-seat": (record_with("d:2 ", "d:\u0662 "), "d:"),
}


@pytest.mark.parametrize("command", ["analyse", "solve", "best"])
@pytest.mark.parametrize("name", sorted(HOSTILE_RECORDS))
def test_iss_numbers_that_are_not_numbers(command: str, name: str) -> None:
    record, token = HOSTILE_RECORDS[name]
    extra = ["--no-review"] if command == "analyse" else []
    assert_one_line_error(invoke(command, record, *extra), token)


def test_iss_huge_number_in_a_file_of_records_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "games.iss"
    path.write_text("\n".join([HOSTILE_RECORDS["huge-bid"][0], LINES[3]]) + "\n")  # LINES[3]: everyone passed
    result = invoke("analyse", str(path), "--jobs", "1", "--no-review")
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["line"] == 1 and "internal" not in first["error"] and len(first["error"]) < 400
    assert "skipped" in second


# --------------------------------------------------------------------------- --tt-mb


def test_tt_mb_beyond_the_memory_available_is_refused_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "available_mib", lambda: 1000)
    for args in (["solve", DEAL, "--game", "G", "--declarer", "0"], ["best", DEAL, "--declarer", "0"],
                 ["analyse", RECORD], ["bench", "--deals", "1"], ["batch", "-"],
                 ["null-ouvert", "C7 C9 S7 S9 ST SA H7 H9 D7 D9", "--declarer", "F"]):
        result = invoke(*args, "--tt-mb", "2000")
        assert result.exit_code == 2, (args, result.output)
        assert "--tt-mb" in result.output and "2000" in result.output and "1000 MiB" in result.output
        assert "Traceback" not in result.output
        assert invoke(*args, "--tt-mb", "999", "--help").exit_code == 0


@pytest.mark.skipif((available_mib() or 0) >= 40000, reason="the machine has 40000 MiB available")
@pytest.mark.parametrize("args", [["solve", DEAL, "--game", "G", "--declarer", "0"], ["batch", "-", "--jobs", "2"]])
def test_tt_mb_beyond_this_machine(args: list[str]) -> None:
    run = subprocess.run([sys.executable, "-m", "skatdd", *args, "--tt-mb", "40000"], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, input=json.dumps({**DEAL_JSON, "game": "G", "declarer": 0}) + "\n")
    assert run.returncode == 2 and run.stdout == ""
    assert "Traceback" not in run.stderr and "MemoryError" not in run.stderr and "BrokenProcessPool" not in run.stderr
    assert "40000" in run.stderr and "available" in run.stderr


# --------------------------------------------------------------------------- best reads as solve reads

BAD_JSON = {
    "game-bridge": ({"game": "bridge"}, "bridge"),
    "points-200": ({"declarer_points": 200}, "200"),
    "points-negative": ({"declarer_points": -5}, "-5"),
    "leader-5": ({"leader": 5}, "5"),
    "hand-yes": ({"hand": "yes"}, "yes"),
    "announce-bogus": ({"announce": ["bogus"]}, "bogus"),
    "huge-points": ({"declarer_points": 10**4000}, "declarer_points"),
    "seat-list": ({"declarer": [0]}, "declarer"),
}


@pytest.mark.parametrize("name", sorted(BAD_JSON))
@pytest.mark.parametrize("command", ["best", "solve"])
def test_best_refuses_what_solve_refuses(command: str, name: str) -> None:
    fields, token = BAD_JSON[name]
    obj = {**DEAL_JSON, "game": "grand", "declarer": 0, **fields}
    assert_one_line_error(invoke(command, json.dumps(obj)), token)


BAD_PLAYS = {
    "revoke": (record_with("0 SA 1 S7 ", "0 SA 1 HQ "), "HQ"),
    "not-held": (record_with("0 SA 1 S7 ", "0 SA 1 DA "), "DA"),
    "out-of-turn": (record_with("0 SA 1 S7 ", "0 SA 2 S7 "), "S7"),
    "extra-play": (record_with(" 2 HT ]R", " 2 HT 0 HA ]R"), "HA"),
}


@pytest.mark.parametrize("name", sorted(BAD_PLAYS))
@pytest.mark.parametrize("command", ["best", "solve", "analyse"])
def test_a_record_with_an_impossible_play_is_refused(command: str, name: str) -> None:
    record, token = BAD_PLAYS[name]
    extra = ["--no-review"] if command == "analyse" else []
    assert_one_line_error(invoke(command, record, *extra), token, "MV move")


@pytest.mark.parametrize("command", ["best", "solve", "analyse"])
def test_deeply_nested_json(command: str) -> None:
    assert_one_line_error(invoke(command, '{"a":' * 100000 + "1" + "}" * 100000), "nested too deeply")


@pytest.mark.parametrize("command", ["best", "solve", "analyse"])
def test_a_number_of_5000_digits(command: str) -> None:
    text = json.dumps({**DEAL_JSON, "game": "grand", "declarer": 0}).replace('"declarer": 0', '"declarer": ' + "7" * 5000)
    assert_one_line_error(invoke(command, text), "malformed JSON", "digits")


def test_batch_line_with_hostile_json_keeps_the_others(tmp_path: Path) -> None:
    good = json.dumps({**DEAL_JSON, "game": "grand", "declarer": 0, "id": "ok"})
    path = tmp_path / "positions.jsonl"
    path.write_text("\n".join([good, '{"a":' * 100000, good.replace('"declarer": 0', '"declarer": ' + "7" * 5000)]) + "\n")
    result = invoke("batch", str(path), "--jobs", "1", "--tt-mb", "16")
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["id"] == "ok" and "value" in records[0]
    assert [r["line"] for r in records[1:]] == [2, 3]
    assert all("internal" not in r["error"] and len(r["error"]) < 400 for r in records[1:])


# --------------------------------------------------------------------------- paths and long tokens


@pytest.mark.parametrize("command", [["solve", "--game", "G", "--declarer", "0"], ["best"], ["analyse"]])
def test_a_path_that_does_not_exist(command: list[str]) -> None:
    name, *options = command
    assert_one_line_error(invoke(name, "data/a/b/nope.txt", *options), "'data/a/b/nope.txt'", "does not exist")


def test_a_deal_written_without_spaces_is_still_a_deal() -> None:
    dotted = " / ".join(".".join(group.split()) for group in DEAL.split(" / ")).replace(" ", "")
    result = invoke("solve", dotted, "--game", "D", "--declarer", "0", "--json")
    assert result.exit_code == 0, result.output


def test_a_megabyte_card_is_quoted_short() -> None:
    huge = "X" * 1_000_000
    assert_one_line_error(invoke("solve", DEAL.replace("CJ", huge), "--game", "G", "--declarer", "0"),
                          "XXXX", "1000000 characters")
    obj = {**DEAL_JSON, "game": "grand", "declarer": 0, "skat": ["DK", huge]}
    assert_one_line_error(invoke("best", json.dumps(obj)), "1000000 characters")
    assert_one_line_error(invoke("analyse", record_with("0 SA 1 S7 ", f"0 SA 1 {huge} "), "--no-review"),
                          "1000000 characters")


def test_quote_keeps_short_tokens_and_cuts_long_ones() -> None:
    assert quote("CJ") == "'CJ'"
    assert quote(12) == "12"
    long = quote("A" * 100 + "B" * 100)
    assert long.startswith("'AAA") and "BBB'" in long and "(200 characters)" in long and len(long) < 100


# --------------------------------------------------------------------------- batch --json, null-ouvert Ctrl-C


def test_batch_accepts_json() -> None:
    line = json.dumps({**DEAL_JSON, "game": "grand", "declarer": 0})
    result = CliRunner().invoke(cli, ["batch", "-", "--json", "--jobs", "1", "--tt-mb", "16"], input=line + "\n")
    assert result.exit_code == 0, result.output
    assert "value" in json.loads(result.stdout)


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process *pid* so far (Linux /proc; 0 where it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_null_ouvert_without_skat_stops_at_once_on_ctrl_c(jobs: str) -> None:
    # Without --skat this hand takes seconds (8.7 s on the project's machine: 42,678,636 worlds); Ctrl-C
    # must not wait for the search, on one thread or several.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "null-ouvert", "C7 C8 CK S7 S9 H7 H8 HT D7 DJ",
                             "--declarer", "R", "--jobs", jobs], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=default_ctrl_c)
    # Well inside the search: wait for the process's own CPU time, not the wall clock (on a loaded machine a
    # fixed sleep could still find the interpreter starting, before Ctrl-C is handled at all).
    deadline = time.monotonic() + 60
    while proc.poll() is None and _cpu_seconds(proc.pid) < 1.5 and time.monotonic() < deadline:
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip("the search ended before the signal (a much faster machine)")
    at_signal = _cpu_seconds(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 130 and out == ""
    assert err.strip() == "Interrupted."
    # "At once" in CPU time, which a loaded machine does not stretch as it stretches the wall clock: the
    # search had seconds of CPU left (the whole hand takes 4-8 s), the stop takes a few hundredths.
    spent = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert spent - at_signal < 1.0, (spent, at_signal)


@pytest.mark.parametrize("args", [["score", "--game", "G", "--matadors", "9" * 5000],
                                  ["bench", "--deals", "9" * 5000],
                                  ["solve", DEAL, "--game", "G", "--declarer", "0", "--mode", "v" * 5000]])
def test_click_messages_quote_long_values_short(args: list[str]) -> None:
    run = process(*args)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    error = run.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: ") and "(5000 characters)" in error and len(error) < 300


# --------------------------------------------------------------------------- a line without end


class _Zeros(io.RawIOBase):
    """*n* NUL bytes made as they are read (no newline among them), then *tail*."""

    def __init__(self, n: int, tail: bytes) -> None:
        self.left, self.tail = n, tail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left > 0:
            size = min(len(buffer), self.left)
            buffer[:size] = bytes(size)
            self.left -= size
            return size
        size = min(len(buffer), len(self.tail))
        buffer[:size] = self.tail[:size]
        self.tail = self.tail[size:]
        return size


def test_a_line_without_end_is_read_in_bounded_memory() -> None:
    """50 MB without a newline (``batch /dev/zero`` took 6 GB in 9 s): the line is cut and dropped, the next read."""
    stream = io.BufferedReader(_Zeros(50_000_000, b"\n{\"id\": 2}\n"))
    tracemalloc.start()
    try:
        lines = list(read_lines(stream))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MAX_LINE_BYTES, peak
    assert [number for number, _ in lines] == [1, 2] and lines[1][1] == b'{"id": 2}\n'
    assert line_too_long(lines[0][1]) and not line_too_long(lines[1][1])


def test_a_line_of_the_limit_is_a_line() -> None:
    exact = b"x" * MAX_LINE_BYTES
    stream = io.BytesIO(exact + b"\n" + exact + b"y\n" + exact)
    lines = [raw for _, raw in read_lines(stream)]
    assert [line_too_long(raw) for raw in lines] == [False, True, False]
    assert lines[0] == exact + b"\n" and lines[2] == exact


@pytest.mark.parametrize("command", ["batch", "analyse", "match"])
def test_a_line_too_long_is_that_lines_error(tmp_path: Path, command: str) -> None:
    long = '{"id": "' + "x" * (MAX_LINE_BYTES + 10) + '"}'
    if command == "batch":
        good, args = json.dumps({**DEAL_JSON, "game": "grand", "declarer": 0}), ["--tt-mb", "16"]
    elif command == "analyse":
        good, args = RECORD, ["--no-review"]
    else:
        good, args = RECORD, ["--tt-mb", "16"]
    path = tmp_path / "lines.txt"
    path.write_text("\n".join([long, good, good]) + "\n")
    argv = ["match", "heuristic", "heuristic", "--deals", str(path)] if command == "match" else [command, str(path)]
    run = process(*argv, "--jobs", "1", *args)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(records) == 3 and records[0]["line"] == 1 and "longer than 1,048,576 bytes" in records[0]["error"]
    assert len(records[0]["error"]) < 400 and all("error" not in r for r in records[1:])


@pytest.mark.parametrize("command", [["solve", "--game", "G", "--declarer", "0"], ["advise", "--worlds", "2"]])
@pytest.mark.parametrize("source", ["stdin", "file"])
def test_a_single_input_without_end_is_refused_in_bounded_memory(tmp_path: Path, command: list[str],
                                                                  source: str) -> None:
    """``solve - < /dev/zero`` read standard input whole (all the memory); past 16 MiB it is one line, exit 2."""
    name, *options = command
    size = 20 << 20
    if source == "file":
        path = tmp_path / "zeros.txt"
        with path.open("wb") as fh:
            fh.truncate(size)  # a sparse file of NULs: no disk written
        argv, stdin = [name, str(path), *options], subprocess.DEVNULL
    else:
        argv, stdin = [name, "-", *options], open("/dev/zero", "rb")  # closed below
    try:
        run = subprocess.run([sys.executable, "-m", "skatdd", *argv], stdin=stdin, capture_output=True, text=True,
                             timeout=120, cwd=ROOT,
                             preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)))
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    assert_one_line_error(run, "longer than 16,777,216 characters")


@pytest.mark.parametrize("command", [["solve", "--game", "G", "--declarer", "0"], ["best"], ["analyse"], ["advise"]])
def test_a_device_is_not_said_not_to_exist(command: list[str]) -> None:
    name, *options = command
    assert_one_line_error(invoke(name, "/dev/null", *options), "'/dev/null' is not a regular file")
