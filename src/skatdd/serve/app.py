"""The web application of ``skatdd serve``: the analysis board's page and the JSON API, on Starlette (ASGI).

Routes (docs/serve.md is the contract):

* ``GET /``: the board (one HTML page; its script and stylesheet are
  ``/static/board.js`` and ``/static/board.css``, served from memory);
* ``POST /api/solve``, ``POST /api/advise``: the CLI's numbers for a JSON
  body (:mod:`skatdd.serve.api`); ``POST /api/advise/stream`` the same
  advice as lines of JSON, progress first (the board's progress bar);
* ``POST /api/board/load``, ``POST /api/board/line``: the board's own
  questions (:mod:`skatdd.serve.board`); ``POST /api/board/review`` the review of
  a loaded record's decisions (:mod:`skatdd.serve.review`);
* ``GET /api/status``: the pool's state and the server's limits.

Every answer of the API is JSON; an error is ``{"error": "<one line>"}``:
400 for bad input (the CLI's message), 404/405 for a wrong route or method,
413 for a body over the cap, 503 when every worker is busy and the waiting
room is full (with ``Retry-After``) or when the time limit ran out, 500 only
for a fault of the server itself.  All work runs in the bounded
:class:`~skatdd.serve.pool.WorkerPool`; when a client closes the connection
before its answer, its job is stopped (the worker is replaced).

Every response carries a strict Content-Security-Policy (no inline script,
nothing from elsewhere) and ``nosniff``; the page puts every text from a
record into the document as text, never as markup.  When the server listens
on the loopback address only requests addressed to a loopback name are
answered (a web page elsewhere cannot reach the board by DNS rebinding).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skatdd.analysis.advise.api import MAX_HONEST_TRICKS
from skatdd.analysis.honest.api import DEFAULT_TRICKS
from skatdd.analysis.review.api import REVIEW_SEED, REVIEW_SKATS, REVIEW_WORLDS
from skatdd.core.cards import SUIT_LETTERS, card_name, card_symbol
from skatdd.core.rules import SEAT_NAMES
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.json_text import json_text
from skatdd.present.html.render import card_label
from skatdd.version import __version__

from .pool import PoolFull, TaskError, TimeLimitExceeded, WorkerFailed, WorkerPool
from .worker import WorkerSettings

__all__ = ["LOOPBACK_NAMES", "BoardApp", "ServeConfig", "create_app"]

#: Host names a request to a server on the loopback address may be addressed to.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
     b"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


@dataclass(frozen=True)
class ServeConfig:
    """The server's limits: *workers* processes, each with a solver of *solver*'s configuration (default: a
    default :class:`~skatdd.engine.solve.Solver`), *backlog* waiting jobs, *time_limit* s a request,
    bodies up to *max_body* bytes, advice over at most *max_worlds* worlds; *allowed_hosts* the host names
    requests may be addressed to (``None``: any).
    """

    workers: int = 2
    solver: Solver | None = None
    time_limit: float = 60.0
    backlog: int = 8
    max_body: int = 64 * 1024
    max_worlds: int = 5000
    allowed_hosts: Sequence[str] | None = LOOPBACK_NAMES


class _BodyTooLarge(Exception):
    """The request body is over the cap."""


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _host_name(scope: Scope) -> str | None:
    """The host name a request is addressed to (``Host`` without the port; IPv6 without brackets)."""
    for key, value in scope.get("headers", []):
        if key == b"host":
            host = str(value.decode("latin-1")).strip().lower()
            if host.startswith("["):
                return host[1:].partition("]")[0]
            return host.rpartition(":")[0] if host.count(":") == 1 else host
    return None


class BoardApp:
    """The ASGI application :func:`create_app` returns: the routes behind a guard, and a way to stop the work.

    The guard refuses requests addressed to a foreign host name and adds the
    security headers to every answer.
    """

    def __init__(self, app: ASGIApp, pool: WorkerPool, allowed_hosts: Sequence[str] | None) -> None:
        self.app = app
        self.pool = pool
        self.allowed = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}
        self.loop: asyncio.AbstractEventLoop | None = None  # set when the application starts

    def interrupt(self) -> None:
        """The server is stopping: answer every running and waiting job at once (503). Safe from a signal handler."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.pool.interrupt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        if self.allowed is not None and _host_name(scope) not in self.allowed:
            response = _error(400, "this server answers only requests addressed to "
                                   f"{', '.join(sorted(self.allowed))} (the Host header names another host)")
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


async def _read_body(request: Request, limit: int) -> str:
    """The body as text (a leading byte-order mark dropped).

    :class:`_BodyTooLarge` as soon as it passes *limit* bytes; :class:`TaskError` for non-UTF-8.
    """
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise _BodyTooLarge
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _BodyTooLarge
        chunks.append(chunk)
    try:
        # A byte-order mark is dropped, as the CLI's readers drop it (issue 32).
        return b"".join(chunks).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise TaskError(f"the request body is not UTF-8 text: {exc.reason} at byte {exc.start}") from None


def _forget(job: asyncio.Future[Any]) -> None:
    """Let *job* end unobserved: cancel it, and take its exception when it comes (else asyncio logs it)."""
    job.cancel()
    job.add_done_callback(lambda done: done.cancelled() or done.exception())


async def _disconnected(request: Request) -> None:
    """Return when the client has closed the connection (the body has been read by then)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def _failure(exc: BaseException, config: ServeConfig) -> tuple[int, str, Mapping[str, str] | None]:
    """``(status, message, headers)`` of the answer to a job that raised *exc*."""
    if isinstance(exc, TaskError):
        return 400, str(exc), None
    if isinstance(exc, _BodyTooLarge):
        return 413, f"the request body is larger than this server's limit of {config.max_body} bytes", None
    if isinstance(exc, PoolFull):
        return 503, str(exc), {"Retry-After": "1"}
    if isinstance(exc, TimeLimitExceeded):
        return 503, str(exc), None
    if isinstance(exc, WorkerFailed):
        return 500, f"internal error: {exc}", None
    raise exc


def _card_faces() -> dict[str, dict[str, str]]:
    """Per card code: its symbol, its spoken name and its suit letter, as the HTML report draws cards."""
    return {card_name(c): {"text": card_symbol(c), "label": card_label(c), "suit": SUIT_LETTERS[c >> 3].lower()}
            for c in range(32)}


def _page() -> str:
    """The board's HTML page (static: everything it shows comes from the API)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("skatdd.serve", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    data = json_text({"cards": _card_faces(), "seatNames": list(SEAT_NAMES), "version": __version__})
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    review = {"skats": REVIEW_SKATS, "worlds": REVIEW_WORLDS, "seed": REVIEW_SEED}
    honest = {"tricks": DEFAULT_TRICKS, "max": MAX_HONEST_TRICKS}  # advise's --honest-tricks default and range
    return env.get_template("board.html.j2").render(page_data=data, version=__version__, review=review,
                                                    honest=honest)


def _asset(package: str, path: str) -> str:
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


def create_app(config: ServeConfig | None = None, *, on_ready: Callable[[], None] | None = None) -> BoardApp:
    """The ASGI application: Starlette routes behind the host check; the pool starts and stops with the app.

    *on_ready* is called once the workers are up and requests are answered.
    """
    config = config or ServeConfig()
    pool = WorkerPool(config.workers, settings=WorkerSettings(solver_or_default(config.solver), config.max_worlds),
                      time_limit=config.time_limit, backlog=config.backlog)
    page = _page()
    script = _asset("skatdd.serve", "static/board.js")
    # The report's stylesheet draws the cards, the chart and the panels; the board's own rules come after it.
    style = _asset("skatdd.present.html", "templates/report.css") + "\n" + _asset("skatdd.serve", "static/board.css")

    async def body_of(request: Request) -> str | Response:
        """The request body as text, or the answer to a body that cannot be taken."""
        try:
            return await _read_body(request, config.max_body)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody is left to read it
        except (TaskError, _BodyTooLarge) as exc:
            return _error(*_failure(exc, config))

    async def job_answer(request: Request, task: str) -> Response:
        """Run *task* on the body in the pool; stop it when the client goes away."""
        body = await body_of(request)
        if isinstance(body, Response):
            return body
        job = asyncio.ensure_future(pool.run(task, body))
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not job.done():
                _forget(job)  # the pool replaces its worker
        if not job.done() or job.cancelled():
            return Response(status_code=400)  # nobody is left to read it
        failure = job.exception()
        if failure is not None:
            return _error(*_failure(failure, config))
        return JSONResponse(job.result())

    def endpoint(task: str) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            return await job_answer(request, task)
        return handle

    async def advise_stream(request: Request) -> Response:
        """Advice as JSON lines: ``{"progress": {"done", "total"}}`` ..., then ``{"result": ...}`` or ``{"error"}``."""
        body = await body_of(request)
        if isinstance(body, Response):
            return body
        events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def progress(done: int, total: int) -> None:
            events.put_nowait({"progress": {"done": done, "total": total}})

        job = asyncio.ensure_future(pool.run("advise", body, progress))
        gone = asyncio.ensure_future(_disconnected(request))

        async def lines() -> AsyncGenerator[dict[str, Any]]:
            getter: asyncio.Future[dict[str, Any]] | None = None
            try:
                while True:
                    getter = asyncio.ensure_future(events.get())
                    done, _ = await asyncio.wait({getter, job, gone}, return_when=asyncio.FIRST_COMPLETED)
                    if getter in done:
                        yield getter.result()
                        continue
                    getter.cancel()
                    if job not in done:  # the client went away
                        return
                    while not events.empty():
                        yield events.get_nowait()
                    exc = job.exception()
                    if exc is None:
                        yield {"result": job.result()}
                    else:
                        status, message, _ = _failure(exc, config)
                        yield {"error": message, "status": status}
                    return
            finally:
                gone.cancel()
                if getter is not None:
                    getter.cancel()
                _forget(job)

        stream = lines()
        try:
            first = await anext(stream)
        except StopAsyncIteration:  # the client went away before the first line (waiting for a worker, say)
            return Response(status_code=400)  # nobody is left to read it
        if "error" in first:  # refused before any work: an ordinary error answer
            await stream.aclose()
            return _error(first["status"], first["error"])

        async def encoded() -> AsyncIterator[bytes]:
            yield (json_text(first) + "\n").encode()
            async for item in stream:
                yield (json_text(item) + "\n").encode()

        return StreamingResponse(encoded(), media_type="application/x-ndjson")

    async def status(request: Request) -> Response:
        return JSONResponse({**pool.status(), "max_body": config.max_body, "max_worlds": config.max_worlds,
                             "version": __version__})

    async def board(request: Request) -> Response:
        return HTMLResponse(page)

    async def board_js(request: Request) -> Response:
        return Response(script, media_type="text/javascript; charset=utf-8")

    async def board_css(request: Request) -> Response:
        return Response(style, media_type="text/css; charset=utf-8")

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        messages = {404: f"no such page or endpoint: {request.url.path}",
                    405: f"{request.method} is not allowed here: use {exc.headers.get('Allow', 'another method')}"
                    if exc.headers else f"{request.method} is not allowed here"}
        return _error(exc.status_code, messages.get(exc.status_code, str(exc.detail)), headers=exc.headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error: {type(exc).__name__}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        guarded.loop = asyncio.get_running_loop()
        await pool.start()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await pool.close()

    routes = [
        Route("/", board, methods=["GET"]),
        Route("/static/board.js", board_js, methods=["GET"]),
        Route("/static/board.css", board_css, methods=["GET"]),
        Route("/api/status", status, methods=["GET"]),
        Route("/api/solve", endpoint("solve"), methods=["POST"]),
        Route("/api/advise", endpoint("advise"), methods=["POST"]),
        Route("/api/advise/stream", advise_stream, methods=["POST"]),
        Route("/api/board/load", endpoint("board-load"), methods=["POST"]),
        Route("/api/board/line", endpoint("board-line"), methods=["POST"]),
        Route("/api/board/review", endpoint("board-review"), methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    guarded = BoardApp(app, pool, config.allowed_hosts)
    return guarded
