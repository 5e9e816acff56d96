"""The ``skatdd`` command line (docs/cli.md).

One Click group; each command lives in its own module under
``skatdd.cli`` and is registered here.  Input errors
(:class:`~skatdd.core.errors.SkatddError`) become a one-line message on stderr and
exit status 2; so do Click's own usage errors (an unknown option, a bad
option value, a missing argument): :class:`OneLineGroup` turns them into one
line naming the offending token and what was expected, for every command
and every caller of the group.  Exit 1 is left for failures that are not the
input's fault; a closed standard output (``| head``) ends with 141, as a
command killed by SIGPIPE does.
"""
from __future__ import annotations

import contextlib
import errno
import importlib
import io
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any, NoReturn

import click

from skatdd.core.errors import SkatddError, shorten_quoted
from skatdd.runner.cluster import ClusterError
from skatdd.runner.stopping import STOP_SIGNALS, exit_status, stop_message, stop_on_signals
from skatdd.version import __version__

from .common import BROKEN_PIPE_STATUS, quiet_broken_pipe


class UsageLine(click.ClickException):
    """A usage error as one line, ``Error: ...`` on stderr, exit status 2 (see :func:`one_line`)."""

    exit_code = 2


def _expected(exc: click.UsageError) -> str:
    """What the command line should have held instead, for the usage errors whose message does not say."""
    ctx = exc.ctx
    if ctx is None or (isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)):
        return ""  # a bad value: Click's message (or the type's) already names the token and what was expected
    if isinstance(exc, click.NoSuchOption):
        names = sorted({opt for param in ctx.command.get_params(ctx) for opt in param.opts if opt.startswith("--")})
        return f" (the options of '{ctx.command_path}': {', '.join(names)})"
    if isinstance(ctx.command, click.Group):
        return f" (expected a command: {', '.join(ctx.command.list_commands(ctx))})"
    pieces = " ".join(ctx.command.collect_usage_pieces(ctx))
    return f" (usage: {ctx.command_path} {pieces})"


def one_line(exc: click.UsageError) -> UsageLine:
    """*exc* as one line: Click's message, long tokens cut short, plus what was expected where it says nothing.

    Click prints a usage error as a usage block, a hint and the message;
    the contract (docs/cli.md) is one line on stderr.  A bad option value
    keeps Click's message (``Invalid value for '--seat': unknown seat 'X':
    expected ...``); an unknown option lists the command's options, a
    missing or extra argument its usage line.
    """
    message = " ".join(exc.format_message().split())
    expected = _expected(exc)
    return UsageLine(shorten_quoted(message.rstrip(".") + expected if expected else message))


#: ``skatdd`` alone: Click (8.2 on) shows the help through a usage error; that stays the whole help text.
_HELP_ERRORS: tuple[type[click.UsageError], ...] = tuple(
    kind for kind in (getattr(click.exceptions, "NoArgsIsHelpError", None),) if kind is not None)


@contextlib.contextmanager
def _errors_in_one_line() -> Iterator[None]:
    """Usage errors as :func:`one_line`; a :class:`~skatdd.core.errors.SkatddError` a command let through, as ``main`` shows it."""
    try:
        yield
    except _HELP_ERRORS:
        raise
    except click.UsageError as exc:
        raise one_line(exc) from None
    except SkatddError as exc:
        raise UsageLine(" ".join(str(exc).split())) from None


#: Each command's module in this package: imported when the command is asked for, so a command starts
#: without importing the others (a third of a second of imports for ``--help`` of the whole group).
COMMAND_MODULES = {"advise": "advise", "analyse": "analyse", "batch": "batch", "bench": "bench", "best": "best",
                   "bid": "bid", "match": "match", "null-ouvert": "null_ouvert", "odds": "odds", "score": "score",
                   "serve": "serve", "solve": "solve"}


#: Each command's first paragraph of help, as its docstring gives it: ``skatdd --help`` lists the commands from
#: here without importing them (tests/test_cli_conventions.py checks they agree).
COMMAND_SUMMARIES = {
    "advise": "What the player to move should play, from what he can see (single-dummy).",
    "analyse": "Analyse a played game card by card: the double-dummy cost of every card.",
    "batch": "Solve every JSON position line of FILE ('-': stdin); JSON lines out, in input order.",
    "bench": "Time the solver on seeded realistic deals: solves/s, median and tail times, nodes.",
    "best": "The best contract for DEAL: every game, picked up or hand, scored by the ISkO.",
    "bid": "How high to bid with HAND, the seat's ten dealt cards, and what to play.",
    "match": "Play a duplicate match of player A against player B; JSON lines out, one per deal, then the summary.",
    "null-ouvert": "Is this null ouvert unbeatable?  HAND: the declarer's ten cards after the discard.",
    "odds": "The chances of every contract for HAND, the seat's ten dealt cards, the other cards unseen.",
    "score": "Value and score of a declared game (ISkO rules, Seeger-Fabian too).",
    "serve": "Serve the analysis board and the JSON API on HOST:PORT.",
    "solve": "Solve DEAL double-dummy: value, win or loss, an optimal line.",
}


class OneLineGroup(click.Group):
    """The ``skatdd`` group: every usage or input error, the group's or a command's, is one line, exit status 2.

    Usage errors are shown by :func:`one_line`; input errors
    (:class:`~skatdd.core.errors.SkatddError`) as ``Error: message``, for a caller
    of the group (Click's test runner, another program) as for :func:`main`.

    Reading the group's own options happens in :meth:`make_context`;
    finding the command, reading its options and running it, in
    :meth:`invoke`.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command *cmd_name*, its module imported on first use (``skatdd solve`` imports no other command)."""
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            module = importlib.import_module(f"{__name__}.{COMMAND_MODULES[cmd_name]}")
            self.add_command(module.command, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as Click lists them, each command's module left unimported."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.commands or name not in COMMAND_SUMMARIES:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                # a stand-in with the command's summary, cut as Click cuts the command's own help
                rows.append((name, click.Command(name, help=COMMAND_SUMMARIES[name]).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with _errors_in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _errors_in_one_line():
            return super().invoke(ctx)


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skatdd")
def cli() -> None:
    """Exact double-dummy solver and hand analysis for Skat."""


def all_commands() -> dict[str, click.Command]:
    """Every command of the group by name, each module imported (for walking them all: tests, docs)."""
    ctx = click.Context(cli, info_name="skatdd", **cli.context_settings)  # as the group makes its own
    found = {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning input errors into exit status 2.

    Always ends with :class:`SystemExit`.  SIGTERM and SIGHUP stop a
    command as Ctrl-C does (:func:`skatdd.runner.stopping.stop_on_signals`; exit
    status 128 + the signal).  Without *argv* (the console script,
    ``python -m skatdd``: the process ends here) those signals are ignored
    from the moment the status is decided (see :func:`_exit`); a caller
    passing *argv* keeps its own handling of them afterwards.
    """
    final = argv is None
    try:
        with stop_on_signals():  # SIGTERM and SIGHUP stop a run as Ctrl-C does (skatdd.runner.stopping)
            cli.main(args=argv, prog_name="skatdd", standalone_mode=False)
    except click.exceptions.Abort as exc:  # Click's name for a KeyboardInterrupt (or Terminated) in a command
        click.echo(f"{stop_message(exc) if exc.__context__ else 'Aborted'}.", err=True)
        _exit(exit_status(exc), final)
    except click.ClickException as exc:
        shown = io.StringIO()
        exc.show(file=shown)
        sys.stderr.write(shorten_quoted(shown.getvalue()))
        _exit(exc.exit_code, final)
    except SkatddError as exc:
        click.echo(f"Error: {exc}", err=True)
        _exit(2, final)
    except ClusterError as exc:  # every --dask runner: one line, as batch gives it
        click.echo(f"Error: {exc}", err=True)
        _exit(1, final)
    except KeyboardInterrupt as exc:
        click.echo(f"{stop_message(exc)}.", err=True)
        _exit(exit_status(exc), final)
    except BrokenPipeError:
        quiet_broken_pipe()
        _exit(BROKEN_PIPE_STATUS, final)
    except OSError as exc:
        if exc.errno not in WRITE_ERRORS:
            raise
        _cannot_write(exc)
        _exit(1, final)
    _exit(0, final)


#: The errors of a write that cannot be done (a full disk, a quota, a file too large, a device failing):
#: not the input's fault (exit status 1), said in one line.
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _cannot_write(exc: OSError) -> None:
    """Say in one line that the output could not be written; standard output is left quiet if it was the one."""
    try:
        sys.stdout.flush()
    except OSError:  # the failing one: point it at the null device, so the exit's own flush does not fail again
        quiet_broken_pipe()
    where = f" {exc.filename!r}" if exc.filename else ""
    click.echo(f"Error: cannot write the output{where}: {exc.strerror or exc}", err=True)


def _exit(status: int, final: bool) -> NoReturn:
    """End with *status*; when the process ends here (*final*), ignore Ctrl-C, SIGTERM and SIGHUP from now on.

    Everything is written by now.  The interpreter's shutdown resets Python's
    own Ctrl-C handler to the system default, so a Ctrl-C arriving in those
    last milliseconds (batch workers being joined) would kill the process by
    the signal: no message and a status that says nothing of the finished
    work.  An ignored signal stays ignored through the shutdown.  Not for an
    in-process caller: its later child processes would inherit the ignored
    signal.
    """
    if final and threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, *STOP_SIGNALS):
            signal.signal(sig, signal.SIG_IGN)
    sys.exit(status)
