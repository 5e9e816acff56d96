"""Running ``skatdd serve`` for the tests: a real server process on the loopback address, always stopped.

:func:`running_server` starts ``python -m skatdd serve --port 0`` (any free
port, a small table), waits until it prints that it is ready, and stops it
with SIGTERM at the end (SIGKILL if it does not go within the limit);
:meth:`Server.post` / :meth:`Server.get` send one request each with a
timeout, over a connection of their own.  Every wait here is bounded.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any
from urllib.parse import urlsplit

from cli_runner import ROOT, alive, default_ctrl_c, wait_until

#: Seconds a server may take to start its workers and say it is ready.
READY_SECONDS = 60


@dataclass
class Reply:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def descendants(pid: int) -> list[int]:
    """Every live process below *pid* (children, grandchildren...), read from /proc; zombies left out."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found += kids
        frontier += kids
    return found


class Server:
    """A running ``skatdd serve``: its process, address and stderr file."""

    def __init__(self, proc: subprocess.Popen[str], url: str, stderr: IO[bytes]) -> None:
        self.proc = proc
        self.url = url
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        self.host, self.port = parts.hostname, parts.port
        self._stderr = stderr

    def request(self, method: str, path: str, body: bytes | str | dict[str, Any] | Iterable[bytes] | None = None, *,
                headers: dict[str, str] | None = None, timeout: float = 120, chunked: bool = False) -> Reply:
        """One request on a fresh connection; a dict body is sent as JSON, an iterable of bytes *chunked*."""
        if isinstance(body, dict):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
            answer = conn.getresponse()
            return Reply(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            conn.close()

    def post(self, path: str, body: bytes | str | dict[str, Any], **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def status(self) -> dict[str, Any]:
        """``GET /api/status``."""
        reply = self.get("/api/status", timeout=10)
        assert reply.status == 200, reply
        result: dict[str, Any] = reply.json()
        return result

    def wait_idle(self, seconds: float = 30) -> dict[str, Any]:
        """Wait until every worker is up and idle (a killed one replaced); return the status."""
        wait_until(lambda: self.status()["idle"] == self.status()["workers"], seconds, "every worker idle")
        return self.status()

    def stderr(self) -> str:
        """What the server wrote on stderr so far."""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")


def _read_line(stream: IO[str], seconds: float) -> str:
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        if not selector.select(seconds):
            return ""
    return stream.readline()


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGTERM, seconds: float = 20) -> int:
    """Stop the server with *sig*; SIGKILL when it is still there after *seconds*. Returns its exit status."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            return proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            raise AssertionError(f"the server did not stop within {seconds} s of signal {sig}") from None
    return proc.returncode


@contextlib.contextmanager
def running_server(*args: str) -> Iterator[Server]:
    """``skatdd serve --port 0 --tt-mb 16 ARGS``, ready; stopped (SIGTERM) at the end, and no process of it left."""
    stderr = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "serve", "--port", "0", "--tt-mb", "16", *args],
                            stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=ROOT, preexec_fn=default_ctrl_c)
    try:
        assert proc.stdout is not None
        line = _read_line(proc.stdout, READY_SECONDS)
        match = re.search(r"http://\S+/", line)
        if match is None:
            proc.kill()
            proc.wait(10)
            stderr.seek(0)
            raise AssertionError(f"the server did not start: {line!r} {stderr.read().decode(errors='replace')}")
        server = Server(proc, match.group(0), stderr)
        yield server
    finally:
        family = descendants(proc.pid)
        stop(proc)
        wait_until(lambda: not any(alive(pid) for pid in family), 20, "every process of the server gone")
        stderr.close()


