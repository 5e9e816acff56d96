"""The engine against the plain reference solver on 2,000 mid-trick positions.

Four to six cards a hand, one or two cards already on the table, all six
contracts, the declarer and the leader in every seat: the positions where
the trick-boundary bounds, the last-card test and the descent meet the
inside of a trick.  The reference answers are precomputed in
``tests/data/midgame-reference.jsonl`` by ``tests/data/make_midgame_reference.py``
(seeded: rerunning it rewrites the same file), so this file runs in seconds.

Checks: the value (null: whether the declarer wins), ``reaches`` at 31, 61,
90 and around the value, every legal card's value (four and five cards a
hand), and both schwarz questions, with and without the earlier tricks.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from skatdd.core.cards import parse_cards
from skatdd.core.position import Position
from skatdd.engine.solve import Solver
from skatdd.formats.readers import position_from_json as spec_from_json

DATA = Path(__file__).parent / "data" / "midgame-reference.jsonl"


def _load() -> list[tuple[Position, dict[str, Any]]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(spec_from_json(row["position"]).position(), row) for row in rows]


CASES = _load()


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_mb=32)


def _fail(problems: list[str]) -> None:
    """Fail listing the first ten disagreements (each names its position as JSON)."""
    assert not problems, f"{len(problems)} disagreement(s), the first: " + "\n".join(problems[:10])


def _describe(row: dict[str, Any], what: str) -> str:
    return f"[{row['tricks']} cards #{row['index']}] {what}: {json.dumps(row['position'])}"


def test_the_set_covers_every_contract_stage_and_size() -> None:
    assert len(CASES) == 2000
    seen: Counter[tuple[Any, ...]] = Counter()
    for pos, row in CASES:
        assert pos.hands[pos.to_move].bit_count() == row["tricks"]
        seen[(pos.game, len(pos.trick), row["tricks"])] += 1
        seen[("decl", pos.declarer)] += 1
        seen[("leader", pos.leader)] += 1
    assert len({k for k in seen if len(k) == 3}) == 6 * 2 * 3
    assert all(seen[("decl", s)] and seen[("leader", s)] for s in range(3))


def test_values_and_thresholds(solver: Solver) -> None:
    problems = []
    for pos, row in CASES:
        ref = row["value"]
        if pos.game.is_null:
            if solver.declarer_wins(pos) != ref:
                problems.append(_describe(row, f"declarer_wins is not {ref}"))
            continue
        value = solver.value(pos)
        if value != ref:
            problems.append(_describe(row, f"value {value}, reference {ref}"))
        for target in (31, 61, 90, ref - 1, ref, ref + 1):
            if solver.reaches(pos, target) != (ref >= target):
                problems.append(_describe(row, f"reaches({target}) wrong, reference value {ref}"))
    _fail(problems)


def test_card_values(solver: Solver) -> None:
    problems = []
    for pos, row in CASES:
        if "cards" not in row:
            continue
        want = {parse_cards(name)[0]: v for name, v in row["cards"].items()}
        got = solver.card_values(pos)
        if set(got) != set(want):
            problems.append(_describe(row, f"cards {sorted(got)}, reference {sorted(want)}"))
            continue
        for card, cv in got.items():
            ok = (cv.value is None and cv.declarer_wins == want[card]) if pos.game.is_null else cv.value == want[card]
            if not ok:
                problems.append(_describe(row, f"card {card}: {cv}, reference {want[card]}"))
    _fail(problems)


def test_schwarz_queries(solver: Solver) -> None:
    problems = []
    for pos, row in CASES:
        if pos.game.is_null:
            continue
        want = (pos.defender_tricks == 0 and row["declarer_all"], pos.declarer_tricks == 0 and row["defenders_all"])
        got = (solver.declarer_takes_all(pos), solver.defenders_take_all(pos))
        if got != want:
            problems.append(_describe(row, f"takes all {got}, reference {want}"))
        probe = pos.copy()
        probe.declarer_tricks = probe.defender_tricks = 0
        got = (solver.declarer_takes_all(probe), solver.defenders_take_all(probe))
        if got != (row["declarer_all"], row["defenders_all"]):
            problems.append(_describe(row, f"take-all search {got}, reference "
                                           f"{(row['declarer_all'], row['defenders_all'])}"))
    _fail(problems)
