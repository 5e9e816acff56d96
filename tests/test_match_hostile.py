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
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from cli_runner import ROOT, alive, default_ctrl_c, run_skatdd, wait_until
from skatdd.core.errors import SkatddError
from skatdd.play import loading
from skatdd.play.deals import generated_deal
from skatdd.play.loading import load_player
from skatdd.runner.workers import process_end

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


# --------------------------------------------------------------------------- item 1: descriptor 1 stays clean


NOISY = '''
    import logging
    import os
    import subprocess
    import sys

    log = logging.getLogger("noisy_bot")
    log.addHandler(logging.StreamHandler(sys.stdout))  # made at import, on the stdout of that time
    log.setLevel(logging.INFO)


    class Noisy:
        def play(self, state):
            subprocess.run(["echo", "NOISE-subprocess"], check=True)
            os.write(1, b"NOISE-os-write\\n")
            sys.__stdout__.write("NOISE-dunder-stdout\\n")
            sys.__stdout__.flush()
            log.info("NOISE-logging")
            print("NOISE-print")
            return state.legal[0]


    def make(seat, seed):
        return Noisy()
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("as_plug_in_b", [False, True])
def test_what_a_plug_in_writes_to_descriptor_1_never_reaches_stdout(tmp_path: Path, jobs: str,
                                                                     as_plug_in_b: bool) -> None:
    noisy = plug_in(tmp_path, "noisy_bot.py", NOISY)
    players = ("random", noisy) if as_plug_in_b else (noisy, "random")
    proc = run_skatdd("match", *players, "--deals", "2", "--jobs", jobs, *TT)
    assert proc.returncode == 0, proc.stderr
    assert "NOISE" not in proc.stdout
    assert len(lines_of(proc.stdout)) == 2  # every line parses
    for kind in ("subprocess", "os-write", "dunder-stdout", "logging", "print"):
        assert f"NOISE-{kind}" in proc.stderr, kind
    out = tmp_path / "m.jsonl"
    proc = run_skatdd("match", *players, "--deals", "2", "--jobs", jobs, "-o", str(out), "--json", *TT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deals"] == 2 and len(lines_of(out.read_text())) == 2


# --------------------------------------------------------------------------- item 11: a plug-in's fault is its own


HOSTILE = {
    "interrupts": ('''
        class Interrupts:
            def play(self, state):
                raise KeyboardInterrupt("from the plug-in")
    ''', "raised KeyboardInterrupt: from the plug-in"),
    "breaks_state": ('''
        class BreaksState:
            def play(self, state):
                # it widens what it may play to its whole hand, then plays a card that is not legal
                illegal = [card for card in state.hand if card not in state.legal]
                object.__setattr__(state, "legal", tuple(state.hand))
                return illegal[0] if illegal else state.legal[0]
    ''', "which is not a legal card"),
    "exits": ('''
        import os


        class Exits:
            def play(self, state):
                os._exit(3)
    ''', "its process ended with exit status 3"),
}


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_plug_in_fails_its_deals_as_that_player(tmp_path: Path, kind: str, jobs: str) -> None:
    body, message = HOSTILE[kind]
    cls = "".join(part.title() for part in kind.split("_"))
    name = plug_in(tmp_path, f"{kind}_bot.py", textwrap.dedent(body) + f"\n\ndef make(seat, seed):\n    return {cls}()\n")
    proc = run_skatdd("match", "heuristic", name, "--deals", "3", "--jobs", jobs, *TT, timeout=120)
    records = lines_of(proc.stdout)
    assert proc.returncode == 1 and len(records) == 3, proc.stderr
    failed = [r for r in records if "failed" in r]
    assert failed and all("error" not in r and r["id"] is not None for r in records), records
    assert all(r["failed"]["player"] == "B" and message in r["failed"]["message"] for r in failed), failed[0]
    assert "internal error" not in proc.stderr and "unreadable" not in proc.stderr


SWALLOWS = '''
    import os
    import time


    class Swallows:
        def play(self, state):
            open(os.environ["SKATDD_TEST_MARK"], "w").close()
            while True:
                try:
                    time.sleep(0.05)
                except BaseException:
                    pass


    def make(seat, seed):
        return Swallows()
'''


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_plug_in_that_swallows_every_exception_does_not_swallow_a_stop(tmp_path: Path, signum: int,
                                                                           status: int) -> None:
    name = plug_in(tmp_path, "swallows_bot.py", SWALLOWS)
    mark = tmp_path / "playing"
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "match", name, "random", "--deals", "2", "--jobs", "1",
                             *TT], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_ctrl_c, env={**os.environ, "SKATDD_TEST_MARK": str(mark)})
    try:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the plug-in never played"
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=30)  # at once, not after --timeout's 60 s
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("loop", [
    "sum(range(10 ** 13))",  # C: no signal handler runs inside it
    "swallow()",  # Python that swallows the timeout's interrupt
])
def test_the_timeout_stops_a_plug_in_whatever_it_does(tmp_path: Path, loop: str) -> None:
    name = plug_in(tmp_path, "stuck_bot.py", f'''
        import time


        def swallow():
            while True:
                try:
                    time.sleep(0.05)
                except BaseException:
                    pass


        class Stuck:
            def play(self, state):
                {loop}


        def make(seat, seed):
            return Stuck()
    ''')
    proc = run_skatdd("match", name, "random", "--deals", "1", "--jobs", "1", "--timeout", "0.5", *TT, timeout=60)
    records = lines_of(proc.stdout)
    assert proc.returncode == 1 and len(records) == 1, proc.stderr
    assert "took more than 0.5 s over one card" in records[0]["failed"]["message"]


# --------------------------------------------------------------------------- the plug-in's module runs at import


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_a_plug_in_prints_at_import_never_reaches_stdout(tmp_path: Path, jobs: str) -> None:
    # The module is imported in the referee (to check the name) before any deal: its output must not
    # land among the deal lines either.
    name = plug_in(tmp_path, "loud_import_bot.py", '''
        import os

        print("NOISE-import-print")
        os.write(1, b"NOISE-import-os-write\\n")


        class First:
            def play(self, state):
                return state.legal[0]


        def make(seat, seed):
            return First()
    ''')
    proc = run_skatdd("match", "heuristic", name, "--deals", "2", "--jobs", jobs, *TT)
    assert proc.returncode == 0, proc.stderr
    assert "NOISE" not in proc.stdout and len(lines_of(proc.stdout)) == 2
    assert "NOISE-import-print" in proc.stderr and "NOISE-import-os-write" in proc.stderr


@pytest.mark.parametrize("call", ["sys.exit(3)", "raise SystemExit"])
def test_a_plug_in_that_exits_at_import_is_an_unknown_player(tmp_path: Path, call: str) -> None:
    name = plug_in(tmp_path, "exits_at_import_bot.py", f"import sys\n\n{call}\n\n\ndef make(seat, seed):\n    pass\n")
    proc = run_skatdd("match", "heuristic", name, "--deals", "1", "--jobs", "1", *TT)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("Error: player ") and "raised SystemExit" in lines[0]


@pytest.mark.parametrize("full", [(), ("--full",)], ids=["match", "full"])
@pytest.mark.parametrize(("call", "how"), [("os._exit(3)", "ended its process (exit status 3)"),
                                           ("os.kill(os.getpid(), signal.SIGKILL)", "ended its process (killed by SIGKILL)"),
                                           ("raise KeyboardInterrupt('mine')", "raised KeyboardInterrupt: mine")])
def test_a_plug_in_that_ends_its_process_at_import_is_an_unknown_player(tmp_path: Path, call: str, how: str,
                                                                          full: tuple[str, ...]) -> None:
    # The module is checked in a process of its own: it ended the referee's (the run, exit 3, no message),
    # and its own KeyboardInterrupt was taken for a Ctrl-C (exit 130).
    name = plug_in(tmp_path, "ends_at_import_bot.py", f"import os\nimport signal\n\n{call}\n\n\n"
                   "def make(seat, seed):\n    pass\n")
    proc = run_skatdd("match", "heuristic", name, *full, "--deals", "1", "--jobs", "1", *TT)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("Error: player ") and f"{how}: expected" in lines[0], lines[0]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_game_plug_in_that_ends_its_process_in_a_decision_fails_its_deals(tmp_path: Path, jobs: str) -> None:
    # In play (a bid here), not at import: its host ends, the deal fails, the run goes on.
    name = plug_in(tmp_path, "exits_bidding_bot.py", """
        import os


        class ExitsBidding:
            def bid(self, state):
                os._exit(4)

            def play(self, state):
                return state.legal[0]


        def make(seat, seed):
            return ExitsBidding()
    """)
    proc = run_skatdd("match", "heuristic", name, "--full", "--deals", "2", "--jobs", jobs, *TT, timeout=120)
    records = lines_of(proc.stdout)
    assert proc.returncode == 1 and len(records) == 2, proc.stderr
    assert all(r["failed"]["player"] == "B" and "auction move" in r["failed"]["message"]
               and r["failed"]["message"].endswith("its process ended with exit status 4") for r in records), records


def test_load_player_survives_a_module_that_ends_its_process(tmp_path: Path) -> None:
    # In-process callers of the API get the error too; this test's own process would have ended.
    name = plug_in(tmp_path, "ends_in_api_bot.py", "import os\n\nos._exit(0)\n")
    with pytest.raises(SkatddError, match=r"ended its process \(exit status 0\)"):
        load_player(name)


def test_the_import_check_ends_what_the_module_starts_and_does_not_wait_for_it(tmp_path: Path) -> None:
    # The module starts a sleeper at import, holding the check's answer pipe (its standard output) open. The
    # check must neither wait for it nor leave it running; the referee's own import starts one more, its own.
    pids = tmp_path / "pids.txt"
    name = plug_in(tmp_path, "starts_at_import_bot.py", f"""
        import os
        import subprocess
        import sys

        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open({str(pids)!r}, "a") as out:
            out.write(f"{{sleeper.pid}}\\n")


        def make(seat, seed):
            pass
    """)
    started = time.monotonic()
    load_player(name)
    assert time.monotonic() - started < 30
    checked, own = (int(line) for line in pids.read_text().split())
    wait_until(lambda: not alive(checked), 10, "the sleeper the check's import started gone")
    os.kill(own, signal.SIGKILL)  # this process's own import started it: ours to end


# --------------------------------------------------------------------------- what a plug-in starts ends with its deal

SPAWNS = '''
    import os
    import subprocess
    import time


    class Spawns:
        def play(self, state):
            child = subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            with open(os.environ["SKATDD_TEST_PIDS"], "a") as pids:
                pids.write(f"{child.pid}\\n")
            if os.fork() == 0:  # a fork of its own, which sleeps on
                with open(os.environ["SKATDD_TEST_PIDS"], "a") as pids:
                    pids.write(f"{os.getpid()}\\n")
                time.sleep(600)
                os._exit(0)
            {end}


    def make(seat, seed):
        return Spawns()
'''


def _running(pid: int) -> bool:
    """Whether process *pid* runs (a zombie, ended but not reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("end", ["return state.legal[0]", "time.sleep(600)"])
def test_processes_a_plug_in_starts_end_with_its_deal(tmp_path: Path, jobs: str, end: str) -> None:
    name = plug_in(tmp_path, "spawns_bot.py", SPAWNS.replace("{end}", end))
    pids = tmp_path / "pids"
    pids.touch()
    out = tmp_path / "out.jsonl"  # a file, not a pipe: a process left behind holding the pipe would hang the run
    try:
        with out.open("w") as stdout:
            status = subprocess.run([sys.executable, "-m", "skatdd", "match", "heuristic", name, "--deals", "2",
                                     "--jobs", jobs, "--timeout", "1", *TT], cwd=ROOT, stdout=stdout,
                                    stderr=subprocess.DEVNULL, timeout=120,
                                    env={**os.environ, "SKATDD_TEST_PIDS": str(pids)}).returncode
        assert status == (0 if end.startswith("return") else 1) and len(lines_of(out.read_text())) == 2
        started = [int(line) for line in pids.read_text().split()]
        assert started
        deadline = time.monotonic() + 10  # killed at the deal's end: gone as soon as the kernel has ended them
        while any(_running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in started if _running(pid)] == []
    finally:
        for pid in map(int, pids.read_text().split()):
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("jobs", "signum"), [("2", signal.SIGTERM), ("2", signal.SIGINT), ("1", signal.SIGKILL)])
def test_processes_a_plug_in_starts_end_when_the_run_is_stopped(tmp_path: Path, jobs: str, signum: int) -> None:
    """A stopped --jobs run SIGKILLs its workers, a referee killed outright takes its hosts along: neither may
    leave what the plug-in started behind (the host's guard kills its group)."""
    name = plug_in(tmp_path, "spawns_bot.py", SPAWNS.replace("{end}", "time.sleep(600)"))
    pids = tmp_path / "pids"
    pids.touch()
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "match", "heuristic", name, "--deals", "4", "--jobs", jobs,
                             "--timeout", "600", *TT], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=default_ctrl_c, env={**os.environ, "SKATDD_TEST_PIDS": str(pids)})
    try:
        deadline = time.monotonic() + 60
        while len(pids.read_text().split()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        started = [int(line) for line in pids.read_text().split()]
        assert len(started) >= 2, "the plug-in never played"
        proc.send_signal(signum)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10  # the guard looks for its host five times a second
        while any(_running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in started if _running(pid)] == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in map(int, pids.read_text().split()):
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("answer", "shown"), [('"x" * 20_000_000', "xxxx... (20,000,000 characters)"),
                                               ("10 ** 5000", "an int of 16,610 bits")])
def test_a_huge_answer_fails_the_deal_in_a_short_message(tmp_path: Path, answer: str, shown: str) -> None:
    """A 20 MB text or a 5,000-digit int is not sent back whole: the deal fails at once, with a short message."""
    name = plug_in(tmp_path, "huge_bot.py", f"""
        class Huge:
            def play(self, state):
                return {answer}


        def make(seat, seed):
            return Huge()
    """)
    proc = run_skatdd("match", "heuristic", name, "--deals", "1", "--jobs", "1", *TT)
    assert proc.returncode == 1, proc.stderr
    [record] = lines_of(proc.stdout)
    message = record["failed"]["message"]
    assert shown in message and "which is no card" in message and len(message) < 300, message


@pytest.mark.parametrize(("status", "said"), [(0, "exit status 0"), (7, "exit status 7"),
                                              (-9, "killed by SIGKILL"), (-40, "killed by signal 40")])
def test_how_a_process_ended_is_said_even_for_an_unnamed_signal(status: int, said: str) -> None:
    assert process_end(status) == said


def test_a_plug_in_killed_by_a_real_time_signal_fails_its_deal_as_the_plug_ins(tmp_path: Path) -> None:
    # The host's end was named through signal.Signals, which has no name for SIGRTMIN + 5: the deal was an
    # internal error ("39 is not a valid Signals") instead of the player's failure.
    name = plug_in(tmp_path, "real_time_bot.py", """
        import os
        import signal


        class KillsItself:
            def play(self, state):
                os.kill(os.getpid(), signal.SIGRTMIN + 5)


        def make(seat, seed):
            return KillsItself()
    """)
    proc = run_skatdd("match", "heuristic", name, "--deals", "1", "--jobs", "1", *TT, timeout=120)
    records = lines_of(proc.stdout)
    assert proc.returncode == 1 and len(records) == 1, proc.stderr
    assert records[0]["failed"]["player"] == "B", records
    assert records[0]["failed"]["message"].endswith(f"its process was killed by signal {signal.SIGRTMIN + 5}")


def test_a_module_whose_import_does_not_end_is_an_unknown_player(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # It hung the check, and the referee's own import after it, for ever.
    monkeypatch.setattr(loading, "IMPORT_SECONDS", 1.0)
    name = plug_in(tmp_path, "never_imported_bot.py", "import time\n\ntime.sleep(60)\n")
    started = time.monotonic()
    with pytest.raises(SkatddError, match=r"loading '.*' (\(\d+ characters\) )?took over 1 s"):
        load_player(name)
    assert time.monotonic() - started < 30
