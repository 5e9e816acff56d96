"""The Cython engine against the plain Python reference solver on random positions (issue 3, item 4).

5,040 seeded random positions (:func:`skatdd.generate.random_position`),
every one of the six contracts, every trick stage (0, 1 or 2 cards on the
table), the declarer and the current leader in every seat, endgames of 1
to 6 tricks a hand: 4,740 of 1 to 4, 240 of 5 and 60 of 6 (the reference
is exponential: a 5-trick position costs it 0.2 s with its card values, a
6-trick one 1.5 s on average for the value alone, and 6 tricks is where
its cost stops fitting the suite's budget of a few minutes on two cores).

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

The reference answers are computed by two worker processes (the machine
has two cores); everything is seeded, so a run is deterministic.  A failing
check lists the positions (as JSON) that disagree.
"""
from __future__ import annotations

import json
import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from skatdd.cards import card_name
from skatdd.generate import position_to_json, random_position
from skatdd.position import Position
from skatdd.reference import reference_can_take_all, reference_card_values, reference_value
from skatdd.rules import ALL_GAMES, Game
from skatdd.solve import Solver

SEED = 3_141_592

#: (tricks a hand, positions, with per-card values).  5,040 positions in all.
PLAN: tuple[tuple[int, int, bool], ...] = (
    (1, 720, True),
    (2, 1260, True),
    (3, 1500, True),
    (4, 1260, True),
    (5, 240, True),
    (6, 60, False),
)
#: Tricks a hand up to which every card of the line is checked against the reference.
LINE_STEP_CHECK_MAX_TRICKS = 3


@dataclass(frozen=True)
class Case:
    """One seeded position: its generator arguments and the checks it takes part in."""

    tricks: int
    index: int
    card_values: bool

    @property
    def game(self) -> Game:
        return ALL_GAMES[self.index % len(ALL_GAMES)]

    @property
    def trick_cards(self) -> int:
        return (self.index // len(ALL_GAMES)) % 3

    def position(self) -> Position:
        """The case's position (a fresh copy each call; generated once per process)."""
        pos = _POSITIONS.get(self)
        if pos is None:
            rng = random.Random(SEED * 1_000 + self.tricks * 100_000_007 + self.index)
            pos = _POSITIONS[self] = random_position(
                rng, game=self.game, tricks=self.tricks, trick_cards=self.trick_cards)
        return pos.copy()

    @property
    def label(self) -> str:
        return f"{self.tricks} tricks #{self.index}"


_POSITIONS: dict[Case, Position] = {}
CASES: list[Case] = [Case(t, i, cv) for t, n, cv in PLAN for i in range(n)]


def _solve_reference(case: Case) -> tuple[Case, dict[str, Any]]:
    """The reference answers for *case* (runs in a worker process)."""
    pos = case.position()
    out: dict[str, Any] = {"value": reference_value(pos)}
    if case.card_values:
        out["cards"] = reference_card_values(pos)
    out["declarer_all"] = reference_can_take_all(pos, True)
    out["defenders_all"] = reference_can_take_all(pos, False)
    return case, out


@pytest.fixture(scope="module")
def reference() -> dict[Case, dict[str, Any]]:
    """Reference answers for every case, computed on two processes (the slowest cases first)."""
    order = sorted(CASES, key=lambda c: (-c.tricks, -c.card_values, c.index))
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        return dict(pool.imap_unordered(_solve_reference, order, chunksize=1))


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_mb=32)


def _fail(problems: list[str]) -> None:
    if problems:
        shown = "\n".join(problems[:10])
        more = f"\n... and {len(problems) - 10} more" if len(problems) > 10 else ""
        pytest.fail(f"{len(problems)} disagreement(s) with the reference:\n{shown}{more}", pytrace=False)


def _describe(case: Case, pos: Position, what: str) -> str:
    return f"[{case.label}] {what}: {json.dumps(position_to_json(pos))}"


def _cases(tricks: int) -> list[Case]:
    return [c for c in CASES if c.tricks == tricks]


TRICKS = [t for t, _, _ in PLAN]


# ---------------------------------------------------------------------------
# Coverage of the generated set


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
