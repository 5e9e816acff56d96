"""A plug-in player in a process of its own, which the referee can stop: :class:`PlayerHost`.

A plug-in (a player named ``module.path:factory`` or ``file.py:factory``)
is code the referee does not know.  It may loop in C past any signal,
swallow every exception (the referee's timeout and Ctrl-C included), break
the state it is shown, end its process with ``os._exit``, or write to file
descriptor 1.  So each plug-in of a deal plays in a *host*: a process
forked from the referee's for that deal, holding the plug-in's players of
every seat it plays.  The referee sends each question (make the player of
a seat, choose a card for a state) through a socket and waits at most the
timeout for the answer:

* no answer in time: the host is killed (SIGKILL) and the question fails
  with :class:`HostTimeout`;
* the host ends (``os._exit``, a crash): :class:`HostDied` with how it ended;
* a full-game choice (``("choose", seat, method, state)``) the player has
  no method for: ``("missing", None)``, and the referee makes the default choice;
* the player raises anything, ``KeyboardInterrupt`` and ``SystemExit``
  included: the answer carries the exception's type and message.

The host sees copies of the state (and of the position, for a player that
cheats), so nothing it does reaches the referee's game.  It ignores Ctrl-C
(the referee answers it, then kills the host), takes SIGTERM with its
default action, dies with the process that started it, and has its file
descriptor 1 pointed at stderr.  A host lives for one deal
(:meth:`PlayerHost.close`, always called, kills it if it still runs).
It leads a process group of its own, and the whole group is killed with
it: a process the plug-in started (a subprocess, a fork) ends with the
deal instead of outliving the match.  A host killed with its worker or
referee (a stopped ``--jobs`` run, a referee killed outright) cannot kill
its group itself; a *guard*, a small process of the group that runs no
plug-in code, kills the group as soon as the host is gone.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from skatdd.runner.workers import init_worker, process_end

from .full.actions import Declare, Discard, Hold, Pass, PickUp, Play, PlayHand, Say
from .players import PlayerFactory

ACTIONS = (Say, Hold, Pass, PickUp, PlayHand, Discard, Declare, Play)

__all__ = ["HostDied", "HostTimeout", "PlayerHost"]


class HostTimeout(Exception):
    """The host did not answer within the timeout; it has been killed."""


class HostDied(Exception):
    """The host's process ended before it answered (the message says how)."""


#: The longest text a host sends back as it is: a card code or a full game's token is a few characters.
MAX_ANSWER_CHARS = 200


def _answer(choice: object) -> tuple[str, Any]:
    """A player's answer as sent back: a card int or code as it is, anything else as its ``repr``.

    Only what could be a card or a token crosses whole: a longer text or an
    int beyond 64 bits goes back as a short description (a plug-in returning
    50 MB had it pickled to the referee, seconds a card).
    """
    if isinstance(choice, int) and not isinstance(choice, bool):
        if -(1 << 63) <= choice < 1 << 63:
            return ("card", int(choice))
        return ("junk", f"an int of {choice.bit_length():,} bits")
    if isinstance(choice, str):
        if len(choice) <= MAX_ANSWER_CHARS:
            return ("card", str(choice))
        return ("junk", f"{str.__repr__(choice[:40])[:-1]}... ({len(choice):,} characters)")
    if isinstance(choice, ACTIONS):  # a full game's action goes back as its token
        return ("card", str(choice))
    return ("junk", repr(choice)[:80])


def _serve(conn: Connection, factory: PlayerFactory) -> None:
    """The host's loop: answer the referee's questions until it closes the socket."""
    players: dict[int, Any] = {}
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        kind, seat = request[0], request[1]
        try:
            if kind == "make":
                player = players[seat] = factory(seat, request[2])
                reply: tuple[str, Any] = ("made", bool(getattr(player, "cheats", False)))
            elif kind == "choose":  # a full game's other choices: ("choose", seat, method name, SeatState)
                method = getattr(players[seat], request[2], None)
                reply = ("missing", None) if method is None else _answer(method(request[3]))
            else:
                state, position = request[2], request[3]
                player = players[seat]
                choice = player.play(state) if position is None else player.play_seeing_all(state, position)
                reply = _answer(choice)
        except BaseException as exc:
            reply = ("raised", f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        conn.send(reply)


def _kill_group(pid: int) -> None:
    """SIGKILL the host *pid* and every process of its group (what its plug-in started); quiet when gone.

    The group outlives its leader while a member lives, and its number is
    not reused meanwhile, so this also reaches the plug-in's processes
    after the host itself has ended.
    """
    for kill in (os.killpg, os.kill):  # os.kill: a host killed before it made its group
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


#: How often a host's guard checks that the host is still there (seconds).
GUARD_POLL_SECONDS = 0.2


def _start_guard() -> None:
    """Fork the host's guard: it waits for the host (this process) to end, then kills the host's whole group.

    The guard closes every descriptor it inherited beyond the standard
    three (the host's socket above all: held open, the referee would not
    see the host end) and ignores the stop signals: the group's SIGKILL
    ends it with the rest.
    """
    host = os.getpid()
    if os.fork() != 0:
        return
    try:
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        while os.getppid() == host:
            time.sleep(GUARD_POLL_SECONDS)
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


def _host_main(conn: Connection, factory: PlayerFactory, parent: int) -> None:
    """The forked host: a process group of its own, signals and parent tie as a pool worker's, stdout at stderr.

    Then :func:`_serve`.
    """
    try:
        os.setpgid(0, 0)
    except OSError:  # the referee has made the group already
        pass
    init_worker(parent)
    _start_guard()
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    os.dup2(2, 1)  # whatever the player writes to descriptor 1 goes to stderr
    sys.stdout = sys.stderr
    _serve(conn, factory)


class PlayerHost:
    """A process hosting the players of one plug-in for one deal (module docstring); started on first use."""

    def __init__(self, factory: PlayerFactory) -> None:
        self.factory = factory
        self.pid: int | None = None
        self.conn: Connection | None = None

    def _start(self) -> Connection:
        ours, theirs = socket.socketpair()
        parent = os.getpid()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the host: never returns into the referee's code
            status = 0
            try:
                ours.close()
                _host_main(Connection(theirs.detach()), self.factory, parent)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        theirs.close()
        try:
            os.setpgid(pid, pid)  # in both processes, so the group exists whichever runs first
        except OSError:  # the host has made it already, or has ended
            pass
        self.pid, self.conn = pid, Connection(ours.detach())
        return self.conn

    def ask(self, request: tuple[Any, ...], timeout: float | None) -> tuple[str, Any]:
        """Send *request* and return the host's reply; :class:`HostTimeout` or :class:`HostDied` otherwise."""
        conn = self.conn if self.conn is not None else self._start()
        try:
            conn.send(request)
            if not conn.poll(timeout):
                self.close()
                raise HostTimeout
            reply: tuple[str, Any] = conn.recv()
        except (EOFError, OSError):
            raise HostDied(self._ended()) from None
        return reply

    def _ended(self) -> str:
        """How the host's process ended (it is reaped): ``'its process ended with exit status 3'``."""
        pid, self.pid = self.pid, None
        self.close()
        if pid is None:
            return "its process ended"
        _kill_group(pid)  # it may still run, having closed its socket; a dead one keeps its status
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        return f"its process {'was' if code < 0 else 'ended with'} {process_end(code)}"

    def close(self) -> None:
        """Kill the host if it runs and reap it; the next question starts a new one."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        pid, self.pid = self.pid, None
        if pid is not None:
            _kill_group(pid)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
