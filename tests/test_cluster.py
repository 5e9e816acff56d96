"""``batch`` and ``analyse`` on a real Dask cluster (two worker processes): skatdd.runner.cluster.

The same records as ``--jobs 1`` (search effort aside), in input order; a
worker killed mid-run costs nothing and writes nothing twice; an
interrupted run resumed gives the same file as an uninterrupted one; bad
lines still give ``{"line": N, ...}`` in place and exit 2; ``local:N``.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from skatdd.core.errors import SkatddError
from skatdd.engine.solve import Solver
from skatdd.runner import cluster
from skatdd.runner import lines as batch
from skatdd.tools.generate import position_to_json, realistic_deals

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cli_runner import default_ctrl_c  # noqa: E402
from run_records import records, strip_stats  # noqa: E402

ISS_GAMES = ROOT / "tests" / "data" / "iss-games.txt"
TT = ("--tt-mb", "16")


def skatdd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def position_lines(deals: int, seed: int) -> list[str]:
    """Each realistic deal, followed by 12 positions from it after 8 to 20 random legal cards."""
    rng = random.Random(seed)
    lines = []
    for i, deal in enumerate(realistic_deals(seed, deals)):
        lines.append(json.dumps({"id": f"deal-{i}", **position_to_json(deal)}))
        for k in range(12):
            pos = deal.copy()
            for _ in range(rng.randrange(8, 21)):
                pos.play(rng.choice(pos.legal_moves()))
            lines.append(json.dumps({"id": f"mid-{i}-{k}", **position_to_json(pos)}))
    return lines


@pytest.fixture(scope="module")
def scheduler() -> Iterator[Any]:
    """A local cluster of two single-threaded worker processes, and a client to it."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as local, distributed.Client(local) as client:
        yield client


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cluster") / "positions.jsonl"
    path.write_text("\n".join(position_lines(24, 3)) + "\n")
    return path


@pytest.fixture(scope="module")
def expected(positions: Path) -> list[dict[str, Any]]:
    proc = skatdd("batch", str(positions), "--jobs", "1", *TT)
    assert proc.returncode == 0, proc.stderr
    return strip_stats(records(proc.stdout))


def test_batch_on_the_cluster_equals_one_job(scheduler: Any, positions: Path, expected: list[dict[str, Any]]) -> None:
    assert len(expected) == 312
    proc = skatdd("batch", str(positions), "--dask", scheduler.scheduler.address, *TT)
    assert proc.returncode == 0, proc.stderr
    assert strip_stats(records(proc.stdout)) == expected


def test_analyse_on_the_cluster_equals_one_job(scheduler: Any) -> None:
    one = skatdd("analyse", str(ISS_GAMES), "--jobs", "1", "--no-review", *TT)
    on_cluster = skatdd("analyse", str(ISS_GAMES), "--no-review", "--dask", scheduler.scheduler.address, *TT)
    assert one.returncode == on_cluster.returncode == 0, on_cluster.stderr
    assert strip_stats(records(on_cluster.stdout)) == strip_stats(records(one.stdout))
    assert sum("skipped" in r for r in records(one.stdout)) == 2


def test_run_lines_streams_in_order_in_chunks(scheduler: Any) -> None:
    lines = position_lines(2, 8)
    seen: list[int] = []
    summary = batch.run_batch(((n, line.encode()) for n, line in enumerate(lines, start=1)), solver=Solver(tt_mb=8),
                              emit=lambda o: seen.append(o.line), dask=scheduler.scheduler.address, total=len(lines))
    assert seen == list(range(1, len(lines) + 1)) and summary.exit_code == 0 and summary.nodes > 0


def test_a_killed_worker_loses_nothing(scheduler: Any, positions: Path, expected: list[dict[str, Any]],
                                       tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "batch", str(positions), "--dask",
                             scheduler.scheduler.address, *TT, "-o", str(out)],
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 1):
        time.sleep(0.01)
    pids = scheduler.run(os.getpid)
    os.kill(max(pids.values()), signal.SIGKILL)  # the worker process ends, most likely in the middle of a chunk
    assert out.read_text().count("\n") < len(expected), "the run ended before the worker was killed"
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    rows = records(out.read_text())
    assert len(rows) == len({r["id"] for r in rows}) == len(expected)  # complete, nothing twice
    assert strip_stats(rows) == expected
    scheduler.wait_for_workers(2, timeout=60)  # the nanny restarted it for the next tests


def test_interrupted_cluster_run_resumes_to_the_same_file(scheduler: Any, positions: Path,
                                                          expected: list[dict[str, Any]], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    args = [sys.executable, "-m", "skatdd", "batch", str(positions), "--dask", scheduler.scheduler.address, *TT,
            "-o", str(out)]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=default_ctrl_c)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 1):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) in (0, 130)
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    done = len(out.read_text().splitlines())
    resumed = subprocess.run([*args, "--resume"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert 1 <= done and strip_stats(records(out.read_text())) == expected


def test_bad_lines_in_place_on_a_local_cluster(tmp_path: Path) -> None:
    lines = position_lines(1, 4)[:8]
    lines[2] = '{"id": "no-game", "hands": ["CJ", "SJ", "HJ"]}'
    lines[5] = "not json"
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    proc = skatdd("batch", str(path), "--dask", "local:2", *TT)
    assert proc.returncode == 2
    rows = records(proc.stdout)
    assert len(rows) == 8 and rows[2]["line"] == 3 and rows[2]["id"] == "no-game" and "error" in rows[2]
    assert rows[5] == {"line": 6, "id": None, "error": rows[5]["error"]}
    assert all("value" in rows[i] for i in (0, 1, 3, 4, 6, 7))
    assert "Traceback" not in proc.stderr and "lines 3, 6" in proc.stderr.splitlines()[-1]


def test_address_parsing() -> None:
    assert cluster.parse_address("local:3") == (None, 3)
    assert cluster.parse_address("tcp://head:8786") == ("tcp://head:8786", None)
    assert cluster.parse_address("local")[0] is None
    for bad in ("local:0", "local:x", " "):
        with pytest.raises(SkatddError):
            cluster.parse_address(bad)
    assert cluster.chunk_size(400, 2) == 50 and cluster.chunk_size(None, 2) == cluster.CHUNK_LINES
    assert cluster.chunk_size(10**7, 64) == cluster.CHUNK_LINES


def test_a_chunk_that_kills_every_worker_and_a_lost_scheduler() -> None:
    from distributed.client import FutureCancelledError

    backend = cluster._DaskBackend(SimpleNamespace(nthreads=lambda: {"w": 1}), batch.solve_line, Solver(tt_mb=8),
                                  "tcp://head:8786")
    chunk: list[tuple[int, bytes | str]] = [(3, b'{"id": 1}'), (5, b'{"id": 2}')]
    outcomes, resubmit = backend.failed(chunk, distributed.KilledWorker("run_chunk-1", SimpleNamespace(address="tcp://w:1"), 3))
    assert not resubmit and [o.line for o in outcomes] == [3, 5]
    assert all(o.kind == batch.INTERNAL_ERROR and o.record["line"] == o.line for o in outcomes)
    with pytest.raises(cluster.ClusterError, match="scheduler-connection-lost"):
        backend.failed(chunk, FutureCancelledError("run_chunk-2", "scheduler-connection-lost"))


def test_odds_on_the_cluster_equals_one_job(scheduler: Any) -> None:
    args = ("odds", "CJ HJ CA CT CK C9 SA ST H7 D8", "--seat", "F", "--game", "clubs", "--game", "null",
            "--worlds", "24", "--seed", "3", "--json", *TT)
    one = skatdd(*args, "--jobs", "1")
    on_cluster = skatdd(*args, "--dask", scheduler.scheduler.address)
    assert one.returncode == on_cluster.returncode == 0, on_cluster.stderr
    drop = ("nodes", "seconds")
    report, clustered = json.loads(one.stdout), json.loads(on_cluster.stdout)
    assert {k: v for k, v in clustered.items() if k not in drop} == {k: v for k, v in report.items() if k not in drop}
    assert report["evaluated"] == 24 and len(report["options"]) == 4
