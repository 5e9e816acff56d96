"""``skatdd match`` and ``skatdd.match``: the referee of duplicate matches (skatdd.play.match).

* ``dd`` against ``dd`` ends every deal with its double-dummy value, both games;
* every game played replays legally through the rules (Position) and its
  record is what the scoring module gives, for generated deals, ISS records
  and JSON deals (hand, ouvert, announced levels);
* the same seed gives the same lines and summary whatever ``--jobs`` (and on
  a Dask cluster), and the Python API gives the command's records;
* a player that raises, answers an illegal card or times out fails its deal
  alone; exit statuses; ``--resume``; Ctrl-C keeps the finished deals;
* the plug-in example of docs/cli.md (which the README points to) runs as printed.
"""
from __future__ import annotations

import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import skatdd
from cli_runner import ROOT, default_ctrl_c, run_skatdd
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.solve import Solver
from skatdd.play.deals import MatchDeal, deal_from_json_line, generated_deal
from skatdd.play.summary import PairedMean, t_quantile
from skatdd.tools.generate import realistic_deal

ISS_GAMES = ROOT / "tests" / "data" / "iss-games.txt"
TT = ("--tt-mb", "16")


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def json_deal(rng_seed: int, game: Game | None = None, **declaration: Any) -> dict[str, Any]:
    """A realistic deal (its contract forced to *game*) as a match JSON deal, with *declaration* flags."""
    import random

    pos, meta = realistic_deal(random.Random(rng_seed), game=game)
    decl = Declaration(pos.game, **declaration)
    skat = mask_of(parse_cards(meta["skat"]))
    hands = list(pos.hands)
    hands[pos.declarer] = mask_of(parse_cards(meta["declarer_hand12"])) & ~skat
    deal = MatchDeal(f"json-{rng_seed}", pos.declarer, decl, (hands[0], hands[1], hands[2]), skat,
                     None if decl.hand else mask_of(parse_cards(meta["discard"])))
    return deal.to_json()


@pytest.fixture(scope="module")
def mixed_deals() -> list[dict[str, Any]]:
    """JSON deals of every kind: nulls (plain, hand, ouvert), hand games, schneider/schwarz announced, ouvert."""
    return [
        json_deal(1, Game.NULL), json_deal(2, Game.NULL, hand=True), json_deal(3, Game.NULL, ouvert=True),
        json_deal(4, Game.HEARTS, hand=True), json_deal(5, Game.GRAND, hand=True, schneider=True),
        json_deal(6, Game.CLUBS, hand=True, schwarz=True), json_deal(7, Game.GRAND, ouvert=True),
    ]


# --------------------------------------------------------------------------- dd against dd


def test_dd_against_dd_gives_every_deals_double_dummy_value(mixed_deals: list[dict[str, Any]]) -> None:
    deals: list[Any] = [generated_deal(11, i) for i in range(1, 11)] + mixed_deals[:4]
    result = skatdd.match("dd", "dd", deals, seed=3)
    solver = Solver(tt_mb=32)
    kinds = set()
    for record in result.records:
        deal = deal_from_json_line(record)
        start = deal.start_position()
        first, second = record["games"]
        assert first["cards"] == second["cards"] and record["edge"] == {"score": 0, "tournament": 0}
        kinds.add(deal.game.is_null)
        if deal.game.is_null:
            assert first["won"] == second["won"] == record["dd_wins"] == solver.declarer_wins(start)
        else:
            assert first["declarer_points"] == second["declarer_points"] == record["dd_value"] == solver.value(start)
        assert all(cost == 0 for game in record["games"] for cost in game["costs"])
    assert kinds == {True, False}
    assert result.summary.cheats == ["A", "B"] and result.summary.deals == len(deals)


# --------------------------------------------------------------------------- every game replays and scores


def check_record(record: dict[str, Any]) -> None:
    """Replay both games of a record through the rules and score them with the scoring module."""
    deal = deal_from_json_line(record)
    assert record["hands"] == [str(skatdd.CardSet(h)) for h in deal.hands]
    results = []
    for number, game in enumerate(record["games"], start=1):
        assert game["declarer_player"] == ("A" if number == 1 else "B")
        pos: Position = deal.start_position()
        for code in game["cards"]:
            assert not pos.is_over() and not deal.declaration.decided(pos.declarer_tricks, pos.defender_tricks)
            pos.play(skatdd.parse_card(code))  # raises for an illegal card
        assert pos.is_over() or deal.declaration.decided(pos.declarer_tricks, pos.defender_tricks)
        points = pos.declarer_points + skatdd.CardSet(pos.skat).points()
        score = score_game(deal.declaration, matadors=matadors(deal.game, deal.twelve), points=points,
                           tricks=pos.declarer_tricks, bid=deal.bid)
        assert (game["declarer_points"], game["declarer_tricks"]) == (points, pos.declarer_tricks)
        assert (game["won"], game["score"], game["tournament"]) == (score.declarer_wins, score.score, score.seeger)
        assert game["defender_tournament"] == (40 if not score.declarer_wins else 0)
        assert len(game["costs"]) == len(game["cards"]) and all(c >= 0 for c in game["costs"])
        assert game["cost"]["declarer"]["cards"] + game["cost"]["defenders"]["cards"] == len(game["cards"])
        results.append(game)
    first, second = results
    a_total = first["tournament"] + 2 * second["defender_tournament"]
    b_total = second["tournament"] + 2 * first["defender_tournament"]
    assert record["edge"] == {"score": first["score"] - second["score"], "tournament": a_total - b_total}


def test_every_game_replays_legally_and_is_scored_by_the_scoring_module(mixed_deals: list[dict[str, Any]]) -> None:
    iss = [line for line in ISS_GAMES.read_text().splitlines() if line.strip()]
    deals: list[Any] = [generated_deal(2, i) for i in range(1, 9)] + mixed_deals + iss
    result = skatdd.match("heuristic", "random", deals, seed=5)
    played = [r for r in result.records if "games" in r]
    skipped = [r for r in result.records if "skipped" in r]
    assert len(played) + len(skipped) == len(deals) and skipped and not result.failed
    for record in played:
        check_record(record)
    # ISS deals carry the record's auction and bid; a passed game is skipped.
    first_iss = next(r for r in played if r["id"] == "541932")
    assert first_iss["bids"] == [[1, "p"], [2, "18"], [0, "p"]] and first_iss["bid"] == 18
    assert first_iss["skat"] == "CK H8" and first_iss["discard"] == "ST H8"  # picked up H8 CK, put away ST H8


# --------------------------------------------------------------------------- reproducible


def test_the_same_seed_gives_the_same_output_whatever_jobs(tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        proc = run_skatdd("match", "pimc:4", "random", "--deals", "4", "--seed", "9", "--jobs", jobs, "-o", str(out),
                          "--json", *TT)
        assert proc.returncode == 0, proc.stderr
        outputs.append((out.read_text(), json.loads(proc.stdout)))
    assert outputs[0] == outputs[1]
    api = skatdd.match("pimc:4", "random", 4, seed=9)
    assert api.records == lines_of(outputs[0][0]) and api.summary.to_json() == outputs[0][1]
    other = skatdd.match("pimc:4", "random", 4, seed=10)
    assert [r["games"] for r in other.records] != [r["games"] for r in api.records]


def test_jobs_none_means_every_core_as_in_the_other_entry_points() -> None:
    """docs/python.md: ``jobs=None`` is every core for every entry point; ``match`` raised a TypeError."""
    one = skatdd.match("heuristic", "random", 2, seed=3, jobs=1)
    every = skatdd.match("heuristic", "random", 2, seed=3, jobs=None)
    assert [r["edge"] for r in every.records] == [r["edge"] for r in one.records]


def test_a_dask_cluster_gives_the_same_output(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    proc = run_skatdd("match", "heuristic", "random", "--deals", "3", "--dask", "local:1", "-o", str(out), *TT)
    assert proc.returncode == 0, proc.stderr
    assert lines_of(out.read_text()) == skatdd.match("heuristic", "random", 3).records


# --------------------------------------------------------------------------- failing players


BOTS = textwrap.dedent('''
    import time


    class Flaky:
        """Fails in every deal whose declarer is forehand."""

        def play(self, state):
            if state.declarer == 0:
                raise RuntimeError("no idea")
            return state.legal[0]


    class Cheat:
        def play(self, state):
            return "XX" if state.trick_number == 2 else state.legal[0]


    class Illegal:
        def play(self, state):
            lead = state.trick[0] if state.trick else None
            if lead is not None and len(state.legal) < len(state.hand):
                return next(c for c in state.hand if c not in state.legal)
            return state.legal[0]


    class Slow:
        def play(self, state):
            if state.trick_number == 3:
                time.sleep(5)
            return state.legal[0]


    class Chatty:
        def play(self, state):
            print("thinking about", state)
            return state.legal[0]


    def flaky(seat, seed):
        return Flaky()


    def cheat(seat, seed):
        return Cheat()


    def illegal(seat, seed):
        return Illegal()


    def slow(seat, seed):
        return Slow()


    def chatty(seat, seed):
        return Chatty()
''')


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bots") / "testbots.py"
    path.write_text(BOTS)
    return path


def test_a_failing_player_fails_its_deal_alone(bots: Path, tmp_path: Path) -> None:
    out = tmp_path / "flaky.jsonl"
    proc = run_skatdd("match", f"{bots}:flaky", "random", "--deals", "8", "--jobs", "2", "-o", str(out), *TT)
    assert proc.returncode == 1, proc.stderr
    assert "deals failed" in proc.stderr.splitlines()[-1]
    records = lines_of(out.read_text())
    assert len(records) == 8
    for record in records:
        if record["declarer"] == 0:
            assert record["failed"]["player"] == "A" and "RuntimeError: no idea" in record["failed"]["message"]
            assert "games" not in record
        else:
            check_record(record)
    failed = sum("failed" in r for r in records)
    assert 0 < failed < 8 and f"({failed} failed)" in proc.stdout


@pytest.mark.parametrize(("bot", "message"), [
    ("cheat", "returned 'XX', which is no card"),
    ("illegal", "which is not a legal card"),
    ("slow", "took more than 0.5 s over one card"),
])
def test_illegal_cards_and_timeouts_fail_the_deal(bots: Path, bot: str, message: str) -> None:
    proc = run_skatdd("match", "random", f"{bots}:{bot}", "--deals", "2", "--jobs", "1", "--timeout", "0.5", *TT)
    records = lines_of(proc.stdout)
    assert proc.returncode == 1 and len(records) == 2
    assert all(message in r["failed"]["message"] for r in records), records[0].get("failed")
    assert all(r["failed"]["player"] == "B" for r in records)


def test_what_a_player_prints_does_not_reach_the_records(bots: Path) -> None:
    proc = run_skatdd("match", f"{bots}:chatty", "random", "--deals", "2", "--jobs", "1", *TT)
    assert proc.returncode == 0, proc.stderr
    assert len(lines_of(proc.stdout)) == 2 and "thinking about" in proc.stderr


# --------------------------------------------------------------------------- files of deals, bad input, resume


def test_a_file_of_deals_with_a_bad_line(tmp_path: Path, mixed_deals: list[dict[str, Any]]) -> None:
    path = tmp_path / "deals.jsonl"
    withbids = dict(mixed_deals[3], bids=[[1, "18"], [0, "p"], [2, "p"]], bid=18)
    path.write_text("\n".join([json.dumps(mixed_deals[0]), '{"id": "bad", "game": "grand"}', "",
                               json.dumps(withbids), ISS_GAMES.read_text().splitlines()[3]]) + "\n")
    out = tmp_path / "out.jsonl"
    proc = run_skatdd("match", "heuristic", "heuristic", "--deals", str(path), "-o", str(out), "--json", *TT)
    assert proc.returncode == 2, proc.stderr
    records = lines_of(out.read_text())
    assert [sorted(set(r) & {"games", "error", "skipped"}) for r in records] == [["games"], ["error"], ["games"],
                                                                                  ["skipped"]]
    assert records[1]["line"] == 2 and "hands" in records[1]["error"]
    assert records[2]["bids"] == [[1, "18"], [0, "p"], [2, "p"]] and records[2]["hand"] is True
    summary = json.loads(proc.stdout)
    assert (summary["deals"], summary["errors"], summary["skipped"]) == (2, 1, 1)


@pytest.mark.parametrize(("args", "token"), [
    (("nosuchplayer", "random", "--deals", "2"), "'nosuchplayer'"),
    (("pimc:0", "random", "--deals", "2"), "'pimc:0'"),
    (("random", "random", "--deals", "0"), "'0'"),
    (("random", "random", "--deals", "no/such/file.jsonl"), "no/such/file.jsonl"),
    (("random", "random", "--deals", "2", "--json"), "--json"),
    (("random", "random", "--deals", "2", "--timeout", "0"), "--timeout"),
    (("random", "random", "--deals", "2", "--resume"), "--resume"),
])
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], token: str) -> None:
    proc = run_skatdd("match", *args)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    error = proc.stderr.strip().splitlines()[-1]  # after Click's usage lines for a bad option
    assert error.startswith("Error: ") and token in error, proc.stderr


def test_resume_continues_and_refuses_another_match(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    args = ("match", "heuristic", "random", "--deals", "5", "--seed", "4", *TT)
    proc = run_skatdd(*args, "-o", str(whole), "--json")
    assert proc.returncode == 0, proc.stderr
    part = tmp_path / "part.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:2]) + lines[2][:40])  # two whole lines and a torn one
    (tmp_path / "part.jsonl.run.json").write_bytes((tmp_path / "whole.jsonl.run.json").read_bytes())  # the run record
    resumed = run_skatdd(*args, "-o", str(part), "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_text() == whole.read_text() and json.loads(resumed.stdout) == json.loads(proc.stdout)
    before = part.read_text()
    other = run_skatdd("match", "random", "heuristic", "--deals", "5", "--seed", "4", "-o", str(part), "--resume", *TT)
    assert other.returncode == 2 and "not this run's output" in other.stderr and part.read_text() == before


def test_ctrl_c_keeps_the_finished_deals(tmp_path: Path) -> None:
    out = tmp_path / "interrupted.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "skatdd", "match", "pimc:20", "heuristic", "--deals", "60",
                             "--jobs", "1", "-o", str(out), *TT], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_ctrl_c)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 1):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    text = out.read_text()
    assert text.endswith("\n") and 1 <= len(lines_of(text)) < 60
    assert all("games" in r for r in lines_of(text)) and "Interrupted" in stderr
    assert "played twice" in stdout  # the summary of the deals finished


# --------------------------------------------------------------------------- the summary


def test_the_interval_is_the_paired_t_interval() -> None:
    values = [3.0, -1.0, 4.0, 1.5, 9.0, -2.6, 5.0]
    mean = PairedMean()
    for v in values:
        mean.add(v)
    half = 2.446912 * statistics.stdev(values) / math.sqrt(len(values))  # t(0.975, 6)
    assert mean.mean == pytest.approx(statistics.mean(values))
    assert mean.ci == pytest.approx((statistics.mean(values) - half, statistics.mean(values) + half), rel=1e-4)
    for df, exact in ((1, 12.7062), (5, 2.570582), (11, 2.200985), (9, 2.262157), (29, 2.045230), (200, 1.971896)):
        assert t_quantile(df) == pytest.approx(exact, abs=1e-4)
    one = PairedMean()
    one.add(1.0)
    assert one.ci is None and one.to_json() == {"mean": 1.0, "ci": None}


def test_the_summary_adds_up_the_records() -> None:
    result = skatdd.match("heuristic", "random", 12, seed=8)
    summary = result.summary.to_json()
    edges = [r["edge"]["score"] for r in result.records]
    assert summary["deals"] == 12 and summary["edge"]["score"]["mean"] == pytest.approx(statistics.mean(edges), abs=1e-4)
    a_games = [g for r in result.records for g in r["games"] if g["declarer_player"] == "A"]
    assert summary["a"]["win_rate"] == pytest.approx(sum(g["won"] for g in a_games) / 12, abs=1e-4)
    assert sum(summary["by_game"][k]["deals"] for k in ("grand", "suit", "null")) == 12
    costs = [(game["cost"]["declarer" if game["declarer_player"] == "A" else "defenders"]) for r in result.records
             if r["game"] != "null" for game in r["games"]]
    mean_cost = sum(c["total"] for c in costs) / sum(c["cards"] for c in costs)
    assert summary["a"]["dd_cost"]["all"] == pytest.approx(mean_cost, abs=1e-4)


# --------------------------------------------------------------------------- the README's plug-in


def match_section() -> str:
    """docs/cli.md's ``skatdd match`` section, its example included."""
    doc = (ROOT / "docs" / "cli.md").read_text()
    section = doc[doc.index("### `skatdd match "):]
    return section[:section.index("\n## ", 5)]


def readme_plugin() -> str:
    """The plug-in example of docs/cli.md's ``skatdd match`` section (the first Python block there)."""
    return re.findall(r"```python\n(.*?)```", match_section(), flags=re.S)[0]


def test_the_readme_plug_in_example_runs(tmp_path: Path) -> None:
    code = readme_plugin()
    assert len([line for line in code.splitlines() if line.strip()]) <= 10  # "a complete ten-line example"
    match = re.search(r"skatdd match (\S+):(\w+) (\S+) --deals (\d+)", match_section())
    assert match is not None
    module, factory = match.group(1), match.group(2)
    (tmp_path / f"{module}.py").write_text(code)
    proc = subprocess.run([sys.executable, "-m", "skatdd", "match", f"{module}:{factory}", match.group(3),
                           "--deals", "3", "--jobs", "1"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0, proc.stderr
    assert len(lines_of(proc.stdout)) == 3 and "played twice" in proc.stderr


@pytest.mark.parametrize("deals", [-1, -10**9])
def test_a_negative_number_of_deals_is_refused(deals: int) -> None:
    with pytest.raises(ValueError, match=f"at least 0, a path or the deals themselves, not {deals}"):
        skatdd.match("random", "random", deals)
