"""``best`` for inputs as the readers return them: one deal, or every record of a file of games.

:func:`best_for_input` analyses one :class:`~skatdd.formats.readers.DealInput`
(deal text, a JSON deal, an ISS record) for the seat asked for, or the
input's own declarer, or every seat; :func:`best_lines` does it for each
line of a file of ISS records or JSON deals, in input order, on one or
many processes (:func:`skatdd.runner.lines.run_lines`), one JSON record per line
(:func:`best_record`).  Records in which nobody played are skipped there,
as ``analyse`` skips them.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from skatdd.engine.solve import Solver
from skatdd.formats.readers import DealInput
from skatdd.runner.game_lines import handle_line
from skatdd.runner.lines import run_lines
from skatdd.runner.outcome import BatchSummary, LineOutcome

from .api import Progress, SeatReport, best_all_seats

__all__ = ["best_for_input", "best_line", "best_lines", "best_record"]


def best_for_input(found: DealInput, *, solver: Solver | None = None, declarer: int | None = None, bid: int | None = None,
                   all_lines: bool = False, progress: Progress | None = None) -> list[SeatReport]:
    """The reports of ``skatdd best`` for *found*: one for *declarer* (else the input's own), or all three seats.

    *bid* defaults to the input's own; *solver* (default: a fresh one) does the searching.  Raises the reader's error when the
    input does not show the hands and skat as dealt, and
    :func:`skatdd.analysis.best.api.best_contracts`' errors.
    """
    hands, skat = found.require_dealt()
    seat = declarer if declarer is not None else found.declarer
    return best_all_seats(hands, skat, bid=bid if bid is not None else found.bid, solver=solver,
                          progress=progress, all_lines=all_lines, seats=[seat] if seat is not None else [0, 1, 2])


def best_record(found: DealInput, reports: list[SeatReport], *, one_seat: bool) -> dict[str, Any]:
    """The JSON of ``best`` for one input: the seat's report (*one_seat*) or ``{"seats": [...]}``, with ``id``.

    The input's ``warnings`` (:attr:`DealInput.warnings`) are added when there are any.
    """
    ident = found.record.id if found.record is not None else found.spec.id if found.spec is not None else None
    body: dict[str, Any] = reports[0].to_json() if one_seat else {"seats": [r.to_json() for r in reports]}
    out = {"id": ident, **body} if ident is not None else body
    if found.warnings:
        out["warnings"] = list(found.warnings)
    return out


def best_line(solver: Solver, line: int, raw: bytes | str, declarer: int | None = None, bid: int | None = None,
              all_lines: bool = False) -> LineOutcome:
    """``best`` for one line of a file of games; never raises for bad input (see :func:`skatdd.runner.game_lines.handle_line`)."""
    def work(found: DealInput) -> dict[str, Any]:
        reports = best_for_input(found, solver=solver, declarer=declarer, bid=bid, all_lines=all_lines)
        return best_record(found, reports, one_seat=len(reports) == 1)

    return handle_line(line, raw, work)


def best_lines(items: Iterable[tuple[int, bytes | str]], *, jobs: int = 1, solver: Solver | None = None,
               declarer: int | None = None, bid: int | None = None, all_lines: bool = False,
               emit: Callable[[LineOutcome], None]) -> BatchSummary:
    """``best`` for every ``(line_number, raw_line)`` of *items*, calling *emit* once per line in input order.

    As :func:`skatdd.analysis.analyse.api.analyse_lines`: *jobs* ``1`` works in this
    process with *solver* (default: a fresh one), more uses that many worker
    processes, each with a solver of *solver*'s configuration; returns the counts.
    """
    handler = functools.partial(best_line, declarer=declarer, bid=bid, all_lines=all_lines)
    return run_lines(items, handler=handler, jobs=jobs, solver=solver, emit=emit)
