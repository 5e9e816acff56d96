"""``skatdd.analysis.analyse.api.analyse``: one entry point for every form a game comes in, and its errors.

Each form (an IssGame, a record's text, a DealInput, a GameSpec, a JSON
object's text or dict, a Path, a path as text) must give the very analysis
its one-form variant gives; bad input raises a SkatddError whose message
names the offending token (and the file, for a file).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from skatdd.analysis.analyse.api import GameAnalysis, analyse, analyse_iss, analyse_spec
from skatdd.core.cards import format_cards, format_mask
from skatdd.core.errors import DealFormatError, IllegalPlayError, InvalidCardError, SkatddError
from skatdd.engine.solve import Solver
from skatdd.formats.iss import parse_iss
from skatdd.formats.readers import parse_input, position_from_json
from skatdd.tools.generate import realistic_deals

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
RECORD = next(line for line in FIXTURES.read_text().splitlines() if "ID[26496]" in line)
DEAL_TEXT = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"


def comparable(analysis: GameAnalysis) -> dict[str, Any]:
    """The analysis' JSON without the wall-clock time (node counts stay: the same searches must run)."""
    out = analysis.to_json()
    out.pop("seconds")
    if out["contract_review"] is not None:
        out["contract_review"].pop("seconds", None)
    return out


def json_game() -> dict[str, Any]:
    """A whole JSON game: a realistic deal played out along the engine's principal variation."""
    pos = realistic_deals(5, 1)[0]
    line = Solver(tt_mb=16).line(pos)
    return {"id": "pv", "game": pos.game.label, "declarer": pos.declarer,
            "hands": [format_mask(h) for h in pos.hands], "skat": format_mask(pos.skat), "played": format_cards(line)}


@pytest.fixture(scope="module")
def expected_iss() -> dict[str, Any]:
    return comparable(analyse_iss(RECORD, solver=Solver(tt_mb=16), review=False))


@pytest.mark.parametrize("form", ["IssGame", "record text", "record text with comments", "DealInput", "Path",
                                  "path text"])
def test_every_form_of_a_record_gives_the_same_analysis(form: str, expected_iss: dict[str, Any],
                                                        tmp_path: Path) -> None:
    path = tmp_path / "game.iss"
    path.write_text(RECORD + "\n")
    game: Any = {
        "IssGame": parse_iss(RECORD),
        "record text": RECORD,
        "record text with comments": f"# a comment\n\n{RECORD}\n",
        "DealInput": parse_input(RECORD),
        "Path": path,
        "path text": str(path),
    }[form]
    # A fresh solver each time: node counts then match the variant's exactly.
    assert comparable(analyse(game, solver=Solver(tt_mb=16), review=False)) == expected_iss


@pytest.mark.parametrize("form", ["GameSpec", "JSON text", "dict", "DealInput", "Path"])
def test_every_form_of_a_json_game_gives_the_same_analysis(form: str, tmp_path: Path) -> None:
    obj = json_game()
    text = json.dumps(obj)
    expected = comparable(analyse_spec(position_from_json(obj), solver=Solver(tt_mb=16), review=True))
    path = tmp_path / "game.json"
    path.write_text(text)
    game: Any = {"GameSpec": position_from_json(obj), "JSON text": text, "dict": obj, "DealInput": parse_input(text),
                 "Path": path}[form]
    got = comparable(analyse(game, solver=Solver(tt_mb=16), review=True))
    assert got == expected
    assert got["contract_review"] is not None and got["plays"]


def test_the_default_solver_and_review() -> None:
    analysis = analyse(RECORD)
    assert analysis.review is not None and analysis.result.score == parse_iss(RECORD).result.value


@pytest.mark.parametrize(("game", "error", "token"), [
    (42, DealFormatError, "42"),
    (None, DealFormatError, "None"),
    (["CJ"], DealFormatError, "['CJ']"),
    (DEAL_TEXT, DealFormatError, "CJ SJ HA"),          # deal text holds no play
    (parse_input(DEAL_TEXT), DealFormatError, "deal text"),
    ("no-such-game.iss", DealFormatError, "no-such-game.iss"),
    (Path("no/such/game.json"), DealFormatError, "no/such/game.json"),
    ({"hands": ["CJ XX", "", ""]}, InvalidCardError, "XX"),
    (RECORD.replace("SJ", "SX", 1), SkatddError, "SX"),
])
def test_bad_input_names_the_offending_token(game: Any, error: type[SkatddError], token: str) -> None:
    with pytest.raises(error) as caught:
        analyse(game, solver=Solver(tt_mb=8), review=False)
    assert token in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_error_inside_a_file_names_the_file(tmp_path: Path) -> None:
    obj = json_game()
    cards = obj["played"].split()
    cards[1], cards[0] = cards[0], cards[1]   # the second card played first: not the leader's card
    obj["played"] = " ".join(cards)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    with pytest.raises(IllegalPlayError) as caught:
        analyse(path, solver=Solver(tt_mb=8), review=False)
    message = str(caught.value)
    assert message.startswith(str(path)) and re.search(rf"played\[0\] '{cards[0]}'", message), message
    bad_card = tmp_path / "bad-card.json"
    bad_card.write_text(json.dumps({**json_game(), "skat": "ZZ DQ"}))
    with pytest.raises(SkatddError, match=rf"{re.escape(str(bad_card))}.*ZZ"):
        analyse(bad_card, review=False)
    deal = tmp_path / "deal.txt"
    deal.write_text(DEAL_TEXT + "\n")
    with pytest.raises(DealFormatError) as caught:
        analyse(str(deal), review=False)
    assert str(caught.value).startswith(f"{deal}: deal text is not a game to analyse")
    assert str(caught.value).count(str(deal)) == 1


def test_the_old_variants_still_work_and_agree(expected_iss: dict[str, Any]) -> None:
    from skatdd.analysis.analyse.api import analyse_input, analyse_text

    assert comparable(analyse_text(RECORD, solver=Solver(tt_mb=16), review=False)) == expected_iss
    assert comparable(analyse_input(parse_input(RECORD), solver=Solver(tt_mb=16), review=False)) == expected_iss
