"""Tests for the HTML reports (skatdd.present.html) without a browser: data, files, command line.

* a page's embedded data is the command's JSON (``--json`` and the page never
  disagree) and the trick viewer's steps replay the game independently;
* the chart: one series, or two with single-dummy fields; marks on exactly
  the costly cards; the null chart on a 0..1 axis;
* text that could end the data element (``</script>``) is escaped;
* ``analyse --html`` (one game, a file of games with passed and bad records,
  a folder for one game), ``best --html``, and a clear exit 2 for a path that
  cannot be written.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from html_cases import null_game_json, with_single_dummy
from skatdd.analysis.analyse.api import analyse_text
from skatdd.core.cards import card_name, parse_card
from skatdd.engine.solve import Solver
from skatdd.formats.iss import parse_iss
from skatdd.present.html import GameFacts, game_page
from skatdd.present.html.archive import ArchivePages, page_name
from skatdd.present.html.render import card_label, chart, play_steps, series_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "game.iss"
FIXTURES = ROOT / "tests" / "data" / "iss-games.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT)


def page_data(html: str) -> dict[str, Any]:
    """The JSON a page's script reads."""
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "no page data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


@pytest.fixture(scope="module")
def example() -> tuple[dict[str, Any], GameFacts]:
    analysis = analyse_text(EXAMPLE.read_text(), solver=Solver(tt_mb=32))
    return analysis.to_json(), GameFacts.of_analysis(analysis)


def test_card_label() -> None:
    assert card_label(parse_card("HT")) == "10 of hearts"
    assert card_label(parse_card("CJ")) == "jack of clubs"
    assert card_label(parse_card("D7")) == "7 of diamonds"


def test_page_data_is_the_json_and_steps_replay_the_game(example: tuple[dict[str, Any], GameFacts]) -> None:
    analysis, facts = example
    data = page_data(game_page(analysis, facts))
    assert data["analysis"] == json.loads(json.dumps(analysis))
    viewer = data["viewers"][0]
    record = parse_iss(EXAMPLE.read_text())
    starts = record.start_hands()
    assert [set(h) for h in viewer["hands"]] == [{card_name(c) for c in range(32) if m >> c & 1} for m in starts]
    assert viewer["plays"] == analysis["plays"]
    steps = viewer["steps"]
    assert [s["card"] for s in steps] == [card_name(c) for _, c in record.plays]
    assert [s["seat"] for s in steps] == [seat for seat, _ in record.plays]
    assert [s["trick"] for s in steps] == [p["trick"] for p in analysis["plays"]]
    # Every third card closes a trick; its table holds the trick's three cards and the points add up to 120.
    closed = [s for s in steps if s["winner"] is not None]
    assert len(closed) == 10 and all(len(s["table"]) == 3 for s in closed)
    skat = sum((0, 0, 0, 10, 2, 3, 4, 11)[c & 7] for c in record.discard or [])
    assert sum(s["points"] for s in closed) + skat == 120
    assert steps[-1]["total"] == analysis["result"]["declarer_points"]
    assert steps[-1]["tricks"][0] == analysis["result"]["declarer_tricks"]


def test_play_steps_leave_the_start_alone(example: tuple[dict[str, Any], GameFacts]) -> None:
    _, facts = example
    before = facts.start.copy()
    play_steps(facts.start, [parse_card("HT"), parse_card("H9")])
    assert facts.start.hands == before.hands and not facts.start.trick


def test_chart_marks_exactly_the_costly_cards(example: tuple[dict[str, Any], GameFacts]) -> None:
    analysis, _ = example
    series = series_of(analysis)
    assert [s.key for s in series] == ["dd"]
    assert series[0].values == [analysis["start_value"]] + [p["value_after"] for p in analysis["plays"]]
    geometry = chart(series, analysis["plays"], null=False)
    marked = [m["step"] for m in geometry["lines"][0]["marks"]]
    assert marked == [i + 1 for i, p in enumerate(analysis["plays"]) if p["cost"] > 0]
    assert {g["label"] for g in geometry["guides"]} >= {"30", "61", "90"}


def test_single_dummy_is_a_second_series(example: tuple[dict[str, Any], GameFacts]) -> None:
    analysis, facts = example
    sd = with_single_dummy(analysis)
    series = series_of(sd)
    assert [s.key for s in series] == ["dd", "sd"]
    assert series[1].values[0] is None
    assert series[1].values[1:] == [p["value_after"] - 2.5 for p in analysis["plays"]]
    assert series[1].mistakes == [i % 5 == 4 for i in range(len(analysis["plays"]))]
    html = game_page(sd, facts)
    assert html.count('class="series ') == 2
    assert html.count('class="mark sd"') == sum(series[1].mistakes)
    assert "sd win" in html and "single-dummy cost" in html
    # Without the fields there is no trace of them.
    plain = game_page(analysis, facts)
    body = plain[plain.index("<main>"):plain.index("</main>")]
    assert 'class="series sd"' not in body and "single-dummy" not in body


def test_null_chart_is_win_or_loss() -> None:
    analysis = analyse_text(null_game_json(), solver=Solver(tt_mb=16), review=False)
    data = analysis.to_json()
    series = series_of(data)
    assert set(series[0].values) <= {0, 1}
    geometry = chart(series, data["plays"], null=True)
    assert [g["label"] for g in geometry["guides"]] == ["win", "50%", "loss"]
    assert geometry["win_y"] is None
    html = game_page(data, GameFacts.of_analysis(analysis))
    assert 'class="mark dd"' in html
    sd = series_of(with_single_dummy(data))[1]
    assert sd.values[1:] == [p["sd_win"] for p in with_single_dummy(data)["plays"]]


def test_script_end_in_text_is_escaped(example: tuple[dict[str, Any], GameFacts]) -> None:
    analysis, facts = example
    evil = dict(analysis, id="</script><b>x</b>")
    facts = GameFacts(evil["id"], facts.source, ("<i>kermit</i>", "b", "c"), facts.declarer, facts.declaration,
                      facts.bid, facts.discard, facts.start)
    html = game_page(evil, facts)
    assert "</script><b>" not in html and "<i>kermit</i>" not in html
    assert page_data(html)["analysis"]["id"] == "</script><b>x</b>"


def test_page_name() -> None:
    assert page_name(7, "8650652") == "line-7-8650652.html"
    assert page_name(3, "a/b c") == "line-3-a-b-c.html"
    assert page_name(2, None) == "line-2.html"


def test_cli_one_game(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    proc = run("analyse", str(EXAMPLE), "--json", "--no-review", "--html", str(out), "--four-colour")
    assert proc.returncode == 0, proc.stderr
    assert f"HTML report: {out}" in proc.stderr
    html = out.read_text()
    assert page_data(html)["analysis"]["plays"] == json.loads(proc.stdout)["plays"]
    assert '<body class="four-colour">' in html
    assert "http://" not in html and "https://" not in html and "<link" not in html  # nothing fetched
    # A folder for one game: its page plus an index.
    proc = run("analyse", str(EXAMPLE), "--no-review", "--html", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "line-1-8650652.html").exists() and (tmp_path / "index.html").exists()


def test_cli_file_of_games(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    lines = [*FIXTURES.read_text().splitlines()[:5], "(;GM[Skat]ID[broken]MV[w XX.YY];)", null_game_json()]
    games.write_text("\n".join(lines) + "\n")
    folder = tmp_path / "pages"
    proc = run("analyse", str(games), "--no-review", "--jobs", "2", "--html", str(folder))
    assert proc.returncode == 2  # the bad record, after everything else
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(records) == 7 and records[-1]["id"] == "null-demo"  # a JSON game gets its page too
    index = (folder / "index.html").read_text()
    for number, record in enumerate(records, start=1):
        row = re.search(rf'<tr class="status-(\w+)" data-line="{number}">', index)
        assert row, number
        if "error" in record:
            assert row.group(1) == "error"
        elif "skipped" in record:
            assert row.group(1) == "skipped"
            assert not list(folder.glob(f"line-{number}-*.html"))
        else:
            assert row.group(1) == "analysed"
            page = folder / page_name(number, record["id"])
            assert f'href="{page.name}"' in index
            assert page_data(page.read_text())["analysis"] == record
    assert "everyone passed" in index


def test_cli_best(tmp_path: Path) -> None:
    out = tmp_path / "best.html"
    proc = run("best", str(ROOT / "examples" / "deal.txt"), "--declarer", "M", "--json", "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    data = page_data(out.read_text())
    assert data["best"] == [json.loads(proc.stdout)]
    viewer = data["viewers"][0]
    assert [p["card"] for p in viewer["plays"]] == data["best"][0]["best"]["line"]


def test_cli_unwritable_path_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = run("analyse", str(EXAMPLE), "--no-review", "--html", str(blocker / "game.html"))
    assert proc.returncode == 2
    assert proc.stderr.startswith("Error: ") and "is not a folder" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    games = tmp_path / "games.txt"
    games.write_text("\n".join(FIXTURES.read_text().splitlines()[:2]) + "\n")
    proc = run("analyse", str(games), "--no-review", "--html", str(blocker))
    assert proc.returncode == 2 and "cannot create the HTML folder" in proc.stderr and "Traceback" not in proc.stderr


def test_index_is_written_when_interrupted(tmp_path: Path) -> None:
    analysis = analyse_text(EXAMPLE.read_text(), solver=Solver(tt_mb=16), review=False)
    with pytest.raises(KeyboardInterrupt), ArchivePages(tmp_path / "out") as pages:
        pages.add_analysis(analysis, line=3)
        raise KeyboardInterrupt
    index = (tmp_path / "out" / "index.html").read_text()
    assert 'data-line="3"' in index and 'href="line-3-8650652.html"' in index
    assert (tmp_path / "out" / "line-3-8650652.html").exists()
    assert not list((tmp_path / "out").glob("*.partial"))
