"""``Solver.card_values_many``: every card's value in many worlds of one decision, in one engine call.

Checked against the plain reference solver (the stored answers of the
mid-trick reference set, and brute force on reshuffled worlds of those
positions), against :meth:`Solver.card_values` world by world on the
worlds ``advise`` draws at the first lead of fixture games, under each table
policy, and on bad input.
"""
from __future__ import annotations

import random
from array import array
from pathlib import Path
from typing import Literal

import pytest

from skatdd.analysis.advise.api import mover_view, world_position
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import World
from skatdd.core.cards import parse_cards, points_of
from skatdd.core.position import Position
from skatdd.engine.reference import reference_card_values
from skatdd.engine.solve import Solver
from skatdd.formats.iss import IssGame, iter_iss
from test_engine_vs_reference_midgame import CASES

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
Tables = Literal["auto", "clear", "keep"]
POLICIES: tuple[Tables, ...] = ("auto", "clear", "keep")


def _rows(out: array[int], n: int) -> list[list[int]]:
    assert len(out) == 32 * n
    return [list(out[32 * w:32 * w + 32]) for w in range(n)]


def _expected(solver: Solver, pos: Position) -> list[int]:
    """What card_values_many should give *pos*'s world, from Solver.card_values."""
    row = [-1] * 32
    for card, cv in solver.card_values(pos).items():
        row[card] = int(cv.declarer_wins) if pos.game.is_null else cv.value  # type: ignore[assignment]
    return row


def _many(solver: Solver, pos: Position, worlds: list[World], tables: Tables = "auto") -> list[list[int]]:
    hands = array("I", [m for w in worlds for m in w.hands])
    skats = array("I", [w.skat for w in worlds])
    return _rows(solver.card_values_many(pos, hands, skats, tables=tables), len(worlds))


def _reshuffled(pos: Position, rng: random.Random, n: int) -> list[World]:
    """*pos*'s own world and n - 1 others: the cards the mover cannot see dealt anew (same hand sizes)."""
    mover = pos.to_move
    others = [s for s in range(3) if s != mover]
    hidden = [c for c in range(32) if (pos.skat | pos.hands[others[0]] | pos.hands[others[1]]) >> c & 1]
    sizes = [pos.hands[others[0]].bit_count(), pos.hands[others[1]].bit_count()]
    worlds = [World(tuple(pos.hands), pos.skat)]  # type: ignore[arg-type]
    while len(worlds) < n:
        rng.shuffle(hidden)
        hands = list(pos.hands)
        hands[others[0]] = sum(1 << c for c in hidden[:sizes[0]])
        hands[others[1]] = sum(1 << c for c in hidden[sizes[0]:sizes[0] + sizes[1]])
        skat = sum(1 << c for c in hidden[sizes[0] + sizes[1]:])
        worlds.append(World(tuple(hands), skat))  # type: ignore[arg-type]
    return worlds


def test_every_stored_reference_answer_one_world_a_call() -> None:
    solver = Solver(tt_mb=16)
    checked = 0
    for pos, row in CASES:
        if "cards" not in row:
            continue
        want = [-1] * 32
        for name, v in row["cards"].items():
            want[parse_cards(name)[0]] = int(v)
        assert _many(solver, pos, [World(tuple(pos.hands), pos.skat)]) == [want], row  # type: ignore[arg-type]
        checked += 1
    assert checked >= 1000


@pytest.mark.parametrize("tables", POLICIES)
def test_reshuffled_worlds_against_brute_force(tables: Tables) -> None:
    """Eight worlds of each of 24 four-card positions (every contract, mid-trick), one call each, vs the reference."""
    rng = random.Random(24)
    solver = Solver(tt_mb=16)
    four = [pos for pos, row in CASES if row["tricks"] == 4]
    picked = [pos for game in {p.game for p in four} for pos in [p for p in four if p.game == game][:4]]
    assert len(picked) == 24
    for pos in picked:
        worlds = _reshuffled(pos, rng, 8)
        got = _many(solver, pos, worlds, tables)
        for world, row in zip(worlds, got, strict=True):
            wpos = world_position(pos, world)
            want = [-1] * 32
            for card, v in reference_card_values(wpos).items():
                want[card] = int(v)
            assert row == want, (tables, wpos)


def _first_leads() -> list[tuple[Position, list[World]]]:
    """Twelve worlds advise would draw at the first lead of each of the first four played fixture games."""
    out: list[tuple[Position, list[World]]] = []
    for _, game in iter_iss(FIXTURES.read_text()):
        if isinstance(game, IssGame) and game.declaration is not None and len(out) < 4:
            pos = game.start_position()
            worlds, _ = choose_worlds(mover_view(pos, game.declaration), 12, random.Random(3))
            out.append((pos, worlds))
    return out


@pytest.mark.parametrize("tables", POLICIES)
def test_first_lead_worlds_equal_card_values_world_by_world(tables: Tables) -> None:
    solver = Solver(tt_mb=32)
    for pos, worlds in _first_leads():
        want = [_expected(solver, world_position(pos, w)) for w in worlds]
        assert _many(solver, pos, worlds, tables) == want


def test_late_decisions_every_world_and_the_nodes_add_up() -> None:
    """A null and a suit position mid-trick with four cards a hand: all reshuffled worlds at once."""
    solver = Solver(tt_mb=16)
    rng = random.Random(5)
    for game_is_null in (True, False):
        pos = next(p for p, row in CASES if row["tricks"] == 4 and p.trick and p.game.is_null == game_is_null)
        worlds = _reshuffled(pos, rng, 40)
        solver.reset_stats()
        got = _many(solver, pos, worlds)
        nodes = solver.nodes
        assert nodes > 0
        assert got == [_expected(solver, world_position(pos, w)) for w in worlds]


def test_win_only_values_and_a_null_declarer_with_a_trick() -> None:
    solver = Solver(tt_mb=16)
    pos, worlds = next((p, w) for p, w in _first_leads() if not p.game.is_null)
    hands = array("I", [m for w in worlds for m in w.hands])
    skats = array("I", [w.skat for w in worlds])
    wins = _rows(solver.card_values_many(pos, hands, skats, exact=False), len(worlds))
    values = _many(solver, pos, worlds)
    assert wins == [[-1 if v < 0 else int(v >= 61) for v in row] for row in values]
    null = next(p for p, r in CASES if p.game.is_null and "cards" in r)
    null = null.copy()
    null.declarer_tricks = 1
    got = _many(solver, null, [World(tuple(null.hands), null.skat)])  # type: ignore[arg-type]
    assert got == [[-1 if c not in null.legal_moves() else 0 for c in range(32)]]


def test_numpy_arrays_and_no_skats() -> None:
    np = pytest.importorskip("numpy")
    solver = Solver(tt_mb=16)
    pos, worlds = _first_leads()[0]
    hands = np.array([w.hands for w in worlds], dtype=np.uint32)
    skats = np.array([w.skat for w in worlds], dtype=np.uint32)
    out = np.frombuffer(solver.card_values_many(pos, hands, skats), dtype=np.int16).reshape(len(worlds), 32)
    assert out.tolist() == _many(solver, pos, worlds)
    # Without skats every world counts pos's own skat instead of its own.
    flat = array("I", [m for w in worlds for m in w.hands])
    shift = [points_of(pos.skat) - points_of(w.skat) for w in worlds]
    want = [[v if v < 0 else v + d for v in row] for row, d in zip(_many(solver, pos, worlds), shift, strict=True)]
    assert _rows(solver.card_values_many(pos, flat), len(worlds)) == want
    assert any(shift)


def test_bad_worlds_are_refused_naming_the_world() -> None:
    solver = Solver(tt_mb=4)
    pos, worlds = _first_leads()[0]
    good = [m for w in worlds[:3] for m in w.hands]
    bad = list(good)
    bad[3 * 2 + 1] |= bad[3 * 2] & -bad[3 * 2]      # world 2: a card in two hands
    with pytest.raises(ValueError, match="world 2: hands overlap"):
        solver.card_values_many(pos, array("I", bad))
    short = list(good)
    short[3 * 1] &= short[3 * 1] - 1                 # world 1: a hand one card short
    with pytest.raises(ValueError, match="world 1: hand sizes"):
        solver.card_values_many(pos, array("I", short))
    with pytest.raises(ValueError, match="world 0: the skat overlaps"):
        solver.card_values_many(pos, array("I", good), array("I", [good[0], 0, 0]))
    with pytest.raises(ValueError, match="three a world"):
        solver.card_values_many(pos, array("I", good[:-1]))
    with pytest.raises(ValueError, match="skats holds 2 masks for 3 worlds"):
        solver.card_values_many(pos, array("I", good), array("I", [0, 0]))
    with pytest.raises(TypeError, match="32-bit unsigned"):
        solver.card_values_many(pos, array("q", good))
    with pytest.raises(TypeError, match="32-bit unsigned"):
        solver.card_values_many(pos, good)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tables must be"):
        solver.card_values_many(pos, array("I", good), tables="sometimes")  # type: ignore[arg-type]
    assert len(solver.card_values_many(pos, array("I"))) == 0
