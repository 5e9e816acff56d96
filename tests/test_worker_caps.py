"""How many workers a run starts, and the ``--dask`` addresses and seeds it accepts.

``--jobs`` and ``--dask local:N`` beyond the machine's cores are capped with
one warning line (skatdd.runner.workers.cap_workers, in the shared pool and cluster
code); a malformed ``--dask`` port is refused before any work; an
unreachable scheduler is one line from every command; different seeds draw
different worlds (``random.Random`` seeds with ``abs()``).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import hand_view
from skatdd.cli import main
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import SkatddError
from skatdd.core.seeds import generator
from skatdd.runner import cluster, workers
from skatdd.runner.lines import worker_count

ROOT = Path(__file__).resolve().parent.parent
HAND = ("CJ", "SJ", "HJ", "CA", "CT", "C9", "SA", "ST", "H7", "D8")
MORE = workers.usable_cores() + 3  # more workers than this machine has cores, whatever it has


def run(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


# --------------------------------------------------------------------------- caps


def test_cap_workers_warns_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers, "_warned", set())
    monkeypatch.setattr(workers, "available_mib", lambda: 100_000)
    assert workers.cap_workers(40, what="--jobs 40") == 2
    assert workers.cap_workers(40, what="--jobs 40") == 2
    assert workers.cap_workers(2, what="--jobs 2") == 2
    assert capsys.readouterr().err == "Warning: --jobs 40: this machine has 2 cores: starting 2 worker processes\n"
    assert worker_count(40) == 2 and worker_count(None) == 2 and worker_count(40, lines=1) == 1


def test_cap_workers_counts_the_tables_that_fit(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(workers, "usable_cores", lambda: 8)
    monkeypatch.setattr(workers, "_warned", set())
    monkeypatch.setattr(workers, "available_mib", lambda: 1000)
    assert workers.cap_workers(8, what="--jobs 8", tt_mb=300) == 3
    assert "8 tables of 300 MiB do not fit in the 1000 MiB" in capsys.readouterr().err
    assert workers.cap_workers(8, what="--jobs 8", tt_mb=100) == 8


def test_jobs_beyond_the_cores_are_capped_with_a_warning() -> None:
    capped = run("odds", *HAND, "--seat", "F", "--worlds", "6", "--game", "grand", "--hand", "--json",
                 "--jobs", str(MORE), "--tt-mb", "16")
    assert capped.returncode == 0, capped.stderr
    cores = workers.usable_cores()
    assert capped.stderr.splitlines() == [
        f"Warning: --jobs {MORE}: this machine has {cores} core{'s' if cores != 1 else ''}: "
        f"starting {cores} worker process{'es' if cores != 1 else ''}"]
    plain = run("odds", *HAND, "--seat", "F", "--worlds", "6", "--game", "grand", "--hand", "--json", "--jobs", "1",
                "--tt-mb", "16")
    strip = {"nodes", "seconds"}
    assert ({k: v for k, v in json.loads(capped.stdout).items() if k not in strip}
            == {k: v for k, v in json.loads(plain.stdout).items() if k not in strip})


def test_null_ouvert_threads_beyond_the_cores_are_capped_as_threads() -> None:
    # null-ouvert's --jobs runs threads in one process: the warning names them so.
    capped = run("null-ouvert", "C7", "C8", "C9", "S7", "S8", "S9", "H7", "H8", "D7", "D8", "--skat", "CA SA",
                 "--declarer", "F", "--json", "--jobs", str(MORE))
    assert capped.returncode == 0, capped.stderr
    cores = workers.usable_cores()
    assert capped.stderr.splitlines() == [
        f"Warning: --jobs {MORE}: this machine has {cores} core{'s' if cores != 1 else ''}: "
        f"starting {cores} thread{'s' if cores != 1 else ''}"]


def test_local_cluster_beyond_the_cores_is_capped(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"game": "grand", "declarer": 0, "hands": ["CJ", "SJ", "HJ"], "skat": "CA CT"}) + "\n")
    proc = run("batch", str(lines), "--dask", f"local:{MORE}", "--tt-mb", "16")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(f"Warning: --dask local:{MORE}: this machine has ") and proc.stderr.count("\n") == 1
    assert json.loads(proc.stdout)["value"] is not None


# --------------------------------------------------------------------------- --dask addresses


@pytest.mark.parametrize("port", ["99999", "0", "65536", "x", "-1", "８７８６"])
def test_a_port_that_is_no_port_is_refused_up_front(port: str) -> None:
    with pytest.raises(SkatddError, match="is not a port number"):
        cluster.parse_address(f"tcp://127.0.0.1:{port}")


def test_addresses_that_are_fine() -> None:
    for address in ("tcp://127.0.0.1:8786", "tcp://head:1", "head:65535", "tls://[::1]:8786"):
        assert cluster.parse_address(address) == (address, None)
    with pytest.raises(SkatddError):
        cluster.parse_address("tcp://")


@pytest.mark.parametrize("address", ["tcp://head", "head", "127.0.0.1", "tls://[::1]", "tcp://head/"])
def test_an_address_without_a_port_is_refused_up_front(address: str) -> None:
    # Dask has no default port: it failed only at connect, after the output file was opened.
    with pytest.raises(SkatddError, match=r"no port: expected .*tcp://host:8786") as caught:
        cluster.parse_address(address)
    assert repr(address) in str(caught.value)


def test_an_address_without_a_port_stops_the_command_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    proc = run("batch", "examples/positions.jsonl", "--dask", "tcp://127.0.0.1", "-o", str(out))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [proc.stderr.strip()] and "'tcp://127.0.0.1': no port" in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [
    ("batch", "examples/positions.jsonl"),
    ("analyse", "tests/data/iss-games.txt", "--no-review"),
    ("odds", *HAND, "--seat", "F"),
])
def test_every_dask_command_refuses_a_bad_port_in_one_line(command: tuple[str, ...]) -> None:
    proc = run(*command, "--dask", "tcp://127.0.0.1:99999", timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("Error: --dask 'tcp://127.0.0.1:99999': port '99999' is not a port number: "
                           "expected 1 to 65535 (tcp://host:8786)\n")


def test_an_unreachable_scheduler_is_one_line_for_odds_too(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with pytest.raises(SystemExit) as ended:
        main(["odds", *HAND, "--seat", "F", "--worlds", "3", "--dask", "tcp://127.0.0.1:1"])
    assert ended.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'") and err.count("\n") == 1


# --------------------------------------------------------------------------- seeds


def test_negative_seeds_draw_their_own_worlds() -> None:
    view = hand_view(0, mask_of(parse_cards(" ".join(HAND))))
    five, minus_five = choose_worlds(view, 20, generator(5))[0], choose_worlds(view, 20, generator(-5))[0]
    assert five != minus_five
    assert five == choose_worlds(view, 20, random.Random(5))[0]  # non-negative seeds: what they always drew
    assert choose_worlds(view, 20, generator(-5))[0] == minus_five


def test_odds_seed_5_and_minus_5_differ() -> None:
    def report(seed: str) -> dict[str, object]:
        # --points: the mean points tell 8 worlds apart where the bands alone may agree.
        proc = run("odds", *HAND, "--seat", "F", "--worlds", "8", "--game", "grand", "--hand", "--json", "--points",
                   "--jobs", "1", "--tt-mb", "16", "--seed", seed)
        assert proc.returncode == 0, proc.stderr
        options: dict[str, object] = json.loads(proc.stdout)["options"][0]
        return options

    assert report("5") != report("-5")
