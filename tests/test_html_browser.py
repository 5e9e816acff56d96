"""The HTML reports in a real browser: headless Chromium driven by Selenium, pages opened from disk.

Chromium and its driver come from Debian (``chromium``, ``chromium-driver``);
the driver is started from /usr/bin/chromedriver (no Selenium Manager, no
network).  Without them the tests are skipped, except under CI (``CI`` set),
where a missing browser fails.  Screenshots go to ``$SKATDD_SCREENSHOTS``,
else ``$ARTIFACTS/screenshots``, else /tmp/skatdd-screenshots; the folder is
printed.

Checked against the analysis JSON (``--json`` of the same run) and an
independent replay of the record: the header, the start position, every
card stepped through with the keyboard (the trick on the table, the values
and costs), the buttons and slider, a click and Enter on a chart mark, the
colour switch, a narrow window, the print layout, the archive index (sorting,
links, skipped and bad records) and the ``best`` page.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from html_cases import null_game_json, with_single_dummy
from skatdd.analysis.analyse.api import analyse_text
from skatdd.core.cards import card_name
from skatdd.core.position import Position
from skatdd.core.rules import SEAT_NAMES
from skatdd.formats.iss import parse_iss
from skatdd.present.html import GameFacts, game_page, write_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "game.iss"
FIXTURES = ROOT / "tests" / "data" / "iss-games.txt"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _screenshot_dir() -> Path:
    if os.environ.get("SKATDD_SCREENSHOTS"):
        return Path(os.environ["SKATDD_SCREENSHOTS"])
    if os.environ.get("ARTIFACTS"):
        return Path(os.environ["ARTIFACTS"]) / "screenshots"
    return Path("/tmp/skatdd-screenshots")


SHOTS = _screenshot_dir()


@pytest.fixture(scope="module")
def driver(pytestconfig: pytest.Config) -> Iterator[Any]:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.exists(p) or shutil.which(Path(p).name))]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium")
    if missing:
        message = f"browser tests need {', '.join(missing)} (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message + ": missing under CI")
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if os.path.exists(CHROMIUM) else str(shutil.which("chromium"))
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900",
                "--allow-file-access-from-files"):
        options.add_argument(arg)
    service = Service(CHROMEDRIVER if os.path.exists(CHROMEDRIVER) else str(shutil.which("chromedriver")))
    browser = webdriver.Chrome(service=service, options=options)
    SHOTS.mkdir(parents=True, exist_ok=True)
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():  # shown even though pytest captures output
        print(f"\nbrowser screenshots: {SHOTS}")
    try:
        yield browser
    finally:
        browser.quit()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT)


def open_page(driver: Any, path: Path, width: int = 1200) -> None:
    driver.set_window_size(width, 900)
    driver.get(path.resolve().as_uri())
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def screenshot(driver: Any, name: str) -> None:
    """A screenshot of the whole page (the window is stretched to its height)."""
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height + 120, 6000))
    driver.save_screenshot(str(SHOTS / name))
    driver.set_window_size(width, 900)


STATE_JS = """
const root = document.getElementById(arguments[0]);
const hands = {};
root.querySelectorAll('[data-role=hands] [data-seat]').forEach(box => {
  hands[box.dataset.seat] = Array.from(box.querySelectorAll('[data-card]')).map(c => c.dataset.card);
});
const numbers = {};
const dts = root.querySelectorAll('[data-role=numbers] dt');
dts.forEach(dt => { numbers[dt.textContent] = dt.nextElementSibling.textContent; });
return {
  title: root.querySelector('[data-role=title]').textContent,
  slider: root.querySelector('input[type=range]').value,
  hands: hands,
  trick: Array.from(root.querySelectorAll('[data-role=trick] [data-card]')).map(c => c.dataset.card),
  winner: root.querySelector('[data-role=winner]').textContent,
  numbers: numbers,
  live: root.querySelector('[data-role=live]').textContent,
  best: Array.from(root.querySelectorAll('[data-role=hands] .card.best')).map(c => c.dataset.card),
};
"""


def state(driver: Any, viewer: str = "viewer-game") -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(STATE_JS, viewer)
    return result


def press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def expected_tables(start: Position, cards: list[int]) -> list[tuple[list[str], list[list[str]]]]:
    """Independent replay: per card, the trick on the table after it and the hands still held."""
    pos = start.copy()
    out = []
    for card in cards:
        table = [*pos.trick, card]
        pos.play(card)
        hands = [sorted(card_name(c) for c in range(32) if h >> c & 1) for h in pos.hands]
        out.append(([card_name(c) for c in table], hands))
    return out


@pytest.fixture(scope="module")
def example_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    path = tmp_path_factory.mktemp("html") / "game.html"
    proc = run("analyse", str(EXAMPLE), "--json", "--html", str(path), "--bid-skats", "2", "--bid-worlds", "3")
    assert proc.returncode == 0, proc.stderr
    return path, json.loads(proc.stdout)


def test_game_page_header_and_start(driver: Any, example_page: tuple[Path, dict[str, Any]]) -> None:
    path, analysis = example_page
    open_page(driver, path)
    find = driver.find_element
    record = parse_iss(EXAMPLE.read_text())
    assert "8650652" in find("id", "title").text
    players = find("id", "players").text
    assert all(f"{SEAT_NAMES[s]} {name}" in players for s, name in enumerate(record.players))
    contract = find("id", "contract").text
    assert contract.startswith("Diamonds") and "declarer rearhand (kermit:2)" in contract and "bid 36" in contract
    assert "score -72" in find("id", "result").text and "overbid" in find("id", "result").text
    assert str(analysis["start_value"]) in find("id", "start-value").text
    # The hands at the start, in the static block and in the viewer.
    starts = [sorted(card_name(c) for c in range(32) if h >> c & 1) for h in record.start_hands()]
    s = state(driver)
    assert [sorted(s["hands"][str(seat)]) for seat in range(3)] == starts
    assert s["title"].startswith("Before the first card") and s["trick"] == []
    assert s["numbers"]["double-dummy value"] == str(analysis["start_value"])
    discard = driver.find_elements("css selector", '#discard [data-card]')
    assert sorted(e.get_attribute("data-card") for e in discard) == sorted(card_name(c) for c in record.discard)
    # Text alternatives for the suit symbols.
    label = driver.find_element("css selector", '#viewer-game [data-card="HT"] .sr-only').get_attribute("textContent")
    assert label == "10 of hearts"
    costs = driver.find_elements("css selector", "#costs tbody td.num")
    assert [int(c.text) for c in costs] == analysis["summary"]["costs"]
    assert "grand" in driver.find_element("id", "review").text


def test_game_page_keyboard_through_the_whole_game(driver: Any, example_page: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, analysis = example_page
    open_page(driver, path)
    record = parse_iss(EXAMPLE.read_text())
    cards = [c for _, c in record.plays]
    expected = expected_tables(record.start_position(), cards)
    plays = analysis["plays"]
    for k in range(1, len(cards) + 1):
        press(driver, Keys.ARROW_RIGHT)
        s = state(driver)
        table, hands = expected[k - 1]
        play = plays[k - 1]
        assert s["slider"] == str(k)
        assert s["title"].startswith(f"Card {k} of {len(cards)}, trick {play['trick']}: {SEAT_NAMES[play['seat']]}")
        assert s["trick"] == table, k
        assert [sorted(s["hands"][str(seat)]) for seat in range(3)] == hands, k
        assert s["numbers"]["double-dummy before"] == str(play["value_before"])
        assert s["numbers"]["double-dummy after"] == str(play["value_after"])
        assert s["numbers"]["cost"] == str(play["cost"])
        if play["cost"]:
            # The better cards are highlighted in the hand of the player who erred.
            assert sorted(s["best"]) == sorted(set(play["best"]) - {play["card"]})
        assert (len(table) == 3) == bool(s["winner"])
    assert "takes the trick" in state(driver)["winner"]
    press(driver, Keys.ARROW_RIGHT)  # past the end: stays on the last card
    assert state(driver)["slider"] == str(len(cards))
    press(driver, Keys.HOME)
    assert state(driver)["slider"] == "0"
    press(driver, Keys.END)
    assert state(driver)["slider"] == str(len(cards))
    press(driver, Keys.PAGE_UP)
    assert state(driver)["slider"] == str(len(cards) - 3)
    press(driver, Keys.ARROW_LEFT)
    s = state(driver)
    assert s["slider"] == str(len(cards) - 4) and "Card 26" in s["live"]


def test_game_page_controls_marks_and_layouts(driver: Any, example_page: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, analysis = example_page
    open_page(driver, path)
    find = driver.find_element
    # The buttons, reached and pressed with the keyboard alone.
    nxt = find("css selector", '#viewer-game button[data-go="next"]')
    nxt.click()
    nxt.send_keys(Keys.ENTER)
    assert state(driver)["slider"] == "2"
    find("css selector", '#viewer-game button[data-go="last"]').click()
    assert state(driver)["slider"] == str(len(analysis["plays"]))
    slider = find("css selector", "#viewer-game input[type=range]")
    slider.send_keys(Keys.HOME)
    assert state(driver)["slider"] == "0"
    slider.send_keys(Keys.ARROW_RIGHT)
    assert state(driver)["title"].startswith("Card 1 of")
    # Every costly card has a mark; clicking one moves the viewer there.
    costly = [i + 1 for i, p in enumerate(analysis["plays"]) if p["cost"] > 0]
    marks = driver.find_elements("css selector", "circle.mark.dd")
    assert [int(m.get_attribute("data-step")) for m in marks] == costly
    target = marks[0]
    target.click()
    step = int(target.get_attribute("data-step"))
    s = state(driver)
    assert s["slider"] == str(step) and s["title"].startswith(f"Card {step} of")
    assert s["numbers"]["cost"] == str(analysis["plays"][step - 1]["cost"])
    cursor = find("css selector", "line.cursor")
    assert float(cursor.get_attribute("x1")) > float(find("css selector", "svg").get_attribute("data-x0"))
    marks[-1].send_keys(Keys.ENTER)
    assert state(driver)["slider"] == str(costly[-1])
    marks[0].click()
    # The table's "show card" buttons.
    find("css selector", '#plays button[data-step="7"]').click()
    assert state(driver)["slider"] == "7"
    assert find("css selector", '#plays tr.current').get_attribute("data-step") == "7"
    # Four-colour switch: spades turn green.
    spade = find("css selector", '#viewer-game .card.s-s')
    two_colour = spade.value_of_css_property("color")
    find("id", "four-colour").click()
    assert "four-colour" in find("tag name", "body").get_attribute("class")
    assert spade.value_of_css_property("color") != two_colour
    screenshot(driver, "analyse-game.png")
    driver.set_window_size(1100, 1800)  # the top of the page, with a mistake on show: README's picture
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(SHOTS / "analyse-game-top.png"))
    # A narrow window: nothing sticks out sideways, the board stacks.
    open_page(driver, path, width=420)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    screenshot(driver, "analyse-game-narrow.png")
    # Printed: hands, chart and the full table, no viewer.
    driver.set_window_size(1200, 900)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not find("id", "viewer-game").is_displayed()
        assert find("css selector", "figure.chart svg").is_displayed()
        rows = driver.find_elements("css selector", "#plays tbody tr[data-step]")
        assert len(rows) == len(analysis["plays"]) and rows[-1].is_displayed()
        assert find("css selector", ".hands [data-seat='0']").is_displayed()
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_single_dummy_series_in_the_browser(driver: Any, tmp_path: Path) -> None:
    analysis = analyse_text(EXAMPLE.read_text(), review=False)
    data = with_single_dummy(analysis.to_json())
    path = tmp_path / "sd.html"
    write_text(path, game_page(data, GameFacts.of_analysis(analysis)))
    open_page(driver, path)
    assert len(driver.find_elements("css selector", "polyline.series")) == 2
    marks = driver.find_elements("css selector", "circle.mark.sd")
    assert len(marks) == sum(1 for p in data["plays"] if p["sd_cost"]["win"] > 0)
    marks[0].click()
    step = int(marks[0].get_attribute("data-step"))
    s = state(driver)
    play = data["plays"][step - 1]
    assert s["slider"] == str(step)
    assert s["numbers"]["single-dummy win"] == f"{round(100 * play['sd_win'])}%"
    assert s["numbers"]["single-dummy cost"] == "25% win, 4.0 points"
    assert s["numbers"]["cost"] == str(play["cost"])  # both costs per card
    headers = [th.text for th in driver.find_elements("css selector", "#costs th")]
    assert any("single-dummy" in h for h in headers)
    screenshot(driver, "analyse-single-dummy.png")


def test_null_game_page(driver: Any, tmp_path: Path) -> None:
    path = tmp_path / "null.html"
    game = tmp_path / "null.json"
    game.write_text(null_game_json())
    proc = run("analyse", str(game), "--json", "--html", str(path))
    assert proc.returncode == 0, proc.stderr
    analysis = json.loads(proc.stdout)
    open_page(driver, path)
    labels = [t.text for t in driver.find_elements("css selector", "figure.chart text")]
    assert "win" in labels and "loss" in labels and "61" not in labels
    mark = driver.find_element("css selector", "circle.mark.dd")
    mark.click()
    step = int(mark.get_attribute("data-step"))
    play = analysis["plays"][step - 1]
    s = state(driver)
    assert s["numbers"]["double-dummy before"] == ("win" if play["value_before"] else "loss")
    assert s["numbers"]["double-dummy after"] == ("win" if play["value_after"] else "loss")
    assert s["numbers"]["cost"] == "1"
    screenshot(driver, "analyse-null.png")


def test_archive_index(driver: Any, tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text(FIXTURES.read_text().rstrip("\n") + "\n(;GM[Skat]ID[broken]MV[w XX];)\n")
    folder = tmp_path / "pages"
    proc = run("analyse", str(games), "--no-review", "--jobs", "2", "--html", str(folder))
    assert proc.returncode == 2, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    open_page(driver, folder / "index.html")
    rows = driver.find_elements("css selector", "#games tbody tr")
    assert len(rows) == len(records)
    statuses = {r.get_attribute("data-line"): r.get_attribute("class") for r in rows}
    for number, record in enumerate(records, start=1):
        kind = "error" if "error" in record else "skipped" if "skipped" in record else "analysed"
        assert statuses[str(number)] == f"status-{kind}"

    def column(index: int) -> list[str]:
        return [r.find_elements("tag name", "td")[index].text for r in driver.find_elements("css selector", "#games tbody tr")]

    score_head = driver.find_elements("css selector", "#games thead th")[5]
    score_head.find_element("tag name", "button").click()
    assert score_head.get_attribute("aria-sort") == "ascending"
    scores = [int(v) for v in column(5) if v.lstrip("-").isdigit()]
    assert scores == sorted(scores) and len(scores) == sum(1 for r in records if "plays" in r)
    score_head.find_element("tag name", "button").click()
    scores = [int(v) for v in column(5) if v.lstrip("-").isdigit()]
    assert scores == sorted(scores, reverse=True)
    # Unanalysed lines stay at the bottom either way.
    statuses_sorted = [r.get_attribute("class") for r in driver.find_elements("css selector", "#games tbody tr")]
    assert "status-analysed" not in statuses_sorted[-3:]
    driver.find_elements("css selector", "#games thead th")[0].find_element("tag name", "button").click()
    assert column(0) == [str(n) for n in range(1, len(records) + 1)]
    screenshot(driver, "archive-index.png")
    # A link opens the game's page.
    driver.find_element("link text", "8650652").click()
    assert "8650652" in driver.find_element("id", "title").text
    assert state(driver)["title"].startswith("Before the first card")


def test_best_page(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    path = tmp_path / "best.html"
    proc = run("best", str(ROOT / "examples" / "deal.txt"), "--json", "--html", str(path))
    assert proc.returncode == 0, proc.stderr
    seats = json.loads(proc.stdout)["seats"]
    open_page(driver, path)
    tables = driver.find_elements("css selector", "table.options")
    assert len(tables) == 3
    for table, seat in zip(tables, seats, strict=True):
        rows = table.find_elements("css selector", "tbody tr")
        assert len(rows) == len(seat["options"])
        best_rows = [i for i, r in enumerate(rows) if "best-row" in (r.get_attribute("class") or "")]
        assert len(best_rows) == 1
        assert rows[best_rows[0]].find_elements("tag name", "td")[-1].text.lstrip("+") == str(seat["best"]["score"])
    # The forehand's best line, stepped with the keyboard inside its viewer.
    seat = seats[0]
    line = seat["best"]["line"]
    hands = [sorted(h.split()) for h in (ROOT / "examples" / "deal.txt").read_text().split("/")]
    viewer = driver.find_element("id", "viewer-seat0")
    button = viewer.find_element("css selector", 'button[data-go="next"]')
    button.click()
    s = state(driver, "viewer-seat0")
    assert s["trick"] == [line[0]] and s["numbers"]["double-dummy value"] == str(seat["best"]["value"])
    for _ in range(len(line)):
        button.send_keys(Keys.ARROW_RIGHT)
    s = state(driver, "viewer-seat0")
    assert s["slider"] == str(len(line)) and s["trick"] == line[-3:]
    assert all(not cards for cards in s["hands"].values())
    button.send_keys(Keys.HOME)
    s = state(driver, "viewer-seat0")
    # Forehand's hands at the start of his best game: his twelve cards minus the discard (hand game: as dealt).
    discard = seat["best"]["discard"] or hands[3]
    expected = [sorted(set(hands[0] + hands[3]) - set(discard)), hands[1], hands[2]]
    assert [sorted(s["hands"][str(k)]) for k in range(3)] == expected
    # The other viewers did not move.
    assert state(driver, "viewer-seat1")["slider"] == "0"
    screenshot(driver, "best.png")
