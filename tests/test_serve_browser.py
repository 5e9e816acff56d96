"""The analysis board of ``skatdd serve`` in a real headless Chromium (Selenium), against the CLI's numbers.

The browser and its driver are the report tests' (tests/test_html_browser.py:
Debian's chromium and chromium-driver; skipped without them, failed under
CI); screenshots go to the same folder.  One server for the module, stopped
at the end.  Checked: a fixture record pasted and stepped through card by
card (the hands, the trick, every legal card's value and the best ones, as
``skatdd solve --mode all --json`` gives them), an alternative card clicked
(a variation in the move list, new values, a new chart line), a link that
reproduces the board (its single-dummy choices too), a seat's view with the other hands face down,
single-dummy values (as ``skatdd advise --json``) with a progress bar and a
cancel button that stops the server's work, the same weighed by the bidding
and the play and with the honest search (the request carries the board's
choices; the answer shown is the CLI's with ``--inference``, ``--honest``), ``<script>`` in player names,
dealing with a seed, uploading a file, and an error message.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_runner import ROOT, invoke
from html_cases import null_game_json
from serve_helpers import Server, running_server, wait_until
from skatdd.core.cards import card_name
from skatdd.formats.iss import parse_iss
from skatdd.tools.generate import realistic_deal
from test_html_browser import SHOTS, driver, expected_tables, screenshot

__all__ = ["driver"]  # the report tests' browser fixture, used here under the same name

EXAMPLE = ROOT / "examples" / "game.iss"
RECORD = EXAMPLE.read_text().strip()
#: The record's cards, in order.
CARDS = [card_name(c) for _, c in parse_iss(RECORD).plays]

STATE_JS = """
const q = (s) => Array.from(document.querySelectorAll(s));
const hands = {};
q('#hands [data-seat]').forEach((box) => {
  hands[box.dataset.seat] = {cards: Array.from(box.querySelectorAll('[data-card]')).map((c) => c.dataset.card),
                             backs: box.querySelectorAll('.card.back').length};
});
const legal = {};
q('#hands button.card.legal').forEach((b) => { legal[b.dataset.card] = b.querySelector('.val').textContent; });
const line = document.querySelector('#chart polyline.dd');
const current = document.querySelector('#moves .move.current');
return {
  title: document.getElementById('step-title').textContent,
  counter: document.getElementById('counter').textContent,
  hands: hands, legal: legal,
  best: q('#hands button.card.best').map((b) => b.dataset.card),
  sdvals: q('#hands button.card .sdval').length,
  trick: q('#trick [data-card]').map((c) => c.dataset.card),
  moves: q('#moves .move').map((m) => m.dataset.path),
  current: current ? current.dataset.path : null,
  variations: q('#moves .variation').length,
  chart: line ? line.getAttribute('points') : null,
  recorded: document.querySelector('#chart polyline.rec') !== null,
  guides: q('#chart text').map((t) => t.textContent),
  status: document.getElementById('status').textContent,
  players: document.getElementById('facts').textContent,
};
"""


@pytest.fixture(scope="module")
def board() -> Iterator[Server]:
    with running_server("--workers", "2") as server:
        yield server


def state(driver: Any) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(STATE_JS)
    return result


def settled(driver: Any) -> dict[str, Any]:
    """The board's state once the node shown and the whole current line are solved (at most 60 s)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d: Any) -> bool:
        return bool(d.execute_script(
            "const t = document.getElementById('step-title').textContent;"
            "return !document.getElementById('game').hidden && t && t.indexOf('solving') < 0 &&"
            " document.querySelectorAll('#hands .val').length === Array.from(document.querySelectorAll('#hands .val'))"
            ".filter((v) => v.textContent !== '…').length && document.getElementById('status').textContent === '';"))

    WebDriverWait(driver, 60, poll_frequency=0.05).until(ready)
    return state(driver)


def open_board(driver: Any, url: str) -> None:
    driver.set_window_size(1280, 1000)
    driver.get(url)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def open_panel(driver: Any) -> None:
    """Open the load panel (it closes once a game is loaded)."""
    driver.execute_script("document.getElementById('load-panel').open = true;")


def paste(driver: Any, text: str) -> None:
    open_panel(driver)
    box = driver.find_element("id", "load-text")
    box.clear()
    driver.execute_script("arguments[0].value = arguments[1];", box, text)  # send_keys of a long record is slow
    driver.find_element("id", "load-button").click()


def press(driver: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(times):
        ActionChains(driver).send_keys(key).perform()


def load_record(driver: Any, board: Server) -> dict[str, Any]:
    """A fresh board with the example record loaded; its state at the start."""
    open_board(driver, board.url)
    paste(driver, RECORD)
    return settled(driver)


def go_to(driver: Any, cards: list[str]) -> dict[str, Any]:
    """Click the move reached by *cards* in the move list; the state there."""
    driver.find_element("css selector", f'#moves .move[data-path="{" ".join(cards)}"]').click()
    return settled(driver)


def play(driver: Any, card: str) -> dict[str, Any]:
    driver.find_element("css selector", f'#hands button.card.legal[data-card="{card}"]').click()
    return settled(driver)


def branch_off(driver: Any, k: int) -> list[str]:
    """After the record's first *k* cards, play another legal card than the record's; the new line."""
    s = go_to(driver, CARDS[:k])
    alternative = next(c for c in sorted(s["legal"]) if c != CARDS[k])
    play(driver, alternative)
    return [*CARDS[:k], alternative]


def cli_solve(played: list[str]) -> dict[str, Any]:
    args = ["solve", RECORD, "--mode", "all", "--json"] + (["--played", " ".join(played)] if played else [])
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def expected_values(cli: dict[str, Any], declarer: int) -> tuple[dict[str, str], list[str]]:
    """Every legal card's value as the board shows it, and the best cards for the side to move."""
    values = {c["card"]: c["value"] for c in cli["cards"]}
    best = max(values.values()) if cli["to_move"] == declarer else min(values.values())
    return {c: str(v) for c, v in values.items()}, sorted(c for c, v in values.items() if v == best)


def test_step_through_a_record_and_branch_off(driver: Any, board: Server) -> None:
    from selenium.webdriver.common.keys import Keys

    s = load_record(driver, board)
    record = parse_iss(RECORD)
    declarer = record.declarer or 0
    tables = expected_tables(record.start_position(), [c for _, c in record.plays])
    assert s["counter"] == "0 / 30" and s["title"].startswith("Start")
    assert "forehand kermit, middlehand bonsai, rearhand kermit:2" in s["players"]
    for k in range(31):
        if k:
            press(driver, Keys.ARROW_RIGHT)
            s = settled(driver)
            table, hands = tables[k - 1]
            assert s["trick"] == table, k
            assert [sorted(s["hands"][str(seat)]["cards"]) for seat in range(3)] == hands, k
            assert s["current"] == " ".join(CARDS[:k])
        assert s["counter"] == f"{k} / 30"
        cli = cli_solve(CARDS[:k])
        if k < 30:
            values, best = expected_values(cli, declarer)
            assert s["legal"] == values, k
            assert sorted(s["best"]) == best, k
        else:
            assert s["legal"] == {} and "the game is over" in s["title"]
    screenshot(driver, "serve-board-record-end.png")
    main_chart = s["chart"]
    assert len(main_chart.split()) == 31 and not s["recorded"]

    # Back to card 4 with the keyboard, then a card the record did not play: a variation.
    press(driver, Keys.HOME)
    press(driver, Keys.ARROW_RIGHT, 4)
    s = settled(driver)
    alternative = next(c for c in sorted(s["legal"]) if c != CARDS[4])
    before = dict(s["legal"])
    s = play(driver, alternative)
    line = [*CARDS[:4], alternative]
    assert s["counter"] == "5 / 5" and s["current"] == " ".join(line)
    assert s["variations"] == 1 and " ".join(line) in s["moves"]
    values, best = expected_values(cli_solve(line), declarer)
    assert s["legal"] == values and sorted(s["best"]) == best and s["legal"] != before
    assert s["recorded"] and s["chart"] != main_chart  # the chart now follows the variation
    # Two more cards in the variation.
    for _ in range(2):
        line.append(sorted(s["legal"])[0])
        s = play(driver, line[-1])
    assert s["current"] == " ".join(line) and s["counter"] == "7 / 7"
    assert len(s["chart"].split()) == 8
    screenshot(driver, "serve-board-variation.png")
    # Back into the main line through the move list.
    s = go_to(driver, CARDS[:10])
    assert s["counter"] == "10 / 30" and not s["recorded"] and s["chart"] == main_chart
    # The variation is still there, and reached again by clicking its last card.
    assert go_to(driver, line)["current"] == " ".join(line)


def test_a_link_reproduces_the_board(driver: Any, board: Server) -> None:
    load_record(driver, board)
    branch_off(driver, 7)
    go_to(driver, CARDS[:3])
    driver.find_element("css selector", "input[name=view][value='2']").click()
    # The single-dummy choices at their defaults are not in the link (a link of the defaults is as before).
    assert not any(f"&{key}=" in driver.current_url for key in ("worlds", "seed", "inference", "honest"))
    set_sd_choices(driver, worlds="30", seed="2", inference="play", honest_tricks="3")
    before = settled(driver)
    link = driver.current_url
    assert "#g=" in link and "&moves=" in link and f"&at={''.join(CARDS[:3])}" in link and "&view=2" in link
    assert "&worlds=30&seed=2&inference=play&honest=3" in link, link
    assert driver.find_element("id", "share-link").get_attribute("href") == link
    driver.get("about:blank")
    driver.get(link)
    after = settled(driver)
    assert after == {**before, "status": after["status"]}
    assert driver.find_element("css selector", "input[name=view][value='2']").is_selected()
    assert sd_choices(driver) == {"worlds": "30", "seed": "2", "inference": "play", "honest": True,
                                  "tricks": "3", "tricks_enabled": True}
    # A link whose choices are no such values gets the defaults, and one without them the defaults too.
    defaults = {"worlds": "200", "seed": "1", "inference": "none", "honest": False, "tricks": "4",
                "tricks_enabled": False}
    for tail in ("&worlds=x&seed=1.5&inference=%3Cb%3E&honest=99", ""):
        driver.get("about:blank")
        driver.get(link.split("&worlds=")[0] + tail)
        settled(driver)
        assert sd_choices(driver) == defaults, tail


def set_sd_choices(driver: Any, *, worlds: str, seed: str, inference: str, honest_tricks: str) -> None:
    """Type the single-dummy choices into the board's controls (the honest endgame with *honest_tricks*)."""
    from selenium.webdriver.support.ui import Select

    for field, value in (("sd-worlds", worlds), ("sd-seed", seed)):
        box = driver.find_element("id", field)
        box.clear()
        box.send_keys(value)
    Select(driver.find_element("id", "sd-inference")).select_by_value(inference)
    driver.find_element("id", "sd-honest").click()
    box = driver.find_element("id", "sd-honest-tricks")
    box.clear()
    box.send_keys(honest_tricks)


def sd_choices(driver: Any) -> dict[str, Any]:
    """What the single-dummy controls hold."""
    tricks = driver.find_element("id", "sd-honest-tricks")
    return {"worlds": driver.find_element("id", "sd-worlds").get_attribute("value"),
            "seed": driver.find_element("id", "sd-seed").get_attribute("value"),
            "inference": driver.find_element("id", "sd-inference").get_attribute("value"),
            "honest": driver.find_element("id", "sd-honest").is_selected(),
            "tricks": tricks.get_attribute("value"), "tricks_enabled": tricks.is_enabled()}


def test_seat_view_shows_the_other_hands_face_down(driver: Any, board: Server) -> None:
    open_view = load_record(driver, board)
    record = parse_iss(RECORD)
    assert record.declarer == 2 and record.declaration is not None and not record.declaration.hand
    driver.find_element("css selector", "input[name=view][value='1']").click()
    s = state(driver)
    assert s["hands"]["1"]["cards"] == open_view["hands"]["1"]["cards"] and s["hands"]["1"]["backs"] == 0
    for seat in ("0", "2"):
        assert s["hands"][seat] == {"cards": [], "backs": 10}
    assert s["hands"]["skat"] == {"cards": [], "backs": 2}  # middlehand does not know the discard
    assert s["legal"] == {}  # forehand is to play, and his hand is hidden
    screenshot(driver, "serve-board-middlehand-view.png")
    driver.find_element("css selector", "input[name=view][value='2']").click()
    s = state(driver)
    assert s["hands"]["skat"]["backs"] == 0 and len(s["hands"]["skat"]["cards"]) == 2  # the declarer's discard
    driver.find_element("css selector", "input[name=view][value='0']").click()
    assert state(driver)["legal"] == open_view["legal"]  # forehand to play sees his own values
    driver.find_element("css selector", "input[name=view][value='open']").click()
    assert state(driver)["hands"] == open_view["hands"]


def sd_rows(driver: Any) -> dict[str, tuple[str, str]]:
    rows = driver.find_elements("css selector", "#sd-table tbody tr")
    return {r.get_attribute("data-card"): (r.find_elements("tag name", "td")[1].text, r.find_elements("tag name", "td")[2].text)
            for r in rows}


def test_single_dummy_values_progress_and_cancel(driver: Any, board: Server) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    load_record(driver, board)
    line = branch_off(driver, 4)  # a variation, then its values
    for field, value in (("sd-worlds", "30"), ("sd-seed", "5")):
        box = driver.find_element("id", field)
        box.clear()
        box.send_keys(value)
    driver.find_element("id", "sd-start").click()
    WebDriverWait(driver, 120, poll_frequency=0.1).until(lambda d: d.find_element("id", "sd-table").is_displayed())
    result = invoke("advise", RECORD, "--played", " ".join(line), "--worlds", "30", "--seed", "5", "--json", "--jobs", "1")
    advice = json.loads(result.stdout)
    expected = {c["card"]: (f"{100 * c['win']:.1f}%", f"{c['mean_value']:.1f}") for c in advice["cards"]}
    assert sd_rows(driver) == expected
    best_rows = [r.get_attribute("data-card") for r in driver.find_elements("css selector", "#sd-table tr.best-row")]
    assert best_rows == advice["best"]
    s = state(driver)
    assert s["sdvals"] == len(s["legal"]) == len(advice["cards"])
    assert "30 of" in driver.find_element("id", "sd-status").text
    screenshot(driver, "serve-board-single-dummy.png")
    # The README's picture (docs/serve.png): the whole page, from its top.
    driver.set_window_size(1200, 900)
    driver.set_window_size(1200, driver.execute_script("return document.documentElement.scrollHeight") + 120)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(SHOTS / "serve-board-readme.png"))
    driver.set_window_size(1280, 1000)

    # A long request: the progress bar moves, Cancel stops it, and the server's worker is freed.
    driver.find_element("css selector", '#moves .move[data-path=""]').click()
    settled(driver)
    box = driver.find_element("id", "sd-worlds")
    box.clear()
    box.send_keys("5000")
    driver.find_element("id", "sd-start").click()
    WebDriverWait(driver, 120, poll_frequency=0.05).until(
        lambda d: d.execute_script("const p = document.getElementById('sd-progress'); return !p.hidden && p.value >= 8;"))
    assert "/ 5000 worlds" in driver.find_element("id", "sd-progress-text").text
    assert board.status()["busy"] >= 1
    screenshot(driver, "serve-board-single-dummy-progress.png")
    driver.find_element("id", "sd-cancel").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "sd-status").text == "Cancelled.")
    assert not driver.find_element("id", "sd-progress").is_displayed()
    assert not driver.find_element("id", "sd-table").is_displayed()
    wait_until(lambda: board.status()["busy"] == 0, 30, "the cancelled request's worker freed")
    assert board.status()["replaced"] >= 1


RECORD_FETCHES_JS = """
window.sentAdvice = [];
const original = window.fetch;
window.fetch = function (url, init) {
  if (String(url).indexOf('/api/advise') >= 0) window.sentAdvice.push(JSON.parse(init.body));
  return original.apply(this, arguments);
};
"""


def sd_table(driver: Any) -> dict[str, list[str]]:
    """Every row of the single-dummy table: the card's code and the text of its cells after the card."""
    return {r.get_attribute("data-card"): [td.text for td in r.find_elements("tag name", "td")[1:]]
            for r in driver.find_elements("css selector", "#sd-table tbody tr")}


def ask_advice(driver: Any) -> dict[str, Any]:
    """Click the single-dummy button and wait for the answer (or the error); the request body the board sent."""
    from selenium.webdriver.support.ui import WebDriverWait

    sent = len(driver.execute_script("return window.sentAdvice"))
    driver.find_element("id", "sd-start").click()
    WebDriverWait(driver, 120, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.getElementById('sd-cancel').hidden"))
    bodies: list[dict[str, Any]] = driver.execute_script("return window.sentAdvice")
    assert len(bodies) == sent + 1
    return bodies[-1]


def test_single_dummy_inference_and_honest_controls(driver: Any, board: Server) -> None:
    from selenium.webdriver.support.ui import Select

    load_record(driver, board)
    go_to(driver, CARDS[:18])  # the declarer to play with four cards: the honest search applies
    driver.execute_script(RECORD_FETCHES_JS)
    for field, value in (("sd-worlds", "30"), ("sd-seed", "2")):
        box = driver.find_element("id", field)
        box.clear()
        box.send_keys(value)
    played = " ".join(CARDS[:18])

    def cli(*options: str) -> dict[str, Any]:
        result = invoke("advise", RECORD, "--played", played, "--worlds", "30", "--seed", "2", *options, "--json",
                        "--jobs", "1")
        assert result.exit_code == 0, result.stderr
        out: dict[str, Any] = json.loads(result.stdout)
        return out

    # By default neither is sent, and the answer is plain advise's.
    assert Select(driver.find_element("id", "sd-inference")).first_selected_option.get_attribute("value") == "none"
    assert not driver.find_element("id", "sd-honest").is_selected()
    assert not driver.find_element("id", "sd-honest-tricks").is_enabled()
    body = ask_advice(driver)
    assert "inference" not in body and "honest" not in body and "honest_tricks" not in body
    plain = cli()
    assert sd_table(driver) == {c["card"]: [f"{100 * c['win']:.1f}%", f"{c['mean_value']:.1f}",
                                            "best" if c["card"] in plain["best"] else ""] for c in plain["cards"]}
    assert not driver.find_element("id", "sd-honest-head").is_displayed()
    assert driver.find_element("id", "sd-honest-status").text == ""
    assert "Weighed" not in driver.find_element("id", "sd-status").text

    # Weighed by the bidding and the play, with the honest search: both sent, and the CLI's answer shown.
    Select(driver.find_element("id", "sd-inference")).select_by_value("all")
    driver.find_element("id", "sd-honest").click()
    assert driver.find_element("id", "sd-honest-tricks").is_enabled()
    body = ask_advice(driver)
    assert (body["inference"], body["honest"], body["honest_tricks"]) == ("all", True, "4")
    advice = cli("--inference", "all", "--honest")
    honest_best = advice["honest"]["best"]
    expected = {c["card"]: [f"{100 * c['win']:.1f}%", f"{c['mean_value']:.1f}", f"{100 * c['honest_win']:.1f}%",
                            ", ".join(([] if c["card"] not in advice["best"] else ["best"]) +
                                      ([] if c["card"] not in honest_best else ["honest best"]))]
                for c in advice["cards"]}
    shown = sd_table(driver)
    assert shown == expected
    assert [row[1] for row in shown.values()] != [f"{c['mean_value']:.1f}" for c in plain["cards"]]  # weighed
    assert driver.find_element("id", "sd-honest-head").is_displayed()
    status = driver.find_element("id", "sd-status").text
    assert (f"Weighed by the bidding and the cards played: effective sample size {advice['ess']:.1f} of 30 worlds"
            in status), status
    honest_text = driver.find_element("id", "sd-honest-status").text
    assert honest_text.startswith("Honest best (at most 4 tricks left;") and "a single-dummy best card too" in honest_text
    screenshot(driver, "serve-board-single-dummy-honest.png")

    # Three tricks at most: the declarer's four cards are too many, and the board shows the CLI's message.
    box = driver.find_element("id", "sd-honest-tricks")
    box.clear()
    box.send_keys("3")
    body = ask_advice(driver)
    assert body["honest_tricks"] == "3"
    result = invoke("advise", RECORD, "--played", played, "--inference", "all", "--honest", "--honest-tricks", "3")
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: " + driver.find_element("id", "sd-status").text
    assert "bad" in driver.find_element("id", "sd-status").get_attribute("class")
    assert not driver.find_elements("css selector", "#sd-table tbody tr")  # the answer before is not left standing
    # The browser logs the refused request (status 400); nothing else went wrong.
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors and all("/api/advise/stream" in m and "400" in m for m in errors), errors


def test_script_in_player_names_stays_text(driver: Any, board: Server) -> None:
    hostile = RECORD.replace("P0[kermit]", "P0[<script>window.pwned=1</script>]").replace(
        "P1[bonsai]", 'P1[<img src=x onerror="window.pwned=2">]')
    open_board(driver, board.url)
    paste(driver, hostile)
    s = settled(driver)
    assert "forehand <script>window.pwned=1</script>" in s["players"]
    assert 'middlehand <img src=x onerror="window.pwned=2">' in s["players"]
    heads = [h.text for h in driver.find_elements("css selector", "#hands h3")]
    assert heads[0] == "forehand (<script>window.pwned=1</script>)"
    assert driver.execute_script("return window.pwned") is None
    assert len(driver.find_elements("tag name", "script")) == 2 and not driver.find_elements("css selector", "main img")
    # The same through a link (which carries the names).
    driver.get("about:blank")
    driver.get(board.url + "#" + driver_hash(driver, board, hostile))
    settled(driver)
    assert driver.execute_script("return window.pwned") is None


def driver_hash(driver: Any, board: Server, record: str) -> str:
    """The address part a board with *record* loaded gets."""
    driver.get(board.url)
    paste(driver, record)
    settled(driver)
    url: str = driver.current_url
    return url.partition("#")[2]


def test_deal_upload_and_errors(driver: Any, board: Server, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    open_board(driver, board.url)
    Select(driver.find_element("id", "deal-kind")).select_by_value("realistic")
    seed = driver.find_element("id", "deal-seed")
    seed.clear()
    seed.send_keys("7")
    driver.find_element("id", "deal-button").click()
    s = settled(driver)
    pos, _ = realistic_deal(random.Random(7))
    assert [sorted(s["hands"][str(k)]["cards"]) for k in range(3)] == [
        sorted(card_name(c) for c in range(32) if h >> c & 1) for h in pos.hands]
    assert driver.find_element("id", "title").text == "Realistic deal, seed 7"
    # A file: a null game, uploaded.
    path = tmp_path / "null.json"
    path.write_text(null_game_json())
    open_panel(driver)
    driver.find_element("id", "load-file").send_keys(str(path))
    s = settled(driver)
    assert set(s["legal"].values()) <= {"win", "loss"} and s["legal"]
    assert {"win", "loss"} <= set(s["guides"]) and "61" not in s["guides"]
    assert s["counter"].endswith(f"/ {len(json.loads(null_game_json())['played'])}")
    screenshot(driver, "serve-board-null.png")
    # Bad input: the CLI's message, and the board stays as it was.
    paste(driver, "CJ SJ HA")
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(lambda d: d.find_element("id", "status").text not in ("", "Loading…"))
    message = driver.find_element("id", "status").text
    result = invoke("solve", "CJ SJ HA")
    assert result.exit_code == 2 and result.stderr.strip() == f"Error: {message}"
    assert state(driver)["hands"] == s["hands"]
