"""Score bands of a picked-up suit or grand game, and :class:`Probe`: one position's facts, asked lazily.

For a picked-up suit or grand game the matadors (over the twelve cards)
and the bid are fixed, so a discard's score depends only on its *band*:
declarer without a trick, <= 30, 31..60, 61..89, >= 90, every trick
(:data:`NO_TRICK` .. :data:`ALL_TRICKS`, low to high).  :class:`Bands`
holds the six scores and checks that a higher band never scores less, which
the discard searches of ``best``, ``odds`` and ``bid`` rely on.
:class:`Probe` keeps bounds on one position's value and its two trick facts
and asks the solver only what they do not decide: every answer is exact
double-dummy.
"""
from __future__ import annotations

import itertools

from skatdd.core.cards import points_of
from skatdd.core.position import Position
from skatdd.core.rules import (
    OUT_OF_SCHNEIDER_POINTS,
    SCHNEIDER_POINTS,
    SCHNEIDERED_POINTS,
    WIN_POINTS,
    Game,
)
from skatdd.core.scoring import Declaration, score_game
from skatdd.engine.solve import Solver

__all__ = [
    "ALL_TRICKS", "BAND_SAMPLES", "LOST", "NO_TRICK", "SCHNEIDER", "SCHNEIDERED", "WON", "Bands", "Probe", "band_of",
    "tricks_arg",
]

# Band indices, low to high.
NO_TRICK, SCHNEIDERED, LOST, WON, SCHNEIDER, ALL_TRICKS = range(6)

#: Per band, ``(points, tricks)`` of one result in it, for :func:`score_game`: every result of a band
#: scores the same (win, schneider and schwarz are decided by the band), so the sample's score is the band's.
BAND_SAMPLES: tuple[tuple[int, int | None], ...] = (
    (0, 0), (SCHNEIDERED_POINTS, None), (WIN_POINTS - 1, None), (WIN_POINTS, None), (SCHNEIDER_POINTS, None),
    (120, 10))
#: The card points that prove each band from LOST up (the lower two are trick facts, the top one too).
_FLOOR = {LOST: OUT_OF_SCHNEIDER_POINTS, WON: WIN_POINTS, SCHNEIDER: SCHNEIDER_POINTS}


def band_of(value: int, takes_all: bool, trickless: bool) -> int:
    """The band of an outcome: its value and whether the declarer takes every / no trick."""
    if takes_all:
        return ALL_TRICKS
    if trickless:
        return NO_TRICK
    if value >= SCHNEIDER_POINTS:
        return SCHNEIDER
    if value >= WIN_POINTS:
        return WON
    if value >= OUT_OF_SCHNEIDER_POINTS:
        return LOST
    return SCHNEIDERED


def tricks_arg(takes_all: bool, trickless: bool) -> int | None:
    """``tricks`` for :func:`score_game`: 10, 0, or ``None`` (neither side schwarz)."""
    return 10 if takes_all else 0 if trickless else None


class Bands:
    """Scores of the six bands of one picked-up suit or grand game (matadors and bid fixed)."""

    def __init__(self, game: Game, matadors: int, bid: int | None) -> None:
        decl = Declaration(game)
        self.score = [score_game(decl, matadors=matadors, points=p, tricks=t, bid=bid).score for p, t in BAND_SAMPLES]
        # The whole search relies on this: a higher band never scores less.
        assert all(a <= b for a, b in itertools.pairwise(self.score)), self.score

    def above(self, score: int) -> int | None:
        """The lowest band scoring more than *score*, or ``None``."""
        for b in range(6):
            if self.score[b] > score:
                return b
        return None

    def lowest_equal(self, score: int) -> int:
        """The lowest band scoring exactly *score*."""
        return self.score.index(score)



class Probe:
    """What is known about one suit/grand position (a declarer hand and its discard or skat).

    Caches bounds on the value and the two trick facts, and asks the solver
    only what the bounds do not already decide.  Every answer is exact
    double-dummy; nothing is guessed.
    """

    __slots__ = ("_all", "_none", "discard_points", "hi", "lo", "pos", "solver")

    def __init__(self, solver: Solver, pos: Position) -> None:
        self.pos = pos
        self.solver = solver
        self.discard_points = points_of(pos.skat)
        self.lo = self.discard_points   # the declarer always keeps his discard
        self.hi = 120
        self._all: bool | None = None
        self._none: bool | None = None

    def at_least(self, target: int) -> bool:
        """Does the declarer reach *target* card points (discard included)?"""
        if target <= self.lo:
            return True
        if target > self.hi:
            return False
        if self.solver.reaches(self.pos, target):
            self.lo = target
            return True
        self.hi = target - 1
        return False

    def value(self) -> int:
        """The exact value.

        The two trick questions go first: they cost next to nothing next to
        a points search (a declarer who takes every trick is seen by the
        engine's sure-trick bounds at once, while proving 120 points means
        refuting every way the defenders can discard), and either one, when
        true, fixes the value: every trick is 120 points, no trick is the
        discard's points.  Otherwise the engine's exact search.
        """
        if self.lo < self.hi and self.hi == 120:
            self.takes_all()
        if self.lo < self.hi and self.lo <= self.discard_points:
            self.trickless()
        if self.lo < self.hi:
            v = self.solver.value(self.pos, lower=self.lo, upper=self.hi)
            assert v is not None
            self.lo = self.hi = v
        return self.lo

    def takes_all(self) -> bool:
        """Does the declarer take every trick?  (Only possible with value 120.)"""
        if self._all is None:
            self._all = self.hi >= 120 and self.solver.declarer_takes_all(self.pos)
            if self._all:
                self.lo = self.hi = 120
        return self._all

    def trickless(self) -> bool:
        """Can the defenders keep the declarer from taking any trick?  (Then value = his discard.)"""
        if self._none is None:
            self._none = self.lo <= self.discard_points and self.solver.defenders_take_all(self.pos)
            if self._none:
                self.hi = self.discard_points
        return self._none

    def outcome(self) -> tuple[int, bool, bool]:
        """``(value, takes_all, trickless)``, exact."""
        v = self.value()
        return v, (v == 120 and self.takes_all()), (v == self.discard_points and self.trickless())

    def band(self) -> int:
        return band_of(*self.outcome())

    def reaches_band(self, band: int) -> bool:
        """Is the position's band *band* or higher?  At most one threshold question, never an exact value.

        Every trick is the top band; a trick taken is every band above "no
        trick"; the bands between are their card points' floors (31, 61, 90).
        """
        if band == ALL_TRICKS:
            return self.takes_all()
        if band == SCHNEIDERED:
            return not self.trickless()
        return band == NO_TRICK or self.at_least(_FLOOR[band])

