"""``-o FILE --resume`` refuses another run's output: the run record beside FILE (skatdd.runner.resume).

Records without ids cannot tell one input from another, and no record says
which options made it; resuming such a file once kept another run's results
and exited 0.  Now every run with ``-o`` writes ``FILE.run.json`` (the input's
digest and the options that change results), and ``--resume`` refuses a
mismatch with exit 2 and "not this run's output", leaving FILE as it was.
"""
from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from skatdd.core.rules import ALL_GAMES
from skatdd.runner.resume import RUN_RECORD, RunFingerprint, input_digest, run_fingerprint, run_record_path
from skatdd.tools.generate import position_to_json, random_position

ROOT = Path(__file__).resolve().parent.parent
ISS_GAMES = ROOT / "tests" / "data" / "iss-games.txt"


def skatdd(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, input=input)


def positions_without_ids(count: int, seed: int) -> list[str]:
    """Small endgame positions as JSON lines with no ``id``: a record cannot tell which line it answers."""
    rng = random.Random(seed)
    return [json.dumps(position_to_json(random_position(rng, game=ALL_GAMES[i % 6], tricks=1 + i % 3)))
            for i in range(count)]


def assert_refused(proc: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "not this run's output" in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def interrupted(out: Path, keep: int) -> bytes:
    """Cut *out* to its first *keep* records plus a torn line, as an interrupted run leaves it; return the bytes."""
    kept = b"".join(out.read_bytes().splitlines(keepends=True)[:keep]) + b'{"game": "gr'
    out.write_bytes(kept)
    return kept


# --------------------------------------------------------------------------- batch


def test_batch_refuses_the_output_of_another_input_without_ids(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join(positions_without_ids(6, seed=1)) + "\n")
    b.write_text("\n".join(positions_without_ids(6, seed=2)) + "\n")
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", str(a), "--jobs", "1", "-o", str(out)).returncode == 0
    kept = interrupted(out, 3)
    assert_refused(skatdd("batch", str(b), "--jobs", "1", "-o", str(out), "--resume"), "another input")
    assert out.read_bytes() == kept  # left as it was: nothing lost, nothing mixed


def test_batch_refuses_another_mode(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(positions_without_ids(5, seed=3)) + "\n")
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", str(source), "--jobs", "1", "--mode", "all", "-o", str(out)).returncode == 0
    kept = interrupted(out, 2)
    assert_refused(skatdd("batch", str(source), "--jobs", "1", "--mode", "win", "-o", str(out), "--resume"),
                   "--mode 'all'", "--mode 'win'")
    assert_refused(skatdd("batch", str(source), "--jobs", "1", "-o", str(out), "--resume"), "--mode 'value'")
    assert out.read_bytes() == kept


def test_batch_resumes_its_own_output_and_repairs_a_torn_line(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(positions_without_ids(8, seed=4)) + "\n")
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", str(source), "--jobs", "1", "--mode", "win", "-o", str(out)).returncode == 0
    whole = [strip(json.loads(line)) for line in out.read_text().splitlines()]
    interrupted(out, 3)
    # --jobs, --tt-mb and where the work runs change no result: they may differ
    again = skatdd("batch", str(source), "--jobs", "2", "--tt-mb", "8", "--mode", "win", "-o", str(out), "--resume")
    assert again.returncode == 0, again.stderr
    assert [strip(json.loads(line)) for line in out.read_text().splitlines()] == whole


def strip(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("nodes", "seconds")}


def test_an_output_without_its_run_record_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(positions_without_ids(3, seed=5)) + "\n")
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", str(source), "--jobs", "1", "-o", str(out)).returncode == 0
    record = Path(run_record_path(str(out)))
    record.write_text("not a run record\n")
    assert_refused(skatdd("batch", str(source), "-o", str(out), "--resume"), "is not a skatdd run record")
    record.unlink()
    assert_refused(skatdd("batch", str(source), "-o", str(out), "--resume"), "has no run record")
    # with nothing written yet there is nothing to mix: the run starts and writes its record
    out.write_text('{"torn')
    assert skatdd("batch", str(source), "--jobs", "1", "-o", str(out), "--resume").returncode == 0
    assert len(out.read_text().splitlines()) == 3 and record.exists()


def test_a_new_run_without_resume_replaces_the_record(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(positions_without_ids(2, seed=6)) + "\n")
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", str(source), "--jobs", "1", "--mode", "all", "-o", str(out)).returncode == 0
    assert skatdd("batch", str(source), "--jobs", "1", "-o", str(out)).returncode == 0
    record = json.loads(Path(run_record_path(str(out))).read_text())
    assert record["options"] == {"command": "batch", "--mode": "value"}
    assert record["input_sha256"] == input_digest(str(source))
    assert skatdd("batch", str(source), "--jobs", "1", "-o", str(out), "--resume").returncode == 0


def test_a_run_from_stdin_checks_its_options(tmp_path: Path) -> None:
    text = "\n".join(positions_without_ids(4, seed=7)) + "\n"
    out = tmp_path / "p.jsonl"
    assert skatdd("batch", "-", "--jobs", "1", "-o", str(out), input=text).returncode == 0
    interrupted(out, 2)
    assert_refused(skatdd("batch", "-", "--mode", "all", "-o", str(out), "--resume", input=text), "--mode")
    again = skatdd("batch", "-", "--jobs", "1", "-o", str(out), "--resume", input=text)
    assert again.returncode == 0, again.stderr
    assert len(out.read_text().splitlines()) == 4


# --------------------------------------------------------------------------- analyse


def test_analyse_refuses_other_single_dummy_and_review_options(tmp_path: Path) -> None:
    games = tmp_path / "games.iss"
    games.write_text("\n".join(ISS_GAMES.read_text().splitlines()[:2]) + "\n")
    out = tmp_path / "a.jsonl"
    first = skatdd("analyse", str(games), "--no-review", "--worlds", "2", "--jobs", "1", "--tt-mb", "16", "-o", str(out))
    assert first.returncode == 0, first.stderr
    kept = interrupted(out, 1)
    resume = ["analyse", str(games), "--jobs", "1", "--tt-mb", "16", "-o", str(out), "--resume"]
    assert_refused(skatdd(*resume, "--no-review"), "--worlds 2", "--worlds (not given)")
    assert_refused(skatdd(*resume, "--no-review", "--worlds", "5"), "--worlds 5")
    assert_refused(skatdd(*resume, "--no-review", "--worlds", "2", "--seed", "9"), "--seed 1", "--seed 9")
    assert_refused(skatdd(*resume, "--worlds", "2"), "--no-review on", "--no-review off")
    assert out.read_bytes() == kept
    again = skatdd(*resume, "--no-review", "--worlds", "2")
    assert again.returncode == 0, again.stderr
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["541932", "596891"]


def test_analyse_refuses_a_review_run_resumed_without_it(tmp_path: Path) -> None:
    games = tmp_path / "games.iss"
    games.write_text("\n".join(ISS_GAMES.read_text().splitlines()[:2]) + "\n")
    out = tmp_path / "a.jsonl"
    assert skatdd("analyse", str(games), "--no-review", "--jobs", "1", "--tt-mb", "16", "-o", str(out)).returncode == 0
    kept = interrupted(out, 1)
    assert_refused(skatdd("analyse", str(games), "--jobs", "1", "-o", str(out), "--resume"), "--no-review")
    other = tmp_path / "other.iss"
    other.write_text("\n".join(ISS_GAMES.read_text().splitlines()[2:4]) + "\n")
    assert_refused(skatdd("analyse", str(other), "--no-review", "-o", str(out), "--resume"), "another input")
    assert out.read_bytes() == kept


# --------------------------------------------------------------------------- the API a runner uses


def test_run_fingerprint_api() -> None:
    a = run_fingerprint("ab" * 32, {"command": "match", "--games": 10})
    assert a == run_fingerprint("ab" * 32, {"--games": 10, "command": "match"})
    assert a.digest == run_fingerprint("ab" * 32, {"--games": 10, "command": "match"}).digest
    assert a.differences(a) == []
    assert a.differences(run_fingerprint("cd" * 32, a.options)) == [
        "it was made from another input (or the input changed since)"]
    assert a.differences(run_fingerprint(None, a.options)) == []  # stdin has no digest to compare
    changed = run_fingerprint("ab" * 32, {"command": "match", "--games": 12, "--flag": True})
    assert changed.differences(a) == ["it was made with --flag (not given), this run has --flag on",
                                      "it was made with --games 10, this run has --games 12"]
    assert RunFingerprint.from_json(a.to_json()) == a and a.to_json()["fingerprint"] == a.digest
    assert RunFingerprint.from_json({"skatdd_run": 99}) is None and RunFingerprint.from_json([]) is None
    assert run_record_path("out.jsonl") == "out.jsonl" + RUN_RECORD == "out.jsonl.run.json"


def test_input_digest(tmp_path: Path) -> None:
    path = tmp_path / "in"
    path.write_bytes(b"x\n")
    assert input_digest(str(path)) == hashlib.sha256(b"x\n").hexdigest()
    assert input_digest("-") is None and input_digest(None) is None
