"""``skatdd serve`` under hostile clients and signals (issue 32, items 5, 6 and 11): no traceback, nothing hangs.

SIGHUP stops the server as SIGTERM does, every time; a client that goes
away has its job stopped quietly (the worker replaced), one that only
half-closes its side still gets its answer, and connections that never
finish their request are cut off after the bound docs/serve.md states.
Raw sockets here are few and every wait on them is bounded.
"""
from __future__ import annotations

import json
import signal
import socket
import time
from typing import Any

from serve_helpers import Server, alive, descendants, running_server, stop, wait_until
from test_serve_api import SLOW, _send_and_hold

#: A few seconds of work at most: advice on few worlds late in the example game.
SMALL_ADVICE = {"position": SLOW["position"], "worlds": 3, "seed": 1, "after": 24}


def _quiet(server: Server) -> None:
    """The server wrote no traceback and none of the errors issue 32 saw."""
    err = server.stderr()
    for word in ("Traceback", "InvalidStateError", "StopAsyncIteration", "Exception in ASGI"):
        assert word not in err, err


def _read_all(sock: socket.socket, seconds: float) -> bytes:
    """Everything the server sends until it closes the connection (or *seconds* pass: then what came)."""
    deadline = time.monotonic() + seconds
    data = b""
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            break
        if not chunk:
            return data
        data += chunk
    raise AssertionError(f"the connection was still open after {seconds} s: {data[:200]!r}")


def _final_answer(raw: bytes) -> tuple[int, Any]:
    """The status and JSON body of the last answer in *raw* (interim ``100 Continue`` answers skipped)."""
    while raw.startswith(b"HTTP/1.1 100 "):
        raw = raw.split(b"\r\n\r\n", 1)[1]
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if b"transfer-encoding: chunked" in head.lower():
        text, rest = b"", body
        while True:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            text, rest = text + rest[:size], rest[size + 2:]
        body = text
    return status, json.loads(body)


def test_sighup_stops_the_server_as_sigterm_does_every_time() -> None:
    """Four servers, each stopped by SIGHUP while one stream and one plain request run: exit 0, no traceback."""
    for attempt in range(4):
        with running_server("--workers", "2") as server:
            family = descendants(server.proc.pid)
            held = [_send_and_hold(server, "/api/advise/stream", SLOW), _send_and_hold(server, "/api/advise", SLOW)]
            wait_until(lambda: server.status()["busy"] == 2, 30, "both slow requests on a worker")
            held[0].settimeout(30)
            assert held[0].recv(4096).startswith(b"HTTP/1.1 200")  # progress lines are being written
            time.sleep(0.1 * attempt)  # a different moment of the writes each time
            assert stop(server.proc, signal.SIGHUP) == 0, (attempt, server.stderr())
            answers = [_read_all(sock, 20) for sock in held]
            for sock in held:
                sock.close()
            assert answers[1].startswith(b"HTTP/1.1 503") and b"the server is shutting down" in answers[1], answers[1]
            wait_until(lambda: not any(alive(pid) for pid in family), 20,  # noqa: B023 (called at once)
                       "every process of the server gone")
            assert "skatdd serve: stopped" in server.stderr(), server.stderr()
            _quiet(server)

