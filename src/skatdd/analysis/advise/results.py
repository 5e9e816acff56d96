"""What single-dummy advice finds: each legal card's numbers over the worlds, the best cards, a game's cards.

:mod:`skatdd.analysis.advise.api` computes these; they are plain results with
their JSON (docs/cli.md, ``skatdd advise`` and ``skatdd analyse --worlds``).
A card's numbers are sums over the evaluated worlds, each world counted
with its weight (1 for plain PIMC; the likelihood of what the bidding and
the play showed with :mod:`skatdd.analysis.inference.api`): ``win`` is the
weighted fraction of worlds the declarer wins after the card, ``mean_value``
his weighted mean final card points.  With every weight 1 these are the
plain counts divided by the number of worlds, to the last bit.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skatdd.analysis.honest.results import HonestResult
from skatdd.analysis.inference.api import rounded_ess, weighing_json
from skatdd.analysis.worlds.space import View
from skatdd.analysis.worlds.values import CardResults
from skatdd.core.cards import Card, card_name, display_sorted
from skatdd.core.position import Position
from skatdd.core.printable import Printable
from skatdd.core.scoring import Declaration

__all__ = ["Advice", "CardAdvice", "CardTally", "HonestAdvice", "SingleDummyGame", "SingleDummyPlay", "best_cards",
           "judge_play"]


@dataclass(frozen=True)
class CardAdvice:
    """One legal card over the evaluated worlds.

    ``wins``: the weight of the worlds in which the declarer wins after the
    card; ``points``: the declarer's final card points summed over the
    worlds, each times its weight (``None`` in null); ``evaluated``: how
    many worlds; ``weight``: their total weight (``None``: each weighs 1).
    ``win`` and ``mean_value`` are the fraction and the mean.
    """

    card: Card
    wins: float
    points: float | None
    evaluated: int
    weight: float | None = None

    @property
    def total(self) -> float:
        """The evaluated worlds' total weight."""
        return self.evaluated if self.weight is None else self.weight

    @property
    def win(self) -> float:
        """The (weighted) fraction of evaluated worlds the declarer wins after the card."""
        return self.wins / self.total

    @property
    def mean_value(self) -> float | None:
        """The declarer's (weighted) mean final card points after the card (``None`` in null)."""
        return None if self.points is None else self.points / self.total

    def key(self) -> tuple[float, float]:
        """What the declarer maximises and the defenders minimise: wins, then points."""
        return self.wins, self.points or 0

    def to_json(self) -> dict[str, Any]:
        """``{card, win, mean_value}``."""
        return {"card": card_name(self.card), "win": self.win, "mean_value": self.mean_value}


class CardTally:
    """Per legal card, the (weighted) wins and points summed over the worlds solved so far.

    No world's result is kept; the weights' sum and sum of squares give the
    effective sample size (:attr:`ess`).
    """

    def __init__(self) -> None:
        self.wins: dict[Card, float] = {}
        self.points: dict[Card, float] = {}
        self.evaluated = 0
        self.weighted = False
        self.weight = 0.0
        self.squares = 0.0

    def add(self, results: Iterable[CardResults], weights: Sequence[float] | None = None) -> None:
        """Count each world of *results*, world *i* with ``weights[i]`` (``None``: each weighs 1)."""
        for i, world in enumerate(results):
            self.evaluated += 1
            if weights is None:
                self.weight += 1
                self.squares += 1
                for card, (value, won) in world.items():
                    self.wins[card] = self.wins.get(card, 0) + won
                    self.points[card] = self.points.get(card, 0) + (value or 0)
                continue
            self.weighted = True
            w = weights[i]
            self.weight += w
            self.squares += w * w
            for card, (value, won) in world.items():
                self.wins[card] = self.wins.get(card, 0.0) + (w if won else 0.0)
                self.points[card] = self.points.get(card, 0.0) + w * (value or 0)

    @property
    def ess(self) -> float:
        """``(sum w)^2 / sum w^2`` of the worlds counted: how many equally weighted worlds they are worth."""
        return self.weight ** 2 / self.squares if self.squares else 0.0

    def cards(self, pos: Position) -> list[CardAdvice]:
        """One :class:`CardAdvice` per legal card of *pos*, in display order."""
        null = pos.game.is_null
        weight = self.weight if self.weighted else None
        return [CardAdvice(card, self.wins[card], None if null else self.points[card], self.evaluated, weight)
                for card in display_sorted(self.wins)]


def best_cards(cards: Sequence[CardAdvice], declarer_moves: bool) -> list[Card]:
    """The cards best for the mover's side: the declarer maximises (wins, points), a defender minimises them."""
    keys = [c.key() for c in cards]
    target = max(keys) if declarer_moves else min(keys)
    return [c.card for c, key in zip(cards, keys, strict=True) if key == target]


@dataclass(frozen=True)
class HonestAdvice:
    """The honest search of one declarer decision (:func:`skatdd.analysis.honest.api.honest_card_values`).

    ``result`` is ``None`` when the search gave up (``gave_up`` says why);
    ``best``: the cards with the highest ``honest_win``, ties by the PIMC win
    fraction, then the mean points; ``differs``: none of them is a PIMC
    best card.
    """

    tricks: int
    result: HonestResult | None
    best: tuple[Card, ...] = ()
    differs: bool = False
    gave_up: str | None = None

    def honest_win(self, card: Card) -> float | None:
        """*card*'s ``honest_win`` (``None`` when the search gave up)."""
        if self.result is None:
            return None
        return next(c.honest_win for c in self.result.cards if c.card == card)

    def to_json(self) -> dict[str, Any]:
        """``tricks, best, differs, nodes, searches, seconds`` (docs/cli.md); ``gave_up`` instead when it did."""
        if self.result is None:
            return {"tricks": self.tricks, "gave_up": self.gave_up}
        return {"tricks": self.tricks, "best": [card_name(c) for c in self.best], "differs": self.differs,
                "nodes": self.result.nodes, "searches": self.result.searches,
                "seconds": round(self.result.seconds, 6)}

    @classmethod
    def of(cls, tricks: int, result: HonestResult, cards: Sequence[CardAdvice], pimc_best: Sequence[Card]) -> HonestAdvice:
        """The honest advice from *result*, *cards* (the PIMC numbers of the same worlds) and PIMC's best cards."""
        pimc = {c.card: (c.win, c.mean_value or 0.0) for c in cards}
        keys = {c.card: (c.honest_win, *pimc[c.card]) for c in result.cards}
        top = max(keys.values())
        best = tuple(card for card, key in keys.items() if key == top)
        return cls(tricks, result, best, not set(best) & set(pimc_best))


@dataclass
class Advice(Printable):
    """What :func:`skatdd.analysis.advise.api.advise` finds for the player to move (see :meth:`to_json`).

    ``str(advice)`` is what ``skatdd advise`` prints (:mod:`skatdd.present.advise`);
    ``position`` and ``declaration``, the decision advised on, are kept for
    that text (not in the JSON).

    ``inference``: how the worlds were weighed (``"none"``: uniform);
    ``ess``: the weights' effective sample size; ``pool``, ``pool_ess``:
    the worlds the bidding weighed and their effective size
    (:class:`skatdd.analysis.inference.api.WeightedWorlds`); ``honest``: the honest
    search, when asked for.
    """

    seat: int
    declarer: int
    worlds: int
    evaluated: int
    exact: bool
    cards: list[CardAdvice]
    best: list[Card]
    seed: int
    view: View
    nodes: int = 0
    seconds: float = 0.0
    inference: str = "none"
    ess: float | None = None
    pool: int | None = None
    pool_ess: float | None = None
    honest: HonestAdvice | None = None
    position: Position | None = field(default=None, repr=False, compare=False)
    declaration: Declaration | None = field(default=None, repr=False, compare=False)

    def card(self, card: Card) -> CardAdvice:
        """The advice on *card* (a legal card)."""
        for advice in self.cards:
            if advice.card == card:
                return advice
        raise KeyError(card_name(card))

    def to_json(self) -> dict[str, Any]:
        """``seat, worlds, evaluated, exact, cards, best`` (docs/cli.md), plus ``declarer, seed, nodes, seconds``.

        With inference also ``inference, ess, pool, pool_ess``; with the
        honest search ``honest`` and each card's ``honest_win``.
        """
        out: dict[str, Any] = {
            "seat": self.seat,
            "declarer": self.declarer,
            "worlds": self.worlds,
            "evaluated": self.evaluated,
            "exact": self.exact,
            "seed": self.seed,
        }
        if self.inference != "none":
            out.update(weighing_json(self.inference, self.ess, self.pool, self.pool_ess))
        cards = [c.to_json() for c in self.cards]
        if self.honest is not None:
            for entry, card in zip(cards, self.cards, strict=True):
                entry["honest_win"] = self.honest.honest_win(card.card)
        out.update({"cards": cards, "best": [card_name(c) for c in self.best]})
        if self.honest is not None:
            out["honest"] = self.honest.to_json()
        out.update({"nodes": self.nodes, "seconds": round(self.seconds, 6)})
        return out


# --------------------------------------------------------------------------- a whole game


@dataclass(frozen=True)
class SingleDummyPlay:
    """One card of a game judged from its player's view at that moment.

    ``win`` / ``mean_value``: the played card's numbers; ``best``: the
    single-dummy best cards; ``cost_win``: how far the card's win fraction
    fell short of the best card's, in percentage points (>= 0);
    ``cost_points``: how far its mean fell short of the best card's mean
    (>= 0; 0 in null, and 0 when the card's mean is better for its side
    than the best card's, which then has a better win fraction).  ``ess``:
    the effective sample size of its worlds' weights (with inference);
    ``honest``: the honest search at this card (a declarer card with at most
    the asked tricks left), else ``None``.
    """

    index: int
    seat: int
    card: Card
    win: float
    mean_value: float | None
    best: tuple[Card, ...]
    cost_win: float
    cost_points: float
    worlds: int
    evaluated: int
    exact: bool
    ess: float | None = None
    honest: HonestAdvice | None = None

    @property
    def mistake(self) -> bool:
        """The card lowered its side's win fraction against the single-dummy best."""
        return self.cost_win > 0

    def to_json(self, *, inference: bool = False, honest: bool = False) -> dict[str, Any]:
        """The ``sd_*`` fields of an ``analyse`` play; ``sd_ess`` with *inference*, ``sd_honest*`` with *honest*."""
        out: dict[str, Any] = {
            "sd_win": self.win,
            "sd_mean_value": self.mean_value,
            "sd_best": [card_name(c) for c in self.best],
            "sd_cost": {"win": round(self.cost_win, 4), "points": round(self.cost_points, 4)},
            "sd_worlds": self.worlds,
            "sd_evaluated": self.evaluated,
            "sd_exact": self.exact,
        }
        if inference:
            out["sd_ess"] = rounded_ess(self.ess)
        if honest:
            h = self.honest
            out["sd_honest_win"] = None if h is None else h.honest_win(self.card)
            out["sd_honest_best"] = None if h is None or h.result is None else [card_name(c) for c in h.best]
            out["sd_honest_differs"] = None if h is None or h.result is None else h.differs
        return out


@dataclass
class SingleDummyGame:
    """Every card of a game judged single-dummy: ``plays[i]`` for card *i*, then the summary.

    ``inference`` is how the worlds were weighed; ``honest_tricks`` the
    honest search's bound (``None``: not asked for).
    """

    plays: list[SingleDummyPlay]
    worlds: int
    seed: int
    nodes: int = 0
    seconds: float = 0.0
    inference: str = "none"
    honest_tricks: int | None = None

    @property
    def costs(self) -> list[float]:
        """Per seat, the summed win shortfalls (percentage points)."""
        costs = [0.0, 0.0, 0.0]
        for play in self.plays:
            costs[play.seat] += play.cost_win
        return [round(c, 4) for c in costs]

    @property
    def first_mistake(self) -> int | None:
        """Index of the first card with a win shortfall, or ``None``."""
        return next((p.index for p in self.plays if p.mistake), None)

    def add_to(self, analysis: dict[str, Any]) -> None:
        """Add the ``sd_*`` fields to an ``analyse`` JSON object: to each play, and to its summary.

        The summary gets ``sd_costs`` and ``sd_first_mistake`` (docs/cli.md)
        and ``sd_worlds``, ``sd_seed`` (with inference ``sd_inference``, with
        the honest search ``sd_honest_tricks``); ``nodes`` and ``seconds``
        come to include the single-dummy work.
        """
        inference, honest = self.inference != "none", self.honest_tricks is not None
        for play, record in zip(self.plays, analysis["plays"], strict=True):
            record.update(play.to_json(inference=inference, honest=honest))
        summary: dict[str, Any] = {"sd_costs": self.costs, "sd_first_mistake": self.first_mistake, "sd_worlds": self.worlds,
                   "sd_seed": self.seed}
        if inference:
            summary["sd_inference"] = self.inference
        if honest:
            summary["sd_honest_tricks"] = self.honest_tricks
        analysis["summary"].update(summary)
        analysis["nodes"] += self.nodes
        analysis["seconds"] = round(analysis["seconds"] + self.seconds, 6)


def judge_play(index: int, pos: Position, card: Card, cards: list[CardAdvice], worlds: int, exact: bool, *,
               ess: float | None = None, honest: HonestAdvice | None = None) -> SingleDummyPlay:
    """Card *index* (*card*, played by the mover of *pos*) judged against the best of *cards* for its side."""
    mover_declares = pos.to_move == pos.declarer
    best = best_cards(cards, mover_declares)
    top = next(c for c in cards if c.card == best[0])
    mine = next(c for c in cards if c.card == card)
    sign = 1 if mover_declares else -1
    cost_win = max(0.0, sign * (top.win - mine.win) * 100)
    cost_points = 0.0
    if top.mean_value is not None and mine.mean_value is not None:
        cost_points = max(0.0, sign * (top.mean_value - mine.mean_value))
    return SingleDummyPlay(
        index=index, seat=pos.to_move, card=card, win=mine.win, mean_value=mine.mean_value, best=tuple(best),
        cost_win=cost_win, cost_points=cost_points, worlds=worlds, evaluated=mine.evaluated, exact=exact,
        ess=ess, honest=honest,
    )
