"""Worlds weighed by what the bidding and the play showed: :func:`weighted_worlds`.

Plain single-dummy analysis (:mod:`skatdd.analysis.advise`) counts every world
consistent with a seat's view the same.  Here a world ``w`` weighs by the
likelihood of what the other seats did if ``w`` were the deal:

``"bids"``
    the auction (:mod:`skatdd.analysis.inference_bids`): each other seat's bids and
    passes under the bidding model, the declarer's declaration included;
``"play"``
    the cards the other seats played (:mod:`skatdd.analysis.inference_play`): each
    card's softmax probability over the double-dummy values of that seat's
    legal cards at temperature :data:`skatdd.analysis.inference_play.TEMPERATURE`;
``"all"``
    both; ``"none"``: every world the same (plain PIMC's worlds).

How the worlds are drawn (bounded cost, no rejection loop):

1. A *pool* of at most ``pool`` different worlds is drawn uniformly with
   :func:`skatdd.analysis.worlds.choose_worlds` (all of them when there are no more);
2. with ``"bids"`` or ``"all"`` each pool world gets its auction likelihood
   and *n* worlds are drawn from the pool with probability proportional to
   it (systematic resampling: one uniform number, so the draws are spread
   evenly); a world drawn *k* times weighs *k*.  When the pool holds every
   world and at most *n* of them, no resampling is done: each world keeps
   its likelihood as its weight, and the answer is exact under the model;
3. with ``"play"`` or ``"all"`` each of the (at most *n*) worlds kept is
   multiplied by its play likelihood, which costs at most
   :data:`skatdd.analysis.inference_play.PLAY_CARDS` engine searches per world.

The effective sample size ``ess = (sum w)^2 / sum w^2`` of the returned
weights says how many equally weighted worlds they are worth; ``pool_ess`` is
that of the bidding weights over the pool (how much the bidding narrowed it).
Every random choice comes from the *rng* given, and the weights are exact
functions of the worlds, so one seed gives the same worlds and weights
whatever the number of processes that later solve them.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from skatdd.core.errors import DealFormatError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver
from skatdd.formats.spec import replay_cards

from .inference_bids import Auction, auction_likelihood
from .inference_play import PLAY_CARDS, TEMPERATURE, play_likelihood
from .worlds import View, World, choose_worlds, count_worlds

__all__ = ["INFERENCES", "POOL_FACTOR", "Evidence", "WeightedWorlds", "effective_size", "parse_inference",
           "weighted_worlds", "world_positions"]

#: The inference choices, as the CLI spells them.
INFERENCES = ("none", "bids", "play", "all")
#: The bidding pool holds this many worlds per world returned (more: a better posterior, more cost).
POOL_FACTOR = 8
#: The smallest bidding pool.
MIN_POOL = 64

#: The public state before the first card of a view's ``played``: leader, trick, declarer points and tricks.
StartState = tuple[int, tuple[int, ...], int, int, int]


def parse_inference(text: str) -> str:
    """*text* when it is one of :data:`INFERENCES`; else :class:`~skatdd.core.errors.DealFormatError` naming it."""
    if text not in INFERENCES:
        raise DealFormatError(f"unknown inference {quote(text)}: expected one of {', '.join(INFERENCES)}")
    return text


@dataclass(frozen=True)
class Evidence:
    """What the table showed besides the view's cards: the contract, the auction, and where play began.

    Attributes:
        game, declarer: the contract and its declarer.
        declaration: hand game, announcements, ouvert.
        bids: the auction's moves in order, ``(seat, "18" | "y" | "p")``;
            empty when not known (then the bidding says nothing).
        start: the public state before the view's first played card
            (:data:`StartState`); forehand leading an empty first trick by default.
    """

    game: Game
    declarer: int
    declaration: Declaration
    bids: tuple[tuple[int, str], ...] = ()
    start: StartState = (0, (), 0, 0, 0)
    _auction: list[Auction] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def of(cls, pos: Position, declaration: Declaration, bids: Sequence[tuple[int, str]] = ()) -> Evidence:
        """The evidence of a game in play *pos* (its ``history`` is what was seen played) with these *bids*."""
        if pos.history:
            leader, trick, points, dtricks, ftricks = pos._undo[0]
        else:
            leader, trick, points, dtricks, ftricks = pos.leader, pos.trick, pos.declarer_points, \
                pos.declarer_tricks, pos.defender_tricks
        return cls(pos.game, pos.declarer, declaration, tuple((int(s), str(m)) for s, m in bids),
                   (leader, tuple(trick), points, dtricks, ftricks))

    @property
    def auction(self) -> Auction:
        """The bids read as intervals (:func:`skatdd.analysis.inference_bids.bid_intervals`), read once."""
        if not self._auction:
            self._auction.append(Auction.of(self.bids, self.declarer, self.game, self.declaration.hand))
        return self._auction[0]

    def start_position(self, view: View, world: World) -> Position:
        """*world* as it stood before the view's first played card (no history)."""
        leader, trick, points, dtricks, ftricks = self.start
        return Position(self.game, self.declarer, list(world.start_hands(view)), world.skat, leader, list(trick),
                        points, dtricks, ftricks)


@dataclass
class WeightedWorlds:
    """Worlds to evaluate and their weights (module docstring).

    Attributes:
        worlds, weights: the distinct worlds and their weights (> 0).
        count: how many worlds the view allows.
        pool: the worlds the bidding weights were computed on.
        exact: every consistent world is here, each with its model weight.
        ess: effective sample size of :attr:`weights`.
        pool_ess: effective sample size of the bidding weights over the pool
            (``pool`` when the bidding was not used).
        inference: the inference used.
        searches: engine searches the play model made.
        seconds: time spent drawing and weighing.
    """

    worlds: list[World]
    weights: list[float]
    count: int
    pool: int
    exact: bool
    ess: float
    pool_ess: float
    inference: str
    searches: int = 0
    seconds: float = 0.0

    @property
    def total(self) -> float:
        """The sum of the weights."""
        return sum(self.weights)


def effective_size(weights: Sequence[float]) -> float:
    """``(sum w)^2 / sum w^2``: how many equal weights *weights* are worth (0 for no weight)."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares else 0.0


def _systematic(weights: Sequence[float], n: int, rng: random.Random) -> list[int]:
    """How often each index is drawn in *n* systematic draws proportional to *weights* (one uniform number)."""
    total = sum(weights)
    counts = [0] * len(weights)
    if total <= 0:
        return counts
    step = total / n
    point = rng.random() * step
    cumulative = 0.0
    i = 0
    for _ in range(n):
        while i < len(weights) - 1 and cumulative + weights[i] <= point:
            cumulative += weights[i]
            i += 1
        counts[i] += 1
        point += step
    return counts


def weighted_worlds(view: View, evidence: Evidence, n: int, rng: random.Random, *, inference: str = "bids",
                    pool: int | None = None, solver: Solver | None = None, temperature: float = TEMPERATURE,
                    play_cards: int = PLAY_CARDS) -> WeightedWorlds:
    """At most *n* distinct worlds of *view*, weighed by *inference* (module docstring).

    *evidence* gives the contract, the auction and the start of play;
    *pool* (default ``max(POOL_FACTOR * n, MIN_POOL)``) bounds the worlds the
    bidding weights are computed on; *solver* (default: a new one) runs the
    play model's searches, *temperature* and *play_cards* set it.  Raises
    :class:`~skatdd.core.errors.DealFormatError` for *n* < 1, a pool smaller
    than *n*, or an unknown inference.
    """
    started = time.perf_counter()
    parse_inference(inference)
    if n < 1:
        raise DealFormatError(f"the number of worlds must be at least 1, not {n}")
    size = max(POOL_FACTOR * n, MIN_POOL) if pool is None else pool
    if size < n:
        raise DealFormatError(f"the pool of worlds ({size}) must hold at least the {n} worlds asked for")
    use_bids = inference in ("bids", "all") and bool(evidence.bids)
    others = [s for s in range(3) if s != view.seat]
    if not use_bids:
        drawn, exact = choose_worlds(view, n, rng)
        worlds, weights = drawn, [1.0] * len(drawn)
        count = len(drawn) if exact else count_worlds(view)
        pool_size, pool_ess = len(drawn), float(len(drawn))
    else:
        drawn, exact = choose_worlds(view, size, rng)
        count = len(drawn) if exact else count_worlds(view)
        auction = evidence.auction
        # Each seat's cards now plus those it played: its dealt ten (for a pick-up declarer, the ten he
        # plays with, as Auction says).
        bid_weights = [auction_likelihood(auction, w.start_hands(view), others) for w in drawn]
        pool_size, pool_ess = len(drawn), effective_size(bid_weights)
        if exact and len(drawn) <= n:
            worlds, weights = drawn, bid_weights
        else:
            exact = False
            counts = _systematic(bid_weights, n, rng)
            worlds = [w for w, k in zip(drawn, counts, strict=True) if k]
            weights = [float(k) for k in counts if k]
    searches = 0
    if inference in ("play", "all") and view.played:
        solver = solver if solver is not None else Solver(tt_mb=16)
        for i, world in enumerate(worlds):
            likelihood, used = play_likelihood(solver, evidence.start_position(view, world), view.played, others,
                                               temperature=temperature, max_cards=play_cards)
            weights[i] *= likelihood
            searches += used
    return WeightedWorlds(worlds, weights, count, pool_size, exact, effective_size(weights), pool_ess, inference,
                          searches, time.perf_counter() - started)


def world_positions(view: View, evidence: Evidence, worlds: Sequence[World]) -> list[Position]:
    """Each world as it stands now: its start position with the view's played cards played again."""
    return [replay_cards(evidence.start_position(view, w), [card for _, card in view.played]) for w in worlds]
