"""What the null ouvert analysis finds (:mod:`skatdd.engine.nullouvert`): :class:`NullOuvertResult`.

A :class:`World` is one lie of the unseen cards; a :class:`Guess` names the declarer's first decision
where every card fails in some world, with a world that beats each card.  ``str()`` of a result is
``skatdd null-ouvert``'s readable report (rendered by :mod:`skatdd.present.null_ouvert`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skatdd.core.cards import Card, Mask, card_name, format_mask
from skatdd.core.printable import Printable

__all__ = ["Guess", "NullOuvertResult", "World"]


@dataclass(frozen=True)
class World:
    """One lie of the cards: the three hands by seat (masks) and the skat (mask)."""

    hands: tuple[Mask, Mask, Mask]
    skat: Mask

    def to_json(self) -> dict[str, Any]:
        return {"hands": [format_mask(h) for h in self.hands], "skat": format_mask(self.skat)}


@dataclass
class Guess:
    """The declarer's first decision where every card fails in some world.

    *history*: the cards played before it (in order); *refutations*: per card
    the declarer could play there, a world consistent with the history in
    which that card loses double-dummy.
    """

    history: list[Card]
    refutations: list[tuple[Card, World]]

    def to_json(self) -> dict[str, Any]:
        return {
            "history": [card_name(c) for c in self.history],
            "refutations": [{"card": card_name(c), **w.to_json()} for c, w in self.refutations],
        }


@dataclass
class NullOuvertResult(Printable):
    """What ``skatdd null-ouvert`` reports (docs/cli.md); ``str()`` is its readable report."""

    hand: Mask
    declarer: int
    skat: Mask | None
    worlds: int
    worlds_lost: int
    unbeatable: bool
    counterexample: tuple[World, list[Card]] | None = None
    guess: Guess | None = None
    classes: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def double_dummy_unbeatable(self) -> bool:
        return self.worlds_lost == 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": format_mask(self.hand),
            "declarer": self.declarer,
            "skat": None if self.skat is None else format_mask(self.skat),
            "worlds": self.worlds,
            "worlds_lost": self.worlds_lost,
            "double_dummy_unbeatable": self.double_dummy_unbeatable,
            "unbeatable": self.unbeatable,
        }
        if self.counterexample is not None:
            world, line = self.counterexample
            out["counterexample"] = {**world.to_json(), "line": [card_name(c) for c in line]}
        if self.guess is not None:
            out["guess"] = self.guess.to_json()
        out["classes"] = self.classes
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out
