"""The JSON API's answers: ``POST /api/solve`` and ``POST /api/advise`` compute what the CLI prints, with its code.

* :func:`solve_request`: the body is a JSON position, read by the same
  :func:`skatdd.formats.position_input.read_position` as ``skatdd solve``; the
  answer is :meth:`skatdd.engine.solve.SolveResult.to_json` of mode ``all``, the
  object ``skatdd solve BODY --mode all --json`` prints.
* :func:`advise_request`: the body is ``{"position": ..., "worlds": N,
  "seed": S}`` (and optionally ``played``, ``after``, ``game``,
  ``declarer``: the command's options of those names).  The fields become
  the command line of ``skatdd advise``, parsed by the command's own Click
  options (so a bad value gets the CLI's message: the one import of
  :mod:`skatdd.cli` here), the position read as the command reads it
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

from skatdd.analysis.advise.api import advise
from skatdd.cli.advise import command as advise_command
from skatdd.core.errors import SkatddError, plural, quote, shorten_quoted
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.json_object import load_json
from skatdd.formats.json_text import json_text
from skatdd.formats.position_input import PositionInput, advice_position, read_position

__all__ = ["ADVISE_OPTIONS", "RequestError", "advise_arguments", "advise_request", "one_line", "solve_request"]

#: The optional fields of an advise request and the ``skatdd advise`` option each stands for.
ADVISE_OPTIONS = {"worlds": "--worlds", "seed": "--seed", "played": "--played", "after": "--after",
                  "game": "--game", "declarer": "--declarer"}


class RequestError(SkatddError):
    """A request body the CLI has no message for: not a JSON object, a missing or unknown field, a server limit."""


def one_line(message: str) -> str:
    """*message* as the CLI prints it after ``Error:``: one line, long quoted tokens cut (:func:`shorten_quoted`)."""
    return shorten_quoted(" ".join(message.split()))


def _is_record_text(text: str) -> bool:
    """True for text the readers take as it is, never as a path: a JSON object or an ISS record."""
    return text.lstrip().startswith(("{", "(;"))


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


def _position_text(value: Any) -> str:
    """The POSITION argument of an advise request's ``position`` field: an object's JSON, or a record's text."""
    if isinstance(value, dict):
        return json_text(value)
    if isinstance(value, str) and _is_record_text(value):
        return value
    raise RequestError("field 'position' must be a JSON position object or the text of an ISS record "
                       "(the server reads no files)")


def _option_text(name: str, value: Any) -> str:
    """One option value of an advise request as its command-line text (``played`` may be a list of cards)."""
    if name == "played" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RequestError(f"field {quote(name)} must be a number or a string, got {json_text(value)[:40]}")
    return str(value)


def advise_arguments(obj: Any) -> list[str]:
    """The ``skatdd advise`` arguments an advise request body stands for (module docstring); ``--json`` left out."""
    if not isinstance(obj, dict):
        raise RequestError('the request body must be a JSON object: {"position": ..., "worlds": N, "seed": S}')
    unknown = [name for name in obj if name != "position" and name not in ADVISE_OPTIONS]
    if unknown:
        raise RequestError(f"unknown field {quote(str(unknown[0]))}: expected position, {', '.join(ADVISE_OPTIONS)}")
    if obj.get("position") is None:
        raise RequestError("field 'position' is missing: expected a JSON position object or an ISS record")
    args = [f"{option}={_option_text(name, obj[name])}" for name, option in ADVISE_OPTIONS.items()
            if obj.get(name) is not None]
    return [*args, "--", _position_text(obj["position"])]


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
    ctx = advise_command.make_context("advise", advise_arguments(load_json(body)))
    params = ctx.params
    worlds: int = params["worlds"]
    if worlds > max_worlds:
        raise RequestError(f"--worlds {worlds}: this server solves at most {plural(max_worlds, 'world')} a request")
    read = _read(params["position"], game=params["game_spec"], declarer=params["declarer"])
    pos = advice_position(read, played=params["played"], after=params["after"])
    declaration = read.spec.declaration()
    progress(0, 0)
    solver.clear()
    return advise(pos, declaration, worlds=worlds, seed=params["seed"], solver=solver, progress=progress).to_json()
