"""The HTTP/1.1 connection of ``skatdd serve``: uvicorn's h11 protocol, with a bound on slow clients and half-closes.

uvicorn bounds only the idle time between two requests on a kept-alive
connection (``timeout_keep_alive``); a client that opens a connection and
sends half a request head, or half a body, holds it open for ever.  And it
takes the end of the client's input (a TCP FIN) for a disconnect, so a
client that half-closes after sending its request (``shutdown(SHUT_WR)``,
``nc -N``) is never answered.  :class:`BoundedH11Protocol` changes both:

* a request, head and body, must arrive within :data:`REQUEST_SECONDS` of
  the connection opening (or of the previous answer on a kept-alive
  connection); otherwise the connection is closed (the request, if it had
  begun, sees a disconnect);
* the end of the client's input after a complete request keeps the
  connection open for the answer (then closed).  A FIN looks the same
  whether the client half-closed or closed the connection entirely, so
  until the answer starts the server sends an interim ``100 Continue``
  every :data:`PROBE_SECONDS` (HTTP/1.1 lets a server send 1xx answers and
  obliges clients to skip them): a client that has gone resets the
  connection, the next write fails, and the request sees a disconnect (its
  job is stopped).  Once the answer has started, its own writes do that.
"""
from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["PROBE_SECONDS", "REQUEST_SECONDS", "BoundedH11Protocol"]

#: Seconds a client has to send a whole request, head and body, from the moment it may start.
REQUEST_SECONDS = 10.0

#: Seconds between the interim answers that find out whether a half-closed client is still there.
PROBE_SECONDS = 0.5


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the request deadline and the half-close handling of the module docstring."""

    _request_timer: asyncio.TimerHandle | None = None
    _probe_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._request_timer, self._probe_timer):
            if timer is not None:
                timer.cancel()
        self._request_timer = self._probe_timer = None
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        # The next request on a kept-alive connection gets the same time as the first (armed before a
        # pipelined request is taken up, which super() does).
        if not self.transport.is_closing():
            self._arm_request_timer()
        super().on_response_complete()

    def eof_received(self) -> bool | None:  # type: ignore[override]  # asyncio's contract: True keeps it open
        """The client sent its last byte: keep the connection for the answer if the request is complete."""
        if not self._request_read():
            return None  # idle or mid-request: the client is gone (asyncio closes the transport)
        self.cycle.keep_alive = False  # nothing more can come: close once answered
        if self.scope["http_version"] == "1.1":  # HTTP/1.0 has no interim answers: the job runs its course
            self._probe_timer = self.loop.call_later(PROBE_SECONDS, self._probe)
        return True

    # -- the deadline and the probe --------------------------------------------------

    def _request_read(self) -> bool:
        """True while a request has been received whole and its answer is not done."""
        cycle = self.cycle
        return cycle is not None and not cycle.response_complete and not cycle.more_body

    def _arm_request_timer(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
        self._request_timer = self.loop.call_later(REQUEST_SECONDS, self._request_overdue)

    def _request_overdue(self) -> None:
        """The deadline passed: close the connection unless its request arrived whole in time."""
        self._request_timer = None
        if not self._request_read() and not self.transport.is_closing():
            self.transport.close()

    def _probe(self) -> None:
        """Send ``100 Continue`` while the answer has not started; a closed client makes a later write fail."""
        self._probe_timer = None
        cycle = self.cycle
        if cycle is None or cycle.response_started or cycle.disconnected or self.transport.is_closing():
            return
        self.transport.write(self.conn.send(h11.InformationalResponse(status_code=100, headers=[],
                                                                      reason=b"Continue")))
        self._probe_timer = self.loop.call_later(PROBE_SECONDS, self._probe)
