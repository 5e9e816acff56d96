"""The text of ``skatdd match``'s summary: :class:`MatchSummary` as printed.

:func:`summary_lines` is the summary; ``str(summary)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from typing import Any

from skatdd.core.printable import renders
from skatdd.play.referee import LABELS
from skatdd.play.summary import GAME_TYPES, MatchSummary, PairedMean

__all__ = ["summary_lines", "summary_text"]


# --------------------------------------------------------------------------- the readable summary


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _deals(n: int) -> str:
    return f"{n} deal{'s' if n != 1 else ''}"


def summary_lines(summary: MatchSummary) -> list[str]:
    """The readable summary of a match: the edge with its interval, then declarer results and costs per player."""
    data = summary.to_json()
    names = {label: summary.players.get(label, "?") + (" (sees every card)" if label in summary.cheats else "")
             for label in LABELS}
    head = f"Match: A = {names['A']}, B = {names['B']}: {_deals(summary.deals)}, each played twice"
    counts = [f"{n} {what}" for n, what in ((summary.failed, "failed"), (summary.skipped, "skipped"),
                                            (summary.errors, "unreadable")) if n]
    out = [head + (f" ({', '.join(counts)})" if counts else ""), "",
           "A's edge per deal (A's total over both games minus B's), mean and 95% interval:"]

    def edge(label: str, mean: PairedMean) -> None:
        out.append(f"  {label:<30}{mean.text(7)}")

    edge("list score (ISkO)", summary.score)
    edge("tournament (Seeger-Fabian)", summary.tournament)
    for kind in GAME_TYPES:
        if summary.types[kind].deals:
            edge(f"list score, {kind} ({_deals(summary.types[kind].deals)})", summary.types[kind].score)
    a, b = data["a"], data["b"]

    def row(label: str, left: str, right: str) -> None:
        out.append(f"  {label:<34}{left:>10}{right:>10}")

    out += ["", f"{'As declarer':<36}{'A':>10}{'B':>10}"]
    row("games won", _percent(a["win_rate"]), _percent(b["win_rate"]))
    for kind in GAME_TYPES:
        typed = data["by_game"][kind]
        if typed["deals"]:
            row(f"  {kind} (double-dummy {_percent(typed['dd_win_rate'])})", _percent(typed["a"]["win_rate"]),
                _percent(typed["b"]["win_rate"]))
    row("mean card points (suit, grand)", _number(a["mean_points"]), _number(b["mean_points"]))
    out += ["", f"{'Double-dummy cost per card':<36}{'A':>10}{'B':>10}"]
    for role in ("declarer", "defender", "all"):
        row(f"card points, as {role}" if role != "all" else "card points, every card", _number(a["dd_cost"][role], 2),
            _number(b["dd_cost"][role], 2))
    if data["by_game"]["null"]["deals"]:
        for role in ("declarer", "defender"):
            row(f"lost nulls, as {role}", _number(a["dd_cost_null"][role], 3), _number(b["dd_cost_null"][role], 3))
    if a["worlds"] or b["worlds"]:
        # Only PIMC players search worlds; a match without one keeps its summary as it was.
        def worlds(side: dict[str, Any], key: str, digits: int = 0) -> str:
            return "-" if side["worlds"] is None else _number(side["worlds"][key], digits)

        out += ["", f"{'PIMC worlds per searched decision':<36}{'A':>10}{'B':>10}"]
        row("mean", worlds(a, "mean", 2), worlds(b, "mean", 2))
        row("most in one decision", worlds(a, "max"), worlds(b, "max"))
        row("decisions searched", worlds(a, "decisions"), worlds(b, "decisions"))
    for failure in summary.failures:
        out.append(f"Failed: {failure}")
    return out


@renders(MatchSummary)
def summary_text(summary: MatchSummary) -> str:
    """The readable summary ``skatdd match`` prints for *summary*."""
    return "\n".join(summary_lines(summary))
