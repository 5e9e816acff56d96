"""Two runs on one ``-o`` file: the second is refused at once, in one line, and changes nothing (issue 32, item 7).

The first run holds an exclusive lock on its output for as long as it runs
(:func:`skatdd.runner.outputs.lock_output`); here a lock taken by the test
stands for it, and one test starts a real slow match first.
"""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cli_runner import ROOT, run_skatdd

POSITIONS = str(ROOT / "examples" / "positions.jsonl")
GAME = str(ROOT / "examples" / "game.iss")
TT = ("--tt-mb", "16")


def locked_by_another_run(path: Path) -> int:
    """Create *path* with some content and lock it as a run writing it would; the descriptor (close to unlock)."""
    path.write_text('{"kept": true}\n')
    (path.parent / (path.name + ".run.json")).write_text('{"record": "kept"}\n')
    fd = os.open(path, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


@pytest.mark.parametrize("args", [
    ("batch", POSITIONS, "--jobs", "1"),
    ("batch", POSITIONS, "--jobs", "1", "--resume"),
    ("analyse", GAME, "--bid-skats", "1", "--bid-worlds", "2"),  # a small decisions review: the lock matters
    ("analyse", GAME, "--json", "--bid-skats", "1", "--bid-worlds", "2"),
    ("match", "random", "random", "--deals", "2", "--jobs", "1", *TT),
])
def test_a_second_run_on_a_locked_output_is_refused_at_once(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = tmp_path / "same.jsonl"
    fd = locked_by_another_run(out)
    try:
        proc = run_skatdd(*args, "-o", str(out), timeout=60)
    finally:
        os.close(fd)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: -o ") and "locked" in lines[0], proc.stderr
    assert out.read_text() == '{"kept": true}\n'
    assert (tmp_path / "same.jsonl.run.json").read_text() == '{"record": "kept"}\n'


def test_the_lock_is_released_when_the_run_ends(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    for _ in range(2):
        proc = run_skatdd("batch", POSITIONS, "--jobs", "1", "-o", str(out), timeout=60)
        assert proc.returncode == 0, proc.stderr
    fd = os.open(out, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody holds it any more
    finally:
        os.close(fd)


SLOW = textwrap.dedent('''
    import time


    class Slow:
        def play(self, state):
            time.sleep(0.2)
            return state.legal[0]


    def make(seat, seed):
        return Slow()
''')


def test_two_matches_on_one_output_do_not_mix(tmp_path: Path) -> None:
    bot = tmp_path / "slowbot.py"
    bot.write_text(SLOW)
    out = tmp_path / "same.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "skatdd", "match", f"{bot}:make", "random", "--deals", "3",
                              "--jobs", "1", "--timeout", "5", "-o", str(out), *TT], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "same.jsonl.run.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        record = (tmp_path / "same.jsonl.run.json").read_text()
        second = run_skatdd("match", "heuristic", "random", "--deals", "3", "--seed", "9", "--jobs", "1",
                            "-o", str(out), *TT, timeout=60)
        assert second.returncode == 2 and "locked" in second.stderr, second.stderr
        assert first.poll() is None, "the first run should still be playing"
        _, stderr = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 0, stderr
    assert (tmp_path / "same.jsonl.run.json").read_text() == record
    assert out.read_text().count("\n") == 3 and "slowbot.py:make" in out.read_text()
