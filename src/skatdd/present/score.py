"""The text of ``skatdd score``: :class:`~skatdd.core.scoring.Score` as printed.

:func:`report_lines` is the report; ``str(score)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from skatdd.core.printable import renders
from skatdd.core.rules import SCHNEIDER_POINTS, WIN_POINTS
from skatdd.core.scoring import BASE_VALUES, Declaration, Score

__all__ = ["matadors_label", "report_lines", "score_text"]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def matadors_label(m: int) -> str:
    """``with 3`` for +3, ``without 2`` for -2."""
    return f"with {m}" if m > 0 else f"without {-m}"


def _result_line(decl: Declaration, score: Score) -> str:
    """Who won and why, plus the schneider/schwarz reached, in one line (*decl*: the score's declaration)."""
    points, tricks, bid = score.points, score.tricks, score.bid
    if decl.game.is_null:
        assert tricks is not None
        if score.declarer_wins:
            return "won: the declarer took no trick"
        return f"lost: the declarer took {tricks} trick{'s' if tricks != 1 else ''}"
    assert points is not None
    played = f"{points} points" + (f", {tricks} trick{'s' if tricks != 1 else ''}" if tricks is not None else "")
    if score.declarer_wins:
        text = f"won with {played}"
    else:
        if score.overbid:
            base = BASE_VALUES[decl.game]
            charged = -score.score // 2
            reason = (
                f"overbid: game value {score.game_value} is below the bid {bid}, "
                f"charged {charged} = {charged // base} x {base}"
            )
        elif points < WIN_POINTS:
            reason = f"{WIN_POINTS} points needed"
        elif decl.schwarz and tricks != 10:
            reason = ("ouvert" if decl.ouvert else "schwarz announced") + ": every trick needed"
        else:
            reason = f"schneider announced: {SCHNEIDER_POINTS} points needed"
        text = f"lost with {played} ({reason})"
    # Schwarz implies schneider for the same party (no trick leaves at most 22 points).
    for party, loser in (("declarer", "defenders are"), ("defenders", "declarer is")):
        if score.schwarz == party:
            text += f"; the {loser} schneider and schwarz"
        elif score.schneider == party:
            text += f"; the {loser} schneider"
    return text


def report_lines(score: Score) -> list[str]:
    """The readable report of ``skatdd score``, one string per line.

    Needs the declaration the score holds (:func:`~skatdd.core.scoring.score_game` sets it); ``ValueError`` without.
    """
    decl = score.declaration
    if decl is None:
        raise ValueError("a Score built without its declaration has no report")
    lines = [f"Game:        {decl}" + (f" (bid {score.bid})" if score.bid is not None else "")]
    if decl.game.is_null:
        lines.append(f"Game value:  {score.game_value} (fixed null value)")
    else:
        parts = [f"{label} ({count})" if count != 1 else label for label, count in score.levels]
        lines.append(f"Matadors:    {matadors_label(score.matadors)}")
        lines.append(f"Multiplier:  {score.multiplier} = " + " + ".join(parts))
        lines.append(f"Game value:  {score.multiplier} x {BASE_VALUES[decl.game]} = {score.game_value}")
    lines.append(f"Result:      {_result_line(decl, score)}")
    lines.append(f"Score:       {_signed(score.score)}")
    defenders = f"+{score.seeger_defenders}" if score.seeger_defenders else "0"
    lines.append(f"Seeger:      {_signed(score.seeger)} for the declarer, {defenders} for each defender")
    return lines


@renders(Score)
def score_text(score: Score) -> str:
    """What ``skatdd score`` prints for *score*."""
    return "\n".join(report_lines(score))
