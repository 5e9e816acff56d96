"""The options the commands share: one declaration, one type and one default each (docs/cli.md).

Every command that takes one of these takes it from here, so its name,
short form, type and default are the same everywhere (tests/test_cli_conventions.py):

* ``-j/--jobs N``: worker processes (or threads), default every core (:func:`jobs_option`);
* ``--seed S``: the seed of a command's one generator, default :data:`~skatdd.core.seeds.DEFAULT_SEED`
  (:func:`seed_option`);
* ``--seat`` and ``--declarer``: a seat, read by :func:`~skatdd.core.rules.parse_seat` through the one
  type :data:`SEAT` (:func:`seat_option`);
* ``--tt-mb N``: the transposition table's size (:func:`tt_option`);
* ``--dask ADDRESS`` (:func:`dask_option`), ``-o/--output FILE`` and ``--resume`` (:func:`run_options`);
* ``--json`` (:func:`json_option`), ``--html`` (:func:`html_option`);
* the single-dummy options of ``advise`` and ``analyse``: ``--worlds``, ``--inference``, ``--honest``.

The help text may say what the option means for its command; the rest is fixed here.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from skatdd.core.errors import SkatddError, quote
from skatdd.core.rules import parse_game, parse_seat
from skatdd.core.scoring import MAX_BID, MIN_BID
from skatdd.core.seeds import DEFAULT_SEED
from skatdd.runner.cluster import parse_address
from skatdd.runner.memory import check_table_mib
from skatdd.runner.outputs import FILE, FILE_OR_FOLDER, FOLDER, PARTIAL, check_output
from skatdd.runner.resume import RUN_RECORD

__all__ = [
    "BID",
    "DEFAULT_SEED",
    "GAME",
    "MAX_SECONDS",
    "SEAT",
    "BidType",
    "FiniteFloat",
    "OutputPath",
    "ParsedType",
    "check_honest_tricks",
    "check_tt_mb",
    "dask_option",
    "honest_options",
    "html_option",
    "inference_option",
    "jobs_option",
    "json_flag",
    "json_option",
    "run_options",
    "seat_option",
    "seed_option",
    "table_option",
    "tt_option",
    "worlds_option",
]

#: A Click command callback, returned unchanged by the option decorators.
F = TypeVar("F", bound=Callable[..., Any])


# --------------------------------------------------------------------------- types


class ParsedType(click.ParamType):  # type: ignore[type-arg]
    """An option value read by one of core's parsers; its error becomes Click's one-line option error.

    *name* is the metavar, *parse* the parser (raising a
    :class:`~skatdd.core.errors.SkatddError` naming the token), *done* the
    type of a value already converted (a default given as the result).
    """

    def __init__(self, name: str, parse: Callable[[Any], Any], done: type) -> None:
        self.name, self.parse, self.done = name, parse, done

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """*value* parsed, or as it is when already converted; a bad value fails with the parser's message."""
        if isinstance(value, self.done):
            return value
        try:
            return self.parse(value)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class OutputPath(click.ParamType):  # type: ignore[type-arg]
    """A path an option writes to, checked as the command line is read (:func:`skatdd.runner.outputs.check_output`).

    *kind*, *beside* and *replaced* as for ``check_output``; *check*, when
    given, is called with the path first (a table's format).  Every option
    that writes uses this type, so a path that cannot be written is refused
    before any work, in one line, exit status 2.
    """

    def __init__(self, kind: str = FILE, *, beside: tuple[str, ...] = (), replaced: bool = False,
                 check: Callable[[str], object] | None = None) -> None:
        self.kind, self.beside, self.replaced, self.check = kind, beside, replaced, check
        self.name = {FILE: "FILE", FOLDER: "FOLDER"}.get(kind, "PATH")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            if self.check is not None:
                self.check(value)
            return check_output(value, "", self.kind, beside=self.beside, replaced=self.replaced)
        except SkatddError as exc:
            self.fail(str(exc), param, ctx)


class FiniteFloat(click.FloatRange):
    """A finite number from *low* to *high* (each excluded when open): the type of every float option.

    Click's ``FLOAT`` and ``FloatRange`` take ``nan`` (no comparison with a
    bound fails), ``inf`` and numbers like ``1e308`` when unbounded above: a
    timeout of ``nan`` never compares as expired, one of ``inf`` overflows the
    clocks and waits it is handed to, far from the command line.  Here both
    bounds are required, and every float option of every command uses this
    type (a test walks the commands' options), so such a value is refused as
    the command line is read: one line naming the token as typed, exit status
    2.  The help shows the range as ``FloatRange`` does.
    """

    def __init__(self, low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> None:
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"FiniteFloat needs finite bounds low < high, not {low!r}, {high!r}")
        super().__init__(low, high, min_open=low_open, max_open=high_open)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """*value* as a float when it is a finite number in range; else Click's one-line error naming it."""
        number = click.FLOAT.convert(value, param, ctx)  # not a number: Click's message names the token
        if not math.isfinite(number):
            self.fail(f"{quote(value)} is not a finite number: expected {self._describe_range()}", param, ctx)
        try:
            return super().convert(number, param, ctx)
        except click.BadParameter:  # name the token as typed (Click names the float: -1.0 for '-1')
            self.fail(f"{quote(value)} is not in the range {self._describe_range()}", param, ctx)


#: The most seconds a float option takes: a day.  Longer is no use to a run or a request, and a far
#: larger number overflows the waits it is handed to (``threading.TIMEOUT_MAX``, ``signal.setitimer``).
MAX_SECONDS = 86_400.0

#: A contract name (grand, clubs, ..., null, null-ouvert); converts to ``(Game, ouvert)``.


class BidType(click.ParamType):  # type: ignore[type-arg]
    """A bid of every ``--bid``: a whole number from 18 to 264, the highest game value (:data:`~skatdd.core.scoring.MAX_BID`).

    Above it no game can be won without being overbid, so a higher bid is
    refused rather than scored (a bid of 10^20 would make every score -2e20).
    """

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.INT.convert(value, param, ctx)
        if not MIN_BID <= number <= MAX_BID:
            self.fail(f"{quote(number)} is not a bid: expected {MIN_BID} to {MAX_BID} (the highest game value: "
                      "grand ouvert with or without four)", param, ctx)
        return number


#: A contract name (grand, clubs, ..., null, null-ouvert); converts to ``(Game, ouvert)``.
GAME = ParsedType("GAME", parse_game, tuple)
#: A seat: 0/1/2, F/M/R, forehand/middlehand/rearhand; converts to 0, 1 or 2.  The type of every seat option.
SEAT = ParsedType("SEAT", parse_seat, int)
BID = BidType()


# --------------------------------------------------------------------------- the shared options


def json_flag(help: str) -> Callable[[F], F]:
    """``--json`` with its own *help* (``batch``: its output is JSON lines anyway)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def json_option(func: F) -> F:
    """``--json``: print one JSON object instead of the readable report."""
    return json_flag("Print JSON instead of a readable report.")(func)


def jobs_option(help: str = "Worker processes, one solver each [default: every core].") -> Callable[[F], F]:
    """``-j/--jobs N``: how many workers (at least 1; default ``None``, every core); *help* says what they do."""
    return click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help=help)


def seed_option(help: str = "Seed of the generator the worlds are drawn from (same seed, same output).") -> Callable[[F], F]:
    """``--seed S``: the seed of the command's one generator, default :data:`DEFAULT_SEED` in every command."""
    return click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help=help)


def seat_option(name: str = "--seat", *, required: bool = False,
                help: str = "The hand's seat: 0/1/2, F/M/R or forehand/middlehand/rearhand.") -> Callable[[F], F]:
    """A seat option (*name*: ``--seat`` or ``--declarer``) of the one type :data:`SEAT`: the value is 0, 1 or 2."""
    return click.option(name, type=SEAT, required=required, help=help)


def check_tt_mb(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """Click callback of every ``--tt-mb``: the size must fit in the memory available (:mod:`skatdd.runner.memory`)."""
    if value is None:
        return None
    try:
        return check_table_mib(value)
    except SkatddError as exc:
        raise click.BadParameter(str(exc).removeprefix("--tt-mb "), ctx=ctx, param=param) from None


def table_option(*, default: int | None, help: str) -> Callable[[F], F]:
    """``--tt-mb N`` with its own *default* (``None``: chosen by the command, said in *help*)."""
    return click.option("--tt-mb", type=click.IntRange(1, 65536), default=default, show_default=default is not None,
                        callback=check_tt_mb, help=help)


def tt_option(func: F) -> F:
    """``--tt-mb N``: transposition table size per worker, 128 MiB unless given."""
    return table_option(default=128, help="Transposition table size in MiB (per worker).")(func)


def _check_dask(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Click callback of every ``--dask``: a malformed address or port is refused before any work (one line)."""
    if value is not None:
        parse_address(value)
    return value


def dask_option(func: F) -> F:
    """``--dask ADDRESS``: run the work on a Dask cluster (:mod:`skatdd.runner.cluster`)."""
    return click.option("--dask", "dask", metavar="ADDRESS", default=None, callback=_check_dask,
                        help="Run on the Dask cluster at ADDRESS (tcp://host:8786), or on local[:N] worker "
                             "processes started for the run (needs 'skatdd[dask]').")(func)


def run_options(func: F) -> F:
    """``--dask ADDRESS``, ``-o/--output FILE`` and ``--resume``: where a file of lines runs and where its results go."""
    func = click.option("--resume", is_flag=True,
                        help="With -o: continue an interrupted run, skipping the lines FILE already answers.")(func)
    func = click.option("--output", "-o", type=OutputPath(beside=(RUN_RECORD,)), default=None,
                        help="Write the result lines to FILE instead of stdout (whole lines, flushed as they come).")(func)
    return dask_option(func)


def html_option(folders: bool) -> Callable[[F], F]:
    """``--html PATH`` and ``--four-colour``: also write a self-contained HTML report (:mod:`skatdd.present.html`).

    With *folders* PATH may be a folder (one ending in ``/``, or an existing
    one); else it is one page.  Checked before any work (:class:`OutputPath`).
    """
    where = "PATH (a folder for a file of games; a PATH ending in '/' is a folder)" if folders else "FILE"

    def decorate(func: F) -> F:
        func = click.option("--four-colour", is_flag=True,
                            help="HTML report: start with the four-colour deck (the page has a switch too).")(func)
        return click.option("--html", "html", metavar="PATH" if folders else "FILE", default=None,
                            type=OutputPath(FILE_OR_FOLDER if folders else FILE, beside=(PARTIAL,), replaced=True),
                            help=f"Also write a self-contained HTML report to {where}.")(func)
    return decorate


# --------------------------------------------------------------------------- single-dummy options (advise, analyse)


def worlds_option(default: int | None) -> Callable[[F], F]:
    """``--worlds N``: how many worlds at most per decision (*default* ``None``: off unless given)."""
    return click.option(
        "--worlds", type=click.IntRange(min=1), default=default, show_default=default is not None,
        help="Worlds solved per decision at most: all consistent worlds when there are no more, "
             "else N drawn uniformly.")


def inference_option(func: F) -> F:
    """``--inference none|bids|play|all``: how the worlds are weighed (docs/inference.md)."""
    # Imported here, as the options of advise and analyse are: every other command starts without the
    # single-dummy families (a twentieth of a second of CPU).
    from skatdd.analysis.inference.api import INFERENCES

    return click.option(
        "--inference", type=click.Choice(INFERENCES), default="none", show_default=True, metavar="KIND",
        help="none, bids, play or all: weigh the worlds by what the bidding (an ISS record's auction, a JSON "
             "deal's 'bids'), the cards played, or both showed.")(func)


def honest_options(what: str) -> Callable[[F], F]:
    """``--honest`` and ``--honest-tricks K``: the honest search at declarer decisions (*what*: where)."""
    from skatdd.analysis.advise.api import MAX_HONEST_TRICKS  # imported here: see inference_option
    from skatdd.analysis.honest.api import DEFAULT_TRICKS

    def add(func: F) -> F:
        func = click.option(
            "--honest-tricks", type=click.IntRange(1, MAX_HONEST_TRICKS), default=DEFAULT_TRICKS, show_default=True,
            metavar="K",
            help="With --honest: the most tricks left at which the honest search runs.")(func)
        return click.option(
            "--honest", is_flag=True,
            help=f"Also give {what} its honest_win: the worlds won by the best strategy that plays one card in all "
                 "worlds the declarer cannot tell apart (no strategy fusion).")(func)
    return add


def check_honest_tricks(honest: bool) -> None:
    """Refuse ``--honest-tricks`` given without ``--honest`` (one line, exit 2): alone it would change nothing.

    Called first by every command of :func:`honest_options`; an option left
    at its default (not on the command line) is no error.
    """
    source = click.get_current_context().get_parameter_source("honest_tricks")
    if not honest and source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
        raise click.UsageError("--honest-tricks needs --honest: without it no honest search runs")
