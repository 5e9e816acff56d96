"""Worlds weighed by what the bidding and the play showed: :func:`weighted_worlds`.

Plain single-dummy analysis (:mod:`skatdd.analysis.advise.api`) counts every world
consistent with a seat's view the same.  Here a world ``w`` weighs by the
likelihood of what the other seats did if ``w`` were the deal:

``"bids"``
    the auction (:mod:`skatdd.analysis.inference.bids`): each other seat's bids and
    passes under the bidding model, the declarer's declaration included;
``"play"``
    the cards the other seats played (:mod:`skatdd.analysis.inference.play`): each
    card's softmax probability over the double-dummy values of that seat's
    legal cards at temperature :data:`skatdd.analysis.inference.play.TEMPERATURE`;
``"all"``
    both; ``"none"``: every world the same (plain PIMC's worlds).

How the worlds are drawn (bounded cost, no rejection loop):

1. A *pool* of at most ``pool`` different worlds is drawn uniformly with
   :func:`skatdd.analysis.worlds.draw.choose_worlds` (all of them when there are no more);
2. with ``"bids"`` or ``"all"`` each pool world gets its auction likelihood
   and *n* worlds are drawn from the pool with probability proportional to
   it (systematic resampling: one uniform number, so the draws are spread
   evenly); a world drawn *k* times weighs *k*.  When the pool holds every
   world and at most *n* of them, no resampling is done: each world keeps
   its likelihood as its weight, and the answer is exact under the model;
3. with ``"play"`` or ``"all"`` each of the (at most *n*) worlds kept is
   multiplied by its play likelihood, which costs at most
   :data:`skatdd.analysis.inference.play.PLAY_CARDS` engine searches per world.

With ``iid`` (an option; the ``pimc:N+bids`` player keeps the distinct pool) step 1 draws the pool's worlds
independently (:meth:`skatdd.analysis.worlds.space.WorldSpace.draw`, cheaper
than a distinct sample; a world drawn twice is one world, resampled as
often as both), *n* at a time, and stops as soon as the bidding model's
likelihoods (without the floor) are worth ``enough`` equal ones (their
effective sample size) or ``pool`` are drawn: a view where the auction says
little is weighed on a small pool.  Without the floor, because a pool that
missed every world explaining the auction has even weights at the floor.

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
from typing import Any, NamedTuple

from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import View, World, WorldSpace, count_worlds
from skatdd.core.cards import Card
from skatdd.core.errors import DealFormatError, plural, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.spec import replay_cards

from .bids import Auction, auction_weigher, bid_intervals
from .play import PLAY_CARDS, TEMPERATURE, play_likelihood
from .pool import auction_pool_weigher

__all__ = ["INFERENCES", "POOL_FACTOR", "Evidence", "PlayEvidence", "WeightedWorlds", "bid_weighted_worlds",
           "effective_size", "input_auction", "parse_inference", "play_evidence", "rounded_ess", "weighing_json",
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
        """The bids read as intervals (:func:`skatdd.analysis.inference.bids.bid_intervals`), read once."""
        if not self._auction:
            self._auction.append(Auction.of(self.bids, self.declarer, self.game, self.declaration.hand))
        return self._auction[0]

    def start_position(self, view: View, world: World) -> Position:
        """*world* as it stood before the view's first played card (no history)."""
        return _start_position(self.start, self.game, self.declarer, world.start_hands(view), world.skat)


def _start_position(start: StartState, game: Game, declarer: int, hands: Sequence[int], skat: int) -> Position:
    """The position before play began in state *start*, with these dealt *hands* and *skat*."""
    leader, trick, points, dtricks, ftricks = start
    return Position(game, declarer, list(hands), skat, leader, list(trick), points, dtricks, ftricks)


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


def rounded_ess(value: float | None) -> float | None:
    """An effective sample size as the reports give it: two decimals (``None`` stays ``None``)."""
    return None if value is None else round(value, 2)


def weighing_json(inference: str, ess: float | None, pool: int | None, pool_ess: float | None) -> dict[str, Any]:
    """The JSON fields of weighed worlds that ``advise`` and ``odds`` add (docs/cli.md): ``inference, ess, pool, pool_ess``."""
    return {"inference": inference, "ess": rounded_ess(ess), "pool": pool, "pool_ess": rounded_ess(pool_ess)}


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


class PlayEvidence(NamedTuple):
    """What the play model needs to weigh a world of a view: where play began and the cards seen played.

    ``start`` is the public state before the first of ``played`` (every
    ``(seat, card)`` seen, in order); ``seats`` are the seats whose cards are
    weighed (the viewer's are not); ``temperature`` and ``max_cards`` set the
    model (:func:`skatdd.analysis.inference.play.play_likelihood`).  A plain
    tuple of ints and floats, so it travels to worker processes as JSON.
    """

    start: StartState
    played: tuple[tuple[int, Card], ...]
    seats: tuple[int, ...]
    temperature: float = TEMPERATURE
    max_cards: int = PLAY_CARDS

    def likelihood(self, game: Game, declarer: int, world: World, *, solver: Solver | None = None) -> tuple[float, int]:
        """``(likelihood, searches)`` of the cards played in *world* (its hands as held now; *solver*: default a new one)."""
        hands = list(world.hands)
        for seat, card in self.played:
            hands[seat] |= 1 << card
        start = _start_position(self.start, game, declarer, hands, world.skat)
        return play_likelihood(start, self.played, self.seats, solver=solver, temperature=self.temperature,
                               max_cards=self.max_cards)


def play_evidence(view: View, evidence: Evidence, inference: str, *, temperature: float = TEMPERATURE,
                  play_cards: int = PLAY_CARDS) -> PlayEvidence | None:
    """The play model's evidence for *view* when *inference* weighs the play and cards were seen, else ``None``."""
    if inference not in ("play", "all") or not view.played:
        return None
    return PlayEvidence(evidence.start, view.played, tuple(s for s in range(3) if s != view.seat), temperature,
                        play_cards)


def bid_weighted_worlds(view: View, evidence: Evidence, n: int, rng: random.Random, *, inference: str = "bids",
                        pool: int | None = None, iid: bool = False, enough: float | None = None) -> WeightedWorlds:
    """Steps 1 and 2 of :func:`weighted_worlds`: at most *n* distinct worlds weighed by the bidding only.

    With *inference* ``"none"`` or ``"play"`` (or no auction in *evidence*)
    these are *n* uniform worlds, each of weight 1, drawn exactly as
    :func:`skatdd.analysis.worlds.draw.choose_worlds` draws them.  *iid* and
    *enough*: the pool drawn independently and grown until its weights'
    effective sample size reaches *enough* (module docstring).  The caller
    multiplies in the play likelihoods (:func:`play_evidence`), here or on
    worker processes: each is an exact function of its world.
    """
    started = time.perf_counter()
    parse_inference(inference)
    if n < 1:
        raise DealFormatError(f"the number of worlds must be at least 1, not {n}")
    size = max(POOL_FACTOR * n, MIN_POOL) if pool is None else pool
    if size < n:
        raise DealFormatError(f"the pool of worlds ({size}) must hold at least the {plural(n, 'world')} asked for")
    use_bids = inference in ("bids", "all") and bool(evidence.bids)
    others = [s for s in range(3) if s != view.seat]
    if not use_bids:
        drawn, exact = choose_worlds(view, n, rng)
        worlds, weights = drawn, [1.0] * len(drawn)
        count = len(drawn) if exact else count_worlds(view)
        pool_size, pool_ess = len(drawn), float(len(drawn))
    else:
        auction = evidence.auction
        # Each seat's cards now plus those it played: its dealt ten (for a pick-up declarer, the ten he
        # plays with, as Auction says).
        weigh = auction_pool_weigher(auction, others)  # auction_weigher's floats, the whole pool at once in C

        def likelihoods(worlds: list[World]) -> list[float]:
            return weigh(worlds, view.played_masks)

        if iid:
            space = WorldSpace(view)
            count = len(space)
            exact = count <= size
            if exact:
                drawn = list(space)
                bid_weights = likelihoods(drawn)
            else:
                # Grown n worlds at a time until the weights are worth *enough* equal ones, or *size* are drawn.
                # Judged on the model's likelihoods without the floor: a pool that missed the few worlds that
                # explain the auction (a grand's jacks) has even weights at the floor, but uneven model ones.
                unmixed = auction_weigher(auction, others, floor=0.0)
                drawn, bid_weights, model = [], [], []
                while len(drawn) < size:
                    more = [space.draw(rng) for _ in range(min(n, size - len(drawn)))]
                    drawn += more
                    bid_weights += likelihoods(more)
                    if enough is None:
                        continue
                    model += [unmixed(w.start_hands(view)) for w in more]
                    if effective_size(model) >= enough:
                        break
        else:
            drawn, exact = choose_worlds(view, size, rng)
            count = len(drawn) if exact else count_worlds(view)
            bid_weights = likelihoods(drawn)
        pool_size, pool_ess = len(drawn), effective_size(bid_weights)
        if exact and len(drawn) <= n:
            worlds, weights = drawn, bid_weights
        else:
            exact = False
            counts = _systematic(bid_weights, n, rng)
            merged: dict[World, int] = {}  # an i.i.d. pool may hold a world twice: it is one world, drawn k times
            for world, k in zip(drawn, counts, strict=True):
                if k:
                    merged[world] = merged.get(world, 0) + k
            worlds, weights = list(merged), [float(k) for k in merged.values()]
    return WeightedWorlds(worlds, weights, count, pool_size, exact, effective_size(weights), pool_ess, inference,
                          0, time.perf_counter() - started)


def weighted_worlds(view: View, evidence: Evidence, n: int, rng: random.Random, *, inference: str = "bids",
                    pool: int | None = None, solver: Solver | None = None, temperature: float = TEMPERATURE,
                    play_cards: int = PLAY_CARDS, iid: bool = False, enough: float | None = None) -> WeightedWorlds:
    """At most *n* distinct worlds of *view*, weighed by *inference* (module docstring).

    *evidence* gives the contract, the auction and the start of play;
    *pool* (default ``max(POOL_FACTOR * n, MIN_POOL)``) bounds the worlds the
    bidding weights are computed on; *solver* (default: a new one) runs the
    play model's searches, *temperature* and *play_cards* set it.  Raises
    :class:`~skatdd.core.errors.DealFormatError` for *n* < 1, a pool smaller
    than *n*, or an unknown inference.
    """
    started = time.perf_counter()
    drawn = bid_weighted_worlds(view, evidence, n, rng, inference=inference, pool=pool, iid=iid, enough=enough)
    play = play_evidence(view, evidence, inference, temperature=temperature, play_cards=play_cards)
    if play is not None:
        solver = solver_or_default(solver)
        for i, world in enumerate(drawn.worlds):
            likelihood, used = play.likelihood(evidence.game, evidence.declarer, world, solver=solver)
            drawn.weights[i] *= likelihood
            drawn.searches += used
        drawn.ess = effective_size(drawn.weights)
    drawn.seconds = time.perf_counter() - started
    return drawn


def input_auction(bids: Sequence[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """The auction an input states (:attr:`skatdd.formats.deal_input.DealInput.bids`), checked as an auction.

    The readers check each move's form (an ISS record's moves, a JSON deal's
    ``bids`` pairs); here the sequence is read as bids
    (:func:`skatdd.analysis.inference.bids.bid_intervals`), so a move that
    is no bid, or a bid that does not exceed the one before, raises
    :class:`~skatdd.core.errors.DealFormatError` before any world is drawn.
    """
    checked = tuple((int(seat), str(move)) for seat, move in bids)
    bid_intervals(checked)
    return checked


def world_positions(view: View, evidence: Evidence, worlds: Sequence[World]) -> list[Position]:
    """Each world as it stands now: its start position with the view's played cards played again."""
    return [replay_cards(evidence.start_position(view, w), [card for _, card in view.played]) for w in worlds]
