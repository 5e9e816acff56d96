"""The summary of a full-game match: the edge over the six seatings and each program's profile.

The edge: each deal is one paired observation, A's total over its six games
(every seat A held) minus B's, in Seeger-Fabian points and in list score,
with the 95% interval of :class:`~skatdd.play.summary.PairedMean`.  Beside
it, each program's mean points per game it sat in (a program holds nine of
the eighteen seats of a deal).

The profile of a program, over the games it declared: how many, the share
of each game (grand, the four suits, null, null ouvert) and the declarer's
win rate in each, the mean bid, the shares of overbid games, hand games,
schneider and schwarz (reached by either side, or announced); and
``passed``: the share of passed-in games among the games where it held two
of the three seats.  :data:`HUMAN` holds the published figures for human
play on the largest online platform (17,967,106 deals), to show beside it.
Per PIMC program, the worlds its searched card decisions used: their number,
the mean per decision and the most (:mod:`skatdd.play.worlds_used`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..summary import PairedMean, note_failure
from ..worlds_used import WorldsTally

__all__ = ["GAMES", "HUMAN", "FullSummary"]

#: The games a profile splits by, in the order shown.
GAMES = ("grand", "clubs", "spades", "hearts", "diamonds", "null", "null ouvert")

#: Human play on the largest online platform (17,967,106 deals; issue 34): ``passed`` and ``declarer_win`` as
#: fractions, then per game its share of the games played and the declarer's win rate (``None``: not published).
#: The nulls' shares are of all games: null is 6.4%, of which plain null 50.8% and null ouvert 42.8%.
HUMAN: dict[str, Any] = {
    "passed": 0.049,
    "declarer_win": 0.816,
    "by_game": {
        "grand": {"share": 0.322, "win": 0.914},
        "clubs": {"share": 0.211, "win": 0.775},
        "spades": {"share": 0.162, "win": 0.779},
        "hearts": {"share": 0.134, "win": 0.777},
        "diamonds": {"share": 0.107, "win": 0.775},
        "null": {"share": round(0.064 * 0.508, 4), "win": 0.707},
        "null ouvert": {"share": round(0.064 * 0.428, 4), "win": 0.869},
    },
}


def game_name(game: dict[str, Any]) -> str:
    """The profile's name of a game record's game: ``'null ouvert'`` for a null ouvert, else its label."""
    if game["game"] == "null" and "ouvert" in game["announce"]:
        return "null ouvert"
    return str(game["game"])


def _fraction(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass
class _Profile:
    """One program's tallies over the games it declared, and its passed-in games."""

    declared: int = 0
    wins: int = 0
    bids: int = 0
    overbid: int = 0
    hand: int = 0
    schneider: int = 0
    schwarz: int = 0
    games: dict[str, list[int]] = field(default_factory=lambda: {g: [0, 0] for g in GAMES})
    two_seat_games: int = 0
    passed: int = 0
    points: int = 0
    seats: int = 0

    def to_json(self) -> dict[str, Any]:
        n = self.declared
        return {
            "passed": _fraction(self.passed, self.two_seat_games),
            "declarer_win": _fraction(self.wins, n),
            "declared": n,
            "mean_bid": round(self.bids / n, 2) if n else None,
            "overbid": _fraction(self.overbid, n),
            "hand": _fraction(self.hand, n),
            "schneider": _fraction(self.schneider, n),
            "schwarz": _fraction(self.schwarz, n),
            "by_game": {g: {"games": c[0], "share": _fraction(c[0], n), "win": _fraction(c[1], c[0])}
                        for g, c in self.games.items()},
        }


@dataclass
class FullSummary:
    """Sums over a full-game match's deal records (module docstring); :meth:`add` each, :meth:`to_json` the result."""

    players: dict[str, str] = field(default_factory=dict)
    deals: int = 0
    failed: int = 0
    errors: int = 0
    tournament: PairedMean = field(default_factory=PairedMean)
    list_score: PairedMean = field(default_factory=PairedMean)
    profiles: dict[str, _Profile] = field(default_factory=lambda: {"A": _Profile(), "B": _Profile()})
    worlds: dict[str, WorldsTally] = field(default_factory=lambda: {"A": WorldsTally(), "B": WorldsTally()})
    failures: list[str] = field(default_factory=list)

    def add(self, record: dict[str, Any]) -> None:
        """Count one record: a played deal, a failed one or a line that could not be read."""
        if "error" in record:
            self.errors += 1
            return
        if "failed" in record:
            self.failed += 1
            note_failure(self.failures, record)
            return
        self.deals += 1
        self.tournament.add(record["edge"]["tournament"])
        self.list_score.add(record["edge"]["list"])
        used = record.get("worlds_used") or {}  # absent in the records of earlier versions (--resume)
        for label in ("A", "B"):
            self.profiles[label].points += record["totals"][label]["tournament"]
            self.profiles[label].seats += 9
            self.worlds[label].add(used.get(label))
        for game in record["games"]:
            seating = game["seating"]
            major = max("AB", key=seating.count)
            self.profiles[major].two_seat_games += 1
            if game["declarer"] is None:
                self.profiles[major].passed += 1
                continue
            p = self.profiles[seating[game["declarer"]]]
            p.declared += 1
            p.wins += bool(game["won"])
            p.bids += game["bid"] or 0
            p.overbid += bool(game["overbid"])
            p.hand += bool(game["hand"])
            p.schneider += bool(game["schneider"]) or "schneider" in game["announce"]
            p.schwarz += bool(game["schwarz"]) or "schwarz" in game["announce"]
            tally = p.games[game_name(game)]
            tally[0] += 1
            tally[1] += bool(game["won"])

    def per_game(self, label: str) -> float | None:
        """*label*'s mean Seeger-Fabian points per game it sat in (per seat held)."""
        p = self.profiles[label]
        return round(p.points / p.seats, 2) if p.seats else None

    def to_json(self) -> dict[str, Any]:
        """The summary object of docs/cli.md (``match --full --json``)."""
        return {
            "players": dict(self.players),
            "deals": self.deals,
            "games": 6 * self.deals,
            "failed": self.failed,
            "errors": self.errors,
            "per_game": {"a": self.per_game("A"), "b": self.per_game("B")},
            "edge": {"tournament": self.tournament.to_json(), "list": self.list_score.to_json()},
            "profile": {"a": self.profiles["A"].to_json(), "b": self.profiles["B"].to_json()},
            "worlds": {"a": self.worlds["A"].to_json(), "b": self.worlds["B"].to_json()},
            "human": HUMAN,
        }

    def lines(self) -> list[str]:
        """The readable summary: the edge, then the two profiles beside the human figures."""
        data = self.to_json()
        out = [f"Full-game match: A = {self.players.get('A')}, B = {self.players.get('B')}: {self.deals} deals x 6 "
               f"seatings" + (f" ({self.failed} failed)" if self.failed else "")
               + (f" ({self.errors} unreadable)" if self.errors else ""), ""]

        def num(value: float | None) -> str:
            return "-" if value is None else f"{value:+.1f}"

        out.append(f"  Seeger-Fabian per game: A {num(data['per_game']['a'])}, B {num(data['per_game']['b'])}")
        out.append(f"  A's edge per deal (Seeger-Fabian), mean and 95% interval: {self.tournament.text()}")
        out.append(f"  A's edge per deal (list score):                           {self.list_score.text()}")
        if any(data["worlds"].values()):  # only PIMC programs search worlds

            def searched(w: dict[str, Any] | None) -> str:
                if w is None:
                    return "-"
                mean = "-" if w["mean"] is None else f"{w['mean']:.2f}"
                return f"{mean} (most {w['max']}, {w['decisions']} decisions)"

            out.append(f"  PIMC worlds per searched card: A {searched(data['worlds']['a'])}, "
                       f"B {searched(data['worlds']['b'])}")
        out += ["", f"{'Profile':<26}{'A':>17}{'B':>17}{'humans':>17}"]
        a, b = data["profile"]["a"], data["profile"]["b"]

        def pct(value: float | None) -> str:
            return "-" if value is None else f"{100 * value:.1f}%"

        def row(name: str, left: str, right: str, human: str = "") -> None:
            out.append(f"  {name:<24}{left:>17}{right:>17}{human:>17}")

        row("passed in", pct(a["passed"]), pct(b["passed"]), pct(HUMAN["passed"]))
        row("declarer wins", pct(a["declarer_win"]), pct(b["declarer_win"]), pct(HUMAN["declarer_win"]))
        row("games declared", str(a["declared"]), str(b["declared"]))
        for g in GAMES:
            ga, gb, gh = a["by_game"][g], b["by_game"][g], HUMAN["by_game"][g]
            row(f"{g}: share / won", f"{pct(ga['share'])} / {pct(ga['win'])}", f"{pct(gb['share'])} / {pct(gb['win'])}",
                f"{pct(gh['share'])} / {pct(gh['win'])}")
        row("mean bid", "-" if a["mean_bid"] is None else f"{a['mean_bid']:.1f}",
            "-" if b["mean_bid"] is None else f"{b['mean_bid']:.1f}")
        for key in ("overbid", "hand", "schneider", "schwarz"):
            row(key, pct(a[key]), pct(b[key]))
        out += [f"Failed: {f}" for f in self.failures]
        return out
