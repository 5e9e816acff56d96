"""The board's decisions review in headless Chromium (as tests/test_serve_browser.py; skipped without it).

The example record loaded on a running server, its decisions reviewed at a small budget from the page:
the tables show what ``board_review`` answers (the same object as ``analyse --json``'s ``decisions``),
each decision with its alternatives; a dealt game says it has no auction.
"""
from __future__ import annotations

import json
from typing import Any

from serve_helpers import Server
from skatdd.serve.review import board_review
from test_html_browser import screenshot
from test_serve_browser import RECORD, board, driver, load_record, wait_until  # noqa: F401  (fixtures)


def _review(driver: Any, skats: int, worlds: int) -> None:  # noqa: F811
    for name, value in (("review-skats", skats), ("review-worlds", worlds)):
        box = driver.find_element("id", name)
        box.clear()
        box.send_keys(str(value))
    driver.find_element("id", "review-start").click()


def test_the_board_reviews_the_decisions_of_a_loaded_record(driver: Any, board: Server) -> None:  # noqa: F811
    load_record(driver, board)
    _review(driver, 2, 3)
    wait_until(lambda: bool(driver.find_elements("id", "review-verdict")), 120, "the review")
    expected = board_review(json.dumps({"text": RECORD, "skats": 2, "worlds": 3}))["decisions"]
    rows = driver.find_elements("css selector", "#review-bidding tbody tr")
    assert [r.find_elements("tag name", "td")[5].text for r in rows] == [b["text"] for b in expected["bidding"]]
    pickup = driver.find_elements("css selector", "#review-pickup tbody tr")
    assert len(pickup) == len(expected["pickup"]["alternatives"])
    declared = driver.find_elements("css selector", "#review-declaration tbody tr")
    assert len(declared) == len(expected["declaration"]["alternatives"])
    assert sum(r.text.startswith("played") for r in declared) == 1
    assert driver.find_element("id", "review-verdict").text.lower() == expected["summary"]["verdict"]
    driver.execute_script("document.getElementById('decisions-box').scrollIntoView()")
    screenshot(driver, "serve-board-decisions.png")


def test_a_dealt_game_has_no_auction_to_review(driver: Any, board: Server) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    driver.get(board.url)
    Select(driver.find_element("id", "deal-kind")).select_by_value("random")
    driver.find_element("id", "deal-button").click()
    wait_until(lambda: not driver.find_element("id", "game").get_attribute("hidden"), 60, "the dealt game")
    _review(driver, 1, 1)
    assert "no auction" in driver.find_element("id", "review-status").text
