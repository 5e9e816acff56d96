"""Single-dummy advice: every legal card judged over the worlds its player cannot tell apart.

Double-dummy analysis sees every card; a player at the table does not.  For
the player to move this module takes his *view* (:func:`mover_view`): his own
cards, every card played and by whom with the voids that shows (jacks are
trumps in suit and grand), the skat or discard only when he is a declarer who
picked it up (in a hand game nobody knows it), and in an ouvert game the
declarer's open hand.  By default every *world* consistent with the view
counts the same (:mod:`skatdd.analysis.worlds.space`): no inference from the bidding
or from how the cards were chosen, only from what the rules force.  With
*inference* (``"bids"``, ``"play"``, ``"all"``) the worlds are drawn and
weighed by what the bidding and the play showed
(:mod:`skatdd.analysis.inference.api`, docs/inference.md).

For each legal card and each world the engine gives the exact double-dummy
result after that card (:func:`skatdd.analysis.worlds.values.card_results_many`:
a decision's worlds in one engine call); over the evaluated worlds a card
gets (:class:`skatdd.analysis.advise.results.CardAdvice`, each world counted with its
weight)

``win``
    the fraction of worlds in which the declarer wins double-dummy after it,
    at the game's winning level (:class:`WinRule`): 61 card points, 90 when
    schneider was announced, every trick when schwarz was (ouvert suit and
    grand included), no trick in null;
``mean_value``
    the mean of the declarer's final card points, the skat's points
    included in every world (``None`` in null).

The best cards for the mover's side (:func:`best_cards`): the declarer
maximises ``win``, then ``mean_value``; a defender minimises both, in that
order.  When the view allows at most *n* worlds all of them are solved and
the answer is exact; otherwise *n* different worlds are drawn uniformly from
one seeded generator (:func:`skatdd.core.seeds.generator`) in the calling
process, so the same seed gives the same numbers whatever the number of
worker processes (the worlds are drawn in one order there, a chunk at a time
as the workers ask for them, and tallied as they come back, so memory does
not grow with *n*; each world's result is exact, so it does not depend on
which solver computed it).  More than :data:`~skatdd.analysis.worlds.draw.MAX_WORLDS`
worlds for one decision are refused (with inference, more than
:data:`MAX_INFERENCE_WORLDS`: the bidding's pool of worlds is held in memory).

With *honest* ``K`` a declarer decision with at most K tricks left also gets
each card's ``honest_win`` over the same worlds and weights
(:func:`skatdd.analysis.honest.api.honest_card_values`: the best strategy that plays
the same card in worlds the declarer cannot tell apart), solved in this
process after the worlds.

:func:`advise` answers one position, :func:`single_dummy_game` every card of
a played game (the view of each card's player at that moment); the worlds
are solved by a :class:`~skatdd.analysis.advise.runner.WorldRunner`.

What plain PIMC numbers cannot say: averaging double-dummy results assumes
that, once the card is played, everyone plays as if he saw every card.
That is optimistic for whichever side must still guess (the "strategy
fusion" the honest search removes for the declarer's endgame), and equal
weights ignore what the bidding and the earlier play suggest about the
hidden cards (what the inference weighs).
"""
from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING

from skatdd.analysis.honest.api import DEFAULT_BUDGET, HonestBudgetExceeded, honest_card_values
from skatdd.analysis.inference.api import Evidence, PlayEvidence, bid_weighted_worlds, parse_inference, play_evidence
from skatdd.analysis.worlds.draw import WorldDraw, check_world_count
from skatdd.analysis.worlds.space import View, World, count_worlds, view_of
from skatdd.analysis.worlds.values import CardResults, WinRule, card_results, world_position
from skatdd.core.cards import Card
from skatdd.core.errors import DealFormatError, plural
from skatdd.core.position import Position
from skatdd.core.scoring import Declaration
from skatdd.core.seeds import DEFAULT_SEED, generator
from skatdd.engine.solve import Solver
from skatdd.runner.lines import worker_count

from .results import (
    Advice,
    CardAdvice,
    CardTally,
    HonestAdvice,
    SingleDummyGame,
    SingleDummyPlay,
    best_cards,
    judge_play,
)
from .runner import CHUNK, Chunk, ChunkResult, Progress, WorldRunner

if TYPE_CHECKING:
    from skatdd.analysis.analyse.results import GameAnalysis

__all__ = [
    "CHUNK",
    "DEFAULT_SEED",
    "DEFAULT_WORLDS",
    "MAX_HONEST_TRICKS",
    "MAX_INFERENCE_WORLDS",
    "Advice",
    "CardAdvice",
    "CardResults",
    "Chunk",
    "HonestAdvice",
    "SingleDummyGame",
    "SingleDummyPlay",
    "WinRule",
    "advise",
    "best_cards",
    "card_results",
    "honest_refusal",
    "judge_analysis",
    "mover_view",
    "single_dummy_game",
    "world_position",
]

DEFAULT_WORLDS = 200
#: With inference at most this many worlds a decision: the bidding weighs a pool of 8 per world, held in memory
#: (80,000 worlds, a few tens of MiB, about 20 s of bidding likelihoods).
MAX_INFERENCE_WORLDS = 10_000
#: The most tricks left at which the honest search may be asked for: with five the search did not finish
#: twelve decisions in 300 s (docs/inference.md).
MAX_HONEST_TRICKS = 5


def mover_view(pos: Position, declaration: Declaration) -> View:
    """What the player to move in *pos* knows (module docstring); *declaration* says hand and ouvert."""
    seat = pos.to_move
    knows_skat = seat == pos.declarer and not declaration.hand
    open_seats = (pos.declarer,) if declaration.ouvert and seat != pos.declarer else ()
    return view_of(pos, seat, knows_skat=knows_skat, open_seats=open_seats)


# --------------------------------------------------------------------------- one decision's worlds


@dataclass
class _Decision:
    """One decision to judge: its public state, the mover's view, its worlds and how they are weighed.

    The worlds are either a lazy uniform draw (``draw``) or a weighed list
    (``weighted``, with the bidding's weights and the play evidence the
    chunks multiply in).  With ``honest`` set (the position, declarer to
    move) the worlds and their final weights are kept for the honest search.
    """

    decision: int
    public: Position  # who moves, the trick and the score; no hands
    view: View
    rule: WinRule
    consistent: int
    exact: bool
    count: int
    draw: WorldDraw | None = None
    weighted: list[World] | None = None
    weights: list[float] | None = None
    pool: int | None = None
    pool_ess: float | None = None
    play: PlayEvidence | None = None
    honest: Position | None = None
    kept: list[World] = field(default_factory=list)
    final_weights: list[float] = field(default_factory=list)

    @property
    def tasks(self) -> int:
        """How many chunks :meth:`chunks` yields."""
        return -(-self.count // CHUNK)

    def chunks(self) -> Iterator[Chunk]:
        """The worlds in chunks of :data:`CHUNK`, a uniform draw's drawn when the chunk is asked for."""
        if self.draw is not None:
            for worlds in self.draw.chunks(CHUNK):
                if self.honest is not None:
                    self.kept.extend(worlds)
                yield Chunk(self.decision, self.public, self.rule, tuple(worlds))
            return
        assert self.weighted is not None and self.weights is not None
        if self.honest is not None:
            self.kept = list(self.weighted)
        for start in range(0, len(self.weighted), CHUNK):
            yield Chunk(self.decision, self.public, self.rule, tuple(self.weighted[start:start + CHUNK]),
                        tuple(self.weights[start:start + CHUNK]), self.play)

    def take(self, result: ChunkResult) -> None:
        """Keep a chunk's final weights for the honest search."""
        if self.honest is not None:
            self.final_weights.extend(result.weights if result.weights is not None else [1.0] * len(result.results))


#: Worlds of one decision cheap enough to solve in this process rather than start worker processes (about
#: 40 ms on the 2-core machine), by the cards in the mover's hand: measured on the fixture and held-out games
#: (benchmarks/bench_advise.py), a world with three cards a hand costs about 10 microseconds, with four about
#: 80.  More cards: always the workers.
LOCAL_WORLDS = {1: 4000, 2: 4000, 3: 4000, 4: 500}


def _is_small(pos: Position, count: int) -> bool:
    """A decision of *count* worlds at *pos* costs less than starting workers (:data:`LOCAL_WORLDS`)."""
    return count <= LOCAL_WORLDS.get(pos.hands[pos.to_move].bit_count(), 0)


def _honest_applies(pos: Position, honest: int | None) -> bool:
    """The honest search is asked for and *pos* is a declarer decision with at most that many tricks left."""
    return honest is not None and honest_refusal(pos, honest) is None


def honest_refusal(pos: Position, tricks: int) -> str | None:
    """Why the honest search with at most *tricks* tricks left does not apply to *pos*, or ``None`` when it does."""
    if pos.to_move != pos.declarer:
        return (f"the honest search is for the declarer's decisions: seat {pos.to_move} to move is a defender "
                f"(the declarer is seat {pos.declarer})")
    left = pos.hands[pos.declarer].bit_count()
    if left > tricks:
        return f"the declarer holds {plural(left, 'card')}: the honest search runs with at most {tricks} tricks left"
    return None


def _plan(pos: Position, declaration: Declaration, n: int, rng: random.Random, decision: int, *,
          inference: str = "none", bids: Sequence[tuple[int, str]] = (), honest: int | None = None) -> _Decision:
    """The worlds of the mover's view in *pos*: at most *n*, from *rng* (uniform ones as the chunks are taken).

    Raises :class:`~skatdd.analysis.worlds.draw.WorldCountError` when more than
    :data:`~skatdd.analysis.worlds.draw.MAX_WORLDS` (with inference
    :data:`MAX_INFERENCE_WORLDS`) would be solved.
    """
    view = mover_view(pos, declaration)
    public = world_position(pos, World((0, 0, 0), 0))
    rule = WinRule.of(declaration)
    kept = pos.copy() if _honest_applies(pos, honest) else None
    if inference == "none":
        draw = WorldDraw(view, n, rng)
        return _Decision(decision, public, view, rule, draw.consistent, draw.exact, draw.count, draw=draw,
                         honest=kept)
    consistent = count_worlds(view)
    check_world_count(n, consistent, MAX_INFERENCE_WORLDS,
                      f"with --inference a run weighs at most {MAX_INFERENCE_WORLDS:,} for one decision")
    evidence = Evidence.of(pos, declaration, bids)
    drawn = bid_weighted_worlds(view, evidence, n, rng, inference=inference)
    return _Decision(decision, public, view, rule, consistent, drawn.exact, len(drawn.worlds),
                     weighted=drawn.worlds, weights=drawn.weights, pool=drawn.pool, pool_ess=drawn.pool_ess,
                     play=play_evidence(view, evidence, inference), honest=kept)


def _honest(plan: _Decision, declaration: Declaration, tricks: int, cards: list[CardAdvice], pimc_best: list[Card],
            runner: WorldRunner) -> HonestAdvice | None:
    """The honest search over *plan*'s kept worlds and weights, or ``None`` when it does not apply."""
    if plan.honest is None:
        return None
    try:
        result = honest_card_values(plan.honest, declaration, plan.kept, tricks, weights=plan.final_weights,
                                    solver=runner.local_solver(), budget=DEFAULT_BUDGET)
    except HonestBudgetExceeded:
        return HonestAdvice(tricks, None, gave_up=f"the search needed more than {DEFAULT_BUDGET:,} nodes")
    return HonestAdvice.of(tricks, result, cards, pimc_best)


def _check_options(inference: str, honest: int | None) -> None:
    """Raise :class:`~skatdd.core.errors.DealFormatError` for an unknown inference or honest bound."""
    parse_inference(inference)
    if honest is not None and not 1 <= honest <= MAX_HONEST_TRICKS:
        raise DealFormatError(f"the honest search runs with 1 to {MAX_HONEST_TRICKS} tricks left, not {honest}")


def _runner(solver: Solver | None, jobs: int | None, progress: Progress | None) -> WorldRunner:
    """The runner solving the worlds of one call: *solver* here, or ``worker_count(jobs)`` worker processes."""
    return WorldRunner(jobs=worker_count(jobs), solver=solver, progress=progress)


def advise(pos: Position, declaration: Declaration, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
           solver: Solver | None = None, jobs: int | None = 1, progress: Progress | None = None,
           inference: str = "none", bids: Sequence[tuple[int, str]] = (), honest: int | None = None) -> Advice:
    """Single-dummy values of every legal card of the player to move in *pos* (module docstring).

    *pos* is the full deal in play (its ``history`` gives the voids and the
    cards the play model weighs); only what the mover can see is used.
    *declaration* gives the winning level and who knows the skat (hand) or
    sees the declarer's hand (ouvert).  At most *worlds* worlds are solved,
    drawn with ``generator(seed)`` (:mod:`skatdd.core.seeds`) and weighed by
    *inference* (*bids*: the auction, ``(seat, "18" | "y" | "p")`` in order).
    *honest* ``K`` adds the honest search (the declarer to move with at most
    K cards).  *solver* (default: a new one) solves in this process; with
    *jobs* > 1 (``None``: every core) the worlds are solved on that many
    worker processes, each with a solver like it, and the advice does not
    depend on *jobs*.  *progress* is called as ``progress(done, total)``
    as the worlds are solved.

    Raises :class:`~skatdd.core.errors.DealFormatError` for *worlds* < 1, a
    position in which the game is over, an unknown inference, or *honest*
    on a defender's decision or with more cards left than K.
    """
    started = time.perf_counter()
    _check_options(inference, honest)
    if pos.is_over():
        raise DealFormatError("the game is over in this position: no card is left to choose")
    refusal = None if honest is None else honest_refusal(pos, honest)
    if refusal is not None:
        raise DealFormatError(refusal)
    runner = _runner(solver, jobs, progress)
    plan = _plan(pos, declaration, worlds, generator(seed), 0, inference=inference, bids=bids, honest=honest)
    nodes = runner.nodes
    tally = CardTally()

    def emit(result: ChunkResult) -> None:
        tally.add(result.results, result.weights)
        plan.take(result)

    runner.run(plan.chunks(), worlds=plan.count, tasks=plan.tasks, emit=emit, local=_is_small(pos, plan.count))
    cards = tally.cards(pos)
    best = best_cards(cards, pos.to_move == pos.declarer)
    honest_advice = None if honest is None else _honest(plan, declaration, honest, cards, best, runner)
    weighted = inference != "none"
    return Advice(
        seat=pos.to_move, declarer=pos.declarer, worlds=plan.consistent, evaluated=tally.evaluated, exact=plan.exact,
        cards=cards, best=best, seed=seed, view=plan.view, nodes=runner.nodes - nodes,
        seconds=time.perf_counter() - started, inference=inference, ess=tally.ess if weighted else None,
        pool=plan.pool if weighted else None, pool_ess=plan.pool_ess if weighted else None, honest=honest_advice,
        position=pos.copy(), declaration=declaration,
    )


# --------------------------------------------------------------------------- a whole game


def single_dummy_game(start: Position, cards: Sequence[Card], declaration: Declaration, *,
                      worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                      solver: Solver | None = None, jobs: int | None = 1, progress: Progress | None = None,
                      inference: str = "none", bids: Sequence[tuple[int, str]] = (),
                      honest: int | None = None) -> SingleDummyGame:
    """Judge every card of *cards*, played in order from *start*, from its player's view at that moment.

    For card *i* the worlds are those consistent with what its player saw
    before playing it (:func:`mover_view`); at most *worlds* are solved per
    card, drawn in card order from one ``generator(seed)`` (:mod:`skatdd.core.seeds`):
    in this process, a chunk at a time as the solvers ask for them (with
    *inference* each decision's weighed list before any is solved), each
    decision's after the one before, so *jobs* cannot change the numbers
    (*solver*, *jobs* and *progress* as for :func:`advise`).  Every decision's count is checked before any world
    is solved (:class:`~skatdd.analysis.worlds.draw.WorldCountError`).  *honest*
    ``K``: every declarer card with at most K tricks left also gets the honest
    search.  *cards* must be legal in turn
    (:class:`~skatdd.core.errors.IllegalPlayError` otherwise).
    """
    started = time.perf_counter()
    _check_options(inference, honest)
    runner = _runner(solver, jobs, progress)
    rng = generator(seed)
    pos = start.copy()
    plans: list[_Decision] = []
    for index, card in enumerate(cards):
        plans.append(_plan(pos, declaration, worlds, rng, index, inference=inference, bids=bids, honest=honest))
        pos.play(card)
    nodes = runner.nodes
    tallies = [CardTally() for _ in plans]

    def emit(result: ChunkResult) -> None:
        tallies[result.decision].add(result.results, result.weights)
        plans[result.decision].take(result)

    # Decision by decision: each one's worlds are drawn from rng after the previous one's, as they always were.
    chunks = chain.from_iterable(plan.chunks() for plan in plans)
    runner.run(chunks, worlds=sum(plan.count for plan in plans), tasks=sum(plan.tasks for plan in plans), emit=emit)
    plays = []
    weighted = inference != "none"
    for index, (card, plan) in enumerate(zip(cards, plans, strict=True)):
        advice = tallies[index].cards(plan.public)
        best = best_cards(advice, plan.public.to_move == plan.public.declarer)
        honest_advice = None if honest is None else _honest(plan, declaration, honest, advice, best, runner)
        plays.append(judge_play(index, plan.public, card, advice, plan.consistent, plan.exact,
                                ess=tallies[index].ess if weighted else None, honest=honest_advice))
    return SingleDummyGame(plays=plays, worlds=worlds, seed=seed, nodes=runner.nodes - nodes,
                           seconds=time.perf_counter() - started, inference=inference, honest_tricks=honest)


def judge_analysis(analysis: GameAnalysis, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                   solver: Solver | None = None, jobs: int | None = 1, progress: Progress | None = None,
                   inference: str = "none", honest: int | None = None) -> GameAnalysis:
    """Set ``analysis.single_dummy`` to :func:`single_dummy_game` of its cards and return *analysis*.

    The auction the inference weighs is the analysis's ``bids`` (an ISS
    record's; none for a JSON deal).
    """
    analysis.single_dummy = single_dummy_game(
        analysis.start, [play.card for play in analysis.plays], analysis.declaration,
        worlds=worlds, seed=seed, solver=solver, jobs=jobs, progress=progress, inference=inference, bids=analysis.bids,
        honest=honest,
    )
    return analysis
