"""The golden CLI cases: every command on the examples and the fixture records, and how their output is compared.

Each :class:`Case` is one ``skatdd`` command line.  Its expected standard
output is ``tests/data/golden/NAME.out``, byte for byte after
:func:`mask_timings`; a case that writes to standard error also has
``NAME.err``, compared the same way.  A case whose arguments name files
under ``{out}`` (``--html``, ``--table``, ``-o``) runs with ``{out}`` a fresh
temporary folder; every file the command leaves there is part of its
output, expected in ``NAME.files/`` (the same names, the same bytes), and
the folder's path in the messages reads ``{out}``.  :func:`run_case` runs a case in this
process (through the console entry point ``skatdd.cli.main``) from the repository root, so the paths in the
arguments are the repository's own and no absolute path reaches the output.

What is masked, and why only that: wall-clock times (``"seconds"`` in JSON,
``time: 0.12 s`` and the like in the reports) differ from run to run.
Everything else is deterministic and kept, node counts included: every case
runs single-threaded (``--jobs 1``) with a fresh solver per command and a
fixed seed, so the count is a function of the input and the engine only.

Shared by ``test_golden_cli.py`` (the comparison) and ``regen_golden.py``
(which rewrites the files).
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cli_runner import ROOT, invoke_main

#: Where the expected outputs live: NAME.out (stdout) and, when a case writes there, NAME.err (stderr).
GOLDEN = ROOT / "tests" / "data" / "golden"
#: The fixture records (a copy of /work/shared/fixtures/iss-games.txt), one ISS game a line.
RECORDS_FILE = "tests/data/iss-games.txt"
RECORDS = (ROOT / RECORDS_FILE).read_text(encoding="utf-8").splitlines()
#: Records whose game was never played (all passed; a penalty in the bidding): commands that play refuse them.
UNPLAYED = {4, 10}

#: Every command of the CLI.
COMMANDS = ("solve", "batch", "best", "analyse", "advise", "odds", "null-ouvert", "score", "bench", "serve", "bid", "match")
DEAL = "examples/deal.txt"
GAME = "examples/game.iss"
POSITIONS = "examples/positions.jsonl"
POSITION_LINES = (ROOT / POSITIONS).read_text(encoding="utf-8").splitlines()
#: examples/deal.txt with its last forehand card misspelt.
DEAL_WITH_UNKNOWN_CARD = ("CJ SJ HA HT HK DA DT D9 D8 DX / CA CT CK CQ C9 SA ST SK SQ S9 / "
                          "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ")
#: The README's examples of ``best`` and ``odds``.
README_BEST_DEAL = ("DJ CK C9 ST HA HK HQ DK DQ D7 / CJ SJ HJ CQ C8 SA H8 H7 DT D9 / "
                    "CA CT C7 SK SQ S9 S8 H9 DA D8 / S7 HT")
README_ODDS_HAND = ("CJ", "HJ", "DJ", "CA", "SA", "HA", "HT", "HQ", "H8", "H7")
#: Single-dummy options small enough for a fast test, fixed seed, one process.
SD = ("--seed", "1", "--jobs", "1")
#: The decisions review (issue #35) at a budget small enough for a fast test, one process (its default
#: budget is benchmarks/bench_review.py's); analyse runs it on every record with an auction.
REVIEW = ("--bid-skats", "2", "--bid-worlds", "3")


@dataclass(frozen=True)
class Case:
    """One command line: its golden file stem, its arguments, the exit status it must give, its stdin."""

    name: str
    args: tuple[str, ...]
    status: int = 0
    stdin: str | None = None

    @property
    def out_path(self) -> Path:
        return GOLDEN / f"{self.name}.out"

    @property
    def err_path(self) -> Path:
        return GOLDEN / f"{self.name}.err"

    @property
    def files_path(self) -> Path:
        """The folder of the expected files (only for a case that writes under ``{out}``)."""
        return GOLDEN / f"{self.name}.files"

    @property
    def writes_files(self) -> bool:
        return any(OUT in arg for arg in self.args)

    def expected_files(self) -> dict[str, bytes]:
        """The golden files of this case: path relative to ``{out}`` -> content."""
        return read_tree(self.files_path) if self.files_path.is_dir() else {}


@dataclass(frozen=True)
class Output:
    """What a case printed and the files it wrote under ``{out}`` (relative path -> bytes), timings masked."""

    status: int
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes]


#: The environment of every case: help text is wrapped to the terminal's width, so the width is fixed.
ENV = {"COLUMNS": "80"}
#: The placeholder for the case's own output folder in its arguments (and in its messages).
OUT = "{out}"
#: The JSON fields of a wall-clock time (``seconds``, ``generate_seconds``...; ``"seconds":0.28`` in
#: the HTML pages' data): their value is masked.
_JSON_SECONDS = re.compile(rb'("\w*seconds"):( ?)-?[0-9][0-9.eE+-]*')
#: The readable reports' times: "time: 0.12 s", "time 0.12 s", "contract review 0.12 s", "nodes, 0.123 s".
_TEXT_SECONDS = re.compile(rb"(time:? |contract review |nodes, )[0-9]+\.[0-9]+ s\b")


def mask_timings(data: bytes) -> bytes:
    """*data* with every wall-clock time replaced by ``*`` (JSON: the string ``"*"``); nothing else changes."""
    data = _JSON_SECONDS.sub(rb'\1:\2"*"', data)
    return _TEXT_SECONDS.sub(rb"\1* s", data)


@contextmanager
def _at_root() -> Iterator[None]:
    """Run with the repository root as the working directory, so relative paths in the arguments resolve."""
    old = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(old)


def read_tree(folder: Path) -> dict[str, bytes]:
    """Every file under *folder*: its path relative to *folder* (``/``-separated) -> its bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def run_case(case: Case) -> Output:
    """Run *case* in this process from the repository root; its output with timings masked.

    ``{out}`` in the arguments becomes a fresh temporary folder, removed
    afterwards; its path in stdout and stderr reads ``{out}`` again.
    """
    with tempfile.TemporaryDirectory(prefix="skatdd-golden-") as tmp, _at_root():
        args = [arg.replace(OUT, tmp) for arg in case.args]
        status, stdout, stderr = invoke_main(*args, input=case.stdin, env=ENV)
        files = {name: mask_timings(data) for name, data in read_tree(Path(tmp)).items()}

    def clean(data: bytes) -> bytes:
        return mask_timings(data.replace(tmp.encode(), OUT.encode()))

    return Output(status, clean(stdout), clean(stderr), files)


def _both(name: str, *args: str, status: int = 0) -> list[Case]:
    """The readable report and the ``--json`` form of one command line."""
    return [Case(name, args, status), Case(f"{name}-json", (*args, "--json"), status)]


def _example_cases() -> list[Case]:
    """Every command on examples/ (and the README's own command lines, with small world counts)."""
    cases: list[Case] = []
    # solve: deal text in every mode, cards played first, null; the ISS example; each JSON position.
    diamonds = (DEAL, "--game", "diamonds", "--declarer", "0")
    cases += _both("solve-deal-diamonds", "solve", *diamonds)
    cases += _both("solve-deal-diamonds-win", "solve", *diamonds, "--mode", "win")
    cases += _both("solve-deal-diamonds-all", "solve", *diamonds, "--mode", "all")
    cases += _both("solve-deal-readme-spades-played", "solve", DEAL, "--game", "spades", "--declarer", "M",
                   "--played", "HA", "--mode", "all")
    cases += _both("solve-deal-null-all", "solve", DEAL, "--game", "null", "--declarer", "R", "--mode", "all")
    cases += _both("solve-deal-null-ouvert-win", "solve", DEAL, "--game", "NO", "--declarer", "2", "--mode", "win")
    cases += _both("solve-game", "solve", GAME)
    cases += _both("solve-game-all-played", "solve", GAME, "--played", "HT H9 HA DJ", "--mode", "all")
    for i, line in enumerate(POSITION_LINES, 1):
        cases += _both(f"solve-position{i}-all", "solve", line, "--mode", "all")
    # batch: a file, every mode, standard input.
    cases.append(Case("batch-positions", ("batch", POSITIONS, "--jobs", "1")))
    cases.append(Case("batch-positions-win", ("batch", POSITIONS, "--jobs", "1", "--mode", "win")))
    cases.append(Case("batch-positions-all", ("batch", POSITIONS, "--jobs", "1", "--mode", "all")))
    cases.append(Case("batch-stdin-all", ("batch", "-", "--jobs", "1", "--mode", "all"),
                      stdin=(ROOT / POSITIONS).read_text(encoding="utf-8")))
    cases.append(Case("batch-positions-output-file", ("batch", POSITIONS, "--jobs", "1", "-o", f"{OUT}/results.jsonl")))
    # best: every seat, one seat at a bid with every line, the README's deal, the ISS example.
    cases += _both("best-deal", "best", DEAL)
    cases += _both("best-deal-forehand-bid-all-lines", "best", DEAL, "--declarer", "F", "--bid", "30", "--all-lines")
    cases += _both("best-readme", "best", README_BEST_DEAL, "--declarer", "M", "--bid", "36")
    cases += _both("best-game", "best", GAME)
    cases.append(Case("best-deal-html", ("best", DEAL, "--html", f"{OUT}/best.html")))
    # analyse: with and without the review, single-dummy, a JSON game with played cards.
    cases += _both("analyse-game", "analyse", GAME, *REVIEW, "--jobs", "1")
    cases += _both("analyse-game-no-review", "analyse", GAME, "--no-review")
    cases += _both("analyse-game-worlds", "analyse", GAME, "--worlds", "4", *SD, *REVIEW)
    cases += _both("analyse-game-worlds-no-review", "analyse", GAME, "--worlds", "6", "--no-review", *SD)
    cases += _both("analyse-position2", "analyse", POSITION_LINES[1])
    cases.append(Case("analyse-game-html", ("analyse", GAME, *REVIEW, "--jobs", "1", "--html", f"{OUT}/game.html")))
    cases.append(Case("analyse-game-worlds-html-four-colour", ("analyse", GAME, "--worlds", "4", "--no-review", *SD,
                                                               "--html", f"{OUT}/game.html", "--four-colour")))
    # advise: an ISS record before the first card and mid-game; a JSON position; deal text with --played.
    cases += _both("advise-game-after0", "advise", GAME, "--after", "0", "--worlds", "20", *SD)
    cases += _both("advise-game-after7", "advise", GAME, "--after", "7", "--worlds", "20", *SD)
    cases += _both("advise-position2", "advise", POSITION_LINES[1], "--worlds", "20", *SD)
    cases += _both("advise-deal-played", "advise", DEAL, "--game", "diamonds", "--declarer", "0",
                   "--played", "HA C9", "--worlds", "20", *SD)
    cases += _both("advise-readme-record1", "advise", RECORDS[0], "--worlds", "10", *SD)
    # odds: the README's hand unseen skat; deal.txt's forehand with its skat; narrowed options, a bid.  These
    # four ask for the mean points (--points: the output as before the points became opt-in); the last two
    # cases are the default, bands only (no points column, mean_points null).
    cases += _both("odds-readme", "odds", *README_ODDS_HAND, "--seat", "F", "--worlds", "6", "--seed", "0",
                   "--jobs", "1", "--points")
    cases += _both("odds-deal-skat", "odds", "CJ SJ HA HT HK DA DT D9 D8 D7", "--skat", "DK DQ", "--seat", "F",
                   "--worlds", "8", "--seed", "3", "--jobs", "1", "--points")
    cases += _both("odds-deal-hand-grand-null-ouvert-bid", "odds", "CJ SJ HA HT HK DA DT D9 D8 D7", "--seat", "0",
                   "--game", "grand", "--game", "null-ouvert", "--hand", "--bid", "60", "--worlds", "12",
                   "--seed", "5", "--jobs", "1", "--points")
    cases += _both("odds-rearhand-picked-up-diamonds", "odds", "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7", "--seat", "R",
                   "--game", "D", "--picked-up", "--worlds", "10", "--seed", "2", "--jobs", "1", "--points")
    cases += _both("odds-readme-bands", "odds", *README_ODDS_HAND, "--seat", "F", "--worlds", "6", "--seed", "0",
                   "--jobs", "1")
    cases += _both("odds-deal-skat-bands", "odds", "CJ SJ HA HT HK DA DT D9 D8 D7", "--skat", "DK DQ", "--seat", "F",
                   "--worlds", "8", "--seed", "3", "--jobs", "1")
    # null-ouvert: the README's guess, an unbeatable hand, a lost one, and hands without the skat.
    cases += _both("null-ouvert-readme-guess", "null-ouvert", "C7 C9 S7 S9 ST SA H7 H9 D7 D9", "--skat", "HJ SQ",
                   "--declarer", "F", "--jobs", "1")
    cases += _both("null-ouvert-unbeatable", "null-ouvert", "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", "--skat", "CA SA",
                   "--declarer", "F", "--jobs", "1")
    cases += _both("null-ouvert-lost", "null-ouvert", "C7 C9 CJ S7 S9 SJ H7 H9 D7 DA", "--skat", "HA D9",
                   "--declarer", "M", "--jobs", "1")
    cases += _both("null-ouvert-hand-unbeatable", "null-ouvert", "C7 C9 S7 S9 SJ H7 H8 HT D7 D8", "--declarer", "F",
                   "--jobs", "1")
    cases += _both("null-ouvert-hand-lost", "null-ouvert", "C7 C9 S7 S9 SJ H7 H8 HT D7 DA", "--declarer", "R",
                   "--jobs", "1")
    # score: suit, grand, null, ouvert, overbid, schwarz announced, lost.
    cases += _both("score-readme-clubs-hand-schwarz", "score", "--game", "clubs", "--hand", "--announce", "schwarz",
                   "--matadors", "3", "--points", "120", "--tricks", "10")
    cases += _both("score-deal-diamonds-cards", "score", "--game", "diamonds",
                   "--cards", "CJ SJ HA HT HK DA DT D9 D8 D7 DK DQ", "--points", "75")
    cases += _both("score-grand-without-lost", "score", "--game", "grand", "--matadors", "-2", "--points", "58")
    cases += _both("score-grand-overbid", "score", "--game", "G", "--matadors", "1", "--points", "70", "--bid", "60")
    cases += _both("score-null-ouvert-hand", "score", "--game", "null-ouvert", "--hand", "--tricks", "0")
    cases += _both("score-null-lost", "score", "--game", "null", "--tricks", "1", "--bid", "23")
    cases += _both("score-spades-ouvert", "score", "--game", "spades", "--announce", "ouvert", "--matadors", "4",
                   "--points", "120", "--tricks", "10")
    # Help: the group's and every command's (the text comes from the commands' docstrings and options).
    cases.append(Case("help", ("--help",)))
    cases += [Case(f"help-{command}", (command, "--help")) for command in COMMANDS]
    # Bad input: one line on stderr, exit status 2.
    cases.append(Case("error-solve-unknown-card", ("solve", DEAL_WITH_UNKNOWN_CARD, "--game", "G",
                                                   "--declarer", "0"), status=2))
    cases.append(Case("error-score-null-below-bid", ("score", "--game", "null", "--tricks", "0", "--bid", "24"),
                      status=2))
    cases.append(Case("error-solve-illegal-played", ("solve", DEAL, "--game", "diamonds", "--declarer", "0",
                                                     "--played", "HA HJ"), status=2))
    return cases


def _record_cases() -> list[Case]:
    """Every command that takes a game, on every fixture record (and the whole file for analyse and best)."""
    cases = [
        Case("analyse-records-output-table", ("analyse", RECORDS_FILE, "--jobs", "1", *REVIEW,
                                              "-o", f"{OUT}/analyses.jsonl", "--table", f"{OUT}/games.csv")),
        Case("analyse-records-no-review", ("analyse", RECORDS_FILE, "--no-review", "--jobs", "1")),
        Case("analyse-records-no-review-html", ("analyse", RECORDS_FILE, "--no-review", "--jobs", "1",
                                                "--html", f"{OUT}/pages")),
        Case("best-records", ("best", RECORDS_FILE, "--jobs", "1")),
    ]
    for i, record in enumerate(RECORDS, 1):
        name = f"record{i:02d}"
        if i in UNPLAYED:
            cases += _both(f"{name}-best", "best", record)
            cases.append(Case(f"{name}-analyse", ("analyse", record), status=2))
            cases.append(Case(f"{name}-solve", ("solve", record), status=2))
            cases.append(Case(f"{name}-advise", ("advise", record, "--after", "0", "--worlds", "8", *SD), status=2))
            continue
        cases.append(Case(f"{name}-analyse", ("analyse", record, *REVIEW, "--jobs", "1")))
        cases.append(Case(f"{name}-analyse-no-review", ("analyse", record, "--no-review")))
        cases += _both(f"{name}-analyse-worlds-no-review", "analyse", record, "--worlds", "4", "--no-review", *SD)
        cases += _both(f"{name}-solve", "solve", record)
        cases.append(Case(f"{name}-solve-all-json", ("solve", record, "--mode", "all", "--json")))
        cases.append(Case(f"{name}-best", ("best", record)))
        cases += _both(f"{name}-advise-after0", "advise", record, "--after", "0", "--worlds", "6", *SD)
    return cases


#: Every golden case, in the order they are listed (names must be unique: a test checks).
CASE_LIST: list[Case] = _example_cases() + _record_cases()
#: Every golden case, by name.
CASES: dict[str, Case] = {case.name: case for case in CASE_LIST}
