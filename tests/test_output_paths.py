"""Output paths are checked before any work: ``-o``, ``--table`` and ``--html`` (skatdd.runner.outputs).

Each bad path was once found only after the whole analysis (a traceback,
exit 1, a ``.partial`` file left behind), or written somewhere else than
asked (``--html newdir/`` made a file ``newdir``, ``--html ""`` wrote into
the current folder).  Now: one line on stderr, exit 2, before any game is
analysed -- the tests make every analysis entry point fail loudly to show it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from skatdd.cli import cli
from skatdd.core.errors import OutputError
from skatdd.runner.outputs import FILE, FILE_OR_FOLDER, FOLDER, check_output

ROOT = Path(__file__).resolve().parent.parent
ISS_GAMES = ROOT / "tests" / "data" / "iss-games.txt"
GAME = ROOT / "examples" / "game.iss"
POSITIONS = ROOT / "examples" / "positions.jsonl"
LONG = "x" * 300


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every way into an analysis or a batch raises: a test passing with it shows the refusal came first."""
    def work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the output path was checked")

    import skatdd.cli.analyse as analyse
    import skatdd.cli.batch as batch
    import skatdd.cli.best as best

    for module, name in ((analyse, "analyse_lines"), (analyse, "analyse_text"), (batch, "run_batch"),
                         (best, "best_for_input"), (best, "best_lines")):
        monkeypatch.setattr(module, name, work)


def assert_refused(result: Result, *fragments: str) -> str:
    """Exit 2, exactly one line on stderr holding every fragment, no traceback; returns the line."""
    assert result.exit_code == 2, (result.exit_code, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr and len(lines[0]) < 400
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.mark.parametrize("table", ["nope/t.csv", "nope/t.parquet", "/proc/t.csv", LONG + ".csv"])
def test_a_table_that_cannot_be_written_is_refused_first(table: str, tmp_path: Path, no_work: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = assert_refused(invoke("analyse", str(ISS_GAMES), "--table", table, "-o", "o.jsonl"), "--table")
    assert table[:30] in line
    assert os.listdir(tmp_path) == []  # no -o file, no .partial


def test_why_a_table_path_is_refused(tmp_path: Path, no_work: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", "nope/t.csv"), "the folder 'nope' does not exist")
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", LONG + ".csv"), "File name too long",
                   "(304 characters)")
    # a name that fits, but not with the temporary file's suffix beside it
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", "t" * 246 + ".csv"), "File name too long")


def test_a_table_that_is_a_folder_is_refused_before_the_analysis(tmp_path: Path, no_work: None) -> None:
    folder = tmp_path / "d.csv"
    folder.mkdir()
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", str(folder)), "a folder: expected a file name")
    assert_refused(invoke("analyse", str(GAME), "--no-review", "--table", str(folder)), "a folder")
    assert list(tmp_path.iterdir()) == [folder] and list(folder.iterdir()) == []


def test_a_table_is_never_renamed_over_something_that_is_not_a_file(tmp_path: Path, no_work: None) -> None:
    fifo = tmp_path / "t.csv"
    os.mkfifo(fifo)
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", str(fifo)), "not a regular file")
    assert fifo.is_fifo() and not (tmp_path / "t.csv.partial").exists()


def test_a_table_format_is_checked_before_a_single_game_is_analysed(tmp_path: Path, no_work: None) -> None:
    assert_refused(invoke("analyse", str(GAME), "--no-review", "--table", str(tmp_path / "t.xlsx")),
                   "expected a file name ending in .parquet or .csv")


def test_an_html_name_too_long_is_refused_before_the_analysis(tmp_path: Path, no_work: None) -> None:
    assert_refused(invoke("analyse", str(GAME), "--no-review", "--html", str(tmp_path / (LONG + ".html"))),
                   "--html", "File name too long")
    assert_refused(invoke("best", str(ROOT / "examples" / "deal.txt"), "--declarer", "F", "--html",
                          str(tmp_path / (LONG + ".html"))), "--html", "File name too long")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_html_path_is_refused(tmp_path: Path, no_work: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(invoke("analyse", str(GAME), "--no-review", "--html", ""), "--html", "an empty path")
    assert_refused(invoke("analyse", str(ISS_GAMES), "--no-review", "--html", ""), "an empty path")
    assert_refused(invoke("best", str(ROOT / "examples" / "deal.txt"), "--html", ""), "an empty path")
    assert os.listdir(tmp_path) == []


def test_a_dash_output_is_refused_not_written_as_a_file(tmp_path: Path, no_work: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``-o -`` elsewhere means standard output: here it made a file named '-'; now one line says so."""
    monkeypatch.chdir(tmp_path)
    assert_refused(invoke("batch", str(POSITIONS), "-o", "-"), "-o", "standard output", "./-")
    assert_refused(invoke("analyse", str(ISS_GAMES), "--table", "-"), "--table")  # refused for its format first
    assert_refused(invoke("analyse", str(GAME), "--no-review", "--html", "-"), "--html", "standard output")
    assert os.listdir(tmp_path) == []


def test_an_output_in_a_missing_folder_is_refused(tmp_path: Path, no_work: None) -> None:
    for command in (["batch", str(POSITIONS)], ["analyse", str(ISS_GAMES)], ["analyse", str(GAME), "--no-review"]):
        assert_refused(invoke(*command, "-o", str(tmp_path / "nope" / "x.jsonl")), "-o", "does not exist")
    assert list(tmp_path.iterdir()) == []


def test_a_path_ending_in_a_slash_is_a_folder(tmp_path: Path, no_work: None) -> None:
    line = assert_refused(invoke("batch", str(POSITIONS), "-o", f"{tmp_path}/out/"), "a folder name")
    assert "expected a file name" in line
    assert_refused(invoke("best", str(ROOT / "examples" / "deal.txt"), "--html", f"{tmp_path}/page/"),
                   "expected a file name")
    assert list(tmp_path.iterdir()) == []


def test_html_into_a_new_folder_makes_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "newdir"
    proc = subprocess.run([sys.executable, "-m", "skatdd", "analyse", str(GAME), "--no-review", "--json", "--html",
                           f"{target}/"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert target.is_dir(), "a path ending in '/' names a folder, not a file"
    assert (target / "index.html").is_file() and len(list(target.glob("line-*.html"))) == 1
    assert json.loads(proc.stdout)["plays"]
    assert f"HTML report: {target / 'index.html'}" in proc.stderr


def test_a_special_output_file_still_works(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "skatdd", "batch", str(POSITIONS), "--jobs", "1", "-o", os.devnull],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    assert not os.path.exists(os.devnull + ".run.json")


# --------------------------------------------------------------------------- check_output itself


def test_check_output_leaves_nothing_behind(tmp_path: Path) -> None:
    assert check_output(str(tmp_path / "a.jsonl"), "-o", beside=(".run.json",)) == str(tmp_path / "a.jsonl")
    assert check_output(str(tmp_path / "x" / "y" / "z") + "/", "--html", FOLDER).endswith("z/")
    assert check_output(str(tmp_path / "p.html"), "--html", FILE_OR_FOLDER) == str(tmp_path / "p.html")
    assert list(tmp_path.iterdir()) == []


def test_check_output_keeps_an_existing_file_as_it_is(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_bytes(b'{"id": 1}\n')
    before = old.stat()
    check_output(str(old), "-o", beside=(".run.json",))
    assert old.read_bytes() == b'{"id": 1}\n' and old.stat().st_mtime_ns == before.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.jsonl"]


def test_check_output_names_the_option_path_and_reason(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        (str(blocker / "t.csv"), FILE, "is not a folder"),
        (str(blocker / "pages") + "/", FOLDER, "cannot create the folder: Not a directory"),
        (str(blocker), FOLDER, "not a folder"),
        (str(tmp_path), FILE, "a folder: expected a file name"),
        ("", FILE, "an empty path"),
        (str(tmp_path / LONG), FILE, "File name too long"),
    ]
    for path, kind, reason in cases:
        with pytest.raises(OutputError) as caught:
            check_output(path, "--opt", kind)
        message = str(caught.value)
        assert message.startswith("--opt ") and reason in message and len(message) < 300, message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write in a read-only folder")
def test_check_output_refuses_a_folder_without_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="Permission denied"):
            check_output(str(locked / "t.csv"), "--table")
    finally:
        locked.chmod(0o700)


def test_an_output_that_is_the_input_file_is_refused(tmp_path: Path, no_work: None) -> None:
    positions = tmp_path / "in.jsonl"
    positions.write_bytes(POSITIONS.read_bytes())
    games = tmp_path / "games.csv"  # a file of ISS records, whatever its name
    games.write_bytes(ISS_GAMES.read_bytes())
    game = tmp_path / "game.iss"
    game.write_bytes(GAME.read_bytes())
    assert_refused(invoke("batch", str(positions), "-o", str(positions)), "-o", "is the input file")
    assert_refused(invoke("batch", str(positions), "-o", str(positions), "--resume"), "is the input file")
    assert_refused(invoke("analyse", str(games), "-o", str(games)), "is the input file")
    assert_refused(invoke("analyse", str(games), "--table", str(tmp_path / "." / "games.csv")), "--table",
                   "is the input file")
    assert_refused(invoke("analyse", str(game), "--no-review", "-o", str(game)), "is the input file")
    assert_refused(invoke("analyse", str(game), "--no-review", "--html", str(game)), "--html", "is the input file")
    assert positions.read_bytes() == POSITIONS.read_bytes() and games.read_bytes() == ISS_GAMES.read_bytes()
    assert game.read_bytes() == GAME.read_bytes()


# --------------------------------------------------------------------------- a write that fails


DEAL_TEXT = (ROOT / "examples" / "deal.txt").read_text().strip()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full (a device every write to fails: ENOSPC)")
@pytest.mark.parametrize("args", [
    ["solve", DEAL_TEXT, "--game", "G", "--declarer", "0"],
    ["score", "--game", "clubs", "--matadors", "3", "--points", "120", "--tricks", "10", "--json"],
    ["batch", str(POSITIONS), "--jobs", "1", "--tt-mb", "16"],
    ["batch", str(POSITIONS), "--jobs", "1", "--tt-mb", "16", "-o", "/dev/full"],
    ["match", "heuristic", "heuristic", "--deals", "2", "--jobs", "1", "--tt-mb", "16"],
])
def test_a_full_disk_is_one_line_and_status_1(args: list[str]) -> None:
    """A write that fails (disk full: /dev/full) was a traceback; it is one line, exit 1 (not the input's fault)."""
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "skatdd", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                             timeout=120, cwd=ROOT)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip().splitlines() == ["Error: cannot write the output: No space left on device"]


def test_a_resume_record_that_cannot_be_written_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's record beside -o FILE (FILE.run.json) is a folder: the message names it, not FILE."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out.jsonl.run.json").mkdir()
    assert_refused(invoke("batch", str(POSITIONS), "-o", "out.jsonl"), "'out.jsonl.run.json'", "Is a directory")
