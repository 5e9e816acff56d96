"""What ``skatdd odds`` reports: each world's scored outcome, their sums per option, the option and report classes.

A world's result of one option (:class:`WorldOutcome`, scored by
:func:`world_outcome`) is added to the option's running sums
(:class:`OptionTally`) as the worlds come back, so no outcome is kept; the
sums become an :class:`OptionOdds`, and the options with the run's facts an
:class:`OddsReport` (docs/cli.md has the JSON).  A world may weigh more than
one (``odds --inference bids``: a world drawn *k* times weighs *k*); every
count is then a sum of weights.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from skatdd.analysis.best.bands import ALL_TRICKS, BAND_SAMPLES, NO_TRICK, SCHNEIDER, SCHNEIDERED, band_of, tricks_arg
from skatdd.analysis.inference.api import weighing_json
from skatdd.core.cards import Card, Mask, card_name, format_mask
from skatdd.core.printable import Printable
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration, matadors, score_game

from .stats import rate_interval

__all__ = ["Alternative", "Contract", "OddsReport", "OptionOdds", "OptionTally", "WorldOutcome", "world_outcome"]

#: A contract as odds lists it: the game for play and whether it is ouvert (null ouvert plays as null).
Contract = tuple[Game, bool]


class WorldOutcome(NamedTuple):
    """One option in one world, as scored."""

    score: int
    wins: bool
    points: int | None      # final card points, skat or discard included; None in null or when not asked
    schneider: bool         # 90 points or more
    schneidered: bool       # 30 points or fewer
    takes_all: bool
    trickless: bool


def world_outcome(contract: Contract, hand: bool, twelve: Mask, bid: int, result: Sequence[Any]) -> WorldOutcome:
    """Score one world's *result* of one option.

    *result* is ``[wins]`` in null, else ``[value, takes_all, trickless]``
    (exact) or ``[band]`` (:mod:`skatdd.analysis.best.bands`: everything but the
    points, which are then ``None``).  *twelve* is the declarer's hand plus
    that world's skat (the matadors are counted over them).
    """
    game, ouvert = contract
    decl = Declaration(game, hand=hand, ouvert=ouvert)
    if game.is_null:
        wins = bool(result[0])
        sc = score_game(decl, tricks=0 if wins else 1, bid=bid)
        return WorldOutcome(sc.score, sc.declarer_wins, None, False, False, False, False)
    points: int | None
    if len(result) == 1:
        band, points = int(result[0]), None
        value, tricks = BAND_SAMPLES[band]   # any result of the band scores the same
    else:
        points = value = int(result[0])
        takes_all, trickless = bool(result[1]), bool(result[2])
        band, tricks = band_of(value, takes_all, trickless), tricks_arg(takes_all, trickless)
    sc = score_game(decl, matadors=matadors(game, twelve), points=value, tricks=tricks, bid=bid)
    # Every trick fact reported follows from the band, exact or not.
    return WorldOutcome(sc.score, sc.declarer_wins, points, band >= SCHNEIDER, band <= SCHNEIDERED,
                        band == ALL_TRICKS, band == NO_TRICK)


class _Rates:
    """The win rate and mean score of an option or discard over the evaluated worlds.

    ``sample_size`` is the effective sample size of weighted worlds (``None``: the worlds weigh the same).
    """

    evaluated: float
    wins: float
    total_score: float
    exact: bool
    sample_size: float | None

    @property
    def win(self) -> float:
        return self.wins / self.evaluated

    @property
    def win_ci(self) -> list[float]:
        """95% Wilson interval of :attr:`win` (the point itself when every world was evaluated)."""
        return rate_interval(self.wins, self.evaluated, self.exact, self.sample_size)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.evaluated


@dataclass
class Alternative(_Rates):
    """A runner-up discard of a picked-up option with a known skat."""

    discard: list[Card]
    evaluated: float
    wins: float
    total_score: float
    exact: bool = False
    sample_size: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The alternative as docs/cli.md's JSON object."""
        return {"discard": [card_name(c) for c in self.discard], "win": round(self.win, 6), "win_ci": self.win_ci,
                "mean_score": round(self.mean_score, 4)}


@dataclass
class OptionOdds(_Rates):
    """One contract's figures over the evaluated worlds (a row of ``options``).

    Counts are kept (``wins``, ``schneider``...) and the fractions derived,
    so callers can compare exactly; they are whole numbers unless the worlds
    are weighed.  ``schneider``, ``schneidered``, ``schwarz``, ``schwarzed``
    and ``total_points`` are ``None`` in null; ``total_points`` also when
    the points were not asked for (``odds(points=False)``).  ``discard`` is the chosen
    discard with a known skat, else ``None`` (hand games; picked-up games
    take each world's best discard).
    """

    game: Game
    hand: bool
    ouvert: bool
    evaluated: float
    wins: float
    total_score: float
    schneider: float | None
    schneidered: float | None
    schwarz: float | None
    schwarzed: float | None
    total_points: float | None
    exact: bool = False
    discard: list[Card] | None = None
    alternatives: list[Alternative] | None = None
    sample_size: float | None = None

    @classmethod
    def tally(cls, contract: Contract, hand: bool, outcomes: Iterable[WorldOutcome], exact: bool,
              weights: Sequence[float] | None = None, sample_size: float | None = None) -> OptionOdds:
        """Sum the world outcomes of one option (world *i* weighing ``weights[i]``, default 1)."""
        tally = OptionTally()
        for i, outcome in enumerate(outcomes):
            tally.add(outcome, 1 if weights is None else weights[i])
        return tally.odds(contract, hand, exact, sample_size)

    @property
    def declaration(self) -> Declaration:
        return Declaration(self.game, hand=self.hand, ouvert=self.ouvert)

    @property
    def label(self) -> str:
        """``'grand'``, ``'clubs hand'``, ``'null ouvert hand'``."""
        return str(self.declaration)

    @property
    def announce(self) -> list[str]:
        return ["ouvert"] if self.ouvert else []

    def fraction(self, count: float | None) -> float | None:
        """*count* as a fraction of the evaluated worlds (``None`` stays ``None``)."""
        return None if count is None else count / self.evaluated

    @property
    def mean_points(self) -> float | None:
        return None if self.total_points is None else self.total_points / self.evaluated

    def to_json(self, *, known_skat: bool) -> dict[str, Any]:
        """The option as docs/cli.md's JSON object."""
        discard: Any = None
        if not self.hand:
            discard = [card_name(c) for c in self.discard] if self.discard is not None else "double-dummy"
        out: dict[str, Any] = {"game": self.game.label, "hand": self.hand, "announce": self.announce,
                               "discard": discard}
        if known_skat:
            out["alternatives"] = [a.to_json() for a in self.alternatives or []]

        def rounded(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        out.update({
            "win": rounded(self.win), "win_ci": self.win_ci,
            "schneider": rounded(self.fraction(self.schneider)),
            "schneidered": rounded(self.fraction(self.schneidered)),
            "schwarz": rounded(self.fraction(self.schwarz)),
            "schwarzed": rounded(self.fraction(self.schwarzed)),
            "mean_points": None if self.mean_points is None else round(self.mean_points, 4),
            "mean_score": round(self.mean_score, 4),
        })
        return out


class OptionTally:
    """Running sums of one option's world outcomes, added as the worlds come back (no outcome is kept)."""

    def __init__(self) -> None:
        self.evaluated: float = 0
        self.wins: float = 0
        self.score: float = 0
        self.schneider: float = 0
        self.schneidered: float = 0
        self.schwarz: float = 0
        self.schwarzed: float = 0
        self.points: float | None = 0    # None once a world came without its points

    def add(self, o: WorldOutcome, weight: float = 1) -> None:
        """Count one world, weighing *weight* (1: a plain world; whole numbers keep every sum whole)."""
        self.evaluated += weight
        self.wins += weight * o.wins
        self.score += weight * o.score
        self.schneider += weight * o.schneider
        self.schneidered += weight * o.schneidered
        self.points = None if o.points is None or self.points is None else self.points + weight * o.points
        self.schwarz += weight * o.takes_all
        self.schwarzed += weight * o.trickless

    def odds(self, contract: Contract, hand: bool, exact: bool, sample_size: float | None = None) -> OptionOdds:
        """The option's figures over the worlds counted (the trick and point counts ``None`` in null)."""
        game, ouvert = contract
        null = game.is_null
        return OptionOdds(
            game=game, hand=hand, ouvert=ouvert, evaluated=self.evaluated, exact=exact, wins=self.wins,
            total_score=self.score, schneider=None if null else self.schneider,
            schneidered=None if null else self.schneidered, schwarz=None if null else self.schwarz,
            schwarzed=None if null else self.schwarzed, total_points=None if null else self.points,
            sample_size=sample_size,
        )


@dataclass
class OddsReport(Printable):
    """Everything ``skatdd odds`` reports (docs/cli.md); ``str()`` is its readable report.

    Attributes:
        seat: the seat asking.
        hand: its ten cards as dealt.
        skat: the skat it picked up, or ``None`` (the skat unseen).
        bid: the bid the scores are computed at.
        worlds: worlds consistent with what the seat knows, counted exactly
            (before any ``accept`` condition or bidding weight).
        evaluated: worlds solved (with ``inference="bids"``: worlds drawn,
            a world drawn *k* times counted *k* times).
        exact: every consistent world was evaluated (the figures have no sampling error).
        seed: the seed the worlds were drawn with.
        options: the options computed, in the order grand, clubs, spades,
            hearts, diamonds, null, null ouvert; picked up before hand.
        left_out: a sentence per option the bid excludes.
        nodes, seconds: engine nodes and wall time.
        inference: ``"none"`` (every world the same) or ``"bids"`` (worlds
            weighed by the bidding, :mod:`skatdd.analysis.inference.api`).
        ess, pool, pool_ess: with ``"bids"``, the effective sample size of
            the evaluated worlds' weights, the uniform pool they were drawn
            from and the effective size of the bidding weights over it.
        points: the mean card points were computed (``odds(points=True)``);
            without them every option's ``mean_points`` is ``None``.
    """

    seat: int
    hand: Mask
    skat: Mask | None
    bid: int
    worlds: int
    evaluated: int
    exact: bool
    seed: int
    options: list[OptionOdds]
    left_out: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    inference: str = "none"
    ess: float | None = None
    pool: int | None = None
    pool_ess: float | None = None
    points: bool = False

    @property
    def recommendation(self) -> OptionOdds | None:
        """The option with the highest mean score (ties: first in :attr:`options`); ``None`` means pass."""
        if not self.options:
            return None
        best = max(self.options, key=lambda o: (o.total_score, -self.options.index(o)))
        return best if best.total_score >= 0 else None

    def to_json(self) -> dict[str, Any]:
        """The report as docs/cli.md's JSON object (the inference fields only with ``"bids"``)."""
        known = self.skat is not None
        rec = self.recommendation
        out: dict[str, Any] = {
            "seat": self.seat, "hand": format_mask(self.hand), "skat": None if self.skat is None else format_mask(self.skat),
            "bid": self.bid, "worlds": self.worlds, "evaluated": self.evaluated, "exact": self.exact,
            "seed": self.seed,
        }
        if self.inference != "none":
            out.update(weighing_json(self.inference, self.ess, self.pool, self.pool_ess))
        out.update({
            "options": [o.to_json(known_skat=known) for o in self.options],
            "recommendation": "pass" if rec is None else rec.to_json(known_skat=known),
            "left_out": list(self.left_out),
            "nodes": self.nodes, "seconds": round(self.seconds, 6),
        })
        return out
