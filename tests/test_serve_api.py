"""``skatdd serve``'s JSON API on a real server on the loopback address, against the CLI run in this process.

``/api/solve`` and ``/api/advise`` must answer the very objects ``skatdd
solve --mode all --json`` and ``skatdd advise --json`` print (the table size
is the same, so even ``nodes`` agrees; only ``seconds`` differs), and bad
input the CLI's one-line message with status 400.  Then what a server must
survive: hostile and oversized bodies, bodies that name files, foreign Host
headers, a full pool (503, nothing queued without bound), the time limit,
cancelled requests, a short load test, and Ctrl-C / SIGTERM with no process
left behind.  Every server is stopped at the end of its test or module.
"""
from __future__ import annotations

import http.client
import json
import random
import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cli_runner import ROOT, invoke, run_skatdd
from html_cases import NULL_DEAL
from serve_helpers import Server, alive, descendants, running_server, stop, wait_until
from skatdd.core.cards import card_name
from skatdd.core.rules import Game
from skatdd.formats.readers import load_deal
from skatdd.tools.generate import position_to_json, random_position

EXAMPLE = ROOT / "examples" / "game.iss"
DEAL = (ROOT / "examples" / "deal.txt").read_text().strip()
TT = "16"  # the servers' --tt-mb (serve_helpers), so the CLI's node counts agree


def _deal_json(text: str, game: str, declarer: int, **extra: Any) -> dict[str, Any]:
    groups = [g.split() for g in text.split("/")]
    return {"game": game, "declarer": declarer, "hands": [" ".join(g) for g in groups[:3]], "skat": " ".join(groups[3]),
            **extra}


def _record_json(cards: int) -> dict[str, Any]:
    """The example ISS record as a JSON deal with its first *cards* cards played."""
    spec = load_deal(EXAMPLE.read_text())
    obj = spec.to_json()
    obj["played"] = " ".join(card_name(c) for c in spec.played[:cards])
    return obj


def _endgame() -> dict[str, Any]:
    return position_to_json(random_position(random.Random(5), game=Game.HEARTS, tricks=4, trick_cards=1))


SOLVE_BODIES = {
    "grand deal": _deal_json(DEAL, "grand", 0),
    "diamonds by forehand, 3 cards played": _deal_json(DEAL, "diamonds", 0, played="HA S9 H9"),
    "null": _deal_json(NULL_DEAL, "null", 0),
    "null ouvert": _deal_json(NULL_DEAL, "null-ouvert", 0),
    "endgame mid-trick": _endgame(),
    "ISS record as JSON, 7 cards played": _record_json(7),
    "every card played": _record_json(30),
}


def _without(obj: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in names}


def _timeless(advice: dict[str, Any]) -> dict[str, Any]:
    """An advice object without its timings (``seconds``, and the honest search's own ``seconds``)."""
    out = _without(advice, "seconds")
    if isinstance(out.get("honest"), dict):
        out["honest"] = _without(out["honest"], "seconds")
    return out


def _cli_json(*args: str) -> dict[str, Any]:
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def _cli_error(*args: str) -> str:
    """The CLI's one-line message for bad input: the text after ``Error:`` on stderr (exit status 2)."""
    result = invoke(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0].removeprefix("Error: ")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server("--workers", "2") as running:
        yield running


# --------------------------------------------------------------------------- the CLI's numbers


@pytest.mark.parametrize("name", list(SOLVE_BODIES))
def test_solve_answers_what_the_cli_prints(server: Server, name: str) -> None:
    body = json.dumps(SOLVE_BODIES[name])
    reply = server.post("/api/solve", body)
    assert reply.status == 200, reply
    assert reply.headers["content-type"] == "application/json"
    cli = _cli_json("solve", body, "--mode", "all", "--json", "--tt-mb", TT)
    assert _without(reply.json(), "seconds") == _without(cli, "seconds")


ADVISE_CASES = {
    "grand from the start": ({"position": _deal_json(DEAL, "grand", 0), "worlds": 30, "seed": 3},
                             [json.dumps(_deal_json(DEAL, "grand", 0)), "--worlds", "30", "--seed", "3"]),
    "ISS record after 7 cards": ({"position": EXAMPLE.read_text(), "after": 7, "worlds": 25, "seed": 2},
                                 [EXAMPLE.read_text(), "--after", "7", "--worlds", "25", "--seed", "2"]),
    "ISS record after 7 cards, weighed by the auction and the play": (
        {"position": EXAMPLE.read_text(), "after": 7, "worlds": 20, "seed": 2, "inference": "all"},
        [EXAMPLE.read_text(), "--after", "7", "--worlds", "20", "--seed", "2", "--inference", "all"]),
    "ISS record after 18 cards, weighed, with the honest search": (
        {"position": EXAMPLE.read_text(), "after": 18, "worlds": 30, "seed": 2, "inference": "all", "honest": True},
        [EXAMPLE.read_text(), "--after", "18", "--worlds", "30", "--seed", "2", "--inference", "all", "--honest"]),
    "ISS record after 21 cards, the honest search over 3 tricks": (
        {"position": EXAMPLE.read_text(), "after": 21, "worlds": 30, "seed": 2, "honest": True, "honest_tricks": 3},
        [EXAMPLE.read_text(), "--after", "21", "--worlds", "30", "--seed", "2", "--honest", "--honest-tricks", "3"]),
    "honest false is the flag not given": ({"position": EXAMPLE.read_text(), "after": 7, "worlds": 10, "honest": False},
                                           [EXAMPLE.read_text(), "--after", "7", "--worlds", "10"]),
    "null, cards played, exact": ({"position": _deal_json(NULL_DEAL, "null", 0), "played": "C7 CA DJ CT HA C9",
                                   "worlds": 5000, "seed": 9},
                                  [json.dumps(_deal_json(NULL_DEAL, "null", 0)), "--played", "C7 CA DJ CT HA C9",
                                   "--worlds", "5000", "--seed", "9"]),
}


@pytest.mark.parametrize("name", list(ADVISE_CASES))
def test_advise_answers_what_the_cli_prints(server: Server, name: str) -> None:
    body, args = ADVISE_CASES[name]
    reply = server.post("/api/advise", body)
    assert reply.status == 200, reply
    cli = _cli_json("advise", *args, "--json", "--jobs", "1", "--tt-mb", TT)
    assert _timeless(reply.json()) == _timeless(cli)


def test_advise_on_the_board_position_weighs_the_records_auction(server: Server) -> None:
    """The board asks on the position /api/board/load answered (the record's auction as its ``bids``) plus the
    cards played: with ``inference`` and ``honest`` that is still the CLI's advice on the record itself."""
    game = server.post("/api/board/load", {"text": RECORD}).json()
    assert game["position"]["bids"][:3] == [[1, "18"], [0, "p"], [2, "20"]]
    for cards, extra, options in (
            (7, {"inference": "bids"}, ["--inference", "bids"]),
            (18, {"inference": "all", "honest": True, "honest_tricks": "4"},
             ["--inference", "all", "--honest", "--honest-tricks", "4"])):
        played = game["line"][:cards]
        body = {"position": game["position"], "played": played, "worlds": 25, "seed": 4, **extra}
        reply = server.post("/api/advise", body)
        assert reply.status == 200, reply
        cli = _cli_json("advise", RECORD, "--played", " ".join(played), "--worlds", "25", "--seed", "4", *options,
                        "--json", "--jobs", "1", "--tt-mb", TT)
        assert _timeless(reply.json()) == _timeless(cli)
        if "honest" not in extra:
            # The auction narrowed the pool; without it (the board's position before) the weights were not the CLI's.
            assert cli["pool_ess"] < cli["pool"]
            bare = server.post("/api/advise", {**body, "position": _without(game["position"], "bids")}).json()
            assert bare["pool_ess"] == bare["pool"] != cli["pool_ess"]


def test_advise_stream_with_honest(server: Server) -> None:
    body, _ = ADVISE_CASES["ISS record after 18 cards, weighed, with the honest search"]
    reply = server.post("/api/advise/stream", body)
    assert reply.status == 200
    result = json.loads(reply.body.decode().splitlines()[-1])["result"]
    plain = server.post("/api/advise", body).json()
    assert _timeless(result) == _timeless(plain) and result["honest"]["best"] == ["HQ"]
    # Refused before any work: an ordinary error answer, the CLI's message.
    refused = server.post("/api/advise/stream", {"position": RECORD, "after": 15, "honest": True})
    assert refused.status == 400
    assert refused.json() == {"error": _cli_error("advise", RECORD, "--after", "15", "--honest")}


def test_advise_does_not_depend_on_the_cli_jobs(server: Server) -> None:
    body, args = ADVISE_CASES["grand from the start"]
    reply = server.post("/api/advise", body)
    cli = _cli_json("advise", *args, "--json", "--jobs", "2", "--tt-mb", TT)
    assert _without(reply.json(), "seconds", "nodes") == _without(cli, "seconds", "nodes")


def test_advise_stream_ends_with_the_same_advice(server: Server) -> None:
    body, _ = ADVISE_CASES["grand from the start"]
    reply = server.post("/api/advise/stream", body)
    assert reply.status == 200 and reply.headers["content-type"].startswith("application/x-ndjson")
    items = [json.loads(line) for line in reply.body.decode().splitlines()]
    progress = [item["progress"] for item in items[:-1]]
    assert progress[0] == {"done": 0, "total": 0}
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    assert progress[-1] == {"done": 30, "total": 30}
    plain = server.post("/api/advise", body).json()
    assert _without(items[-1]["result"], "seconds") == _without(plain, "seconds")


def test_board_line_nodes_are_the_cli_solves(server: Server) -> None:
    game = server.post("/api/board/load", {"text": EXAMPLE.read_text()}).json()
    line = game["line"]
    assert len(line) == 30 and game["info"]["players"] == ["kermit", "bonsai", "kermit:2"]
    reply = server.post("/api/board/line", {"position": game["position"], "line": line, "from": 0})
    nodes = reply.json()["nodes"]
    assert [n["index"] for n in nodes] == list(range(31))
    for k in (0, 1, 5, 17, 29, 30):
        args = ["solve", EXAMPLE.read_text(), "--mode", "all", "--json", "--tt-mb", TT]
        if k:
            args += ["--played", " ".join(line[:k])]
        assert _without(nodes[k]["solve"], "seconds", "nodes") == _without(_cli_json(*args), "seconds", "nodes")
        assert sum(len(h) for h in nodes[k]["hands"]) == 30 - k and len(nodes[k]["trick"]) == k % 3
    assert nodes[30]["over"] and nodes[30]["step"]["winner"] is not None
    # From card 20 on only: the same nodes.
    tail = server.post("/api/board/line", {"position": game["position"], "line": line, "from": 20}).json()["nodes"]
    assert [_without(n, "solve") for n in tail] == [_without(n, "solve") for n in nodes[20:]]


# --------------------------------------------------------------------------- bad input: 400 and the CLI's message


def _broken(**changes: Any) -> str:
    obj = _deal_json(DEAL, "grand", 0)
    obj.update(changes)
    return json.dumps(obj)


SOLVE_ERRORS = {
    "malformed JSON": '{"game": "grand", "declarer": 0, "hands": [',
    "11 cards": _broken(hands=["CJ SJ HA HT HK DA DT D9 D8 D7 DK", "CA CT CK CQ C9 SA ST SK SQ S9",
                               "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7"], skat="DQ"),
    "a card twice": _broken(skat="DK CJ"),
    "unknown card": _broken(skat="DK XX"),
    "illegal card": _broken(played="HA S9 HJ"),
    "unknown game": _broken(game="bridge"),
    "seat out of range": _broken(declarer=5),
    "nested too deeply": '{"game": "grand", "hands": ' + "[" * 20000 + "]" * 20000 + "}",
    "a 5000-digit number": '{"game": "grand", "declarer": 0, "declarer_points": ' + "9" * 5000 + "}",
    "hands not a list": '{"hands": "CJ"}',
}


@pytest.mark.parametrize("name", list(SOLVE_ERRORS))
def test_solve_bad_input_gets_400_and_the_cli_message(server: Server, name: str) -> None:
    body = SOLVE_ERRORS[name]
    reply = server.post("/api/solve", body)
    assert reply.status == 400, reply
    assert reply.json() == {"error": _cli_error("solve", body, "--mode", "all", "--json")}


RECORD = EXAMPLE.read_text()
ADVISE_ERRORS = {
    "malformed ISS record": ({"position": "(;GM[Skat]ID[1]P0[a]MV[w XX.YY 1 p];)"}, ["(;GM[Skat]ID[1]P0[a]MV[w XX.YY 1 p];)"]),
    "worlds 0": ({"position": RECORD, "worlds": 0}, [RECORD, "--worlds", "0"]),
    "seed not a number": ({"position": RECORD, "seed": "abc"}, [RECORD, "--seed", "abc"]),
    "after past the play": ({"position": RECORD, "after": 99}, [RECORD, "--after", "99"]),
    "illegal played card": ({"position": RECORD, "played": "CJ"}, [RECORD, "--played", "CJ"]),
    "unknown game": ({"position": json.loads(_broken()), "game": "bridge"}, [_broken(), "--game", "bridge"]),
    "game over": ({"position": RECORD, "after": 30}, [RECORD, "--after", "30"]),
    "unknown inference": ({"position": RECORD, "inference": "magic"}, [RECORD, "--inference", "magic"]),
    "honest on a defender's move": ({"position": RECORD, "after": 16, "honest": True},
                                    [RECORD, "--after", "16", "--honest"]),
    "honest with five cards left": ({"position": RECORD, "after": 15, "honest": True},
                                    [RECORD, "--after", "15", "--honest"]),
    "honest_tricks below the cards left": ({"position": RECORD, "after": 18, "honest": True, "honest_tricks": 3},
                                           [RECORD, "--after", "18", "--honest", "--honest-tricks", "3"]),
    "honest_tricks out of range": ({"position": RECORD, "after": 18, "honest": True, "honest_tricks": 9},
                                   [RECORD, "--after", "18", "--honest", "--honest-tricks", "9"]),
    "honest_tricks not a number": ({"position": RECORD, "honest": True, "honest_tricks": "four"},
                                   [RECORD, "--honest", "--honest-tricks", "four"]),
    "honest_tricks without honest": ({"position": RECORD, "after": 18, "honest_tricks": 3},
                                     [RECORD, "--after", "18", "--honest-tricks", "3"]),
    "honest_tricks with honest false": ({"position": RECORD, "after": 18, "honest": False, "honest_tricks": 3},
                                        [RECORD, "--after", "18", "--honest-tricks", "3"]),
}


@pytest.mark.parametrize("name", list(ADVISE_ERRORS))
def test_advise_bad_input_gets_400_and_the_cli_message(server: Server, name: str) -> None:
    body, args = ADVISE_ERRORS[name]
    reply = server.post("/api/advise", body)
    assert reply.status == 400, reply
    # Less the usage line the CLI adds to a usage error: a request has no command line.
    message = re.sub(r" \(usage: .*\)$", "", _cli_error("advise", *args, "--json", "--jobs", "1"))
    assert reply.json() == {"error": message}


@pytest.mark.parametrize("body, message", [
    ("", "malformed JSON: Expecting value"),
    ("[1]", "the request body must be a JSON object"),
    ('{"worlds": 5}', "field 'position' is missing"),
    ('{"position": 5}', "field 'position' must be a JSON position object or the text of an ISS record"),
    ('{"position": {}, "wrolds": 5}', "unknown field 'wrolds'"),
    ('{"position": {}, "worlds": [5]}', "field 'worlds' must be a number or a string"),
    ('{"position": {}, "worlds": true}', "field 'worlds' must be a number or a string"),
    ('{"position": {}, "honest": "yes"}', "field 'honest' must be true or false, got \"yes\""),
    ('{"position": {}, "honest": 1}', "field 'honest' must be true or false, got 1"),
    ('{"position": {}, "honest": true, "honest_tricks": true}', "field 'honest_tricks' must be a number or a string"),
    ('{"position": {"hands": []}, "worlds": 5001}', "--worlds 5001: this server solves at most 5000 worlds a request"),
])
def test_advise_request_shape(server: Server, body: str, message: str) -> None:
    reply = server.post("/api/advise", body)
    assert reply.status == 400 and message in reply.json()["error"], reply


def test_bodies_over_the_cap_get_413(server: Server) -> None:
    cap = server.status()["max_body"]
    big = '{"game": "grand", "id": "' + "x" * cap + '"}'
    for path in ("/api/solve", "/api/advise", "/api/advise/stream", "/api/board/load", "/api/board/line"):
        reply = server.post(path, big)
        assert reply.status == 413 and "larger than this server's limit" in reply.json()["error"], (path, reply)
    # Without a Content-Length (chunked): cut off once the cap is passed, the rest never read.
    reply = server.request("POST", "/api/solve", iter([b"{" + b" " * 8192] * (cap // 8192 + 2)), chunked=True)
    assert reply.status == 413
    assert server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"])).status == 200


def test_body_not_utf8(server: Server) -> None:
    reply = server.post("/api/solve", b'{"game": "\xff"}')
    assert reply.status == 400 and reply.json()["error"].startswith("the request body is not UTF-8 text")


def test_no_file_a_client_names_is_read(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(SOLVE_BODIES["grand deal"]))
    assert _cli_json("solve", str(path), "--json")["value"] == 120  # the CLI reads it...
    for name in (str(path), "/etc/passwd", "../../../etc/passwd", str(tmp_path)):
        solve = server.post("/api/solve", name)
        assert solve.status == 400, solve
        assert solve.json()["error"] == "the request body must be a JSON position object, as 'skatdd solve' reads it"
        advise = server.post("/api/advise", {"position": name})
        assert advise.status == 400 and "the server reads no files" in advise.json()["error"]
        load = server.post("/api/board/load", {"text": name, "game": "grand", "declarer": 0})
        assert load.status == 400
        message = load.json()["error"]
        assert message.startswith("deal ") and not any(word in message for word in ("exist", "directory", "cannot read"))
    # ...and the server says the same of a path whether it exists or not: the deal text reader's own words.
    before = server.post("/api/board/load", {"text": str(path), "game": "grand", "declarer": 0}).json()
    path.unlink()
    after = server.post("/api/board/load", {"text": str(path), "game": "grand", "declarer": 0}).json()
    assert before == after


def test_wrong_routes_and_methods_answer_json(server: Server) -> None:
    reply = server.get("/api/solve")
    assert reply.status == 405 and "use POST" in reply.json()["error"]
    reply = server.post("/", "{}")
    assert reply.status == 405
    reply = server.get("/api/nothing")
    assert reply.status == 404 and reply.json() == {"error": "no such page or endpoint: /api/nothing"}
    reply = server.get("/static/../../pyproject.toml")
    assert reply.status == 404


def test_foreign_host_header_is_refused(server: Server) -> None:
    reply = server.get("/api/status", headers={"Host": "evil.example:8000"})
    assert reply.status == 400 and "addressed to" in reply.json()["error"]
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "[::1]"):
        assert server.get("/api/status", headers={"Host": host}).status == 200, host


def test_security_headers_and_a_page_without_inline_script(server: Server) -> None:
    page = server.get("/")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp
    text = page.body.decode()
    assert text.count("<script") == 2
    assert '<script type="application/json" id="page-data">' in text and '<script src="/static/board.js">' in text
    for path in ("/static/board.js", "/static/board.css", "/api/status"):
        reply = server.get(path)
        assert reply.status == 200 and reply.headers["x-content-type-options"] == "nosniff", path
    assert ".card.s-h" in server.get("/static/board.css").body.decode()  # the report's card drawing


def test_text_from_a_record_is_data(server: Server) -> None:
    record = RECORD.replace("P0[kermit]", "P0[<script>alert(1)</script>]").replace(
        "P1[bonsai]", 'P1[<img src=x onerror="alert(2)">]')
    reply = server.post("/api/board/load", {"text": record})
    assert reply.status == 200
    assert reply.json()["info"]["players"][:2] == ["<script>alert(1)</script>", '<img src=x onerror="alert(2)">']
    assert reply.headers["content-type"] == "application/json"


def test_board_load_deals_and_text(server: Server) -> None:
    realistic = server.post("/api/board/load", {"deal": "realistic", "seed": 7}).json()
    again = server.post("/api/board/load", {"deal": "realistic", "seed": 7}).json()
    assert realistic == again and realistic["line"] == [] and realistic["info"]["title"] == "Realistic deal, seed 7"
    dealt = server.post("/api/board/load", {"deal": "random", "seed": 7, "game": "null"}).json()
    assert dealt["position"]["game"] == "null" and dealt["position"]["hand"] is True
    text = server.post("/api/board/load", {"text": DEAL, "game": "spades", "declarer": "M"}).json()
    assert text["position"]["game"] == "spades" and text["position"]["declarer"] == 1
    missing = server.post("/api/board/load", {"text": DEAL})
    assert missing.status == 400 and missing.json()["error"] == _cli_error("solve", DEAL)
    assert server.post("/api/board/load", {"deal": "fair", "seed": 1}).status == 400
    assert server.post("/api/board/load", {"deal": "random", "seed": 1.5}).status == 400


def test_board_line_refuses_illegal_cards(server: Server) -> None:
    game = server.post("/api/board/load", {"text": DEAL, "game": "grand", "declarer": 0}).json()
    reply = server.post("/api/board/line", {"position": game["position"], "line": ["HA", "CJ"]})
    assert reply.status == 400 and reply.json()["error"].startswith("line card 2 'CJ'"), reply
    reply = server.post("/api/board/line", {"position": game["position"], "line": ["HA"], "from": 2})
    assert reply.status == 400 and "field 'from'" in reply.json()["error"]


def test_random_hostile_bodies_never_get_500(server: Server) -> None:
    """200 seeded mutations of good bodies to every endpoint: 200, 400 or 413, never anything else."""
    rng = random.Random(25)
    game = server.post("/api/board/load", {"text": RECORD}).json()
    seeds = {
        "/api/solve": json.dumps(SOLVE_BODIES["diamonds by forehand, 3 cards played"]),
        "/api/advise": json.dumps({"position": _record_json(20), "worlds": 3}),
        "/api/board/load": json.dumps({"text": RECORD}),
        "/api/board/line": json.dumps({"position": game["position"], "line": game["line"][:12], "from": 10}),
    }
    alphabet = '{}[]",:0123456789abcdefghijklmnopqrstuvwxyzCSHDJTQKA7 \\\n\x00\u00e9\ud7ff<>'
    seen = set()
    for i in range(200):
        path = rng.choice(list(seeds))
        body = list(seeds[path])
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(body))
            kind = rng.random()
            if kind < 0.4:
                body[at] = rng.choice(alphabet)
            elif kind < 0.7:
                del body[at]
            else:
                body.insert(at, rng.choice(alphabet))
        reply = server.post(path, "".join(body).encode("utf-8", "surrogatepass"))
        assert reply.status in (200, 400, 413), (i, path, reply)
        assert isinstance(reply.json(), dict)
        seen.add(reply.status)
    assert seen >= {200, 400}
    assert "Traceback" not in server.stderr()


# --------------------------------------------------------------------------- a server under pressure


#: Many seconds of work (a close game at trick 1): never finished in the tests, always stopped.
SLOW = {"position": RECORD, "worlds": 5000, "seed": 1}


def _send_and_hold(server: Server, path: str, body: dict[str, Any]) -> socket.socket:
    """Send a request and keep the connection open without reading the answer (close it to go away)."""
    payload = json.dumps(body).encode()
    sock = socket.create_connection((server.host, server.port), timeout=30)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
    return sock


@pytest.mark.parametrize("path", ["/api/advise", "/api/advise/stream"])
def test_full_pool_answers_503_and_a_client_that_leaves_frees_its_worker(path: str) -> None:
    with running_server("--workers", "1", "--queue", "0") as server:
        held = _send_and_hold(server, path, SLOW)
        try:
            wait_until(lambda: server.status()["busy"] == 1, 30, "the slow request on the worker")
            reply = server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"]))
            assert reply.status == 503 and reply.headers["retry-after"] == "1"
            assert "every worker is busy" in reply.json()["error"]
        finally:
            held.close()
        # The job is stopped when its client goes: the worker is replaced and the pool is whole again.
        status = server.wait_idle()
        assert status["replaced"] == 1 and status["busy"] == 0
        assert server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"])).status == 200


def test_waiting_room_is_bounded() -> None:
    with running_server("--workers", "1", "--queue", "1") as server:
        held = [_send_and_hold(server, "/api/advise", SLOW)]
        try:
            wait_until(lambda: server.status()["busy"] == 1, 30, "the slow request on the worker")
            held.append(_send_and_hold(server, "/api/solve", SOLVE_BODIES["grand deal"]))
            wait_until(lambda: server.status()["waiting"] == 1, 30, "one request waiting")
            reply = server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"]))
            assert reply.status == 503
        finally:
            for sock in held:
                sock.close()
        assert server.wait_idle()["waiting"] == 0


def test_time_limit_answers_503_and_replaces_the_worker() -> None:
    with running_server("--workers", "1", "--time-limit", "1") as server:
        reply = server.post("/api/advise", SLOW, timeout=60)
        assert reply.status == 503, reply
        assert reply.json() == {"error": "the request was not done within the server's time limit of 1 s"}
        assert "retry-after" not in reply.headers
        assert server.wait_idle()["replaced"] == 1
        assert server.post("/api/solve", json.dumps(SOLVE_BODIES["grand deal"])).status == 200


def test_load_on_the_loopback() -> None:
    """240 requests from 24 threads at once on 2 workers and 4 waiting places: each answered, 200 or 503 only."""
    bodies = [json.dumps(body) for body in SOLVE_BODIES.values()]
    expected = {body: _without(_cli_json("solve", body, "--mode", "all", "--json"), "seconds", "nodes")
                for body in bodies}
    with running_server("--workers", "2", "--queue", "4", "--time-limit", "120") as server:
        game = server.post("/api/board/load", {"text": RECORD}).json()
        line = json.dumps({"position": game["position"], "line": game["line"], "from": 0})

        def one(i: int) -> tuple[int, bool]:
            if i % 4 == 3:
                reply = server.post("/api/board/line", line, timeout=120)
                return reply.status, reply.status != 200 or len(reply.json()["nodes"]) == 31
            body = bodies[i % len(bodies)]
            reply = server.post("/api/solve", body, timeout=120)
            return reply.status, reply.status != 200 or _without(reply.json(), "seconds", "nodes") == expected[body]

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=24) as pool:
            results = list(pool.map(one, range(240)))
        elapsed = time.monotonic() - started
        statuses = [status for status, _ in results]
        assert len(results) == 240 and set(statuses) <= {200, 503}, statuses
        assert all(correct for _, correct in results)
        assert statuses.count(200) >= 8
        status = server.wait_idle()
        assert status["busy"] == 0 and status["waiting"] == 0 and status["replaced"] == 0
        print(f"load: {statuses.count(200)} answered, {statuses.count(503)} refused (503) in {elapsed:.1f} s")


# --------------------------------------------------------------------------- the command


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_everything_and_exit_0(sig: int) -> None:
    with running_server("--workers", "2") as server:
        family = descendants(server.proc.pid)
        assert len(family) >= 2  # at least the workers
        held = _send_and_hold(server, "/api/advise", SLOW)  # a job in the middle of a search
        wait_until(lambda: server.status()["busy"] == 1, 30, "the slow request on a worker")
        assert stop(server.proc, sig) == 0
        # The job in flight was answered at once, not left to the shutdown's grace period.
        answer = b""
        while chunk := held.recv(65536):
            answer += chunk
        held.close()
        assert answer.startswith(b"HTTP/1.1 503") and b"the server is shutting down" in answer, answer
        wait_until(lambda: not any(alive(pid) for pid in family), 20, "every process of the server gone")
        assert "skatdd serve: stopped" in server.stderr() and "Traceback" not in server.stderr()


def test_serve_option_errors() -> None:
    proc = run_skatdd("serve", "--port", "70000", timeout=60)
    assert proc.returncode == 2 and "Error: Invalid value for '--port'" in proc.stderr
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        proc = run_skatdd("serve", "--port", str(port), timeout=60)
    finally:
        taken.close()
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ") and proc.stderr.count("\n") == 1


@pytest.mark.parametrize(("host", "words"), [("x" * 5000, ["'xxx", "(5000 characters)", "not a host name"]),
                                             ("a" * 64 + ".example", ["not a host name", "idna"]),
                                             ("nohost.invalid", ["unknown host"])])
def test_serve_bad_host_is_one_line(host: str, words: list[str]) -> None:
    """A host name the IDNA codec cannot encode was a UnicodeError traceback, exit 1."""
    proc = run_skatdd("serve", "--host", host, "--port", "0", timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --host ") and len(lines[0]) < 300, lines
    assert all(word in lines[0] for word in words), lines[0]


def test_missing_dependencies_are_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from skatdd.cli import main

    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "0"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: skatdd serve needs starlette and uvicorn") and "pip install 'skatdd[serve]'" in err


def test_requests_in_flight_when_stopping_get_no_500() -> None:
    """Requests arriving while the server stops are answered or refused, never with a server error."""
    with running_server("--workers", "1") as server:
        answers: list[int] = []

        def hammer() -> None:
            for _ in range(20):
                try:
                    answers.append(server.post("/api/solve", json.dumps(SOLVE_BODIES["null"]), timeout=10).status)
                except (OSError, http.client.HTTPException):  # refused or cut off: the server is gone
                    return

        thread = threading.Thread(target=hammer)
        thread.start()
        time.sleep(0.2)
        stop(server.proc)
        thread.join(30)
        assert not thread.is_alive() and set(answers) <= {200, 503}, answers
