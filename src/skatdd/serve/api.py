"""The JSON API's answers: ``POST /api/solve`` and ``POST /api/advise`` compute what the CLI prints, with its code.

* :func:`solve_request`: the body is a JSON position, read by the same
  :func:`skatdd.formats.position_input.read_position` as ``skatdd solve``; the
  answer is :meth:`skatdd.engine.solve.SolveResult.to_json` of mode ``all``, the
  object ``skatdd solve BODY --mode all --json`` prints.
* :func:`advise_request`: the body is ``{"position": ..., "worlds": N,
  "seed": S}`` (and optionally ``played``, ``after``, ``game``,
  ``declarer``, ``inference``, ``honest``, ``honest_tricks``: the command's
  options of those names).  The fields are
  read by serve's own schema (:mod:`skatdd.serve.schema`), each as the
  command's option reads it (so a bad value gets the CLI's message), the
  position read as the command reads it
  (:func:`skatdd.formats.position_input.advice_position`), and the answer is
  :meth:`skatdd.analysis.advise.api.Advice.to_json`, the object ``skatdd advise --json``
  prints.

The solver's table is emptied before each of these, so ``nodes`` is the
count a fresh ``skatdd solve`` / ``skatdd advise --jobs 1`` with the same
``--tt-mb`` reports too; only ``seconds`` differs.

The server reads no file a client names: the CLI's DEAL and POSITION may be
paths, but here only text that is itself a JSON object (``{`` first) or an
ISS record (``(;`` first) is handed to the readers, and those never touch
the file system for it.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from skatdd.analysis.advise.api import advise, honest_refusal
from skatdd.analysis.inference.api import input_auction
from skatdd.core.errors import DealFormatError, plural, shorten_quoted
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.json_object import load_json
from skatdd.formats.position_input import PositionInput, advice_position, read_position

from .schema import ADVISE_OPTIONS, RequestError, read_advise_request

__all__ = ["ADVISE_OPTIONS", "RequestError", "advise_request", "one_line", "solve_request"]


def one_line(message: str) -> str:
    """*message* as the CLI prints it after ``Error:``: one line, long quoted tokens cut (:func:`shorten_quoted`)."""
    return shorten_quoted(" ".join(message.split()))


def _read(text: str, *, game: tuple[Game, bool] | None, declarer: int | None) -> PositionInput:
    """*text* read as the CLI reads its DEAL / POSITION; the input's warnings logged on stderr, as the CLI prints them."""
    read = read_position(text, game=game, declarer=declarer)
    for warning in read.warnings:
        print(f"Warning: {warning}", file=sys.stderr)
    return read


def solve_request(body: str, *, solver: Solver | None = None) -> dict[str, Any]:
    """``POST /api/solve``: the body (a JSON position) solved as ``skatdd solve BODY --mode all --json`` solves it.

    *solver* (default: a fresh one) is emptied first.  Raises
    :class:`~skatdd.core.errors.SkatddError` subclasses for bad input, with
    the CLI's messages.
    """
    solver = solver_or_default(solver)
    if not body.lstrip().startswith("{"):
        raise RequestError("the request body must be a JSON position object, as 'skatdd solve' reads it")
    pos = _read(body, game=None, declarer=None).position
    solver.clear()
    return solver.solve(pos, "all").to_json()


def advise_request(body: str, *, solver: Solver | None = None, progress: Callable[[int, int], None],
                   max_worlds: int) -> dict[str, Any]:
    """``POST /api/advise``: the body's position advised on as ``skatdd advise POSITION ... --json`` does.

    ``progress(0, 0)`` is called once the request is read and valid, then
    ``progress(done, total)`` as the worlds are solved.  A ``worlds`` above
    *max_worlds* is refused (a server's memory and time are bounded; the
    CLI has no such limit).  The worlds are solved by *solver* (default: a
    fresh one), emptied first.  Raises :class:`~skatdd.core.errors.SkatddError`
    subclasses and Click's option errors for bad input.
    """
    solver = solver_or_default(solver)
    request = read_advise_request(load_json(body))
    if request.worlds > max_worlds:
        raise RequestError(f"--worlds {request.worlds}: this server solves at most {plural(max_worlds, 'world')} "
                           "a request")
    read = _read(request.position, game=request.game, declarer=request.declarer)
    pos = advice_position(read, played=request.played, after=request.after)
    declaration = read.spec.declaration()
    bids = input_auction(read.bids) if request.inference in ("bids", "all") else ()
    refusal = honest_refusal(pos, request.honest_tricks) if request.honest else None
    if refusal is not None:
        raise DealFormatError(f"--honest: {refusal}")  # the CLI's words (cli/advise.py)
    progress(0, 0)
    solver.clear()
    return advise(pos, declaration, worlds=request.worlds, seed=request.seed, solver=solver, progress=progress,
                  inference=request.inference, bids=bids,
                  honest=request.honest_tricks if request.honest else None).to_json()
