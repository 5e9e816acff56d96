"""Double-dummy solving: the Python API over the Cython engine.

A :class:`Solver` owns one engine and its transposition table; reuse it for
many positions (entries stay valid across positions, deals and thresholds).
Every method takes a :class:`~skatdd.core.position.Position` and leaves it
unchanged.

Values follow docs/rules.md, Double-dummy values: in suit and grand the *value* of a position is
the declarer's final card points, that is ``declarer_points`` + the skat's
points + every point the declarer wins from here on (the cards already on
the current trick included), the declarer maximising and both defenders
minimising.  In null there is no value (``None``) and ``declarer_wins`` says
whether the declarer can avoid every trick.

>>> from skatdd.formats.readers import load_deal
>>> spec = load_deal("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
...                  "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ", game=Game.DIAMONDS, declarer=0)
>>> solver = Solver(tt_mb=16)
>>> solver.value(spec.position())
120
>>> solver.reaches(spec.position(), 90), solver.declarer_takes_all(spec.position())
(True, True)
>>> values = solver.card_values(spec.position())    # keyed by Card (its int finds the same entry)
>>> values[Card("DA")], values[Card("HA")].value
(CardValue(card=Card('DA'), value=96, declarer_wins=True), 120)
>>> solver.line(spec.position())[:3]
[Card('HA'), Card('C9'), Card('H9')]

Cards cross into the engine as ints and come back as :class:`~skatdd.core.cards.Card`
objects: :meth:`Solver.card_values` is keyed by card, :attr:`CardValue.card`
and every line are cards.  Only :meth:`Solver.card_values_many`, the bulk
call, answers in an array indexed by card int.
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from skatdd.core.cards import CARDS, Card, card_name, points_of
from skatdd.core.errors import quote
from skatdd.core.position import Position
from skatdd.core.printable import Printable
from skatdd.core.rules import WIN_POINTS, Game

from . import _engine

if TYPE_CHECKING:
    from typing_extensions import Buffer

MODES = ("value", "win", "all")


def solver_or_default(solver: Solver | None) -> Solver:
    """The one way of passing a solver: *solver* itself, or a fresh default one.

    Every function above the engine that solves takes ``solver: Solver | None
    = None`` (keyword-only) and nothing else about the engine: no ``tt_mb``.
    ``None`` means a new :class:`Solver` with the default table.  Reuse one
    solver across calls to keep its table warm; a function that runs worker
    processes sends a pickled copy (see :meth:`Solver.__reduce__`).
    """
    return solver if solver is not None else Solver()


def _cards(line: list[int]) -> list[Card]:
    """The engine's card ints as :class:`~skatdd.core.cards.Card` objects (the boundary where ints become cards)."""
    return [CARDS[c] for c in line]


@dataclass
class CardValue:
    """Value of one legal card of the player to move."""

    card: Card
    value: int | None        # suit/grand: the position's value after the card; None in null
    declarer_wins: bool

    def to_json(self) -> dict[str, Any]:
        return {"card": card_name(self.card), "value": self.value, "declarer_wins": self.declarer_wins}


@dataclass
class SolveResult(Printable):
    """What ``skatdd solve`` reports for one position (docs/cli.md).

    ``position`` is a copy of the position solved (set by :meth:`Solver.solve`),
    so that ``str(result)`` is ``skatdd solve``'s report; it is left out of
    the JSON, the repr and comparisons.
    """

    game: Game
    declarer: int
    to_move: int
    value: int | None
    declarer_wins: bool
    line: list[Card]
    cards: list[CardValue] | None = None
    nodes: int = 0
    seconds: float = 0.0
    position: Position | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game.label,
            "declarer": self.declarer,
            "to_move": self.to_move,
            "value": self.value,
            "declarer_wins": self.declarer_wins,
            "line": [card_name(c) for c in self.line],
        }
        if self.cards is not None:
            out["cards"] = [cv.to_json() for cv in self.cards]
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


class Solver:
    """Exact double-dummy queries on positions, backed by one engine.

    *tt_mb* bounds the transposition table (MiB).  Not thread-safe: use one
    solver per thread or process.
    """

    def __init__(self, tt_mb: int = 128) -> None:
        self.engine = _engine.Engine(tt_mb)

    def __reduce__(self) -> tuple[type[Solver], tuple[int]]:
        """Pickle as the configuration, not the table.

        This is how a solver reaches worker processes: a function that fans
        out (``jobs``, ``dask``) sends its *solver* argument, and each worker
        builds its own engine with the same table bound.  The table itself
        (up to *tt_mb* MiB of process-local memory) never travels.
        """
        return (Solver, (self.tt_mb,))

    # -- loading -----------------------------------------------------------
    def _load(self, pos: Position, mode: int) -> None:
        self.engine.set_position(int(pos.game), pos.declarer, mode, pos.hands, pos.leader, pos.trick)

    def _base(self, pos: Position) -> int:
        """Points already the declarer's: completed tricks plus skat."""
        return pos.declarer_points + points_of(pos.skat)

    @property
    def nodes(self) -> int:
        """Nodes searched since the last :meth:`reset_stats`."""
        return self.engine.nodes

    @property
    def tt_mb(self) -> int:
        """Size bound of the transposition table in MiB."""
        return self.engine.tt_mb

    def reset_stats(self) -> None:
        """Zero the node and table counters."""
        self.engine.reset_stats()

    def clear(self) -> None:
        """Empty the transposition table and shrink it back to its starting size.

        Entries never go stale, so this is never needed for correctness.  It
        is for cold timings, and worth it between unrelated deals in a long
        loop (Monte Carlo over hidden cards): the table only grows as far as
        one deal needs and stays in cache (measured: a solver kept across
        350 unrelated deals took 7.2 s, one cleared before each 6.2 s).
        """
        self.engine.clear()

    # -- suit and grand ----------------------------------------------------
    def value(self, pos: Position, *, lower: int | None = None, upper: int | None = None) -> int | None:
        """Exact double-dummy value (declarer's final card points); ``None`` in null.

        *lower* / *upper*, when known (for example the value of the position
        before, which bounds the value after an optimal or a worse card),
        narrow the search; they must be true bounds.
        """
        if pos.game.is_null:
            return None
        self._load(pos, _engine.POINTS)
        base = self._base(pos)
        lo = 0 if lower is None else max(0, lower - base)
        hi = -1 if upper is None else max(lo, upper - base)
        return base + self.engine.exact(lo, hi)

    def reaches(self, pos: Position, target: int) -> bool:
        """True when the declarer can finish with at least *target* card points (suit/grand)."""
        if pos.game.is_null:
            raise ValueError("reaches() needs a suit or grand game; use declarer_wins() for null")
        self._load(pos, _engine.POINTS)
        return self.engine.at_least(target - self._base(pos))

    def declarer_takes_all(self, pos: Position) -> bool:
        """True when the defenders end schwarz: they have no trick yet and the declarer takes every one left."""
        return pos.defender_tricks == 0 and self.declarer_takes_rest(pos)

    def defenders_take_all(self, pos: Position) -> bool:
        """True when the declarer ends schwarz: he has no trick yet and the defenders take every one left."""
        return pos.declarer_tricks == 0 and self.defenders_take_rest(pos)

    def declarer_takes_rest(self, pos: Position) -> bool:
        """True when the declarer takes every remaining trick (the current one included), whatever came before."""
        self._load(pos, _engine.DEFENDER_TRICKS)
        return not self.engine.at_least(1)

    def defenders_take_rest(self, pos: Position) -> bool:
        """True when the defenders take every remaining trick (the current one included), whatever came before."""
        self._load(pos, _engine.DECLARER_TRICKS)
        return not self.engine.at_least(1)

    # -- any game ----------------------------------------------------------
    def declarer_wins(self, pos: Position) -> bool:
        """True when the declarer wins double-dummy (61+ points; null: no trick)."""
        if pos.game.is_null:
            if pos.declarer_tricks > 0:
                return False
            self._load(pos, _engine.NULL_GAME)
            return not self.engine.at_least(1)
        return self.reaches(pos, WIN_POINTS)

    def card_values(self, pos: Position, *, exact: bool = True) -> dict[Card, CardValue]:
        """Value of every legal card of the player to move.

        Suit/grand with *exact*: each card's value; without: only whether the
        declarer still reaches 61 (``value`` is then ``None``).  Keyed by
        :class:`~skatdd.core.cards.Card` (an int key finds the same entry).
        """
        if pos.game.is_null:
            if pos.declarer_tricks > 0:
                return {c: CardValue(c, None, False) for c in pos.legal_moves()}
            self._load(pos, _engine.NULL_GAME)
            reach = self.engine.card_values(exact=False, target=1)
            return {CARDS[c]: CardValue(CARDS[c], None, not r) for c, r in reach.items()}
        base = self._base(pos)
        self._load(pos, _engine.POINTS)
        if exact:
            qs = self.engine.card_values(exact=True)
            return {CARDS[c]: CardValue(CARDS[c], base + q, base + q >= WIN_POINTS) for c, q in qs.items()}
        reach = self.engine.card_values(exact=False, target=WIN_POINTS - base)
        return {CARDS[c]: CardValue(CARDS[c], None, bool(r)) for c, r in reach.items()}

    def card_values_many(self, pos: Position, hands: Buffer, skats: Buffer | None = None, *, exact: bool = True,
                         tables: Literal["auto", "clear", "keep"] = "auto") -> array[int]:
        """:meth:`card_values` in many worlds of one decision, in one engine call that runs without the GIL.

        *pos* gives what the worlds share: contract, declarer, leader, the
        trick on the table, points and tricks so far (its hands and skat are
        not used).  World w holds the hands ``hands[3w:3w+3]`` (card masks of
        seats 0, 1, 2) and the skat ``skats[w]`` (``None``: *pos*'s skat in
        every world); both are C-contiguous buffers of 32-bit unsigned ints
        (``array('I')``, numpy ``uint32`` of shape (n, 3) and (n,)).  Returns
        ``array('h')`` of 32 entries a world, by card int (numpy:
        ``numpy.frombuffer(out, numpy.int16).reshape(n, 32)``), -1 for a card
        that is not legal, else what :meth:`card_values` gives it: suit and
        grand, the declarer's final card points (*exact*) or 1 when he still
        reaches 61 (0 when not); null, 1 when the declarer still wins.
        *tables* is the table policy between worlds (see
        ``Engine.card_values_many``; ``"auto"`` is the fastest measured,
        README "Speed").  ValueError names a world whose hands do not fit.
        """
        if pos.game.is_null:   # 1 = no trick; a declarer with a trick already has lost (target 0: no search)
            return self.engine.card_values_many(int(pos.game), pos.declarer, _engine.NULL_GAME, hands, pos.leader,
                                                pos.trick, exact=False, target=0 if pos.declarer_tricks > 0 else 1,
                                                skats=skats, tables=tables)
        base = pos.declarer_points + (points_of(pos.skat) if skats is None else 0)
        return self.engine.card_values_many(int(pos.game), pos.declarer, _engine.POINTS, hands, pos.leader, pos.trick,
                                            exact=exact, target=WIN_POINTS, base=base, skats=skats, tables=tables)

    def card_reaches_many(self, pos: Position, hands: Buffer, skats: Buffer, question: str,
                          target: int = WIN_POINTS) -> array[int]:
        """One threshold question about every legal card in many worlds of one decision, in one engine call.

        Suit and grand only; *pos*, *hands* and *skats* as in :meth:`card_values_many`
        (*skats* required: one mask a world).  Per world 32 entries by card
        int, -1 for a card that is not legal, else 1 when the answer is yes:
        *question* ``"points"``, the declarer finishes with at least *target*
        card points (skat included); ``"takes_rest"``, he takes every trick
        left (the current one included); ``"takes_a_trick"``, he takes at
        least one trick from here.  Each world is searched with the tables
        emptied first (``tables="clear"``), as :meth:`card_values_many` is by
        its callers.
        """
        if pos.game.is_null:
            raise ValueError("card_reaches_many() needs a suit or grand game")
        game = int(pos.game)
        if question == "points":
            return self.engine.card_values_many(game, pos.declarer, _engine.POINTS, hands, pos.leader, pos.trick,
                                                exact=False, target=target, base=pos.declarer_points, skats=skats,
                                                tables="clear")
        if question == "takes_rest":   # the defenders' tricks from here stay below 1
            return self.engine.card_values_many(game, pos.declarer, _engine.DEFENDER_TRICKS, hands, pos.leader,
                                                pos.trick, exact=False, target=1, skats=skats, tables="clear")
        if question == "takes_a_trick":
            return self.engine.card_values_many(game, pos.declarer, _engine.DECLARER_TRICKS, hands, pos.leader,
                                                pos.trick, exact=False, target=1, skats=skats, tables="clear")
        raise ValueError(f"unknown question {quote(question)}")

    def line(self, pos: Position, *, value: int | None = None) -> list[Card]:
        """A principal variation from *pos* to the last card (null: to the trick the declarer must take).

        Pass the known *value* (suit/grand) to save a search.
        """
        if pos.game.is_null:
            if pos.declarer_tricks > 0:
                return []
            self._load(pos, _engine.NULL_GAME)
            return _cards(self.engine.line(1, exact=False, stop_on_score=True))
        base = self._base(pos)
        self._load(pos, _engine.POINTS)
        q = self.engine.exact() if value is None else value - base
        return _cards(self.engine.line(q, exact=True))

    def solve(self, pos: Position, mode: str = "value") -> SolveResult:
        """Everything ``skatdd solve`` reports, for mode ``value``, ``win`` or ``all``.

        ``value``: exact value and its line; ``win``: only win or loss (faster;
        ``value`` is ``None``) with a line that keeps the result; ``all``: as
        ``value`` plus every legal card's value.
        """
        if mode not in MODES:
            raise ValueError(f"unknown mode {quote(mode)}: expected one of {', '.join(MODES)}")
        start = time.perf_counter()
        self.reset_stats()
        value: int | None = None
        if pos.game.is_null:
            wins = self.declarer_wins(pos)
            line = self.line(pos)
        elif mode == "win":
            base = self._base(pos)
            self._load(pos, _engine.POINTS)
            wins = self.engine.at_least(WIN_POINTS - base)
            line = _cards(self.engine.line(WIN_POINTS - base, exact=False))
        else:
            value = self.value(pos)
            assert value is not None  # only null has no value, and null was handled above
            wins = value >= WIN_POINTS
            line = self.line(pos, value=value)
        cards = None
        if mode == "all":
            cards = sorted(self.card_values(pos).values(), key=lambda cv: cv.card, reverse=True)
        return SolveResult(
            game=pos.game, declarer=pos.declarer, to_move=pos.to_move, value=value,
            declarer_wins=wins, line=line, cards=cards, nodes=self.nodes,
            seconds=time.perf_counter() - start, position=pos.copy(),
        )
