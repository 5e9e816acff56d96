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

from cli_runner import ROOT
from serve_helpers import Server, alive, descendants, running_server, stop, wait_until
from skatdd.serve.protocol import REQUEST_SECONDS
from test_serve_api import SLOW, SOLVE_BODIES, _send_and_hold

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


def test_closing_a_running_advise_stops_its_job_quietly() -> None:
    with running_server("--workers", "1") as server:
        held = _send_and_hold(server, "/api/advise", SLOW)
        wait_until(lambda: server.status()["busy"] == 1, 30, "the slow request on the worker")
        held.close()
        assert server.wait_idle()["replaced"] == 1
        assert server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"])).status == 200
        _quiet(server)


def test_closing_a_queued_stream_leaves_quietly() -> None:
    """The board's Cancel button on a request still waiting for a worker: it leaves the waiting room, no traceback."""
    with running_server("--workers", "1", "--queue", "1") as server:
        running = _send_and_hold(server, "/api/advise", SLOW)
        wait_until(lambda: server.status()["busy"] == 1, 30, "the slow request on the worker")
        queued = _send_and_hold(server, "/api/advise/stream", SLOW)
        wait_until(lambda: server.status()["waiting"] == 1, 30, "the stream waiting")
        queued.close()
        wait_until(lambda: server.status()["waiting"] == 0, 30, "the closed stream out of the waiting room")
        assert server.status()["busy"] == 1 and server.status()["replaced"] == 0  # the running job goes on
        running.close()
        assert server.wait_idle()["replaced"] == 1
        _quiet(server)


def test_a_client_that_half_closes_still_gets_its_answer() -> None:
    with running_server("--workers", "1") as server:
        expected = server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"])).json()
        advice = server.post("/api/advise", SMALL_ADVICE).json()
        for path, body, want in (("/api/solve", SOLVE_BODIES["grand deal"], expected),
                                 ("/api/advise", SMALL_ADVICE, advice)):
            sock = _send_and_hold(server, path, body)
            sock.shutdown(socket.SHUT_WR)
            status, answer = _final_answer(_read_all(sock, 60))
            sock.close()
            assert status == 200, (path, answer)
            assert {k: v for k, v in answer.items() if k != "seconds"} == \
                   {k: v for k, v in want.items() if k != "seconds"}, path
        # The stream too: every line, ending with the same advice.
        sock = _send_and_hold(server, "/api/advise/stream", SMALL_ADVICE)
        sock.shutdown(socket.SHUT_WR)
        raw = _read_all(sock, 60)
        sock.close()
        assert raw.startswith(b"HTTP/1.1 200") and b'"result"' in raw, raw[:300]
        assert server.wait_idle()["replaced"] == 0
        _quiet(server)


def test_slow_clients_are_cut_off_after_the_bound() -> None:
    """Nothing sent, half the headers, half the body: each connection is closed within the bound (plus slack)."""
    with running_server("--workers", "1") as server:
        payload = json.dumps(SOLVE_BODIES["grand deal"]).encode()
        starts = [
            b"",
            b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le",
            b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s" % (
                len(payload), payload[:20]),
        ]
        socks = []
        for start in starts:
            sock = socket.create_connection((server.host, server.port), timeout=10)
            sock.sendall(start)
            socks.append(sock)
        started = time.monotonic()
        try:
            for sock in socks:
                _read_all(sock, REQUEST_SECONDS + 15 - (time.monotonic() - started))
        finally:
            for sock in socks:
                sock.close()
        # The server still answers, and a slow but steady client within the bound is served.
        sock = socket.create_connection((server.host, server.port), timeout=10)
        head = b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % len(payload)
        for part in (head, payload[:100], payload[100:]):
            sock.sendall(part)
            time.sleep(0.3)
        sock.shutdown(socket.SHUT_WR)
        status, answer = _final_answer(_read_all(sock, 60))
        sock.close()
        assert status == 200 and answer["value"] == server.post("/api/solve", payload).json()["value"]
        _quiet(server)
    assert f"within **{REQUEST_SECONDS:g} seconds**" in (ROOT / "docs" / "serve.md").read_text()


def test_a_body_with_a_byte_order_mark_is_read_as_solve_reads_it() -> None:
    with running_server("--workers", "1") as server:
        body = json.dumps(SOLVE_BODIES["grand deal"])
        plain = server.post("/api/solve", body)
        marked = server.post("/api/solve", "\ufeff" + body)
        assert marked.status == 200, marked
        assert {k: v for k, v in marked.json().items() if k != "seconds"} == \
               {k: v for k, v in plain.json().items() if k != "seconds"}
        advice = server.post("/api/advise", "\ufeff" + json.dumps(SMALL_ADVICE))
        assert advice.status == 200, advice
        _quiet(server)
