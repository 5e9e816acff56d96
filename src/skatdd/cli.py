"""The ``skatdd`` command line (docs/cli.md).

One Click group; each command lives in its own module under
``skatdd.commands`` and is registered here.  Input errors
(:class:`~skatdd.errors.SkatddError`) become a one-line message on stderr and
exit status 2; Click's own usage errors also exit 2.  Exit 1 is left for
failures that are not the input's fault.
"""
from __future__ import annotations

import io
import signal
import sys
import threading
from typing import NoReturn

import click

from . import __version__
from .errors import SkatddError, shorten_quoted


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skatdd")
def cli() -> None:
    """Exact double-dummy solver and hand analysis for Skat."""


def _register() -> None:
    from .commands import advise, analyse, batch, bench, best, match, null_ouvert, odds, score, solve

    for module in (score, solve, batch, bench, best, null_ouvert, analyse, odds, advise, match):
        cli.add_command(module.command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning input errors into exit status 2.

    Always ends with :class:`SystemExit`.  Without *argv* (the console script,
    ``python -m skatdd``: the process ends here) Ctrl-C is ignored from the
    moment the status is decided (see :func:`_exit`); a caller passing *argv*
    keeps its own Ctrl-C handling.
    """
    final = argv is None
    try:
        cli.main(args=argv, prog_name="skatdd", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        _exit(130, final)
    except click.ClickException as exc:
        shown = io.StringIO()
        exc.show(file=shown)
        sys.stderr.write(shorten_quoted(shown.getvalue()))
        _exit(exc.exit_code, final)
    except SkatddError as exc:
        click.echo(f"Error: {exc}", err=True)
        _exit(2, final)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        _exit(130, final)
    except BrokenPipeError:
        _exit(0, final)
    _exit(0, final)


def _exit(status: int, final: bool) -> NoReturn:
    """End with *status*; when the process ends here (*final*), ignore Ctrl-C from now on.

    Everything is written by now.  The interpreter's shutdown resets Python's
    own Ctrl-C handler to the system default, so a Ctrl-C arriving in those
    last milliseconds (batch workers being joined) would kill the process by
    the signal: no message and a status that says nothing of the finished
    work.  An ignored signal stays ignored through the shutdown.  Not for an
    in-process caller: its later child processes would inherit the ignored
    signal.
    """
    if final and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(status)
