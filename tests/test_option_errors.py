"""Option and usage errors are one line too, from every command (skatdd.cli.OneLineGroup); ``--bid`` is bounded.

Click printed a four-line block (usage, hint, blank line, message) for a
bad ``--seat``, an unknown option or a missing argument, where the contract
(docs/cli.md) is one line on stderr naming the offending token and what was
expected, exit status 2.  Checked in this process (Click's runner, as any
caller of the group) and through the console entry point in a real process.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from cli_runner import invoke_main
from skatdd.analysis.odds.api import odds
from skatdd.cli import all_commands, cli
from skatdd.cli.options import FiniteFloat
from skatdd.core.errors import ScoringError
from skatdd.core.rules import Game
from skatdd.core.scoring import ANNOUNCEMENTS, BASE_VALUES, MAX_BID, Declaration, score_game

ROOT = Path(__file__).resolve().parent.parent
DEAL = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"
HAND = ["CJ", "SJ", "HA", "HT", "HK", "DA", "DT", "D9", "D8", "D7"]
GAME = str(ROOT / "examples" / "game.iss")
POSITIONS = str(ROOT / "examples" / "positions.jsonl")

#: (arguments, fragments the one line must hold: the offending token and what was expected)
CASES: list[tuple[list[str], list[str]]] = [
    (["odds", *HAND, "--seat", "X"], ["'X'", "expected 0/1/2"]),
    (["odds", *HAND], ["'--seat'"]),
    (["odds", *HAND, "--seat", "0", "--game", "foo"], ["'foo'", "expected grand"]),
    (["odds", *HAND, "--seat", "0", "--worlds", "0"], ["'--worlds'", "0 is not in the range"]),
    (["odds", *HAND, "--seat", "0", "--jobs", "x"], ["'x' is not a valid integer"]),
    (["odds", "--seat", "0"], ["Missing argument 'HAND...'", "usage: skatdd odds [OPTIONS] HAND..."]),
    (["odds", *HAND, "--seat"], ["'--seat' requires an argument"]),
    (["solve", DEAL, "--game", "foo"], ["'foo'", "expected grand"]),
    (["solve", DEAL, "--mode", "fast"], ["'fast' is not one of 'value', 'win', 'all'"]),
    (["solve", DEAL, "--declarer", "7"], ["'7'", "expected 0/1/2"]),
    (["solve"], ["Missing argument 'DEAL'", "usage: skatdd solve [OPTIONS] DEAL"]),
    (["solve", DEAL, "extra"], ["unexpected extra argument (extra)", "usage: skatdd solve"]),
    (["solve", DEAL, "--frob"], ["'--frob'", "--declarer", "--mode"]),
    (["solve", DEAL, "--tt-mb", "0"], ["'--tt-mb'", "0 is not in the range"]),
    (["batch", POSITIONS, "-o", "nope/x.jsonl"], ["'nope/x.jsonl'", "does not exist"]),
    (["batch", POSITIONS, "--jobs", "0"], ["'--jobs'", "0 is not in the range"]),
    (["batch", POSITIONS, "--mode", "x"], ["'x' is not one of"]),
    (["batch"], ["Missing argument 'FILE'"]),
    (["batch", POSITIONS, "--resume"], ["--resume needs -o FILE"]),
    (["analyse", GAME, "--worlds", "0"], ["'--worlds'", "0 is not in the range"]),
    (["analyse", GAME, "--seed", "s"], ["'s' is not a valid integer"]),
    (["analyse", GAME, "-o", "nope/x.jsonl"], ["'nope/x.jsonl'", "does not exist"]),
    (["analyse", GAME, "--review"], ["'--review'", "--no-review"]),
    (["analyse"], ["Missing argument 'GAME'"]),
    (["advise", GAME, "--after", "-1"], ["'--after'", "-1 is not in the range"]),
    (["advise", GAME, "--declarer", "Q"], ["'Q'", "expected 0/1/2"]),
    (["advise"], ["Missing argument 'POSITION'"]),
    (["best", DEAL, "--declarer", "east"], ["'east'", "expected 0/1/2"]),
    (["best", DEAL, "--bid", "17"], ["'--bid'", "17 is not a bid"]),
    (["best", DEAL, "--all"], ["'--all'", "--all-lines"]),
    (["null-ouvert", "C7", "--declarer"], ["'--declarer' requires an argument"]),
    (["null-ouvert", "--declarer", "0"], ["Missing argument 'HAND...'"]),
    (["score", "--game", "foo"], ["'foo'", "expected grand"]),
    (["score", "--game", "grand", "--announce", "contra"], ["'contra' is not one of"]),
    (["score", "--game", "grand", "--points", "121"], ["'--points'", "121 is not in the range"]),
    (["bench", "--deals", "x"], ["'x' is not a valid integer"]),
    (["bench", "--game", "foo"], ["'foo'", "expected grand"]),
    (["advise", GAME, "--after", "20", "--honest-tricks", "3"], ["--honest-tricks needs --honest"]),
    (["analyse", GAME, "--worlds", "10", "--honest-tricks", "3"], ["--honest-tricks needs --honest"]),
    (["analyse", GAME, "--honest-tricks", "3"], ["--honest-tricks needs --honest"]),
    (["frob"], ["No such command 'frob'", "expected a command: advise, analyse, batch"]),
    (["--frob"], ["'--frob'", "--version"]),
]


def assert_one_line(stderr: str, status: int, fragments: list[str]) -> str:
    assert status == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith("Error: ") and "Usage:" not in line and "Traceback" not in stderr and len(line) < 400
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


@pytest.mark.parametrize("args, fragments", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_every_usage_error_is_one_line(args: list[str], fragments: list[str]) -> None:
    result: Result = CliRunner().invoke(cli, args, prog_name="skatdd")
    assert_one_line(result.stderr, result.exit_code, fragments)
    assert result.stdout == ""


@pytest.mark.parametrize("args", [["odds", *HAND, "--seat", "X"], ["solve"], ["analyse", GAME, "--frob"],
                                  ["score", "--game", "G", "--bid", "9" * 5000], ["frob"]])
def test_usage_errors_through_the_console_entry_point(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    line = assert_one_line(proc.stderr, proc.returncode, [])
    assert proc.stdout == "" and len(line) < 300


def test_skatdd_alone_still_shows_the_whole_help() -> None:
    result = CliRunner().invoke(cli, [], prog_name="skatdd")
    assert "Commands:" in result.output and "analyse" in result.output and len(result.output.splitlines()) > 5


# --------------------------------------------------------------------------- --bid


def test_the_highest_bid_is_the_highest_game_value() -> None:
    """MAX_BID against every declaration, matador count and won ending that score_game accepts."""
    announcements = [(), ("schneider",), ("schneider", "schwarz"), ANNOUNCEMENTS, ("ouvert",)]
    values = []
    for game in Game:
        tops = range(1, (11 if game.is_suit else 4) + 1) if game in BASE_VALUES else [0]
        for hand in (False, True):
            for announce in announcements:
                try:
                    decl = Declaration.from_options(game, hand=hand, announce=announce)
                except ScoringError:
                    continue  # schneider announced without hand, ...
                for top in tops:
                    for matadors in {top, -top}:
                        tricks = 0 if game.is_null else 10
                        values.append(score_game(decl, matadors=matadors, points=120, tricks=tricks).game_value)
    assert len(values) > 100 and max(values) == MAX_BID == 264


@pytest.mark.parametrize("args", [
    ["odds", *HAND, "--seat", "0", "--bid", "265"],
    ["odds", *HAND, "--seat", "0", "--bid", str(10 ** 20)],
    ["best", DEAL, "--declarer", "F", "--bid", "265"],
    ["score", "--game", "grand", "--matadors", "4", "--points", "120", "--bid", "1000"],
])
def test_a_bid_above_the_highest_game_value_is_refused(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args)
    assert_one_line(result.stderr, result.exit_code, ["'--bid'", "is not a bid: expected 18 to 264",
                                                      "the highest game value"])


def test_the_highest_bid_itself_is_accepted() -> None:
    result = CliRunner().invoke(cli, ["score", "--game", "grand", "--matadors", "4", "--hand", "--announce", "ouvert",
                                      "--points", "120", "--tricks", "10", "--bid", "264", "--json"])
    assert result.exit_code == 0, result.stderr
    assert '"game_value": 264' in result.stdout and '"overbid": false' in result.stdout


def test_the_python_api_bounds_the_bid_too() -> None:
    with pytest.raises(ScoringError, match=re.escape("expected 18..264")):
        score_game(Declaration(Game.GRAND), matadors=1, points=70, bid=265)
    with pytest.raises(ScoringError, match="from 18 to 264"):
        odds(" ".join(HAND), seat=0, bid=10 ** 20, worlds=1)


# --------------------------------------------------------------------------- float options


def _float_options() -> list[tuple[str, click.Option]]:
    """Every option of every command whose value is a float: ``(command name, option)``."""
    out = []
    for name, command in sorted(all_commands().items()):
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, click.types.FloatParamType):
                out.append((name, param))
    return out


FLOAT_OPTIONS = _float_options()


def test_every_float_option_refuses_non_finite_numbers_by_its_type() -> None:
    """A new float option cannot escape: it must take :class:`FiniteFloat` (finite, bounded both ways)."""
    names = {(name, option.opts[0]) for name, option in FLOAT_OPTIONS}
    assert {("match", "--timeout"), ("serve", "--time-limit")} <= names
    for name, option in FLOAT_OPTIONS:
        assert isinstance(option.type, FiniteFloat), (name, option.opts)


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity", "-1", "1e308", "1e999", "86401"])
@pytest.mark.parametrize(("command", "option"), [(n, o.opts[0]) for n, o in FLOAT_OPTIONS])
def test_every_float_option_refuses_non_finite_and_out_of_range_values(command: str, option: str, value: str) -> None:
    # The option first: Click reads the options given before it misses an argument.
    status, out, err = invoke_main(command, f"{option}={value}")
    assert_one_line(err.decode(), status, [f"'{option}'", f"'{value}'"])
    assert out == b""
