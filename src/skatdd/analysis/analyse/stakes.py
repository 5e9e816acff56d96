"""The result at stake in each position of a game, and the first card that changed it.

Suit and grand: the *stake* of a position is what the declared game's
score would say if the position were played out double-dummy: score the
declaration (:func:`skatdd.core.scoring.score_game`, with the game's matadors
and bid) with points = the position's value and tricks = 10 when the
declarer can take every remaining trick and the defenders have none
(asked only when the value is 120), 0 when the defenders can keep him
from taking any (asked only when the declarer has no trick and the value
is the skat's points alone).  That gives three results: the win (61, 90
after announcing schneider, every trick after announcing schwarz or
playing ouvert, the overbid rule included), schneider (either side) and
schwarz (either side).  ``first_decisive`` is the index in ``plays`` of
the first card after which the *win* differs from before it; when no card
changed the win, the first card that changed schneider; when none
changed that, the first that changed schwarz; else ``None``.
``decisive_stake`` names which of the three it was.  Null: the first
card with cost 1 (stake ``win``).

:func:`stakes` gives every position's :class:`~skatdd.analysis.analyse.results.Stake`
along a :class:`~skatdd.analysis.analyse.results.PlayLine`, :func:`first_decisive`
the card that changed it first.
"""
from __future__ import annotations

from collections.abc import Sequence

from skatdd.core.position import Position
from skatdd.core.scoring import Declaration, score_game
from skatdd.engine.solve import Solver, solver_or_default

from .results import PlayLine, Stake

__all__ = ["STAKES", "first_decisive", "stakes"]

#: What a decisive card can change, in order of importance.
STAKES = ("win", "schneider", "schwarz")


class _StakeOf:
    """The :class:`Stake` of a suit or grand position (module docstring)."""

    def __init__(self, solver: Solver, declaration: Declaration, matadors: int, bid: int | None) -> None:
        self.solver = solver
        self.declaration = declaration
        self.matadors = matadors
        self.bid = bid

    def __call__(self, pos: Position, value: int) -> Stake:
        """The stake of *pos*, whose value is *value*: schwarz is asked only where the value allows it."""
        tricks: int | None = None
        if value == 120 and pos.defender_tricks == 0 and self.solver.declarer_takes_all(pos):
            tricks = 10
        elif pos.declarer_tricks == 0 and value == pos.skat_points and self.solver.defenders_take_all(pos):
            tricks = 0
        score = score_game(self.declaration, matadors=self.matadors, points=value, tricks=tricks, bid=self.bid)
        return Stake(score.declarer_wins, score.schneider, score.schwarz)


def stakes(start: Position, line: PlayLine, *, declaration: Declaration, matadors: int, bid: int | None,
           solver: Solver | None = None) -> list[Stake]:
    """The :class:`Stake` of every position of *line*: before each card, then after the last.

    Suit and grand: scored with *declaration*, *matadors* and *bid* (the
    overbid rule included); *solver* (``None``: a new default one) answers
    the few schwarz questions.
    Null: the declarer wins when the position's value is 1.
    """
    if start.game.is_null:
        return [Stake(bool(value), None, None) for value in line.values]
    stake_of = _StakeOf(solver_or_default(solver), declaration, matadors, bid)
    pos = start.copy()
    out = [stake_of(pos, line.values[0])]
    for play in line.plays:
        pos.play(play.card)
        out.append(stake_of(pos, play.value_after))
    return out


def first_decisive(line: PlayLine, stakes_: Sequence[Stake]) -> tuple[int | None, str | None]:
    """``(index, stake)`` of the first decisive card of *line*, or ``(None, None)`` (module docstring).

    The first card that changed the win; else the first that changed
    schneider; else the first that changed schwarz.  *stakes_* are
    :func:`stakes` of *line*.  In null this is the first card with cost 1.
    """
    for level, name in enumerate(STAKES):
        for play in line.plays:
            if stakes_[play.index][level] != stakes_[play.index + 1][level]:
                return play.index, name
    return None, None
