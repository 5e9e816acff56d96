"""What the honest search finds: :class:`HonestCard` per legal card, :class:`HonestResult` for a decision.

:class:`HonestBudgetExceeded` is raised when a search needs more nodes than its budget.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skatdd.core.cards import Card, card_name

__all__ = ["HonestBudgetExceeded", "HonestCard", "HonestResult"]


class HonestBudgetExceeded(RuntimeError):
    """The honest search needed more nodes than its budget (the caller falls back to PIMC, or raises k)."""


@dataclass(frozen=True)
class HonestCard:
    """One legal declarer card: the honest and the fused (PIMC) win fractions, weighted over the worlds."""

    card: Card
    honest_win: float
    pimc_win: float

    def to_json(self) -> dict[str, Any]:
        """``{card, honest_win, pimc_win}``."""
        return {"card": card_name(self.card), "honest_win": self.honest_win, "pimc_win": self.pimc_win}


@dataclass
class HonestResult:
    """What :func:`~skatdd.analysis.honest.api.honest_card_values` finds: per card, the best cards both ways, and the cost."""

    cards: list[HonestCard]
    worlds: int
    nodes: int
    searches: int
    seconds: float

    @property
    def best(self) -> list[Card]:
        """The cards with the highest ``honest_win`` (ties: the higher ``pimc_win``)."""
        top = max((c.honest_win, c.pimc_win) for c in self.cards)
        return [c.card for c in self.cards if (c.honest_win, c.pimc_win) == top]

    @property
    def pimc_best(self) -> list[Card]:
        """The cards with the highest ``pimc_win``."""
        top = max(c.pimc_win for c in self.cards)
        return [c.card for c in self.cards if c.pimc_win == top]

    def to_json(self) -> dict[str, Any]:
        """``cards``, ``honest_best``, ``pimc_best``, ``worlds``, ``nodes``, ``searches``, ``seconds``."""
        return {
            "cards": [c.to_json() for c in self.cards],
            "honest_best": [card_name(c) for c in self.best],
            "pimc_best": [card_name(c) for c in self.pimc_best],
            "worlds": self.worlds,
            "nodes": self.nodes,
            "searches": self.searches,
            "seconds": round(self.seconds, 6),
        }
