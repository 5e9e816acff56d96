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
    from .commands import advise, analyse, batch, bench, best, null_ouvert, odds, score, solve

    for module in (score, solve, batch, bench, best, null_ouvert, analyse, odds, advise):
        cli.add_command(module.command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning input errors into exit status 2."""
    try:
        cli.main(args=argv, prog_name="skatdd", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        _exit(130)
    except click.ClickException as exc:
        shown = io.StringIO()
        exc.show(file=shown)
        sys.stderr.write(shorten_quoted(shown.getvalue()))
        _exit(exc.exit_code)
    except SkatddError as exc:
        click.echo(f"Error: {exc}", err=True)
        _exit(2)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        _exit(130)
    except BrokenPipeError:
        _exit(0)
    _exit(0)


def _exit(status: int) -> NoReturn:
    """End with *status*, ignoring Ctrl-C from here on.

    Everything is written by now.  The interpreter's shutdown resets Python's
    own Ctrl-C handler to the system default, so a Ctrl-C arriving in those
    last milliseconds (batch workers being joined) would kill the process by
    the signal: no message and a status that says nothing of the finished
    work.  An ignored signal stays ignored through the shutdown.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(status)
