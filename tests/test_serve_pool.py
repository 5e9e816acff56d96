"""The server's worker pool in this process: results, bad input, progress, a full pool, the time limit,
cancelled jobs, dead workers and stopping, with real worker processes (and every pool closed at the end)."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from skatdd.engine.solve import Solver
from skatdd.serve.api import solve_request
from skatdd.serve.pool import PoolFull, TaskError, TimeLimitExceeded, WorkerFailed, WorkerPool
from skatdd.serve.worker import WorkerSettings

ROOT = Path(__file__).resolve().parent.parent
DEAL = (ROOT / "examples" / "deal.txt").read_text().split("/")
BODY = json.dumps({"game": "grand", "declarer": 0, "hands": DEAL[:3], "skat": DEAL[3]})
#: Many seconds of work: a close game at trick 1 over 5000 worlds (always stopped before it ends).
SLOW = json.dumps({"position": (ROOT / "examples" / "game.iss").read_text(), "worlds": 5000})

T = TypeVar("T")


def with_pool(body: Callable[[WorkerPool], Awaitable[T]], *, size: int = 1, backlog: int = 0,
              time_limit: float = 60) -> T:
    """Run *body* on a started pool, at most two minutes; the pool is closed whatever happens."""
    async def main() -> T:
        pool = WorkerPool(size, settings=WorkerSettings(solver=Solver(tt_mb=16), max_worlds=5000), time_limit=time_limit,
                          backlog=backlog)
        await pool.start()
        try:
            return await body(pool)
        finally:
            await pool.close()

    return asyncio.run(asyncio.wait_for(main(), 120))


async def until(check: Callable[[], bool], what: str, seconds: float = 30) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


def busy(pool: WorkerPool) -> Callable[[], bool]:
    return lambda: pool.status()["busy"] == pool.size


def whole(pool: WorkerPool) -> Callable[[], bool]:
    return lambda: pool.status()["idle"] == pool.size


def test_results_bad_input_and_progress() -> None:
    async def body(pool: WorkerPool) -> None:
        answer = await pool.run("solve", BODY)
        direct = solve_request(BODY, solver=Solver(16))
        assert answer.pop("seconds") >= 0 and direct.pop("seconds") >= 0 and answer == direct
        with pytest.raises(TaskError, match="field 'hands' is missing"):
            await pool.run("solve", '{"game": "grand"}')
        seen: list[tuple[int, int]] = []
        advice = await pool.run("advise", json.dumps({"position": json.loads(BODY), "worlds": 20}),
                                lambda done, total: seen.append((done, total)))
        assert advice["evaluated"] == 20 and seen[0] == (0, 0) and seen[-1] == (20, 20)
        assert pool.status()["replaced"] == 0
        with pytest.raises(WorkerFailed, match="KeyError"):  # a fault that is not the input's: 500, a fresh worker
            await pool.run("no-such-task", "")
        await until(whole(pool), "a fresh worker")
        assert pool.status()["replaced"] == 1

    with_pool(body)


def test_a_full_pool_refuses_at_once_and_a_cancelled_job_frees_its_worker() -> None:
    async def body(pool: WorkerPool) -> None:
        slow = asyncio.ensure_future(pool.run("advise", SLOW))
        await until(busy(pool), "the slow job running")
        with pytest.raises(PoolFull, match="every worker is busy"):
            await pool.run("solve", BODY)
        slow.cancel()
        await until(whole(pool), "a fresh worker")
        assert pool.status()["replaced"] == 1
        assert (await pool.run("solve", BODY))["value"] == 120

    with_pool(body)


def test_a_cancellation_that_lands_with_a_progress_event_still_stops_the_job() -> None:
    # The event arrives and the request is cancelled in the same turn of the loop: asyncio.wait_for (Python
    # 3.11) handed back the event and dropped the cancellation, so the job ran on to its end.
    async def body(pool: WorkerPool) -> None:
        slow = asyncio.ensure_future(pool.run("advise", SLOW))
        await until(busy(pool), "the slow job running")
        worker = next(iter(pool._workers))
        worker.events.put_nowait(("progress", 1, 2))
        slow.cancel()
        done, _ = await asyncio.wait({slow}, timeout=20)
        assert slow in done and slow.cancelled()
        assert pool.status()["replaced"] == 1

    with_pool(body)


def test_waiting_jobs_are_bounded_and_served_in_turn() -> None:
    async def body(pool: WorkerPool) -> None:
        slow = asyncio.ensure_future(pool.run("advise", SLOW))
        await until(busy(pool), "the slow job running")
        waiting = [asyncio.ensure_future(pool.run("solve", BODY)) for _ in range(2)]
        await until(lambda: pool.status()["waiting"] == 2, "two jobs waiting")
        with pytest.raises(PoolFull):
            await pool.run("solve", BODY)
        waiting[0].cancel()  # a waiting job that gives up leaves its place
        await until(lambda: pool.status()["waiting"] == 1, "one job waiting")
        slow.cancel()
        assert (await waiting[1])["value"] == 120
        assert pool.status()["replaced"] == 1

    with_pool(body, backlog=2)


def test_time_limit_kills_the_job() -> None:
    async def body(pool: WorkerPool) -> None:
        with pytest.raises(TimeLimitExceeded, match=r"time limit of 0\.5 s"):
            await pool.run("advise", SLOW)
        await until(whole(pool), "a fresh worker")
        assert pool.status()["replaced"] == 1

    with_pool(body, time_limit=0.5)


def test_a_worker_that_dies_is_replaced() -> None:
    async def body(pool: WorkerPool) -> None:
        idle = next(iter(pool._workers))
        idle.process.kill()
        await until(lambda: pool.status()["replaced"] == 1 and whole(pool)(), "the dead idle worker replaced")
        slow = asyncio.ensure_future(pool.run("advise", SLOW))
        await until(busy(pool), "the slow job running")
        next(iter(pool._workers)).process.kill()
        with pytest.raises(WorkerFailed, match="the worker process stopped"):
            await slow
        await until(whole(pool), "the dead busy worker replaced")
        assert pool.status()["replaced"] == 2 and (await pool.run("solve", BODY))["value"] == 120

    with_pool(body)


def test_interrupt_answers_running_and_waiting_jobs() -> None:
    async def body(pool: WorkerPool) -> list[Any]:
        slow = asyncio.ensure_future(pool.run("advise", SLOW))
        await until(busy(pool), "the slow job running")
        waiting = asyncio.ensure_future(pool.run("solve", BODY))
        await until(lambda: pool.status()["waiting"] == 1, "a job waiting")
        pool.interrupt()
        results = await asyncio.gather(slow, waiting, pool.run("solve", BODY), return_exceptions=True)
        return [str(r) if isinstance(r, PoolFull) else r for r in results]

    assert with_pool(body, backlog=1) == ["the server is shutting down"] * 3
