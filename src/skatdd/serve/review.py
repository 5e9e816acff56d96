"""The board's third question: the review of a loaded record's decisions before the first card.

:func:`board_review` (``POST /api/board/review``) takes ``{"text": ..., "skats"?, "worlds"?, "seed"?}``:
the text the board loaded (an ISS record, or a JSON deal with ``bids``), read as the board reads it
(:func:`skatdd.serve.board.read_text`), and the review's budget (``analyse``'s ``--bid-skats``,
``--bid-worlds``, ``--bid-seed``; the defaults are its).  The answer is ``{"decisions": ...}``,
``analyse --json``'s ``decisions`` object (:mod:`skatdd.analysis.review`), with ``text``: its lines as the
text report prints them; ``decisions`` is ``null`` with a ``reason`` when the input has no auction.
``skats`` x ``worlds`` is capped by the server's ``--max-worlds``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skatdd.analysis.analyse.api import analyse_input
from skatdd.analysis.review.api import REVIEW_SEED, REVIEW_SKATS, REVIEW_WORLDS, review_decisions
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.json_object import load_json
from skatdd.present.review import decision_lines, summary_lines

from .api import RequestError
from .board import read_text

__all__ = ["board_review"]


def _count(obj: dict[str, Any], name: str, default: int) -> int:
    value = obj.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RequestError(f"field {name!r} must be a whole number of at least 1")
    return value


def board_review(body: str, *, solver: Solver | None = None, max_worlds: int = 5000,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """``POST /api/board/review`` (module docstring); bad input raises a :class:`~skatdd.core.errors.SkatddError`."""
    obj = load_json(body)
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        raise RequestError('the request body must be a JSON object: {"text": "<record>", "skats": S, "worlds": W}')
    skats, worlds = _count(obj, "skats", REVIEW_SKATS), _count(obj, "worlds", REVIEW_WORLDS)
    seed = obj.get("seed", REVIEW_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RequestError("field 'seed' must be a whole number from 0 below 2**63")
    if skats * worlds > max_worlds:
        raise RequestError(f"skats x worlds = {skats * worlds:,} is over this server's limit of {max_worlds:,} worlds")
    solver = solver_or_default(solver)
    analysis = analyse_input(read_text(obj["text"], None, False, None), solver=solver, review=False)
    decisions = review_decisions(analysis, skats=skats, worlds=worlds, seed=seed, jobs=1, solver=solver)
    if decisions is None:
        return {"decisions": None, "reason": "the input has no auction: an ISS record or a JSON deal with 'bids'"}
    out = decisions.to_json()
    text = [*decision_lines(out, analysis.players), "", *summary_lines(out, analysis.players)]
    return {"decisions": out, "players": list(analysis.players), "text": text}
