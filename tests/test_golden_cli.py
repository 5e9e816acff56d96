"""Golden outputs: every CLI command's output on the examples and fixture records, byte for byte.

The cases (tests/golden_cases.py) run every command (solve, batch, best,
analyse, advise, odds, null-ouvert, score; ``--help`` of each, bench
included; a few input errors) on
examples/ and on every record of tests/data/iss-games.txt, in the readable
and the ``--json`` form, with small fixed world counts and seeds, and the
files of ``--html``, ``--table`` and ``-o``.  Their expected standard output
(standard error and files, where a case writes them) is in
tests/data/golden/, compared after masking the wall-clock times only
(:func:`golden_cases.mask_timings`); node counts are kept.

The outputs are the contract users and scripts see, so a change that is not
meant to alter them (a refactoring, a move of modules) must pass this test
unchanged.  A change that alters an output on purpose regenerates the files
with ``python tests/regen_golden.py [NAME...]`` and commits the reviewed diff.
An engine change that alters the search changes the ``nodes`` figures here
too (and the fingerprints in test_engine_fingerprint.py): regenerate, and
check that only node counts moved.
"""
from __future__ import annotations

import pytest

from cli_runner import run_skatdd
from golden_cases import CASE_LIST, CASES, COMMANDS, GOLDEN, RECORDS, UNPLAYED, Case, mask_timings, run_case
from skatdd.cli import all_commands

REGEN = "python tests/regen_golden.py"


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_cli_output_is_unchanged(case: Case) -> None:
    output = run_case(case)
    assert output.status == case.status, output.stderr.decode(errors="replace")
    assert case.out_path.exists(), f"no golden output for {case.name}: run {REGEN} {case.name}"
    expected_err = case.err_path.read_bytes() if case.err_path.exists() else b""
    # Compared as text first for a readable diff on failure, then as bytes for the exact contract.
    assert output.stdout.decode() == case.out_path.read_bytes().decode(), f"stdout changed ({REGEN} {case.name})"
    assert output.stdout == case.out_path.read_bytes()
    assert output.stderr == expected_err, f"stderr changed ({REGEN} {case.name})"
    expected_files = case.expected_files()
    assert sorted(output.files) == sorted(expected_files), f"other files written ({REGEN} {case.name})"
    for name, data in output.files.items():
        assert data.decode() == expected_files[name].decode(), f"{name} changed ({REGEN} {case.name})"
        assert data == expected_files[name]
    assert bool(output.files) == case.writes_files


def test_cases_are_complete_and_their_files_exist() -> None:
    """Names are unique, every record is covered, and no golden file is left without its case."""
    assert len(CASES) == len(CASE_LIST), "two cases share a name"
    for i in range(1, len(RECORDS) + 1):
        assert any(name.startswith(f"record{i:02d}-") for name in CASES), f"record {i} has no case"
    assert UNPLAYED <= set(range(1, len(RECORDS) + 1))
    assert {case.args[0] for case in CASES.values()} == {*COMMANDS, "--help"}
    assert set(COMMANDS) == set(all_commands())
    # Their help alone: bench prints only timings, serve runs a server, bid and match have tests of their own.
    for command in set(COMMANDS) - {"bench", "serve", "bid", "match"}:
        assert sum(case.args[0] == command for case in CASES.values()) >= 3, command
    expected = {path.name for c in CASES.values() for path in (c.out_path, c.err_path, c.files_path)}
    stale = sorted(p.name for p in GOLDEN.iterdir() if p.name not in expected)
    assert not stale, f"golden files without a case: {stale} ({REGEN} removes them)"


def test_errors_are_one_line_on_stderr_with_nothing_on_stdout() -> None:
    """The failing cases' golden files themselves obey the contract: one ``Error:`` line, empty stdout."""
    failing = [case for case in CASES.values() if case.status != 0]
    assert failing
    for case in failing:
        assert case.status == 2
        assert case.out_path.read_bytes() == b"", case.name
        lines = case.err_path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), (case.name, lines)


def test_masking_touches_only_the_times() -> None:
    assert mask_timings(b'{"nodes": 12, "seconds": 0.0123, "x_seconds": 1e-05}') == \
        b'{"nodes": 12, "seconds": "*", "x_seconds": "*"}'
    assert mask_timings(b'"nodes":12,"seconds":0.284132}') == b'"nodes":12,"seconds":"*"}'
    assert mask_timings(b"Nodes: 1,234   time: 0.16 s (contract review 0.08 s)\n") == \
        b"Nodes: 1,234   time: * s (contract review * s)\n"
    assert mask_timings(b"184,756 classes of worlds solved, 4,807,143 nodes, 0.302 s") == \
        b"184,756 classes of worlds solved, 4,807,143 nodes, * s"
    assert mask_timings(b"mean score +120.0, 0.5 points, seconds") == b"mean score +120.0, 0.5 points, seconds"


@pytest.mark.parametrize("name", ["analyse-game", "error-score-null-below-bid", "batch-stdin-all"])
def test_a_real_process_prints_the_same(name: str) -> None:
    """The in-process runs stand for the installed command: ``python -m skatdd`` gives the same bytes."""
    case = CASES[name]
    done = run_skatdd(*case.args, input=case.stdin)
    assert done.returncode == case.status, done.stderr
    assert mask_timings(done.stdout.encode()) == case.out_path.read_bytes()
    assert mask_timings(done.stderr.encode()) == (case.err_path.read_bytes() if case.err_path.exists() else b"")
