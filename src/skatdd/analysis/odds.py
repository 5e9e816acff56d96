"""The chances of every contract for a hand whose other cards are unseen (``skatdd odds``).

A player sees his ten cards; the other twenty-two lie in one of 42,678,636
ways (184,756 once he has picked up the skat).  :func:`odds` answers *what
are my chances with this hand, in which game, hand or picked up?* the way
bridge players and Skat programs answer it: draw worlds (lies of the unseen
cards) uniformly at random, solve every contract double-dummy in each, and
count.

The worlds
----------
They come from :mod:`skatdd.analysis.worlds`: every world consistent with what the
seat knows counts the same; all of them are taken when there are at most
*worlds* (the figures are then exact), else *worlds* different ones drawn
from one generator of *seed* (:func:`skatdd.core.seeds.generator`) in the calling
process, a chunk at a time as the workers ask for them (memory does not grow
with *worlds*; more than :data:`~skatdd.analysis.worlds.MAX_WORLDS`, or
:data:`MAX_KNOWN_SKAT_WORLDS` with a known skat, is refused).  The solving is
farmed out to worker processes (:func:`skatdd.runner.lines.run_lines`, one
:class:`~skatdd.engine.solve.Solver` per worker) and gathered in world order, so the
same seed gives the same report whatever *jobs*.

A caller may condition the worlds with ``accept(world) -> bool`` (say, on
what the bidding showed): rejection sampling.  Worlds are drawn one by one,
without repeats, until *worlds* of them are accepted; the cost is one draw
per rejected world (and a call of *accept*), so a condition that one world
in *k* passes costs *k* times the draws.  After *max_draws* draws
(default ``max(10,000, 200 x worlds)``) without enough accepted worlds the
run stops with :class:`WorldConditionError`.  When the consistent worlds
are no more than *max_draws*, all are tested instead and the accepted ones
are used, all of them when at most *worlds* (exact).

The options and what they count
-------------------------------
Without a known skat (the question before the pick-up): grand, the four
suits, null and null ouvert, each as a hand game and picked up -- fourteen
options.  Null ouvert plays exactly like null double-dummy: the same solves,
other scores.  A null whose fixed value is below the bid cannot be declared
and is left out (:attr:`OddsReport.left_out` says so).

* A **hand game** is scored as a plain hand game: no schneider or schwarz
  announced, since the declarer cannot know he will make them.
* A **picked-up game** takes, in each world, the best discard *for that
  world* (highest score, then value, as ``skatdd best`` chooses).  That is
  an optimistic bound: the real declarer picks his discard without seeing
  the defenders' cards.

With a known skat (*skat* given: the seat has picked up, twelve cards known)
the discard is the declarer's real decision: for every game type each of
the 66 discards is played in every sampled world, and the option shows the
discard with the highest mean score (ties: the first in the tie order of
:func:`skatdd.analysis.best.discard_order_key`) and, as ``alternatives``, the next
two.  Provably equivalent discards play identically, so each class of them
is one candidate, shown by its first discard in that order.  Hand games need the skat unseen and are not
offered.

Per option, over the evaluated worlds: ``win`` (the declarer wins the game
as scored: 61 card points, no trick in null, and not overbid), its 95%
Wilson interval (a single point when every consistent world was evaluated:
there is no sampling error), the fractions in which he reaches schneider
(90+), is schneidered (30 or less), takes every trick, takes none (these
four are ``None`` in null), the mean card points (skat or discard included;
``None`` in null) and the mean ISkO score at the bid, with the matadors
counted over the twelve cards of each world (the skat changes them) and the
overbid rule applied per world.  The recommendation is the option with the
highest mean score (ties: the first in the list), or ``None`` (*pass*)
when every mean score is below 0.

Double-dummy odds are optimistic for the side that needs information: in
every world both the declarer and the defenders play as if they saw all the
cards.

How the work is kept small
--------------------------
Suit and grand scores depend only on the band of the result (no trick,
<= 30, 31-60, 61-89, 90+, every trick), so the band comes from null-window
threshold questions, and the exact value (needed for the mean card points)
is searched inside it.  Picked-up games without a known skat reuse
``skatdd best``'s discard search (:meth:`skatdd.analysis.best._Seat.best_discard`:
provably equivalent discards searched once, one threshold question per
discard against the best so far).  With a known skat the defenders' twenty
cards are the same in every world, so the equivalent-discard classes are
computed once per game; the scores of all classes are bounded world by
world with threshold questions, most promising class first, and a class
whose best possible total cannot reach the third-best certain total is
dropped unrefined; the three best are settled exactly (:func:`_rank_discards`).
"""
from __future__ import annotations

import functools
import json
import math
import random
import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from skatdd.core.cards import ALL_CARDS, Card, Mask, card_name, cards_of, display_sorted, format_mask, mask_of, parse_cards
from skatdd.core.errors import CardCountError, DealFormatError, DuplicateCardError, ScoringError, SkatddError, plural
from skatdd.core.position import Position
from skatdd.core.rules import Game, parse_game, parse_seat
from skatdd.core.scoring import MAX_BID, MIN_BID, Declaration, matadors, null_value, score_game
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver
from skatdd.formats.json_text import json_text
from skatdd.runner.lines import LineOutcome, run_lines, worker_count

from .bands import ALL_TRICKS, LOST, NO_TRICK, SCHNEIDER, SCHNEIDERED, WON
from .bands import Bands as _Bands
from .bands import Probe as _Probe
from .best import SeatSearch as _Seat
from .best_results import GAME_ORDER
from .discard_heuristic import discard_heuristic as _heuristic
from .discards import DiscardClass as _Class
from .discards import discard_classes as _discard_classes
from .worlds import (
    MAX_WORLDS,
    SKAT,
    View,
    World,
    WorldDraw,
    WorldSpace,
    check_world_count,
    hand_view,
    sample_indices,
)

__all__ = [
    "DEFAULT_WORLDS",
    "MAX_KNOWN_SKAT_WORLDS",
    "Alternative",
    "OddsReport",
    "OptionOdds",
    "WorldConditionError",
    "draw_worlds",
    "odds",
    "wilson_interval",
    "world_draw",
]

#: Worlds evaluated when the caller does not say.
DEFAULT_WORLDS = 400
#: The most worlds a known-skat run ranks its discards over.  Every discard class is bounded world by
#: world over all the worlds at once (about 26 KB a world), and the ranking's cost grows faster than the
#: worlds: one game (clubs, the first README hand, ``--jobs 1``) took 4.1 s of CPU for 400 worlds, 43.8 s
#: for 1,600 and 149 s for 3,200 (peak RSS 37, 75, 116 MB); 5,000 worlds are about 40 CPU-minutes for
#: the seven games.
MAX_KNOWN_SKAT_WORLDS = 5_000
#: Worlds solved per task handed to a worker: enough to amortise the hand-off,
#: few enough that two workers stay balanced and the progress bar moves.
CHUNK = 10
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

Progress = Callable[[int, int], None]
Contract = tuple[Game, bool]          # (game for play, ouvert)


class WorldConditionError(SkatddError):
    """Too few drawn worlds passed the caller's ``accept`` condition."""


def wilson_interval(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion of *wins* in *n* independent trials."""
    if n <= 0:
        raise ValueError(f"an interval needs at least one trial, not {n}")
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------
# Results


class WorldOutcome(NamedTuple):
    """One option in one world, as scored."""

    score: int
    wins: bool
    points: int | None      # final card points, skat or discard included; None in null
    takes_all: bool
    trickless: bool


def _interval(wins: int, n: int, exact: bool) -> list[float]:
    if exact:
        return [wins / n, wins / n]
    low, high = wilson_interval(wins, n)
    return [round(low, 6), round(high, 6)]


class _Rates:
    """The win rate and mean score of an option or discard over the evaluated worlds."""

    evaluated: int
    wins: int
    total_score: int
    exact: bool

    @property
    def win(self) -> float:
        return self.wins / self.evaluated

    @property
    def win_ci(self) -> list[float]:
        """95% Wilson interval of :attr:`win` (the point itself when every world was evaluated)."""
        return _interval(self.wins, self.evaluated, self.exact)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.evaluated


@dataclass
class Alternative(_Rates):
    """A runner-up discard of a picked-up option with a known skat."""

    discard: list[Card]
    evaluated: int
    wins: int
    total_score: int
    exact: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"discard": [card_name(c) for c in self.discard], "win": round(self.win, 6), "win_ci": self.win_ci,
                "mean_score": round(self.mean_score, 4)}


@dataclass
class OptionOdds(_Rates):
    """One contract's figures over the evaluated worlds (a row of ``options``).

    Counts are kept (``wins``, ``schneider``...) and the fractions derived,
    so callers can compare exactly.  ``schneider``, ``schneidered``,
    ``schwarz``, ``schwarzed`` and ``total_points`` are ``None`` in null.
    ``discard`` is the chosen discard with a known skat, else ``None``
    (hand games; picked-up games take each world's best discard).
    """

    game: Game
    hand: bool
    ouvert: bool
    evaluated: int
    wins: int
    total_score: int
    schneider: int | None
    schneidered: int | None
    schwarz: int | None
    schwarzed: int | None
    total_points: int | None
    exact: bool = False
    discard: list[Card] | None = None
    alternatives: list[Alternative] | None = None

    @classmethod
    def tally(cls, contract: Contract, hand: bool, outcomes: Iterable[WorldOutcome], exact: bool) -> OptionOdds:
        """Sum the world outcomes of one option."""
        tally = _Tally()
        for outcome in outcomes:
            tally.add(outcome)
        return tally.odds(contract, hand, exact)

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

    def fraction(self, count: int | None) -> float | None:
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


class _Tally:
    """Running sums of one option's world outcomes, added as the worlds come back (no outcome is kept)."""

    def __init__(self) -> None:
        self.evaluated = self.wins = self.score = self.schneider = self.schneidered = 0
        self.schwarz = self.schwarzed = self.points = 0

    def add(self, o: WorldOutcome) -> None:
        """Count one world."""
        self.evaluated += 1
        self.wins += o.wins
        self.score += o.score
        if o.points is not None:
            self.schneider += o.points >= 90
            self.schneidered += o.points <= 30
            self.points += o.points
        self.schwarz += o.takes_all
        self.schwarzed += o.trickless

    def odds(self, contract: Contract, hand: bool, exact: bool) -> OptionOdds:
        """The option's figures over the worlds counted (the trick and point counts ``None`` in null)."""
        game, ouvert = contract
        null = game.is_null
        return OptionOdds(
            game=game, hand=hand, ouvert=ouvert, evaluated=self.evaluated, exact=exact, wins=self.wins,
            total_score=self.score, schneider=None if null else self.schneider,
            schneidered=None if null else self.schneidered, schwarz=None if null else self.schwarz,
            schwarzed=None if null else self.schwarzed, total_points=None if null else self.points,
        )


@dataclass
class OddsReport:
    """Everything ``skatdd odds`` reports (docs/cli.md).

    Attributes:
        seat: the seat asking.
        hand: its ten cards as dealt.
        skat: the skat it picked up, or ``None`` (the skat unseen).
        bid: the bid the scores are computed at.
        worlds: worlds consistent with what the seat knows, counted exactly
            (before any ``accept`` condition).
        evaluated: worlds solved.
        exact: every consistent world was evaluated (the figures have no sampling error).
        seed: the seed the worlds were drawn with.
        options: the options computed, in the order grand, clubs, spades,
            hearts, diamonds, null, null ouvert; picked up before hand.
        left_out: a sentence per option the bid excludes.
        nodes, seconds: engine nodes and wall time.
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

    @property
    def recommendation(self) -> OptionOdds | None:
        """The option with the highest mean score (ties: first in :attr:`options`); ``None`` means pass."""
        if not self.options:
            return None
        best = max(self.options, key=lambda o: (o.total_score, -self.options.index(o)))
        return best if best.total_score >= 0 else None

    def to_json(self) -> dict[str, Any]:
        known = self.skat is not None
        rec = self.recommendation
        return {
            "seat": self.seat, "hand": format_mask(self.hand), "skat": None if self.skat is None else format_mask(self.skat),
            "bid": self.bid, "worlds": self.worlds, "evaluated": self.evaluated, "exact": self.exact,
            "seed": self.seed,
            "options": [o.to_json(known_skat=known) for o in self.options],
            "recommendation": "pass" if rec is None else rec.to_json(known_skat=known),
            "left_out": list(self.left_out),
            "nodes": self.nodes, "seconds": round(self.seconds, 6),
        }


# ---------------------------------------------------------------------------
# Drawing the worlds


def draw_worlds(view: View, n: int, rng: random.Random, accept: Callable[[World], bool] | None = None,
                max_draws: int | None = None) -> tuple[list[World], bool, int]:
    """The worlds to evaluate as one list: ``(worlds, exact, consistent)`` (see :func:`world_draw`)."""
    draw = world_draw(view, n, rng, accept, max_draws)
    return list(draw), draw.exact, draw.consistent


def world_draw(view: View, n: int, rng: random.Random, accept: Callable[[World], bool] | None = None,
               max_draws: int | None = None, *, limit: int = MAX_WORLDS, rule: str = "") -> WorldDraw:
    """The worlds to evaluate, produced lazily (:class:`~skatdd.analysis.worlds.WorldDraw`).

    Without *accept*: all consistent worlds when at most *n*, else *n*
    drawn uniformly.  With it, rejection sampling as the module docstring
    describes (every random choice from *rng*); the accepted worlds are
    found before any is solved, so a condition too rare fails at once, and
    kept as indices (a few bytes each).  ``consistent`` counts the worlds
    consistent with *view*, before the condition.  Raises
    :class:`~skatdd.analysis.worlds.WorldCountError` when more than *limit* worlds
    could be solved (*rule* names the limit).
    """
    if n < 1:
        raise DealFormatError(f"the number of worlds must be at least 1, not {n}")
    if accept is None:
        return WorldDraw(view, n, rng, limit=limit, rule=rule)
    space = WorldSpace(view)
    check_world_count(n, len(space), limit, rule)
    cap = max_draws if max_draws is not None else max(10_000, 200 * n)
    accepted = array("Q")
    if len(space) <= cap:
        accepted.extend(index for index, world in enumerate(space) if accept(world))
        if not accepted:
            raise WorldConditionError(f"none of the {len(space):,} consistent worlds passes the condition")
        if len(accepted) <= n:
            return WorldDraw.of_indices(space, accepted, len(accepted), exact=True)
        picks = sample_indices(len(accepted), n, rng)
        return WorldDraw.of_indices(space, (accepted[i] for i in picks), n, exact=False)
    seen = bytearray((len(space) + 7) // 8)
    draws = 0
    while len(accepted) < n:
        if draws >= cap:
            raise WorldConditionError(
                f"only {len(accepted)} of {draws:,} drawn worlds passed the condition ({n} needed): "
                "it is too rare for rejection sampling; relax it or ask for fewer worlds"
            )
        index = rng.randrange(len(space))
        if seen[index >> 3] >> (index & 7) & 1:
            continue
        seen[index >> 3] |= 1 << (index & 7)
        draws += 1
        if accept(space[index]):
            accepted.append(index)
    return WorldDraw.of_indices(space, accepted, n, exact=False)


# ---------------------------------------------------------------------------
# The work done in each worker


@dataclass(frozen=True)
class _Job:
    """What every task of one run shares (pickled once per task)."""

    seat: int
    hand: Mask
    skat: Mask | None
    bid: int
    games: tuple[Game, ...]     # games for play: null stands for null ouvert too
    hand_games: bool
    picked_up: bool


@functools.lru_cache(maxsize=4096)
def _classes(game: Game, twelve: Mask) -> list[_Class]:
    """Equivalent-discard classes of *twelve* (the defenders hold every other card)."""
    return _discard_classes(game, twelve, ALL_CARDS & ~twelve)


def _settle(probe: _Probe) -> tuple[int, bool, bool]:
    """``(value, takes_all, trickless)`` of a position, exact.

    The band questions (61, then 90 or 31) go first: they narrow the exact
    search, which then starts from the band's top instead of 120.
    """
    probe.at_least(61)
    probe.at_least(90 if probe.lo >= 61 else 31)
    return probe.outcome()


def _solve_world(solver: Solver, job: _Job, world: World) -> list[list[Any]]:
    """One world, every requested game: per game ``[hand result, picked-up result]`` (``None`` when not asked).

    Suit and grand results are ``[value, takes_all, trickless]``; null results ``[wins]``.
    """
    seat = _Seat(solver, list(world.hands), world.skat, job.seat, job.bid, None)
    hand = world.hands[job.seat]
    out: list[list[Any]] = []
    for game in job.games:
        hand_pos = seat.position(game, hand, world.skat)
        hand_result: list[Any] | None = None
        picked_result: list[Any] | None = None
        if game.is_null:
            if job.hand_games:
                hand_result = [solver.declarer_wins(hand_pos)]
            if job.picked_up:
                classes = _classes(game, seat.twelve)
                picked_result = [any(solver.declarer_wins(seat.position(game, c.hand, seat.twelve & ~c.hand))
                                     for c in classes)]
        else:
            hand_probe = _Probe(solver, hand_pos)
            if job.hand_games:
                hand_result = list(_settle(hand_probe))
            if job.picked_up:
                bands = _Bands(game, matadors(game, seat.twelve), job.bid)
                _, probe = seat.best_discard(game, _classes(game, seat.twelve), bands, hand_probe)
                picked_result = list(probe.outcome())
        out.append([hand_result, picked_result])
    return out


def _band_range(p: _Probe) -> tuple[int, int]:
    """The lowest and highest band the probe's known facts still allow."""
    if p._all:
        low = ALL_TRICKS
    elif p.lo >= 90:
        low = SCHNEIDER
    elif p.lo >= 61:
        low = WON
    elif p.lo >= 31:
        low = LOST
    elif p.lo > p.discard_points or p._none is False:
        low = SCHNEIDERED
    else:
        low = NO_TRICK
    if p._none:
        high = NO_TRICK
    elif p.hi <= 30:
        high = SCHNEIDERED
    elif p.hi <= 60:
        high = LOST
    elif p.hi <= 89:
        high = WON
    elif p.hi < 120 or p._all is False:
        high = SCHNEIDER
    else:
        high = ALL_TRICKS
    return low, high


def _narrow(p: _Probe, low: int, high: int) -> None:
    """Ask the threshold question that settles whether the band range [low, high] keeps its top band.

    Top down: every trick, 90, 61, 31, a trick.  A question far above the
    value fails fast, so a weak discard's possible score falls cheaply (the
    first two cost next to nothing), and only the discards still in the
    running are asked the questions near their values.
    """
    if high == ALL_TRICKS:
        p.takes_all()
    elif high == SCHNEIDER:
        p.at_least(90)
    elif high == WON:
        p.at_least(61)
    elif high == LOST:
        p.at_least(31)
    else:
        p.trickless()


def _deciding_band(score: Sequence[int], low: int, high: int) -> int:
    """The lowest band of [low, high] scoring as much as *high*: whether the result reaches it decides the score.

    When every band scores differently (the usual case) that is *high*
    itself; where an overbid makes neighbouring bands score alike, the
    questions between them would not change the score and are skipped.
    """
    while high > low and score[high - 1] == score[high]:
        high -= 1
    return high


def _rank_discards(solver: Solver, job: _Job, game: Game, worlds: Sequence[World]) -> list[tuple[_Class, list[Any]]]:
    """The three best discard classes of a picked-up suit or grand game with a known skat, best first.

    Returns ``(class, per-world results)``: for the best ``[value,
    takes_all, trickless]``, for the other two ``[score, wins]``.  Ranked by
    total score over *worlds*, ties to the first class in tie order
    (:func:`_rank_probes`).
    """
    assert job.skat is not None
    twelve = job.hand | job.skat
    classes = _classes(game, twelve)
    score = _Bands(game, matadors(game, twelve), job.bid).score
    looks = [_heuristic(game, twelve, cls.discard) for cls in classes]
    probes = _discard_probes(solver, job, game, classes, worlds)
    order, ranges = _rank_probes(probes, score, looks, keep=3)
    ranked: list[tuple[_Class, list[Any]]] = []
    for rank, i in enumerate(order):
        if rank == 0:
            results = [list(_settle(p)) for p in probes[i]]
        else:
            results = [[score[lo], score[lo] > 0] for lo, _ in ranges[i]]
        ranked.append((classes[i], results))
    return ranked


def _discard_probes(solver: Solver, job: _Job, game: Game, classes: Sequence[_Class],
                    worlds: Sequence[World]) -> list[list[_Probe]]:
    """One :class:`~skatdd.analysis.best._Probe` per (class, world): the seat holds the class's hand, its discard is the skat."""
    assert job.skat is not None
    twelve = job.hand | job.skat
    probes = []
    for cls in classes:
        row = []
        for world in worlds:
            hands = list(world.hands)
            hands[job.seat] = cls.hand
            row.append(_Probe(solver, Position(game, job.seat, hands, twelve & ~cls.hand, leader=0)))
        probes.append(row)
    return probes


def _rank_probes(probes: Sequence[Sequence[_Probe]], score: Sequence[int], looks: Sequence[int],
                 keep: int) -> tuple[list[int], list[list[tuple[int, int]]]]:
    """The *keep* best classes by total score over the worlds, best first, and every class's band range per world.

    *probes* holds one row per discard class (one probe per world), *score*
    the score of each band (non-decreasing), *looks* each class's
    :func:`skatdd.analysis.best._heuristic`.  Ties go to the first class in tie order
    (the lower index).  Each (class, world) probe's facts bound its band and
    so its score.  Repeatedly, among the classes that are not settled (some
    world's score still open) and whose highest possible total reaches the
    *keep*-th highest lowest possible total, the one with the highest
    possible total (ties: the better-looking discard) gets one threshold
    question in one open world: the one with the highest possible score,
    then the widest range, then where the most classes have already been
    shown to lose -- so a weak discard's highest total falls as fast as
    possible and it drops out after few questions, mostly the cheap ones
    near the top.  It ends when no such class is left: every class still in
    the running is settled, and every other one is below *keep* settled
    ones, so the *keep* best and their totals are exact (a returned class's
    score is settled in every world: ``score[lo] == score[hi]``).  The
    probes keep what they learnt, so a second ranking of the same probes
    with another *score* starts from those facts.
    """
    ranges = [[_band_range(p) for p in row] for row in probes]
    low_sum = [sum(score[lo] for lo, _ in row) for row in ranges]
    high_sum = [sum(score[hi] for _, hi in row) for row in ranges]
    open_worlds = [{w for w, (lo, hi) in enumerate(row) if score[lo] < score[hi]} for row in ranges]
    losses = [0] * (len(ranges[0]) if ranges else 0)      # per world: classes known to lose there
    while True:
        third = sorted(low_sum, reverse=True)[keep - 1] if len(probes) > keep else -math.inf
        running = [i for i in range(len(probes)) if open_worlds[i] and high_sum[i] >= third]
        if not running:
            break
        i = max(running, key=lambda k: (high_sum[k], looks[k], -k))
        w = max(open_worlds[i], key=lambda v: (score[ranges[i][v][1]], score[ranges[i][v][1]] - score[ranges[i][v][0]],
                                               losses[v], -v))
        before = ranges[i][w]
        _narrow(probes[i][w], before[0], _deciding_band(score, *before))
        after = ranges[i][w] = _band_range(probes[i][w])
        low_sum[i] += score[after[0]] - score[before[0]]
        high_sum[i] += score[after[1]] - score[before[1]]
        if score[after[1]] <= 0 < score[before[1]]:
            losses[w] += 1
        if score[after[0]] == score[after[1]]:
            open_worlds[i].discard(w)
    order = sorted((i for i in range(len(probes)) if not open_worlds[i]), key=lambda k: (-low_sum[k], k))[:keep]
    return order, ranges


def _rank_null_discards(solver: Solver, job: _Job, worlds: Sequence[World]) -> list[tuple[_Class, list[Any]]]:
    """The three null discard classes that win in the most worlds (ties: tie order), each with ``[wins]`` per world."""
    assert job.skat is not None
    twelve = job.hand | job.skat
    table = []
    for cls in _classes(Game.NULL, twelve):
        results = []
        for world in worlds:
            hands = list(world.hands)
            hands[job.seat] = cls.hand
            results.append([solver.declarer_wins(Position(Game.NULL, job.seat, hands, twelve & ~cls.hand, leader=0))])
        table.append((cls, results))
    table.sort(key=lambda entry: -sum(r[0] for r in entry[1]))  # stable: ties keep the tie order
    return table[:3]


def _world_from_json(item: Sequence[int]) -> World:
    return World((item[0], item[1], item[2]), item[3])


def _handle(solver: Solver, line: int, raw: bytes | str, *, job: _Job) -> LineOutcome:
    """One task: a chunk of worlds (no known skat) or one game over every world (known skat)."""
    task = json.loads(raw)
    worlds = [_world_from_json(item) for item in task["worlds"]]
    record: dict[str, Any] = {}
    if "game" in task:
        nodes = solver.nodes
        game = Game(task["game"])
        ranked = _rank_null_discards(solver, job, worlds) if game.is_null else _rank_discards(solver, job, game, worlds)
        record["ranked"] = [{"discard": list(cls.discard), "results": results} for cls, results in ranked]
        record["nodes"] = solver.nodes - nodes
    else:
        record["worlds"], record["nodes"], record["skats"] = [], 0, [world.skat for world in worlds]
        for world in worlds:
            # Worlds share little but the declarer's hand: a table emptied for each stays
            # small and in cache (measured: 10% less time than one kept across worlds).
            solver.clear()
            record["worlds"].append(_solve_world(solver, job, world))
            record["nodes"] += solver.nodes
    return LineOutcome(line, record)


# ---------------------------------------------------------------------------
# Scoring in the parent


def _outcome(contract: Contract, hand: bool, twelve: Mask, bid: int, result: Sequence[Any]) -> WorldOutcome:
    """Score one world's result of one option."""
    game, ouvert = contract
    decl = Declaration(game, hand=hand, ouvert=ouvert)
    if game.is_null:
        wins = bool(result[0])
        sc = score_game(decl, tricks=0 if wins else 1, bid=bid)
        return WorldOutcome(sc.score, sc.declarer_wins, None, False, False)
    value, takes_all, trickless = int(result[0]), bool(result[1]), bool(result[2])
    tricks = 10 if takes_all else 0 if trickless else None
    sc = score_game(decl, matadors=matadors(game, twelve), points=value, tricks=tricks, bid=bid)
    return WorldOutcome(sc.score, sc.declarer_wins, value, takes_all, trickless)


def _contracts(games: Iterable[Game | str | tuple[Game, bool]] | None) -> list[Contract]:
    """The requested contracts in list order (all seven when *games* is ``None``)."""
    every: list[Contract] = [(g, False) for g in GAME_ORDER] + [(Game.NULL, True)]
    if games is None:
        return every
    wanted = set()
    for g in games:
        if isinstance(g, tuple):
            wanted.add((Game(g[0]), bool(g[1])))
        elif isinstance(g, Game):
            wanted.add((g, False))
        else:
            wanted.add(parse_game(g))
    return [c for c in every if c in wanted]


def _read_cards(cards: Mask | str | Iterable[Card], what: str, count: int) -> Mask:
    if isinstance(cards, bool):
        raise CardCountError(f"{what} must be cards, got {cards!r}")
    if isinstance(cards, int):
        if not 0 <= cards <= ALL_CARDS:
            raise CardCountError(f"{what} must be a 32-bit card mask, got {cards!r}")
        parsed = cards_of(cards)
    elif isinstance(cards, str):
        parsed = parse_cards(cards, what=what)
    else:
        parsed = parse_cards([card_name(c) for c in cards], what=what)
    if len(parsed) != count:
        shown = " ".join(card_name(c) for c in display_sorted(parsed))
        raise CardCountError(f"{what} has {plural(len(parsed), 'card')} {shown[:80]!r}: expected {count}")
    return mask_of(parsed)


def _read_view(cards: View | Mask | str | Iterable[Card], seat: int | str | None,
               skat: Mask | str | Iterable[Card] | None) -> View:
    if isinstance(cards, View):
        view = cards
        if view.played or view.sizes != (10, 10, 10, 2):
            raise DealFormatError("odds needs a view before the first card: ten cards a hand and the skat")
        if seat is not None and parse_seat(seat) != view.seat:
            raise DealFormatError(f"seat {seat!r} is not the view's seat {view.seat}")
        if view.known[SKAT] and view.known[SKAT].bit_count() != 2:
            raise DealFormatError("the view knows one skat card: a seat sees both or neither")
        return view
    if seat is None:
        raise DealFormatError("odds needs the seat of the hand (0, 1, 2 or F, M, R)")
    seat_index = parse_seat(seat)
    hand = _read_cards(cards, "the hand", 10)
    skat_mask = None
    if skat is not None:
        skat_mask = _read_cards(skat, "the skat", 2)
        if skat_mask & hand:
            clash = card_name(cards_of(skat_mask & hand)[0])
            raise DuplicateCardError(f"card {clash!r} is both in the hand and in the skat")
    return hand_view(seat_index, hand, skat_mask)


def odds(
    cards: View | Mask | str | Iterable[Card], *, seat: int | str | None = None,
    skat: Mask | str | Iterable[Card] | None = None,
    games: Iterable[Game | str | tuple[Game, bool]] | None = None, hand_games: bool = True, picked_up: bool = True,
    worlds: int = DEFAULT_WORLDS, seed: int = 0, bid: int = MIN_BID, jobs: int | None = 1, tt_mb: int = 128,
    accept: Callable[[World], bool] | None = None, max_draws: int | None = None, progress: Progress | None = None,
    dask: str | None = None,
) -> OddsReport:
    """The chances of every contract for a hand whose other cards are unseen (see the module docstring).

    Args:
        cards: the seat's ten dealt cards (a card string, card ints or a
            mask), or a :class:`~skatdd.analysis.worlds.View` from
            :func:`~skatdd.analysis.worlds.hand_view` (then *seat* and *skat* come from it).
        seat: the seat holding them (0/1/2, F/M/R...); forehand leads.
        skat: the two skat cards when the seat has picked them up.
        games: contracts to compute (``Game`` values, names such as
            ``'clubs'`` or ``'null-ouvert'``, or ``(game, ouvert)``); all seven by default.
        hand_games, picked_up: which kinds to compute (hand games need the skat unseen).
        worlds: worlds to evaluate (all consistent ones when there are no more).
        seed: seeds the one generator every random choice comes from (:func:`skatdd.core.seeds.generator`).
        bid: the bid the scores are computed at (overbid per world; nulls below it left out).
        jobs: worker processes (``None``: every core); the report does not depend on it.
        tt_mb: transposition table per worker, MiB.
        accept: ``accept(world) -> bool`` conditions the worlds (rejection sampling).
        max_draws: cap on the worlds drawn for *accept*.
        progress: called as ``progress(done, total)`` as tasks finish.
        dask: a Dask scheduler address or ``local[:N]``: the worlds are solved
            on that cluster instead of *jobs* local workers (same report).

    Returns an :class:`OddsReport`.  Raises :class:`~skatdd.core.errors.SkatddError`
    subclasses for bad input (cards, seat, counts, a bid outside 18..264, nothing
    left to compute) and :class:`WorldConditionError` when *accept* is too rare.
    """
    start = time.perf_counter()
    view = _read_view(cards, seat, skat)
    hand = view.known[view.seat]
    known_skat = view.known[SKAT] or None
    if isinstance(bid, bool) or not isinstance(bid, int) or not MIN_BID <= bid <= MAX_BID:
        raise ScoringError(f"bid {bid!r} is not a bid: expected a whole number from {MIN_BID} to {MAX_BID} "
                           "(the highest game value)")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise DealFormatError(f"the number of worlds must be a whole number of at least 1, not {worlds!r}")
    if known_skat is not None:
        if not picked_up:
            raise DealFormatError("hand games need the skat unseen: with a known skat only picked-up games are offered")
        hand_games = False
    kinds = [k for k in (False, True) if (k and hand_games) or (not k and picked_up)]
    contracts = _contracts(games)
    plan: list[tuple[Contract, bool]] = []
    left_out: list[str] = []
    for contract in contracts:
        for is_hand in kinds:
            decl = Declaration(contract[0], hand=is_hand, ouvert=contract[1])
            if contract[0].is_null and null_value(decl) < bid:
                left_out.append(f"{decl} (value {null_value(decl)}) cannot be declared after a bid of {bid}")
            else:
                plan.append((contract, is_hand))
    if not plan:
        reason = "; ".join(left_out) if left_out else "no game or kind selected"
        raise DealFormatError(f"no option left to compute: {reason}")

    rng = generator(seed)
    if known_skat is None:
        draw = world_draw(view, worlds, rng, accept, max_draws)
    else:
        draw = world_draw(view, worlds, rng, accept, max_draws, limit=MAX_KNOWN_SKAT_WORLDS,
                          rule=f"with a known skat the discards are ranked over at most {MAX_KNOWN_SKAT_WORLDS:,}")
    play_games = tuple(dict.fromkeys(c[0] for c, _ in plan))
    job = _Job(view.seat, hand, known_skat, bid, play_games,
               hand_games=any(h for _, h in plan), picked_up=any(not h for _, h in plan))
    tasks: Iterable[str]
    if known_skat is None:
        # The worlds go out CHUNK at a time as the workers ask for them: a million of them never sit in memory.
        tasks = (json_text({"worlds": [[*w.hands, w.skat] for w in chunk]}) for chunk in draw.chunks(CHUNK))
        task_count = -(-draw.count // CHUNK)
    else:
        # Every discard is ranked over all the worlds at once (at most MAX_KNOWN_SKAT_WORLDS of them).
        encoded = [[*w.hands, w.skat] for w in draw]
        tasks = [json_text({"game": int(g), "worlds": encoded}) for g in play_games]
        task_count = len(play_games)
    tallies = [_Tally() for _ in plan]
    records: list[dict[str, Any]] = []
    done = 0

    def collect(outcome: LineOutcome) -> None:
        nonlocal done
        done += 1
        if known_skat is None:
            for skat, results in zip(outcome.record["skats"], outcome.record["worlds"], strict=True):
                for tally, (contract, is_hand) in zip(tallies, plan, strict=True):
                    result = results[play_games.index(contract[0])][0 if is_hand else 1]
                    tally.add(_outcome(contract, is_hand, hand | skat, bid, result))
        else:
            records.append(outcome.record)
        if progress is not None:
            progress(done, task_count)

    summary = run_lines(enumerate(tasks, start=1), handler=functools.partial(_handle, job=job),
                        jobs=worker_count(jobs), tt_mb=tt_mb, emit=collect,
                        dask=dask, total=task_count)

    if known_skat is None:
        options = [tally.odds(contract, is_hand, draw.exact) for tally, (contract, is_hand) in zip(tallies, plan,
                                                                                                    strict=True)]
    else:
        options = _known_skat_options(plan, play_games, records, hand | known_skat, bid, draw.exact)
    return OddsReport(
        seat=view.seat, hand=hand, skat=known_skat, bid=bid, worlds=draw.consistent, evaluated=draw.count,
        exact=draw.exact, seed=seed, options=options, left_out=left_out, nodes=summary.nodes,
        seconds=time.perf_counter() - start,
    )


def _known_skat_options(plan: list[tuple[Contract, bool]], play_games: tuple[Game, ...],
                        records: list[dict[str, Any]], twelve: Mask, bid: int, exact: bool) -> list[OptionOdds]:
    """The options of a run with a known skat: each game's best discard, with the next two as alternatives."""
    options = []
    for contract, _ in plan:
        ranked = records[play_games.index(contract[0])]["ranked"]
        best = ranked[0]
        outcomes = [_outcome(contract, False, twelve, bid, r) for r in best["results"]]
        option = OptionOdds.tally(contract, False, outcomes, exact)
        option.discard = list(best["discard"])
        option.alternatives = []
        for entry in ranked[1:]:
            if contract[0].is_null:
                scored = [_outcome(contract, False, twelve, bid, r) for r in entry["results"]]
                pairs = [(o.score, o.wins) for o in scored]
            else:
                pairs = [(int(s), bool(w)) for s, w in entry["results"]]
            option.alternatives.append(Alternative(
                discard=list(entry["discard"]), evaluated=len(pairs), wins=sum(w for _, w in pairs),
                total_score=sum(s for s, _ in pairs), exact=exact,
            ))
        options.append(option)
    return options
