"""The Cython engine against the plain Python reference solver on 5,040 seeded random positions.

The positions and the reference solver's answers are stored in
tests/data/reference-answers.jsonl, written by
tests/data/make_reference_answers.py (which documents the plan: every one
of the six contracts, every trick stage, the declarer and the current
leader in every seat, endgames of 1 to 6 tricks a hand).  Recomputing the
answers costs the reference solver about a minute on two cores, so each
run recomputes only a sample (:func:`test_stored_answers_match_the_reference_solver`),
which also checks that the generator still makes the stored positions: the
file cannot drift from the code.

For each position the engine must agree with the reference on:

* the value (suit and grand) and ``declarer_wins`` (all games);
* every legal card's value (:meth:`Solver.card_values` against
  :func:`reference_card_values`; in null: win or loss) -- all positions of
  1 to 5 tricks;
* the schwarz queries: :meth:`Solver.declarer_takes_all` /
  :meth:`Solver.defenders_take_all` against :func:`reference_can_take_all`
  (with the earlier trick counts: schwarz needs none taken before);
* thresholds: :meth:`Solver.reaches` ``(t) == (value >= t)`` for
  t in 31, 61, 90, value - 1, value, value + 1 (suit and grand);
* the principal variation: replaying :meth:`Solver.line` with
  :meth:`Position.play` ends at the value (null: the declarer takes no
  trick, or the line stops at the trick he is forced to take), and for
  short endgames each of its cards keeps the reference value.

A failing check lists the positions (as JSON) that disagree.
"""
from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from skatdd.core.cards import card_name, parse_card
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.engine.reference import reference_value
from skatdd.engine.solve import Solver
from skatdd.formats.readers import position_from_json as spec_from_json
from skatdd.tools.generate import position_to_json


def _load_maker() -> ModuleType:
    """tests/data/make_reference_answers.py as a module (tests/data is no package)."""
    path = Path(__file__).parent / "data" / "make_reference_answers.py"
    spec = importlib.util.spec_from_file_location("make_reference_answers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _load_maker()
SEED = MAKER.SEED
PLAN: tuple[tuple[int, int, bool], ...] = MAKER.PLAN
#: Tricks a hand up to which every card of the line is checked against the reference.
LINE_STEP_CHECK_MAX_TRICKS = 3


@dataclass(frozen=True)
class Case:
    """One stored position with the reference solver's answers."""

    tricks: int
    index: int
    #: The line of the answers file: ``position``, ``value``, ``declarer_all``, ``defenders_all``, maybe ``cards``.
    stored: dict[str, Any] = field(compare=False, hash=False, repr=False)

    @property
    def card_values(self) -> bool:
        return "cards" in self.stored

    @property
    def game(self) -> Game:
        """The contract the plan gives this case (contracts cycle with the index)."""
        return ALL_GAMES[self.index % len(ALL_GAMES)]

    @property
    def trick_cards(self) -> int:
        """Cards on the table the plan gives this case (stages cycle after the contracts)."""
        return (self.index // len(ALL_GAMES)) % 3

    def position(self) -> Position:
        """The case's position (a fresh copy each call; read once per process)."""
        pos = _POSITIONS.get(self)
        if pos is None:
            pos = _POSITIONS[self] = spec_from_json(self.stored["position"]).position()
        return pos.copy()

    @property
    def label(self) -> str:
        return f"{self.tricks} tricks #{self.index}"


def _load_cases() -> list[Case]:
    cases = []
    with MAKER.OUTPUT.open() as lines:
        for line in lines:
            row = json.loads(line)
            if "cards" in row:
                row["cards"] = {parse_card(code): value for code, value in row["cards"].items()}
            cases.append(Case(row.pop("tricks"), row.pop("index"), row))
    return cases


_POSITIONS: dict[Case, Position] = {}
CASES: list[Case] = _load_cases()
TRICKS = [t for t, _, _ in PLAN]


@pytest.fixture(scope="module")
def reference() -> dict[Case, dict[str, Any]]:
    """The stored reference answers of every case."""
    return {case: case.stored for case in CASES}


def _fail(problems: list[str]) -> None:
    if problems:
        shown = "\n".join(problems[:10])
        more = f"\n... and {len(problems) - 10} more" if len(problems) > 10 else ""
        pytest.fail(f"{len(problems)} disagreement(s) with the reference:\n{shown}{more}", pytrace=False)


def _describe(case: Case, pos: Position, what: str) -> str:
    return f"[{case.label}] {what}: {json.dumps(position_to_json(pos))}"


def _cases(tricks: int) -> list[Case]:
    return [c for c in CASES if c.tricks == tricks]


# ---------------------------------------------------------------------------
# Coverage of the generated set


def test_stored_cases_are_the_plan() -> None:
    assert [(c.tricks, c.index, c.card_values) for c in CASES] == MAKER.all_cases()


#: Recomputed on every run: every 40th case of 1 to 4 tricks and one of 5 tricks (about two seconds).
SAMPLE = [c for c in CASES if c.tricks <= 4 and c.index % 40 == 7] + [c for c in CASES if c.tricks == 5][:1]


@pytest.mark.parametrize("tricks", sorted({c.tricks for c in SAMPLE}))
def test_stored_answers_match_the_reference_solver(tricks: int) -> None:
    """The generator still makes the stored positions, and the reference solver still gives the stored answers."""
    problems = []
    for case in (c for c in SAMPLE if c.tricks == tricks):
        pos = MAKER.case_position(case.tricks, case.index)
        fresh = MAKER.reference_answers(pos, case.card_values)
        stored = {**case.stored}
        if case.card_values:
            stored["cards"] = {card_name(c): v for c, v in stored["cards"].items()}
        if fresh != stored:
            problems.append(f"[{case.label}] stored {json.dumps(stored)}, recomputed {json.dumps(fresh)}")
    assert not problems, ("tests/data/reference-answers.jsonl is out of date: rerun "
                          "tests/data/make_reference_answers.py\n" + "\n".join(problems[:5]))


def test_plan_covers_every_contract_seat_and_stage() -> None:
    assert len(CASES) >= 5000
    assert sum(1 for c in CASES if c.tricks >= 5) >= 300
    assert sum(1 for c in CASES if c.tricks <= 4) > 0.9 * len(CASES)
    seen = Counter()
    for case in CASES:
        pos = case.position()
        assert len(pos.trick) == case.trick_cards and pos.game == case.game
        assert pos.hands[pos.to_move].bit_count() == case.tricks
        seen[("game-stage-leader", pos.game, len(pos.trick), pos.leader)] += 1
        seen[("declarer", pos.game, pos.declarer)] += 1
        seen[("tricks-stage", case.tricks, len(pos.trick))] += 1
        seen[("mover", pos.to_move == pos.declarer, case.tricks)] += 1
    for game in ALL_GAMES:
        for stage in range(3):
            for leader in range(3):
                assert seen[("game-stage-leader", game, stage, leader)] > 0, (game, stage, leader)
        for seat in range(3):
            assert seen[("declarer", game, seat)] > 0, (game, seat)
    for tricks in TRICKS:
        for stage in range(3):
            assert seen[("tricks-stage", tricks, stage)] > 0
        assert seen[("mover", True, tricks)] > 0 and seen[("mover", False, tricks)] > 0


# ---------------------------------------------------------------------------
# Value, win or loss, thresholds


@pytest.mark.parametrize("tricks", TRICKS)
def test_value_and_declarer_wins(tricks: int, reference, solver: Solver) -> None:
    problems = []
    for case in _cases(tricks):
        pos = case.position()
        ref = reference[case]["value"]
        if pos.game.is_null:
            got = solver.declarer_wins(pos)
            if got != ref:
                problems.append(_describe(case, pos, f"declarer_wins {got}, reference {ref}"))
            if solver.value(pos) is not None:
                problems.append(_describe(case, pos, "value is not None in null"))
            continue
        value = solver.value(pos)
        wins = solver.declarer_wins(pos)
        if value != ref or wins != (ref >= 61):
            problems.append(_describe(case, pos, f"value {value} / wins {wins}, reference {ref}"))
    _fail(problems)


@pytest.mark.parametrize("tricks", TRICKS)
def test_thresholds_agree_with_value(tricks: int, reference, solver: Solver) -> None:
    problems = []
    rng = random.Random(SEED + tricks)
    for case in _cases(tricks):
        pos = case.position()
        if pos.game.is_null:
            continue
        ref = reference[case]["value"]
        targets = {31, 61, 90, ref - 1, ref, ref + 1, rng.randint(0, 121)}
        for target in sorted(targets):
            got = solver.reaches(pos, target)
            if got != (ref >= target):
                problems.append(_describe(case, pos, f"reaches({target}) is {got}, reference value {ref}"))
    _fail(problems)


# ---------------------------------------------------------------------------
# Per-card values


@pytest.mark.parametrize("tricks", [t for t, _, cv in PLAN if cv])
def test_card_values(tricks: int, reference, solver: Solver) -> None:
    problems = []
    for case in _cases(tricks):
        pos = case.position()
        ref = reference[case]["cards"]
        values = solver.card_values(pos)
        if set(values) != set(ref) or set(values) != set(pos.legal_moves()):
            problems.append(_describe(case, pos, f"cards {sorted(values)}, reference {sorted(ref)}"))
            continue
        for card, cv in values.items():
            want = ref[card]
            if pos.game.is_null:
                ok = cv.value is None and cv.declarer_wins == want
            else:
                ok = cv.value == want and cv.declarer_wins == (want >= 61)
            if not ok:
                problems.append(_describe(case, pos, f"{card_name(card)}: {cv}, reference {want}"))
        # The position's value is the best card's for the side to move.
        if values and not pos.game.is_null:
            pick = max if pos.to_move == pos.declarer else min
            if pick(cv.value for cv in values.values()) != reference[case]["value"]:
                problems.append(_describe(case, pos, "best card value differs from the value"))
    _fail(problems)


# ---------------------------------------------------------------------------
# Schwarz


@pytest.mark.parametrize("tricks", TRICKS)
def test_schwarz_queries(tricks: int, reference, solver: Solver) -> None:
    problems = []
    for case in _cases(tricks):
        pos = case.position()
        if pos.game.is_null:
            continue  # the null contract asks declarer_wins, not schwarz
        ref = reference[case]
        want_declarer = pos.defender_tricks == 0 and ref["declarer_all"]
        want_defenders = pos.declarer_tricks == 0 and ref["defenders_all"]
        got_declarer = solver.declarer_takes_all(pos)
        got_defenders = solver.defenders_take_all(pos)
        if got_declarer != want_declarer or got_defenders != want_defenders:
            problems.append(_describe(
                case, pos, f"takes all: declarer {got_declarer} / defenders {got_defenders}, "
                           f"reference {want_declarer} / {want_defenders}"))
        # The search itself, without the early answer earlier tricks give: clear the trick counts.
        probe = pos.copy()
        probe.declarer_tricks = probe.defender_tricks = 0
        got = (solver.declarer_takes_all(probe), solver.defenders_take_all(probe))
        if got != (ref["declarer_all"], ref["defenders_all"]):
            problems.append(_describe(case, pos, f"take-all search {got}, reference "
                                                 f"{(ref['declarer_all'], ref['defenders_all'])}"))
    _fail(problems)


# ---------------------------------------------------------------------------
# Principal variation


def _replay(pos: Position, line: list[int]) -> tuple[Position, str | None]:
    work = pos.copy()
    for i, card in enumerate(line):
        if work.is_over():
            return work, f"line goes on after the end of play at card {i}"
        try:
            work.play(card)
        except ValueError as exc:
            return work, f"line card {i} illegal: {exc}"
    return work, None


@pytest.mark.parametrize("tricks", TRICKS)
def test_line_replays_to_the_value(tricks: int, reference, solver: Solver) -> None:
    problems = []
    for case in _cases(tricks):
        pos = case.position()
        ref = reference[case]["value"]
        line = solver.line(pos)
        end, error = _replay(pos, line)
        if error:
            problems.append(_describe(case, pos, error))
            continue
        if pos.game.is_null:
            if ref:
                ok = end.cards_left == 0 and not end.trick and end.declarer_tricks == 0
            else:
                ok = end.declarer_tricks == 1 and not end.trick and (
                    _replay(pos, line[:-1])[0].declarer_tricks == 0)
            if not ok:
                problems.append(_describe(case, pos, f"null line {[card_name(c) for c in line]} "
                                                     f"does not end as it should (declarer wins: {ref})"))
            continue
        if end.cards_left or end.trick or end.value_so_far != ref:
            problems.append(_describe(case, pos, f"line ends at {end.value_so_far} points, value {ref}"))
    _fail(problems)


@pytest.mark.parametrize("tricks", [t for t in TRICKS if t <= LINE_STEP_CHECK_MAX_TRICKS])
def test_every_line_card_keeps_the_reference_value(tricks: int, reference, solver: Solver) -> None:
    problems = []
    for case in _cases(tricks)[::3]:
        pos = case.position()
        ref = reference[case]["value"]
        work = pos.copy()
        for card in solver.line(pos):
            work.play(card)
            if work.is_over():
                break
            now = reference_value(work)
            if now != ref:
                problems.append(_describe(case, pos, f"after {card_name(card)} the reference value is {now}, not {ref}"))
                break
    _fail(problems)
