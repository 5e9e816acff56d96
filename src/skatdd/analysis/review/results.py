"""What the decisions review reports: each seat's bidding, the hand or pick-up, the declaration, a summary.

:mod:`skatdd.analysis.review.api` builds these from ``bid``'s and ``odds``' answers; its docstring says
what every number means.  Every cost is in expected list points (ISkO score), and is never below 0:
the best choice's expected score minus the choice made's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skatdd.core.cards import Card, card_name
from skatdd.core.declaration import Declaration

__all__ = [
    "VERDICTS",
    "DecisionReview",
    "DeclarationReview",
    "Option",
    "PickupReview",
    "SeatBidding",
    "SeatSummary",
]

#: The bidding verdicts, as JSON spells them.
VERDICTS = ("within", "overbid", "passed-below")


def _r(x: float) -> float:
    return round(x, 4)


@dataclass(frozen=True)
class SeatBidding:
    """One seat's bidding judged from its ten cards alone (``bid`` on them at the review's budget).

    Attributes:
        seat: the seat.
        limit, limit_tournament: the highest bid worth declaring in list / tournament scoring (``bid``'s
            ``max_bid``), ``None`` when no bid is.
        said: the highest value the seat said or held (0 for none).
        refused: the value it passed on (the bid it would have had to hold or say), ``None`` if it never passed.
        verdict: one of :data:`VERDICTS`; *steps* how many bids of the ladder it went over its limit
            (overbid) or stopped under it (passed below), else 0.
        moment: the bid of its last move (a bid or hold: the value said; a pass: the value refused).
        choice, best: the expected list score of the move made there and of the better of the two moves
            (declare at *moment* or pass); *cost* is ``best - choice``.
    """

    seat: int
    limit: int | None
    limit_tournament: int | None
    said: int
    refused: int | None
    verdict: str
    steps: int
    moment: int | None
    choice: float
    best: float

    @property
    def cost(self) -> float:
        return self.best - self.choice

    def text(self) -> str:
        """``'within its limit'``, ``'overbid by 2 steps'``, ``'passed below its limit by 1 step'``."""
        if self.verdict == "within":
            return "within its limit"
        steps = f"{self.steps} step{'s' if self.steps != 1 else ''}"
        return f"overbid by {steps}" if self.verdict == "overbid" else f"passed {steps} below its limit"

    def to_json(self) -> dict[str, Any]:
        """``{seat, limit: {list, tournament}, said, refused, verdict, steps, text, moment, choice, best, cost}``."""
        return {"seat": self.seat, "limit": {"list": self.limit, "tournament": self.limit_tournament},
                "said": self.said, "refused": self.refused, "verdict": self.verdict, "steps": self.steps,
                "text": self.text(), "moment": self.moment, "choice": _r(self.choice), "best": _r(self.best),
                "cost": _r(self.cost)}


@dataclass(frozen=True)
class Option:
    """One alternative of a decision: a declaration (with its discard when picked up), its win chance and score."""

    declaration: Declaration
    discard: tuple[Card, ...] | None
    win: float
    score: float
    chosen: bool = False

    @property
    def label(self) -> str:
        return str(self.declaration)

    def same(self, declaration: Declaration, discard: tuple[Card, ...] | None) -> bool:
        """Whether this is *declaration* with *discard* (in any order)."""
        mine = None if self.discard is None else frozenset(self.discard)
        theirs = None if discard is None else frozenset(discard)
        return self.declaration == declaration and mine == theirs

    def to_json(self) -> dict[str, Any]:
        """``{game, hand, announce, discard, win, score, chosen}`` (``discard`` ``null`` for a hand game)."""
        return {"game": self.declaration.game.label, "hand": self.declaration.hand,
                "announce": list(self.declaration.announce),
                "discard": None if self.discard is None else [card_name(c) for c in self.discard],
                "win": round(self.win, 6), "score": _r(self.score), "chosen": self.chosen}


@dataclass(frozen=True)
class PickupReview:
    """The declarer's hand or pick-up at the final bid, from his ten cards (``bid``'s worlds, skat unseen).

    ``hand``: the best hand declaration's figures; ``pickup``: the honest pick-up's (the best game and
    discard chosen on each skat's worlds), ``games`` how many skats led to each contract.
    """

    bid: int
    choice: str                 # "hand" | "pickup"
    hand: Option | None
    pickup_win: float
    pickup_score: float
    games: dict[str, int] | None

    @property
    def best_score(self) -> float:
        return max(self.pickup_score, self.hand.score if self.hand is not None else float("-inf"))

    @property
    def chosen_score(self) -> float:
        if self.choice == "pickup" or self.hand is None:
            return self.pickup_score
        return self.hand.score

    @property
    def cost(self) -> float:
        return self.best_score - self.chosen_score

    def to_json(self) -> dict[str, Any]:
        """``{bid, choice, alternatives: [{choice, best, win, score}...], cost}``, the pick-up first."""
        alternatives: list[dict[str, Any]] = [{"choice": "pickup", "best": "pick up", "win": round(self.pickup_win, 6),
                                               "score": _r(self.pickup_score), "games": self.games}]
        if self.hand is not None:
            alternatives.append({"choice": "hand", "best": self.hand.label, "win": round(self.hand.win, 6),
                                 "score": _r(self.hand.score), "games": None})
        return {"bid": self.bid, "choice": self.choice, "alternatives": alternatives, "cost": _r(self.cost)}


@dataclass(frozen=True)
class DeclarationReview:
    """The game, discard and announcements declared, against the best few alternatives.

    ``over``: ``"skat"`` (picked up: ``odds --skat`` on the twelve cards, the worlds the declarer could not
    tell apart) or ``"unseen"`` (a hand game: ``bid``'s hand declarations, skat unseen).  ``inference``:
    ``"bids"`` when the worlds were weighed by the auction, else ``"none"``.  ``alternatives`` are best
    first and hold the choice made (``chosen``); ``evaluated`` counts the worlds.
    """

    bid: int
    over: str
    inference: str
    choice: Option
    alternatives: list[Option]
    evaluated: int

    @property
    def cost(self) -> float:
        return max(o.score for o in self.alternatives) - self.choice.score

    def to_json(self) -> dict[str, Any]:
        """``{bid, over, inference, evaluated, choice, alternatives, cost}``."""
        return {"bid": self.bid, "over": self.over, "inference": self.inference, "evaluated": self.evaluated,
                "choice": self.choice.to_json(), "alternatives": [o.to_json() for o in self.alternatives],
                "cost": _r(self.cost)}


@dataclass(frozen=True)
class SeatSummary:
    """What a seat's decisions cost: bidding and declaration in expected list points, the play in card points.

    ``declaration`` is the pick-up's and the declaration's cost together (``None`` for a defender);
    ``play`` the double-dummy card points its cards gave away (decisive cards in null), as ``analyse``'s
    ``summary.costs``.
    """

    seat: int
    bidding: float
    declaration: float | None
    play: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bidding": _r(self.bidding),
                "declaration": None if self.declaration is None else _r(self.declaration),
                "play_card_points": self.play}


@dataclass
class DecisionReview:
    """The review of every decision before the first card (:func:`skatdd.analysis.review.api.review_decisions`).

    ``seed``, ``skats``, ``worlds``: the budget, named as ``bid``'s options (``bid HAND --seat S --skats K
    --worlds W --seed N`` repeats a seat's table; ``odds HAND --skat SKAT --worlds W --seed N --bid B``
    the declaration review of a picked-up game).  ``verdict``: where the game was lost or won.
    """

    seed: int
    skats: int
    worlds: int
    declarer: int
    bidding: list[SeatBidding]
    pickup: PickupReview | None
    declaration: DeclarationReview | None
    summary: list[SeatSummary]
    verdict: str
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The ``decisions`` object of ``analyse --json`` (docs/cli.md)."""
        return {
            "seed": self.seed, "skats": self.skats, "worlds": self.worlds, "declarer": self.declarer,
            "bidding": [b.to_json() for b in self.bidding],
            "pickup": None if self.pickup is None else self.pickup.to_json(),
            "declaration": None if self.declaration is None else self.declaration.to_json(),
            "summary": {"unit": "expected list points; play: double-dummy card points",
                        "seats": [s.to_json() for s in self.summary], "verdict": self.verdict},
            "notes": list(self.notes),
            "seconds": round(self.seconds, 6),
        }
