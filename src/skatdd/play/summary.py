"""The summary of a match: :class:`MatchSummary`, added up from the deal records one by one.

A duplicate match measures *A*'s edge over *B* deal by deal: each deal's
edge is one paired observation (both players met the same cards in both
seats), so the mean edge comes with the 95% interval of a paired t test,
mean +- t(0.975, n - 1) x sd / sqrt(n), over the deals played.  The summary
keeps sums only (memory does not grow with the match) and can be fed the
records of an earlier, interrupted run first (``--resume``).

Per player, as declarer: the win rate and the mean card points (suit and
grand games only: a null declarer's points mean nothing); the same per game
type (grand, suit, null).  Per player, the mean double-dummy cost per card
(:mod:`skatdd.analysis.analyse.api`'s measure: what a card lost for its side against
double-dummy play from there on), apart for suit and grand (card points) and
null (1 when a card turned its side's double-dummy win into a loss).  Per
PIMC player, the worlds its searched decisions used: their number, the mean
per decision and the most (:mod:`skatdd.play.worlds_used`).

>>> t_quantile(1), t_quantile(10), t_quantile(10_000)
(12.7062, 2.228..., 1.960...)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from skatdd.core.printable import Printable

from .worlds_used import WorldsTally

__all__ = ["GAME_TYPES", "MatchSummary", "PairedMean", "game_type", "note_failure", "t_quantile"]

#: The game types the summary splits by.
GAME_TYPES = ("grand", "suit", "null")

#: t(0.975, df) for small df, where the expansion below is least accurate (standard tables).
_T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 6: 2.4469, 7: 2.3646, 8: 2.3060, 9: 2.2622,
            10: 2.2281}
_Z = 1.959963984540054  # the normal distribution's 97.5% point


def t_quantile(df: int) -> float:
    """Student's t 97.5% point for *df* degrees of freedom (a table to df 10, then the Cornish-Fisher expansion).

    The expansion (Abramowitz and Stegun 26.7.5, four terms) is within
    1e-5 of the exact value from df 11 on.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df in _T_TABLE:
        return _T_TABLE[df]
    z = _Z
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def game_type(game: str) -> str:
    """``grand``, ``null`` or ``suit`` for a game label."""
    return game if game in ("grand", "null") else "suit"


@dataclass
class PairedMean:
    """The mean of paired observations (one per deal) and its 95% interval, from running sums."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        """Count one observation."""
        self.n += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float | None:
        """The mean, ``None`` with no observation."""
        return self.total / self.n if self.n else None

    @property
    def ci(self) -> tuple[float, float] | None:
        """The 95% interval of the mean (t with n - 1 degrees of freedom), ``None`` with fewer than two observations."""
        if self.n < 2:
            return None
        mean = self.total / self.n
        variance = max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))
        half = t_quantile(self.n - 1) * math.sqrt(variance / self.n)
        return mean - half, mean + half

    def to_json(self) -> dict[str, Any]:
        """``{mean, ci}`` rounded to 4 decimals (``ci`` a pair, or ``None``)."""
        ci = self.ci
        return {"mean": _round(self.mean), "ci": None if ci is None else [round(ci[0], 4), round(ci[1], 4)]}

    def text(self, width: int = 0) -> str:
        """``+12.3  [+1.0, +23.6]``: the mean (right-aligned in *width*) and its interval (none with one deal), or ``-``."""
        mean = self.mean
        if mean is None:
            return "-"
        ci = self.ci
        return f"{mean:>+{width}.1f}" + ("" if ci is None else f"  [{ci[0]:+.1f}, {ci[1]:+.1f}]")


def note_failure(failures: list[str], record: dict[str, Any]) -> None:
    """Keep a failed deal's message in *failures*, the first ten only (a summary shows a few, not thousands)."""
    if len(failures) < 10:
        failures.append(f"deal {record.get('id')}: {record['failed'].get('message')}")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass
class _Rate:
    """A count of successes over trials, and a sum over some of them."""

    trials: int = 0
    wins: int = 0
    points: int = 0
    scored: int = 0  # trials whose points count (suit and grand)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.trials,
            "win_rate": _round(self.wins / self.trials) if self.trials else None,
            "mean_points": _round(self.points / self.scored) if self.scored else None,
        }


@dataclass
class _Cost:
    """Double-dummy cost summed over cards, by role."""

    declarer: list[float] = field(default_factory=lambda: [0.0, 0])
    defender: list[float] = field(default_factory=lambda: [0.0, 0])

    def add(self, role: str, total: float, cards: int) -> None:
        entry = self.declarer if role == "declarer" else self.defender
        entry[0] += total
        entry[1] += cards

    def to_json(self) -> dict[str, Any]:
        def mean(total: float, cards: float) -> float | None:
            return _round(total / cards) if cards else None

        return {
            "declarer": mean(*self.declarer),
            "defender": mean(*self.defender),
            "all": mean(self.declarer[0] + self.defender[0], self.declarer[1] + self.defender[1]),
        }


@dataclass
class _Side:
    """One player's tallies."""

    declarer: _Rate = field(default_factory=_Rate)
    by_type: dict[str, _Rate] = field(default_factory=lambda: {t: _Rate() for t in GAME_TYPES})
    cost: _Cost = field(default_factory=_Cost)
    cost_null: _Cost = field(default_factory=_Cost)
    worlds: WorldsTally = field(default_factory=WorldsTally)


@dataclass
class _TypeTally:
    deals: int = 0
    dd_wins: int = 0
    score: PairedMean = field(default_factory=PairedMean)
    tournament: PairedMean = field(default_factory=PairedMean)


@dataclass
class MatchSummary(Printable):
    """Sums over a match's deal records (module docstring); :meth:`add` each record, :meth:`to_json` the result.

    ``str(summary)`` is the readable summary ``skatdd match`` prints.

    ``players`` maps ``"A"`` and ``"B"`` to the players' names; ``cheats``
    names those that see every card.
    """

    players: dict[str, str] = field(default_factory=dict)
    cheats: list[str] = field(default_factory=list)
    deals: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    score: PairedMean = field(default_factory=PairedMean)
    tournament: PairedMean = field(default_factory=PairedMean)
    sides: dict[str, _Side] = field(default_factory=lambda: {"A": _Side(), "B": _Side()})
    types: dict[str, _TypeTally] = field(default_factory=lambda: {t: _TypeTally() for t in GAME_TYPES})
    failures: list[str] = field(default_factory=list)  # the first few failure messages

    def add(self, record: dict[str, Any]) -> None:
        """Count one record of the match output: a played deal, a failed one, a skipped or a bad line."""
        if "error" in record:
            self.errors += 1
            return
        if "skipped" in record:
            self.skipped += 1
            return
        if "failed" in record:
            self.failed += 1
            note_failure(self.failures, record)
            return
        self.deals += 1
        kind = game_type(record["game"])
        null = kind == "null"
        edge = record["edge"]
        self.score.add(edge["score"])
        self.tournament.add(edge["tournament"])
        types = self.types[kind]
        types.deals += 1
        types.dd_wins += bool(record.get("dd_wins"))
        types.score.add(edge["score"])
        types.tournament.add(edge["tournament"])
        for game in record["games"]:
            declarer = game["declarer_player"]
            defender = "B" if declarer == "A" else "A"
            for rate in (self.sides[declarer].declarer, self.sides[declarer].by_type[kind]):
                rate.trials += 1
                rate.wins += bool(game["won"])
                if not null:
                    rate.points += game["declarer_points"]
                    rate.scored += 1
            cost = game["cost"]
            for player, role, side in ((declarer, "declarer", "declarer"), (defender, "defender", "defenders")):
                tally = self.sides[player].cost_null if null else self.sides[player].cost
                tally.add(role, cost[side]["total"], cost[side]["cards"])
        used = record.get("worlds_used") or {}  # absent in the records of earlier versions (--resume)
        for label, s in self.sides.items():
            s.worlds.add(used.get(label))

    def to_json(self) -> dict[str, Any]:
        """The summary object of docs/cli.md: ``deals``, ``edge``, ``a``, ``b``, ``by_game`` and the counts."""
        def side(key: str) -> dict[str, Any]:
            s = self.sides[key]
            return {
                "player": self.players.get(key), "cheats": key in self.cheats, **s.declarer.to_json(),
                "dd_cost": s.cost.to_json(), "dd_cost_null": s.cost_null.to_json(), "worlds": s.worlds.to_json(),
            }

        return {
            "players": dict(self.players),
            "deals": self.deals,
            "failed": self.failed,
            "skipped": self.skipped,
            "errors": self.errors,
            "edge": {"score": self.score.to_json(), "tournament": self.tournament.to_json()},
            "a": side("A"),
            "b": side("B"),
            "by_game": {
                kind: {
                    "deals": t.deals,
                    "dd_win_rate": _round(t.dd_wins / t.deals) if t.deals else None,
                    "edge": {"score": t.score.to_json(), "tournament": t.tournament.to_json()},
                    "a": self.sides["A"].by_type[kind].to_json(),
                    "b": self.sides["B"].by_type[kind].to_json(),
                }
                for kind, t in self.types.items()
            },
        }
