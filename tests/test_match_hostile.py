"""``skatdd match`` under hostile plug-ins and inputs (issue 32): each player's fault is its own deal's failure.

* plug-in names that contain a built-in word or ``+`` load as plug-ins;
* a bad auction in a file of deals is that deal's input error, not a player's failure;
* what a plug-in writes to file descriptor 1 (a subprocess, ``os.write``,
  ``sys.__stdout__``, a logging handler made at import) never reaches the JSON on stdout;
* a plug-in that raises ``KeyboardInterrupt``, breaks its state, ends its
  process or loops past ``--timeout`` fails its deal as that player's failure;
* a plug-in that swallows every exception does not swallow Ctrl-C or SIGTERM.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from cli_runner import ROOT, default_ctrl_c, run_skatdd
from skatdd.play.deals import generated_deal
from skatdd.play.loading import load_player

TT = ("--tt-mb", "16")


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def plug_in(folder: Path, name: str, body: str) -> str:
    """Write a plug-in file *name* in *folder* whose factory is ``make``; its player name."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body))
    return f"{path}:make"


FIRST = '''
    class First:
        def play(self, state):
            return state.legal[0]


    def make(seat, seed):
        return First()
'''


# --------------------------------------------------------------------------- item 8: plug-in names


@pytest.mark.parametrize("file", ["alphamu_bot.py", "my+bot.py", "c++/mybot.py", "pimc_bot.py", "dd+x.py"])
def test_a_plug_in_name_with_built_in_words_or_plus_loads(tmp_path: Path, file: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in(tmp_path, file, FIRST)
    monkeypatch.chdir(tmp_path)
    spec = load_player(f"{file}:make")
    assert spec.name == f"{file}:make" and not spec.cheats
    assert spec.factory(0, 1).play is not None


# --------------------------------------------------------------------------- item 9: the auction is checked on reading


def test_a_bad_auction_in_a_file_of_deals_is_the_deals_input_error(tmp_path: Path) -> None:
    good = generated_deal(1, 1).to_json()
    bad = dict(good, id="bad-auction", bids=[[1, "20"], [0, "y"], [1, "18"]], bid=20)
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    proc = run_skatdd("match", "pimc:3+bids", "heuristic", "--deals", str(path), "--jobs", "1", *TT)
    assert proc.returncode == 2, proc.stderr
    records = lines_of(proc.stdout)
    assert records[0]["line"] == 1 and records[0]["id"] == "bad-auction" and "failed" not in records[0]
    assert "bid '18' does not exceed the previous bid 20" in records[0]["error"]
    assert "games" in records[1]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error: line")]
    assert errors == ["Error: line 1: field 'bids': bid '18' does not exceed the previous bid 20"]
