"""``skatdd serve``: the analysis board in the browser and the JSON API (docs/serve.md), run by uvicorn.

The server listens on ``--host`` (the loopback address unless told
otherwise: the board has no login) and ``--port`` (0: any free port); the
address it listens on is printed on stdout once it does.  ``--open`` opens
the board in the default browser.  Work runs on ``--workers`` solver
processes with a ``--tt-mb`` table each; at most ``--queue`` more requests
wait for one, and each has ``--time-limit`` seconds (:mod:`skatdd.serve`).

Ctrl-C, SIGTERM or SIGHUP stops the server: open requests get a moment to finish,
the worker processes are stopped, and the command exits 0.  Starlette and
uvicorn are an optional extra: without them the command says so and exits 2.
"""
from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING

import click

from skatdd.core.errors import MissingDependencyError, SkatddError, plural, quote
from skatdd.engine.solve import Solver
from skatdd.runner.stopping import STOP_SIGNALS

from .options import MAX_SECONDS, FiniteFloat, tt_option

if TYPE_CHECKING:
    import uvicorn

__all__ = ["command", "is_loopback", "listen", "ready_line"]

#: Seconds open connections get to finish when the server stops.
_GRACE_SECONDS = 3


def is_loopback(host: str) -> bool:
    """True for a host name or address that only this machine can reach (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to *host*:*port* and listening; :class:`SkatddError` naming the address when that fails."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise SkatddError(f"--host {quote(host)}: unknown host ({exc.strerror})") from None
    except UnicodeError as exc:  # no host name at all (a label over 63 characters, undecodable bytes): the IDNA codec's
        raise SkatddError(f"--host {quote(host)}: not a host name ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise SkatddError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def ready_line(url: str, workers: int) -> str:
    """The line printed once the server listens: where the board is and how many workers answer."""
    return f"skatdd serve: the board is at {url}  ({plural(workers, 'worker')}; Ctrl-C stops the server)"


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but a loopback address makes the board reachable from other machines.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port; the address is printed).")
@click.option("--open", "open_browser", is_flag=True, help="Open the board in the default web browser.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Solver processes [default: every core].")
@click.option("--queue", type=click.IntRange(min=0), default=None,
              help="Requests that may wait for a busy worker; more get 503 [default: 4 per worker].")
@click.option("--time-limit", type=FiniteFloat(0.1, MAX_SECONDS), default=60.0, show_default=True,
              help="Seconds a request may take, waiting included; then its worker is stopped and 503 answered.")
@click.option("--max-body", type=click.IntRange(min=1024), default=64 * 1024, show_default=True,
              help="Largest request body in bytes; larger ones get 413.")
@click.option("--max-worlds", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Most worlds one single-dummy request may ask for.")
@tt_option
def command(host: str, port: int, open_browser: bool, workers: int | None, queue: int | None, time_limit: float,
            max_body: int, max_worlds: int, tt_mb: int) -> None:
    """Serve the analysis board and the JSON API on HOST:PORT.

    Load an ISS record, a JSON deal or position, or a deal (or deal one),
    then click through it: every legal card shows its double-dummy value,
    any card can be played to open a variation, single-dummy values come on
    request.  The address bar holds a link to the board.

    \b
    Examples:
      skatdd serve --open
      skatdd serve --port 8080 --workers 2
      curl -s localhost:8000/api/solve -d '{"game": "grand", "declarer": 0, "hands": [...], "skat": "..."}'
    """
    try:
        import uvicorn

        from skatdd.serve.app import LOOPBACK_NAMES, ServeConfig, create_app
        from skatdd.serve.protocol import BoundedH11Protocol
    except ImportError as exc:
        raise MissingDependencyError(
            f"skatdd serve needs starlette and uvicorn ({exc.name} is missing): pip install 'skatdd[serve]'") from None
    workers = workers or os.cpu_count() or 1
    loopback = is_loopback(host)
    config = ServeConfig(workers=workers, solver=Solver(tt_mb=tt_mb), time_limit=time_limit,
                         backlog=4 * workers if queue is None else queue, max_body=max_body, max_worlds=max_worlds,
                         allowed_hosts=LOOPBACK_NAMES if loopback else None)
    sock = listen(host, port)
    url = _url(sock)

    def ready() -> None:
        click.echo(ready_line(url, workers))
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    app = create_app(config, on_ready=ready)
    # h11 with a deadline for each request and answers to half-closed clients (skatdd.serve.protocol).
    server = _server(uvicorn.Config(app, http=BoundedH11Protocol, log_level="warning", access_log=False,
                                    lifespan="on", timeout_graceful_shutdown=_GRACE_SECONDS), on_stop=app.interrupt)
    if not loopback:
        click.echo(f"skatdd serve: warning: listening on {host}, so every machine that reaches it can use the board",
                   err=True)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        raise SkatddError("the server did not start (see the messages above)")
    click.echo("skatdd serve: stopped", err=True)


def _server(config: uvicorn.Config, *, on_stop: Callable[[], None]) -> uvicorn.Server:
    """A ``uvicorn.Server`` with this command's signal handling: Ctrl-C, SIGTERM and SIGHUP stop it, the command exits 0.

    (uvicorn's own handlers re-raise the signal after the shutdown, which
    would end the process by it; and uvicorn leaves SIGHUP alone, so the
    command's own handler raised ``Terminated`` wherever the event loop
    happened to be, a response write say.)  A SIGHUP already ignored
    (``nohup``) stays ignored.  *on_stop* is called at the first signal
    (it answers the running requests at once); a second Ctrl-C stops
    without waiting for open connections.
    """
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return

            def stop(signum: int, frame: FrameType | None) -> None:
                if self.should_exit and signum == signal.SIGINT:
                    self.force_exit = True
                self.should_exit = True
                on_stop()

            signals = [sig for sig in (signal.SIGINT, *STOP_SIGNALS)
                       if sig in (signal.SIGINT, signal.SIGTERM) or signal.getsignal(sig) != signal.SIG_IGN]
            previous = {sig: signal.signal(sig, stop) for sig in signals}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    return Server(config)
