"""A run stopped from outside ends cleanly and leaves no process behind: skatdd.runner.stopping, skatdd.runner.workers.

Real commands in real processes, stopped by real signals: SIGTERM (``kill``,
or ``timeout``, which signals the whole process group), SIGHUP, Ctrl-C
(SIGINT to the process group, as a terminal sends it) and SIGKILL.  Every
run is bounded by timeouts, and every test checks that no process the
command started is still alive afterwards.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from skatdd.runner.ordered import run_ordered
from skatdd.runner.outcome import LineOutcome
from skatdd.runner.stopping import (
    Terminated,
    deferred_stops,
    exit_status,
    polled_stops,
    raise_if_stopped,
    stop_message,
    stop_on_signals,
)
from skatdd.tools.generate import position_to_json, realistic_deals

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parent.parent
HAND = ("CJ", "SJ", "HJ", "CA", "CT", "C9", "SA", "ST", "H7", "D8")
#: Long enough that no run here finishes before it is stopped.
ODDS = ("odds", *HAND, "--seat", "F", "--worlds", "100000", "--tt-mb", "16")


@pytest.fixture(scope="module")
def deals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 realistic deals as JSON lines: with ``--mode all`` several seconds of work for two workers."""
    path = tmp_path_factory.mktemp("signals") / "deals.jsonl"
    path.write_text("".join(json.dumps({"id": i, **position_to_json(p)}) + "\n"
                            for i, p in enumerate(realistic_deals(77, 600))))
    return path


def _child_setup() -> None:
    """In the command's process before it starts: Ctrl-C as a terminal gives it, and SIGTERM if the test dies.

    The command runs in a session of its own, so nothing would stop it if
    the test process were killed mid-test (a CI timeout): on Linux the
    kernel then sends it SIGTERM, which stops it and its workers cleanly.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG


class Run:
    """A ``python -m skatdd`` process in a session of its own (so a signal can go to its whole group)."""

    def __init__(self, *args: str) -> None:
        self.stderr: IO[str] = tempfile.TemporaryFile(mode="w+")  # a pipe could be held open by an orphan
        self.proc = subprocess.Popen([sys.executable, "-m", "skatdd", *args], stdout=subprocess.DEVNULL,
                                     stderr=self.stderr, text=True, cwd=ROOT, start_new_session=True,
                                     preexec_fn=_child_setup)
        self.seen: dict[int, Any] = {}

    def descendants(self) -> list[Any]:
        """Every process the command has started so far (remembered, to check on them after it ends)."""
        try:
            kids = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        for kid in kids:
            self.seen.setdefault(kid.pid, kid)
        return kids

    def wait_for(self, ready: Callable[[], bool], what: str, timeout: float = 120) -> None:
        """Poll until *ready()* (the command must still be running then)."""
        deadline = time.monotonic() + timeout
        while not ready():
            assert self.proc.poll() is None, f"the command ended before {what}: {self.text()}"
            assert time.monotonic() < deadline, f"no {what} after {timeout} s"
            self.descendants()
            time.sleep(0.02)
        self.descendants()

    def signal(self, sig: int, *, group: bool = False) -> None:
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)

    def finish(self, timeout: float = 60) -> int:
        """Wait for the command; then every process it started must end (within 10 s) -- else they are killed."""
        try:
            status = self.proc.wait(timeout=timeout)
        finally:
            alive = self._survivors(10)
            for proc in alive:
                proc.kill()
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        assert not alive, f"left running: {[(p.pid, ' '.join(p.cmdline())[:80]) for p in alive]}"
        return status

    def _survivors(self, seconds: float) -> list[Any]:
        deadline = time.monotonic() + seconds
        while True:
            alive = []
            for proc in self.seen.values():
                try:
                    if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                        alive.append(proc)
                except psutil.NoSuchProcess:
                    pass
            if not alive or time.monotonic() > deadline:
                return alive
            time.sleep(0.1)

    def text(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()


def lines_in(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_odds_stopped_by_a_signal_ends_its_workers(sig: int) -> None:
    run = Run(*ODDS, "--jobs", "2")
    run.wait_for(lambda: len(run.descendants()) >= 2, "two workers")
    run.signal(sig)
    assert run.finish() == 128 + sig
    assert run.text().strip() == f"Terminated by {signal.Signals(sig).name}."


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_bid_stopped_by_a_signal_reports_that_signal(sig: int) -> None:
    """bid says which signal stopped it and exits 128 + that signal, as odds does (not 130 for every one)."""
    run = Run("bid", *HAND, "--seat", "F", "--skats", "231", "--jobs", "2", "--tt-mb", "16")
    run.wait_for(lambda: len(run.descendants()) >= 2, "two workers")
    run.signal(sig)
    assert run.finish() == 128 + sig
    said = "Interrupted" if sig == signal.SIGINT else f"Terminated by {signal.Signals(sig).name}"
    assert run.text().strip() == f"{said}: nothing printed (the table needs every skat)."


#: A pool whose second worker is still starting (its parent's handlers, inherited by fork) when SIGTERM comes.
SLOW_STARTING_WORKER = """
import functools, multiprocessing, os, signal, sys, threading, time
import skatdd.runner.lines as lines
from skatdd.runner.stopping import stop_on_signals

started = lines._init_worker
def slow_start(*args):
    time.sleep(0.5 if multiprocessing.current_process()._identity[0] == 1 else 3.0)
    started(*args)
lines._init_worker = slow_start

threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
try:
    with stop_on_signals():
        lines.run_lines(((i, "x") for i in range(100)), handler=functools.partial(lines.solve_line, mode="value"),
                        jobs=2, emit=lambda outcome: None)
except KeyboardInterrupt:
    sys.exit(143)
"""


def test_a_pool_stopped_while_a_worker_starts_still_exits() -> None:
    """A worker that has not reset its handlers yet only records SIGTERM: the pool kills its workers outright.

    With SIGTERM the starting worker lived on and waited for ever on the
    task queue's lock (held by the idle worker killed in its read), and the
    run never exited (seen once in CI: ``bid`` stopped as its workers started).
    """
    proc = subprocess.Popen([sys.executable, "-c", SLOW_STARTING_WORKER], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_child_setup)
    try:
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 143, err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_null_ouvert_on_two_threads_stopped_by_a_signal(sig: int) -> None:
    """A hand game counted on two threads (seconds of work) stops on the signal with its status and one line."""
    run = Run("null-ouvert", "C7 C8 CK S7 S9 H7 H8 HT D7 DJ", "--declarer", "R", "--jobs", "2")
    run.wait_for(lambda: psutil.Process(run.proc.pid).num_threads() >= 4, "the counting threads")
    run.signal(sig)
    assert run.finish() == 128 + sig
    assert run.text().strip() == ("Interrupted." if sig == signal.SIGINT else f"Terminated by {signal.Signals(sig).name}.")


def test_null_ouvert_api_on_two_threads_stops_on_ctrl_c() -> None:
    """The Python API (no CLI around it): Ctrl-C stops every counting thread and raises KeyboardInterrupt."""
    code = ("import sys; from skatdd.engine.nullouvert import analyse\n"
            "try:\n    analyse('C7 C8 CK S7 S9 H7 H8 HT D7 DJ', declarer='R', jobs=2)\n"
            "except KeyboardInterrupt:\n    sys.exit(42)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_child_setup)
    deadline = time.monotonic() + 60
    while proc.poll() is None and psutil.Process(proc.pid).num_threads() < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.5)
    if proc.poll() is not None:
        pytest.skip("the count ended before the signal")
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 42, err


@pytest.mark.parametrize(("sig", "group"), [(signal.SIGTERM, False), (signal.SIGHUP, False), (signal.SIGTERM, True)])
def test_batch_stopped_by_a_signal_keeps_what_it_wrote(deals: Path, tmp_path: Path, sig: int, group: bool) -> None:
    """``kill``, a closed terminal and ``timeout`` (the whole group: the workers get the signal too)."""
    out = tmp_path / "out.jsonl"
    run = Run("batch", str(deals), "--jobs", "2", "--mode", "all", "--tt-mb", "16", "-o", str(out))
    run.wait_for(lambda: lines_in(out) >= 2, "two lines written")
    run.signal(sig, group=group)
    assert run.finish() == 128 + sig
    assert run.text().strip() == f"Terminated by {signal.Signals(sig).name}: the lines written so far are complete."
    rows = [json.loads(line) for line in out.read_text().splitlines()]  # whole lines only
    assert [row["id"] for row in rows] == list(range(len(rows))) and len(rows) < 600
    assert all("error" not in row for row in rows)  # a worker dying of the group's signal is no line's error


def test_workers_die_with_a_parent_killed_outright() -> None:
    run = Run(*ODDS, "--jobs", "2")
    run.wait_for(lambda: len(run.descendants()) >= 2, "two workers")
    run.signal(signal.SIGKILL)  # no handler runs: the kernel ends the workers (PR_SET_PDEATHSIG)
    assert run.finish() == -signal.SIGKILL


def test_ctrl_c_still_stops_with_130(deals: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    run = Run("batch", str(deals), "--jobs", "2", "--mode", "all", "--tt-mb", "16", "-o", str(out))
    run.wait_for(lambda: lines_in(out) >= 1, "a line written")
    run.signal(signal.SIGINT, group=True)
    assert run.finish() == 130
    assert run.text().strip() == "Interrupted: the lines written so far are complete."


# --------------------------------------------------------------------------- a local Dask cluster


def test_ctrl_c_on_a_local_cluster_is_one_line(deals: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "out.jsonl"
    run = Run("batch", str(deals), "--dask", "local:2", "--mode", "all", "--tt-mb", "16", "-o", str(out))
    run.wait_for(lambda: lines_in(out) >= 1, "a line written")
    run.signal(signal.SIGINT, group=True)  # a terminal's Ctrl-C: the workers get it too
    assert run.finish() == 130
    assert run.text().strip() == "Interrupted: the lines written so far are complete."


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stopped_while_a_local_cluster_starts(deals: Path, tmp_path: Path, sig: int) -> None:
    """The stop waits for the start to finish, then closes the cluster: no traceback, nothing left running."""
    pytest.importorskip("distributed")
    out = tmp_path / "out.jsonl"
    run = Run("batch", str(deals), "--dask", "local:2", "--tt-mb", "16", "-o", str(out))
    run.wait_for(lambda: len(run.descendants()) >= 1, "a process started")
    run.signal(sig, group=True)
    assert run.finish() == 128 + sig
    assert run.text().strip().endswith("the lines written so far are complete."), run.text()
    assert len(run.text().strip().splitlines()) == 1, run.text()


# --------------------------------------------------------------------------- in this process


@contextmanager
def restored(*sigs: int) -> Iterator[None]:
    saved = {sig: signal.getsignal(sig) for sig in sigs}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def test_stop_on_signals_raises_terminated_and_restores() -> None:
    with restored(signal.SIGTERM, signal.SIGHUP):
        before = signal.getsignal(signal.SIGTERM)
        with pytest.raises(Terminated) as caught, stop_on_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises at once
        assert caught.value.signum == signal.SIGTERM and isinstance(caught.value, KeyboardInterrupt)
        assert exit_status(caught.value) == 143 and stop_message(caught.value) == "Terminated by SIGTERM"
        assert signal.getsignal(signal.SIGTERM) is before
        assert exit_status(KeyboardInterrupt()) == 130 and stop_message(KeyboardInterrupt()) == "Interrupted"


class _SignalsInDel:
    """An object whose ``__del__`` is where a stop signal lands (as in a Dask future's), or that fails there."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    def __del__(self) -> None:
        if self.fail:
            raise ValueError("a __del__ that fails on its own")
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises here, inside __del__, where Python swallows it


def test_a_stop_lost_in_a_del_prints_no_traceback_and_still_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    reported: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_value))
    hook = sys.unraisablehook
    with restored(signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(Terminated) as caught, stop_on_signals():
            _SignalsInDel()  # made and dropped: its __del__ runs now
            _SignalsInDel(fail=True)
            assert len(reported) == 1 and isinstance(reported[0], ValueError)  # other failures are still told
            raise_if_stopped()  # the lost stop takes effect
        assert caught.value.signum == signal.SIGTERM
    assert sys.unraisablehook is hook


def test_stop_on_signals_leaves_an_ignored_signal_ignored() -> None:
    with restored(signal.SIGHUP):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # nohup
        with stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


def test_deferred_stops_hold_signals_until_the_step_is_done() -> None:
    with restored(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        steps = []
        with pytest.raises(Terminated), stop_on_signals(), deferred_stops():
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.05)
            steps.append("finished")  # not cut short
        assert steps == ["finished"]
        with pytest.raises(KeyboardInterrupt) as caught, deferred_stops():
            os.kill(os.getpid(), signal.SIGINT)  # blocked here: delivered when the step is done
            time.sleep(0.05)
            steps.append("again")
        assert steps == ["finished", "again"] and not isinstance(caught.value, Terminated)
        with pytest.raises(KeyboardInterrupt) as failed, deferred_stops():
            os.kill(os.getpid(), signal.SIGINT)
            raise RuntimeError("a step that failed because it was stopped")
        assert isinstance(failed.value.__cause__, RuntimeError)
        with deferred_stops():
            pass  # nothing came: nothing raised


def test_polled_stops_raise_only_where_the_loop_asks() -> None:
    """Ctrl-C and the stops stop_on_signals made raise are recorded, and raised by raise_if_stopped or on leaving."""
    with restored(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        steps = []
        with pytest.raises(Terminated) as caught, stop_on_signals(), polled_stops():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            steps.append("not cut short")
            raise_if_stopped()
            steps.append("never")
        assert steps == ["not cut short"] and caught.value.signum == signal.SIGTERM
        signal.signal(signal.SIGINT, signal.default_int_handler)  # no stop_on_signals: Python's own Ctrl-C
        with pytest.raises(KeyboardInterrupt), polled_stops():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            steps.append("left")  # the stop is raised on leaving the block
        assert steps == ["not cut short", "left"] and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt) as failed, polled_stops():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            raise RuntimeError("a step that failed meanwhile")
        assert isinstance(failed.value.__cause__, RuntimeError)
        seen: list[int] = []
        signal.signal(signal.SIGHUP, lambda signum, frame: seen.append(signum))  # somebody else's handler
        with polled_stops():
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.05)
        assert seen == [signal.SIGHUP]


class _DoneFuture:
    """A future already done: its chunk's lines, each an outcome."""

    def __init__(self, chunk: list[tuple[int, bytes | str]]) -> None:
        self.outcomes = [LineOutcome(line=line, record={}) for line, _ in chunk]

    def done(self) -> bool:
        return True

    def result(self) -> list[LineOutcome]:
        return self.outcomes

    def add_done_callback(self, fn: Callable[[Any], None]) -> None:
        fn(self)


class _StoppedWhileSubmitting:
    """A backend whose submit is where Ctrl-C arrives, as it may while the pool's submit holds its locks."""

    def __init__(self) -> None:
        self.submits_finished = 0

    def max_chunks(self) -> int:
        return 2

    def submit(self, chunk: list[tuple[int, bytes | str]]) -> _DoneFuture:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # a raising handler would raise here, half way through
        self.submits_finished += 1
        return _DoneFuture(chunk)

    def failed(self, chunk: Any, error: BaseException) -> tuple[list[LineOutcome], bool]:
        raise error


def test_run_ordered_takes_a_stop_between_steps_never_inside_one() -> None:
    """A stop raised inside the pool's submit or a future's lock would leave a lock held and hang the exit."""
    backend = _StoppedWhileSubmitting()
    emitted: list[int] = []
    with restored(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(KeyboardInterrupt), stop_on_signals():
            run_ordered(iter([(i, "x") for i in range(1, 1000)]), backend, lambda o: emitted.append(o.line),
                        chunk_lines=1, read_ahead=4)
    assert backend.submits_finished >= 1 and len(emitted) < 999
