"""The decisions panel of a game page in headless Chromium (as tests/test_html_browser.py; skipped without it).

The page of examples/game.iss with its decisions review at a small budget: the panel is drawn above the
trick viewer, with no script error, and says what the JSON says; a screenshot goes with the others.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_html_browser import SHOTS, driver, open_page, screenshot  # noqa: F401  (driver: the shared fixture)

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "game.iss"
BUDGET = ("--bid-skats", "2", "--bid-worlds", "4", "--jobs", "1")


def test_the_decisions_panel_above_the_trick_viewer(driver: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    page = tmp_path / "game.html"
    run = subprocess.run([sys.executable, "-m", "skatdd", "analyse", str(GAME), *BUDGET, "--json", "--html", str(page)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    decisions = json.loads(run.stdout)["decisions"]
    open_page(driver, page)
    panel = driver.find_element(By.ID, "decisions")
    viewer = driver.find_element(By.ID, "viewer-game")
    assert panel.is_displayed() and panel.location["y"] < viewer.location["y"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#decisions-bidding tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[5].text for r in rows] == [b["text"] for b in decisions["bidding"]]
    played = driver.find_element(By.CSS_SELECTOR, "#decisions-declaration tr.best-row")
    assert "diamonds" in played.text and "played" in played.text
    verdict = driver.find_element(By.ID, "decisions-verdict").text
    assert verdict.lower() == decisions["summary"]["verdict"]
    screenshot(driver, "game-decisions.png")
    assert (SHOTS / "game-decisions.png").exists()
