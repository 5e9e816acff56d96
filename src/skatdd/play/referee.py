"""What both referees share (``match`` and ``match --full``): the timeout, a player's failure, and asking.

* :data:`DEFAULT_TIMEOUT` and :class:`PlayerFailure`: a player that answers
  an illegal move, raises or overruns the timeout fails the deal, not the match;
* :func:`deadline`: the timeout over one answer, where a signal can interrupt;
* :func:`as_card`: the legal card a player answered (an int or a code);
* :class:`Hosted` and :func:`make_hosted`: the player of a seat that lives in
  a :class:`~skatdd.play.hosting.PlayerHost` (a plug-in), and :class:`Shown`,
  what such a player answered that is no card, as the host showed it;
* :func:`play_hosted`: one deal's games with the solver shared, the plug-ins
  hosted for the deal and a player's failure noted in the deal's record.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from skatdd.core.cards import Card, card_name, parse_card
from skatdd.core.errors import quote
from skatdd.engine.solve import Solver

from .hosting import HostDied, HostTimeout, PlayerHost
from .players import PlayerSpec, share_solver
from .worlds_used import WorldsUsed

__all__ = ["DEFAULT_TIMEOUT", "LABELS", "Hosted", "PlayerFailure", "PlayerTimeout", "Shown", "as_card", "deadline",
           "make_hosted", "play_hosted"]

#: Seconds a player may take over one card before it fails the deal.
DEFAULT_TIMEOUT = 60.0
#: The two players' labels, in records and summaries.
LABELS = ("A", "B")


class PlayerFailure(Exception):
    """A player returned an illegal card, raised or timed out: the deal fails, the match goes on."""

    def __init__(self, label: str, seat: int, game: int, message: str) -> None:
        super().__init__(message)
        self.label, self.seat, self.game, self.message = label, seat, game, message

    def to_json(self) -> dict[str, Any]:
        """``{player, seat, game, message}`` (``game`` 1 or 2)."""
        return {"player": self.label, "seat": self.seat, "game": self.game, "message": self.message}


class PlayerTimeout(BaseException):
    """Raised into a player that overran its time (a BaseException, so a player's ``except Exception`` lets it by)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`PlayerTimeout` into the code inside after *seconds*, where a signal can (the main thread)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise PlayerTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Shown:
    """What a hosted player answered that is no card int or code, as the host showed it (its ``repr``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def as_card(choice: object, legal: tuple[Card, ...]) -> Card:
    """The legal card a player answered (an int or a code); ``ValueError`` with the reason otherwise."""
    shown = "none of " + " ".join(card_name(c) for c in legal)
    card: Card | None = None
    if isinstance(choice, str):
        with contextlib.suppress(ValueError):
            card = parse_card(choice)
    elif isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < 32:
        card = Card(choice)
    if card is None:
        raise ValueError(f"returned {quote(choice) if isinstance(choice, str) else repr(choice)[:80]}, which is no card "
                         f"(legal: {shown[8:]})")
    if card not in legal:
        raise ValueError(f"returned {card_name(card)}, which is not a legal card (legal: {shown[8:]})")
    return card


@dataclass
class Hosted:
    """The player of one seat that lives in a :class:`~skatdd.play.hosting.PlayerHost` (a plug-in)."""

    host: PlayerHost
    seat: int
    cheats: bool


def make_hosted(host: PlayerHost, seat: int, seed: int, timeout: float | None) -> Hosted:
    """Have *host* make the player of *seat*; ``RuntimeError`` with the reason (after "its factory") when it cannot."""
    try:
        kind, value = host.ask(("make", seat, seed), timeout)
    except HostTimeout:
        raise RuntimeError(f"took more than {timeout:g} s") from None
    except HostDied as exc:
        raise RuntimeError(f"failed: {exc}") from None
    if kind == "raised":
        raise RuntimeError(f"raised {value}")
    return Hosted(host, seat, bool(value))


Game = TypeVar("Game")


def play_hosted(record: dict[str, Any], solver: Solver, specs: Mapping[str, PlayerSpec],
                play: Callable[[dict[str, PlayerHost], WorldsUsed], list[Game]]) -> tuple[list[Game], WorldsUsed] | None:
    """Play one deal's games: ``play(hosts, worlds)`` with *solver* shared by the searching players.

    *specs* are the players by label: each hosted player (a plug-in)
    gets a :class:`~skatdd.play.hosting.PlayerHost` of its own for the deal,
    closed whatever happens (also on Ctrl-C: no host outlives its deal).
    What the players print goes to stderr, never into the records.  A
    :class:`PlayerFailure` is noted in *record* (``failed``) and gives
    ``None``; else the games and the worlds the searching players used.
    """
    share_solver(solver)
    hosts = {label: PlayerHost(spec.factory) for label, spec in specs.items() if spec.hosted}
    worlds = WorldsUsed()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            games = play(hosts, worlds)
    except PlayerFailure as failure:
        record["failed"] = failure.to_json()
        return None
    finally:
        share_solver(None)
        for host in hosts.values():
            host.close()
    return games, worlds
