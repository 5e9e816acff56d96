"""The worlds the PIMC players used, card by card, in a deal's records (``match`` and ``match --full``).

A PIMC player (:class:`~skatdd.play.players.PimcPlayer` and the players
built on it: ``pimc:N``, ``pimc:N,full``, ``pimc:N+bids``..., ``alphamu``'s
PIMC cards, ``match --full``'s ``pimc``) appends to its ``used`` list the
worlds each searched decision solved (at most its N; fewer when the
stopping rule settles the card early).  The referees read that list around
every card they ask for (:class:`WorldsUsed`), so a record carries:

* per game, ``worlds``: one entry per card of ``cards``, the worlds the
  decision behind it used, ``null`` for a card no search chose (a forced
  card, a card of a player that is no PIMC player, ``alphamu``'s honest
  endgame cards); the whole list is ``null`` in a game without a PIMC player;
* per deal, ``worlds_used``: ``{"A": {decisions, worlds, max}, "B": ...}``
  over the deal's games, ``null`` for a program that is no PIMC player.

Plug-ins (which play in processes of their own) and the other players show
nothing.  The counts depend on the seeds alone, so they are the same
whatever ``--jobs``.  :class:`WorldsTally` adds the deals' ``worlds_used``
up for the summaries.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .players import PimcPlayer

__all__ = ["WorldsTally", "WorldsUsed"]


class WorldsUsed:
    """The worlds used per decision over the games of one deal (module docstring).

    For each game: :meth:`start_game` with its players by seat and their
    labels; around each card :meth:`mark` (before asking) and :meth:`card`
    (after the answer); :meth:`game_list` is the game's ``worlds``, and
    :meth:`to_json` the deal's ``worlds_used``.
    """

    def __init__(self) -> None:
        self._decisions: dict[str, list[int]] = {}  # per label that is a PIMC player: worlds per decision
        self._cards: list[int | None] | None = None
        self._players: dict[int, PimcPlayer] = {}
        self._labels: dict[int, str] = {}

    def start_game(self, players: dict[int, Any], labels: dict[int, str]) -> None:
        """A new game: *players* by seat (any objects; only PIMC players count) and the *labels* of the seats."""
        self._players = {seat: p for seat, p in players.items() if isinstance(p, PimcPlayer)}
        self._labels = dict(labels)
        for seat in self._players:
            self._decisions.setdefault(labels[seat], [])
        self._cards = [] if self._players else None

    def mark(self, seat: int) -> int:
        """How many decisions *seat*'s player has recorded so far (0 for a player that is no PIMC player)."""
        player = self._players.get(seat)
        return 0 if player is None else len(player.used)

    def card(self, seat: int, mark: int) -> None:
        """*seat* played a card; *mark* is :meth:`mark` before it was asked.  Records the card's entry."""
        if self._cards is None:
            return
        player = self._players.get(seat)
        new = [] if player is None else player.used[mark:]
        self._cards.append(sum(new) if new else None)
        if new:
            self._decisions[self._labels[seat]].extend(new)

    def game_list(self) -> list[int | None] | None:
        """The game's ``worlds``: one entry per card played since :meth:`start_game`, or ``None``."""
        return None if self._cards is None else list(self._cards)

    def to_json(self, labels: tuple[str, ...] = ("A", "B")) -> dict[str, dict[str, int] | None]:
        """The deal's ``worlds_used``: per label ``{decisions, worlds, max}``, ``None`` for no PIMC player."""
        out: dict[str, dict[str, int] | None] = {}
        for label in labels:
            used = self._decisions.get(label)
            out[label] = None if used is None else {"decisions": len(used), "worlds": sum(used),
                                                    "max": max(used, default=0)}
        return out


@dataclass
class WorldsTally:
    """The sums of one program's ``worlds_used`` over a match's deals, for its summary."""

    deals: int = 0  # deals whose record carried counts for this program
    decisions: int = 0
    worlds: int = 0
    max: int = 0

    def add(self, entry: dict[str, Any] | None) -> None:
        """Count one deal's entry of ``worlds_used`` (``None`` or missing: nothing to count)."""
        if not entry:
            return
        self.deals += 1
        self.decisions += entry["decisions"]
        self.worlds += entry["worlds"]
        self.max = max(self.max, entry["max"])

    @property
    def mean(self) -> float | None:
        """The mean worlds per decision, ``None`` without a decision."""
        return self.worlds / self.decisions if self.decisions else None

    def to_json(self) -> dict[str, Any] | None:
        """``{decisions, mean, max}`` (mean rounded to 4 decimals), ``None`` for a program that is no PIMC player."""
        if not self.deals:
            return None
        mean = self.mean
        return {"decisions": self.decisions, "mean": None if mean is None else round(mean, 4), "max": self.max}
