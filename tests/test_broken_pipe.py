"""``batch ... | head -1``: a closed standard output ends the run quietly with status 141 (128 + SIGPIPE).

It exited 0, as if every line had been written.  Now the status says the
output stopped early, as a shell reports for a command killed by SIGPIPE,
and nothing is printed: no traceback, no message.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from skatdd.cli.common import BROKEN_PIPE_STATUS
from skatdd.core.rules import ALL_GAMES
from skatdd.tools.generate import position_to_json, random_position

ROOT = Path(__file__).resolve().parent.parent


def endgame_lines(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps({"id": i, **position_to_json(random_position(rng, game=ALL_GAMES[i % 6], tricks=1 + i % 2))})
            for i in range(count)]


def test_the_status_is_128_plus_sigpipe() -> None:
    assert BROKEN_PIPE_STATUS == 141


def test_batch_into_a_reader_that_stops_exits_141_quietly() -> None:
    """The reader takes one line and closes the pipe; the next line written finds it closed."""
    lines = endgame_lines(3)
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "batch", "-", "--jobs", "1", "--tt-mb", "8"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write((lines[0] + "\n").encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 0
        proc.stdout.close()  # as `head -1` does once it has its line
        proc.stdin.write(("\n".join(lines[1:]) + "\n").encode())
        proc.stdin.close()
        status = proc.wait(timeout=120)
        stderr = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert status == BROKEN_PIPE_STATUS, stderr
    assert stderr == ""


def test_batch_piped_into_head_in_a_shell(tmp_path: Path) -> None:
    """The issue's own case, through a real shell pipe; the output (~300 kB) is far more than a pipe holds."""
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(endgame_lines(2000)) + "\n")
    script = (f'"{sys.executable}" -m skatdd batch "{source}" --jobs 1 --tt-mb 8 2>"{tmp_path}/err" | head -1; '
              'echo "${PIPESTATUS[0]}"')
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300)
    first, status = proc.stdout.splitlines()
    assert json.loads(first)["id"] == 0
    assert int(status) == BROKEN_PIPE_STATUS
    assert (tmp_path / "err").read_text() == ""
