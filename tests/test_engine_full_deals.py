"""The engine on full deals with known answers, and on hand-solved known positions.

``tests/data/solved-deals.jsonl``: 24 full ten-trick deals solved by an
independent solver (``value``, ``declarer_wins``, ``first_card_values``).
The engine must match them exactly, and be consistent with itself: the
exact value equals the best first card's value, the 61 and 90 thresholds
agree with it, and replaying the returned line with :meth:`Position.play`
yields the value (null: the line ends with the trick the declarer is forced
to take, or with the last card).

``tests/data/known-positions.jsonl``: positions with worked answers (the
``why`` field gives the reasoning), endgames and full deals, checked
against the engine; the endgames also against the reference solver, so the
file itself stays right.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skatdd.core.cards import card_name, parse_card
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS as SCHNEIDER
from skatdd.core.rules import WIN_POINTS as WIN
from skatdd.engine.reference import reference_can_take_all, reference_card_values, reference_value
from skatdd.engine.solve import Solver, SolveResult
from skatdd.formats.readers import position_from_json

DATA = Path(__file__).parent / "data"


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


DEALS = _rows("solved-deals.jsonl")
KNOWN = _rows("known-positions.jsonl")


def _position(row: dict[str, Any]) -> Position:
    return position_from_json(row).position()


@pytest.fixture(scope="module")
def solved(solver: Solver) -> dict[Any, SolveResult]:
    """``Solver.solve(mode='all')`` of every deal, computed once."""
    return {row["id"]: solver.solve(_position(row), "all") for row in DEALS}


def _replay(pos: Position, line: list[int]) -> Position:
    work = pos.copy()
    for card in line:
        assert not work.is_over(), f"the line goes on after the end of play: {[card_name(c) for c in line]}"
        work.play(card)
    return work


def test_data_file_has_24_full_deals() -> None:
    assert len(DEALS) == 24
    games = {row["game"] for row in DEALS}
    assert {"grand", "null"} <= games and games & {"clubs", "spades", "hearts", "diamonds"}
    for row in DEALS:
        pos = _position(row)
        assert [h.bit_count() for h in pos.hands] == [10, 10, 10] and not pos.trick


@pytest.mark.parametrize("row", DEALS, ids=lambda r: f"deal{r['id']}-{r['game']}")
def test_matches_independent_solver(row: dict[str, Any], solved: dict[Any, SolveResult]) -> None:
    result = solved[row["id"]]
    assert result.value == row["value"]
    assert result.declarer_wins == row["declarer_wins"]
    assert result.cards is not None
    got = {card_name(cv.card): (cv.declarer_wins if row["game"] == "null" else cv.value) for cv in result.cards}
    assert got == row["first_card_values"]


@pytest.mark.parametrize("row", DEALS, ids=lambda r: f"deal{r['id']}-{r['game']}")
def test_value_is_best_first_card(row: dict[str, Any], solved: dict[Any, SolveResult]) -> None:
    pos = _position(row)
    result = solved[row["id"]]
    assert result.cards is not None
    assert {cv.card for cv in result.cards} == set(pos.legal_moves())
    declarer_moves = pos.to_move == pos.declarer
    if pos.game.is_null:
        outcomes = [cv.declarer_wins for cv in result.cards]
        assert result.declarer_wins == (any(outcomes) if declarer_moves else all(outcomes))
        assert all(cv.value is None for cv in result.cards) and result.value is None
    else:
        values = [cv.value for cv in result.cards]
        assert result.value == (max(values) if declarer_moves else min(values))
        assert all(cv.declarer_wins == (cv.value >= WIN) for cv in result.cards)


@pytest.mark.parametrize("row", DEALS, ids=lambda r: f"deal{r['id']}-{r['game']}")
def test_thresholds_agree_with_value(row: dict[str, Any], solver: Solver, solved: dict[Any, SolveResult]) -> None:
    pos = _position(row)
    result = solved[row["id"]]
    assert solver.declarer_wins(pos) == result.declarer_wins
    if pos.game.is_null:
        return
    value = result.value
    assert value is not None
    assert solver.reaches(pos, WIN) == (value >= WIN)
    assert solver.reaches(pos, SCHNEIDER) == (value >= SCHNEIDER)
    assert solver.reaches(pos, value) and not solver.reaches(pos, value + 1)


@pytest.mark.parametrize("row", DEALS, ids=lambda r: f"deal{r['id']}-{r['game']}")
def test_line_replays_to_value(row: dict[str, Any], solved: dict[Any, SolveResult]) -> None:
    pos = _position(row)
    result = solved[row["id"]]
    end = _replay(pos, result.line)
    if pos.game.is_null:
        if result.declarer_wins:
            assert end.cards_left == 0 and not end.trick and end.declarer_tricks == 0
        else:
            # Ends with the trick the declarer is forced to take: its last card completes it.
            assert end.declarer_tricks == 1 and not end.trick
            assert _replay(pos, result.line[:-1]).declarer_tricks == 0
        return
    assert end.cards_left == 0 and not end.trick
    assert end.value_so_far == result.value


@pytest.mark.parametrize("row", DEALS, ids=lambda r: f"deal{r['id']}-{r['game']}")
def test_win_mode_agrees(row: dict[str, Any], solver: Solver) -> None:
    pos = _position(row)
    result = solver.solve(pos, "win")
    assert result.value is None and result.cards is None
    assert result.declarer_wins == row["declarer_wins"]
    end = _replay(pos, result.line)
    if not pos.game.is_null:
        # The line keeps the result: the declarer ends on the right side of 61.
        assert end.cards_left == 0 and (end.value_so_far >= WIN) == row["declarer_wins"]


# ---------------------------------------------------------------------------
# Known positions with worked answers


@pytest.mark.parametrize("row", KNOWN, ids=lambda r: r["id"])
def test_known_position(row: dict[str, Any], solver: Solver) -> None:
    pos = _position(row)
    assert solver.value(pos) == row["value"]
    assert solver.declarer_wins(pos) == row["declarer_wins"]
    values = solver.card_values(pos)
    got = {card_name(c): (cv.declarer_wins if pos.game.is_null else cv.value) for c, cv in values.items()}
    assert got == row["card_values"]
    # Schwarz: taking every trick from here, and none taken by the other side before.
    assert solver.declarer_takes_all(pos) == (row["declarer_can_take_all"] and pos.defender_tricks == 0)
    assert solver.defenders_take_all(pos) == (row["defenders_can_take_all"] and pos.declarer_tricks == 0)
    result = solver.solve(pos, "all")
    assert result.value == row["value"] and result.declarer_wins == row["declarer_wins"]
    end = _replay(pos, result.line)
    if not pos.game.is_null:
        assert end.value_so_far == row["value"]


@pytest.mark.parametrize("row", [r for r in KNOWN if sum(len(h.split()) for h in r["hands"]) <= 15],
                         ids=lambda r: r["id"])
def test_known_position_answers_match_reference(row: dict[str, Any]) -> None:
    """The worked answers of the endgames in the data file are right (checked by the reference)."""
    pos = _position(row)
    assert reference_value(pos) == (row["declarer_wins"] if pos.game.is_null else row["value"])
    assert {card_name(c): v for c, v in reference_card_values(pos).items()} == row["card_values"]
    assert reference_can_take_all(pos, True) == row["declarer_can_take_all"]
    assert reference_can_take_all(pos, False) == row["defenders_can_take_all"]


def test_known_positions_cover_the_contracts_and_stages() -> None:
    games = {row["game"] for row in KNOWN}
    assert {"grand", "null"} <= games and len(games) >= 4
    stages = {len(row.get("trick", "").split()) for row in KNOWN}
    assert stages == {0, 1, 2}
    assert any(sum(len(h.split()) for h in row["hands"]) == 30 for row in KNOWN)
    for row in KNOWN:
        assert row["why"] and all(parse_card(c) >= 0 for c in row["card_values"])
