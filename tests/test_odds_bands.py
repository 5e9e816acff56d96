"""``skatdd odds`` without ``--points``: only threshold questions, and every figure but the points as with them.

The band-only path must report exactly what the points path reports apart
from ``mean_points`` (then ``null``), ``nodes`` and ``seconds``: checked on
hands with the skat unseen and known, at bids whose overbids tie bands'
scores (the tie rule of :mod:`skatdd.analysis.odds.pickup`), with weighted
worlds; the tie rule itself against a brute force over random outcomes.
Brute force over every discard on enumerable views: tests/test_odds.py
(both paths).
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cli_runner import run_skatdd
from skatdd.analysis.best.bands import Probe, band_of
from skatdd.analysis.best.discards import DiscardClass
from skatdd.analysis.odds.api import odds
from skatdd.analysis.odds.discard_ranking import rank_probes, settle_band
from skatdd.analysis.odds.pickup import _tied_band
from skatdd.core.cards import points_of
from skatdd.core.errors import SkatddError
from skatdd.engine.solve import Solver

HAND = "CJ HJ CA CT CK C9 SA ST H7 D8"
WEAK = "CJ DJ C8 HA HT HK H9 DT D8 D7"
TT = 16
BIDS = [(1, "18"), (0, "y"), (1, "20"), (0, "p"), (2, "p")]


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report without what may differ between the paths: nodes, seconds and every mean_points."""
    out = {k: v for k, v in report.items() if k not in ("nodes", "seconds")}
    out["options"] = [{k: v for k, v in o.items() if k != "mean_points"} for o in report["options"]]
    if isinstance(report["recommendation"], dict):
        out["recommendation"] = {k: v for k, v in report["recommendation"].items() if k != "mean_points"}
    return out


@pytest.mark.parametrize("kwargs", [
    dict(cards=HAND, seat=1, worlds=6, seed=7),
    dict(cards=WEAK, seat=1, worlds=5, seed=3, bid=36),          # overbids: "no trick" scores like 30-
    dict(cards=WEAK, seat=1, worlds=5, seed=4, bid=60),
    dict(cards="SJ DJ CA CT C8 ST SK S8 S7 D7", seat=0, worlds=4, seed=1, bid=120),   # every band alike
    dict(cards=HAND, seat=0, skat="S7 D7", worlds=4, seed=3),
    dict(cards=HAND, seat=2, skat="S7 D7", worlds=4, seed=3, bid=72),
    dict(cards=HAND, seat=2, worlds=6, seed=2, inference="bids", bids=BIDS),
], ids=["unseen", "bid36", "bid60", "bid120", "skat", "skat-bid72", "bids"])
def test_band_only_reports_the_figures_of_the_points_path(kwargs: dict[str, Any]) -> None:
    kwargs = dict(kwargs)
    cards = kwargs.pop("cards")
    with_points = odds(cards, solver=Solver(tt_mb=TT), points=True, **kwargs)
    bands = odds(cards, solver=Solver(tt_mb=TT), **kwargs)
    a, b = with_points.to_json(), bands.to_json()
    assert figures(a) == figures(b)
    assert all(o["mean_points"] is None for o in b["options"])
    assert any(o["mean_points"] is not None for o in a["options"])
    if isinstance(b["recommendation"], dict):
        assert b["recommendation"]["mean_points"] is None
    assert not bands.points and with_points.points
    assert bands.nodes < with_points.nodes


# ---------------------------------------------------------------------------
# The tie rule against a brute force


class _Outcomes:
    """A stand-in for the engine: each position's exact outcome is known, and every question answers from it."""

    def __init__(self) -> None:
        self.truth: dict[int, tuple[int, bool, bool]] = {}
        self.exact_values = 0

    def reaches(self, pos: Any, target: int) -> bool:
        return self.truth[id(pos)][0] >= target

    def declarer_takes_all(self, pos: Any) -> bool:
        return self.truth[id(pos)][1]

    def defenders_take_all(self, pos: Any) -> bool:
        return self.truth[id(pos)][2]

    def value(self, pos: Any, lower: int = 0, upper: int = 120) -> int:
        self.exact_values += 1
        return self.truth[id(pos)][0]


class _Pos:
    def __init__(self, skat: int) -> None:
        self.skat = skat


def _random_outcome(rng: random.Random, discard_points: int) -> tuple[int, bool, bool]:
    kind = rng.random()
    if kind < 0.2:
        return discard_points, False, True
    if kind < 0.35:
        return 120, True, False
    value = rng.choice([discard_points, discard_points + 1, 30, 31, 60, 61, 89, 90, 119, 120, rng.randint(0, 120)])
    return max(value, discard_points), False, False


def test_tied_band_is_the_band_of_the_most_points_then_the_first_in_tie_order() -> None:
    rng = random.Random(1)
    solver = _Outcomes()
    checked = 0
    for _ in range(3000):
        n = rng.randint(1, 7)
        classes, outcomes = [], []
        for i in range(n):
            pair = tuple(rng.sample(range(32), 2))
            pos = _Pos(1 << pair[0] | 1 << pair[1])
            outcome = _random_outcome(rng, points_of(pos.skat))
            solver.truth[id(pos)] = outcome
            cls = DiscardClass(pair, 0, (i,), [pair])          # type: ignore[arg-type]
            classes.append((cls, Probe(solver, pos)))       # type: ignore[arg-type]
            outcomes.append(outcome)
        # Non-decreasing band scores with ties: each band scores as its predecessor or more.
        score = [0]
        for _ in range(5):
            score.append(score[-1] + rng.choice([0, 0, 1]))
        bands = [band_of(*o) for o in outcomes]
        top = max(score[b] for b in bands)
        tied = [b for b in range(6) if score[b] == top]
        if len(tied) < 2:
            continue
        winner = max(range(n), key=lambda i: (score[bands[i]], outcomes[i][0], -i))
        cls, band = _tied_band(classes, tied[0], tied[-1])
        assert band == bands[winner], (outcomes, score)
        assert cls is None or bands[classes.index(next(e for e in classes if e[0] is cls))] == band
        checked += 1
    assert checked > 1000
    assert solver.exact_values == 0       # threshold questions only


def test_settle_band_and_reaches_band_agree_with_the_exact_band() -> None:
    """Both answer from threshold questions alone (a trickless declarer holds exactly his discard's points)."""
    rng = random.Random(2)
    solver = _Outcomes()
    for _ in range(200):
        pair = rng.sample(range(32), 2)
        pos = _Pos(1 << pair[0] | 1 << pair[1])
        outcome = _random_outcome(rng, points_of(pos.skat))
        solver.truth[id(pos)] = outcome
        probe = Probe(solver, pos)          # type: ignore[arg-type]
        assert settle_band(probe) == band_of(*outcome)
        for band in range(6):
            assert Probe(solver, pos).reaches_band(band) == (band_of(*outcome) >= band)   # type: ignore[arg-type]
    assert solver.exact_values == 0


def _linked_outcome(rng: random.Random, top: tuple[int, bool, bool], low_points: int,
                    delta: int) -> tuple[int, bool, bool]:
    """An outcome of a class *top*'s class dominates (dominance_links): value in [V(top) - delta, V(top)], same trick facts."""
    value, takes_all, trickless = top
    if takes_all or trickless:
        return (120 if takes_all else low_points), takes_all, trickless
    return max(low_points, value - rng.randint(0, delta)), False, False


def test_rank_probes_finds_the_best_classes_of_a_brute_force() -> None:
    """The *keep* best classes by total score (ties: the first), each settled in every world, on random outcomes.

    Random tables of classes x worlds, some classes dominated by others (links), band scores with the
    ties of overbids; whatever order the questions come in, the answer is the brute force's, and no
    exact value is searched.
    """
    rng = random.Random(3)
    solver = _Outcomes()
    for _ in range(300):
        n, worlds, keep = rng.randint(1, 9), rng.randint(1, 12), rng.choice([1, 3])
        pairs = [tuple(rng.sample(range(32), 2)) for _ in range(n)]
        disc = [points_of(1 << a | 1 << b) for a, b in pairs]
        links = []
        outcomes: list[list[tuple[int, bool, bool]]] = []
        for k in range(n):
            tops = [t for t in range(k) if disc[t] >= disc[k] and not any(low == t for _, low, _ in links)]
            if tops and rng.random() < 0.4:
                top = rng.choice(tops)
                links.append((top, k, disc[top] - disc[k]))
                outcomes.append([_linked_outcome(rng, o, disc[k], disc[top] - disc[k]) for o in outcomes[top]])
            else:
                outcomes.append([_random_outcome(rng, disc[k]) for _ in range(worlds)])
        probes = []
        for k in range(n):
            row = []
            for w in range(worlds):
                pos = _Pos(1 << pairs[k][0] | 1 << pairs[k][1])
                solver.truth[id(pos)] = outcomes[k][w]
                row.append(Probe(solver, pos))  # type: ignore[arg-type]
            probes.append(row)
        score = [rng.randint(-60, -20)]
        for _ in range(5):
            score.append(score[-1] + rng.choice([0, 0, 1, 30]))
        looks = [rng.randint(0, 3) for _ in range(n)]
        order, ranges = rank_probes(probes, score, looks, keep, links)
        totals = [sum(score[band_of(*o)] for o in row) for row in outcomes]
        assert order == sorted(range(n), key=lambda k: (-totals[k], k))[:keep], (totals, order)
        for k in order:
            assert [score[lo] for lo, _ in ranges[k]] == [score[hi] for _, hi in ranges[k]]
            assert [score[lo] for lo, _ in ranges[k]] == [score[band_of(*o)] for o in outcomes[k]]
    assert solver.exact_values == 0


def test_rank_probes_keeping_one_leaves_a_later_class_that_can_only_tie_unsettled() -> None:
    """With ``keep=1`` a class whose highest possible total has fallen to an earlier class's exact total can
    at best tie, and ties go to tie order: it is not asked further (``bid``'s rankings).  With ``keep=3`` the
    order among the kept needs it settled, as before."""
    solver = _Outcomes()
    score = [-96, -72, -48, 24, 36, 48]
    for keep, settled in ((1, False), (3, True)):
        probes = []
        for _ in range(2):                  # two classes with the same result, WON by 70 points, in every world
            row = []
            for _ in range(5):
                pos = _Pos(0b11)
                solver.truth[id(pos)] = (70, False, False)
                row.append(Probe(solver, pos))  # type: ignore[arg-type]
            probes.append(row)
        order, ranges = rank_probes(probes, score, [0, 0], keep)
        assert order == [0, 1][:keep]
        assert all(score[lo] == score[hi] for lo, hi in ranges[0])
        assert all(score[lo] == score[hi] for lo, hi in ranges[1]) is settled
        assert all(score[hi] == 24 for _, hi in ranges[1])     # brought down to the tie, no further


def test_rank_probes_keeping_one_never_asks_a_class_an_earlier_one_dominates() -> None:
    """``keep=1``: a class that *links* show dominated by an earlier class (a value no higher, the same trick
    facts) can at best tie it, so no question is asked of it; it learns only what the links pass on."""
    asked: list[int] = []

    class Counting(_Outcomes):
        def reaches(self, pos: Any, target: int) -> bool:
            asked.append(id(pos))
            return super().reaches(pos, target)

    solver = Counting()
    score = [-96, -72, -48, 24, 36, 48]
    rng = random.Random(4)
    probes, rows = [], []
    values = [[rng.randint(40, 80) for _ in range(6)] for _ in range(3)]
    values[1] = [v - rng.randint(0, 3) for v in values[0]]     # class 1 dominated by class 0 (0-3 points lower)
    for k in range(3):
        row, ids = [], []
        for w in range(6):
            pos = _Pos(0b11)
            solver.truth[id(pos)] = (values[k][w], False, False)
            row.append(Probe(solver, pos))  # type: ignore[arg-type]
            ids.append(id(pos))
        probes.append(row)
        rows.append(ids)
    order, _ = rank_probes(probes, score, [0, 5, 0], 1, [(0, 1, 3)])
    totals = [sum(score[band_of(solver.truth[i][0], False, False)] for i in ids) for ids in rows]
    assert order == [min(range(3), key=lambda k: (-totals[k], k))]
    assert asked and not set(asked) & set(rows[1])


# ---------------------------------------------------------------------------
# The command line and the API


def test_json_has_null_mean_points_without_the_option_and_the_table_no_points_column() -> None:
    args = ["odds", HAND, "--seat", "F", "--game", "clubs", "--game", "null", "--worlds", "3", "--jobs", "1",
            "--tt-mb", str(TT)]
    plain = run_skatdd(*args, "--json")
    assert plain.returncode == 0, plain.stderr
    report = json.loads(plain.stdout)
    assert [o["mean_points"] for o in report["options"]] == [None] * 4
    text = run_skatdd(*args)
    header = next(line for line in text.stdout.splitlines() if "contract" in line)
    assert "points" not in header.split() and header.split()[-1] == "score"
    with_points = run_skatdd(*args, "--points")
    header = next(line for line in with_points.stdout.splitlines() if "contract" in line)
    assert header.split()[-2:] == ["points", "score"]
    report = json.loads(run_skatdd(*args, "--points", "--json").stdout)
    assert [o["mean_points"] is None for o in report["options"]] == [False, False, True, True]


@pytest.mark.parametrize("args, token", [
    (["--points=yes"], "--points"),
    (["--points", "3"], "unknown card '3'"),   # a flag takes no value: 3 is read as a card
])
def test_bad_points_option_exits_2_with_one_line(args: list[str], token: str) -> None:
    result = run_skatdd("odds", HAND, "--seat", "F", "--worlds", "1", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    assert token in result.stderr and "Traceback" not in result.stderr


def test_api_refuses_points_that_are_not_a_bool() -> None:
    with pytest.raises(SkatddError, match="points must be True or False"):
        odds(HAND, seat=0, worlds=1, points="yes")  # type: ignore[arg-type]
