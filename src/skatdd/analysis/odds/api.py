"""The chances of every contract for a hand whose other cards are unseen (``skatdd odds``).

A player sees his ten cards; the other twenty-two lie in one of 42,678,636
ways (184,756 once he has picked up the skat).  :func:`odds` answers *what
are my chances with this hand, in which game, hand or picked up?* the way
bridge players and Skat programs answer it: draw worlds (lies of the unseen
cards) uniformly at random, solve every contract double-dummy in each, and
count.

The worlds
----------
They come from :mod:`skatdd.analysis.worlds.draw`
(:mod:`skatdd.analysis.worlds.space` counts them): every world consistent with what the
seat knows counts the same; all of them are taken when there are at most
*worlds* (the figures are then exact), else *worlds* different ones drawn
from one generator of *seed* (:func:`skatdd.core.seeds.generator`) in the calling
process, a chunk at a time as the workers ask for them (memory does not grow
with *worlds*; more than :data:`~skatdd.analysis.worlds.draw.MAX_WORLDS`, or
:data:`MAX_KNOWN_SKAT_WORLDS` with a known skat, is refused).  The solving is
farmed out to worker processes (:func:`skatdd.runner.lines.run_lines`, one
:class:`~skatdd.engine.solve.Solver` per worker) and gathered in world order, so the
same seed gives the same report whatever *jobs*.

A caller may condition the worlds with ``accept(world) -> bool``:
rejection sampling (:mod:`skatdd.analysis.odds.draw`).  Worlds are drawn one
by one, without repeats, until *worlds* of them are accepted; the cost is one
draw per rejected world (and a call of *accept*), so a condition that one
world in *k* passes costs *k* times the draws.  After *max_draws* draws
(default ``max(10,000, 200 x worlds)``) without enough accepted worlds the
run stops with :class:`WorldConditionError`.  When the consistent worlds
are no more than *max_draws*, all are tested instead and the accepted ones
are used, all of them when at most *worlds* (exact).

With ``inference="bids"`` and the auction so far (*bids*, moves ``(seat,
"18" | "y" | "p")``), the worlds weigh by how likely the other two seats'
bidding was with their cards in that world (the bidding model of
:mod:`skatdd.analysis.inference.bids`): *worlds* draws from a uniform pool of
``max(8 x worlds, 64)``, each with probability proportional to that
likelihood (systematic resampling, :func:`skatdd.analysis.inference.api.weighted_worlds`);
a world drawn *k* times is solved once and counts *k* times.  The report
gives the effective sample size of the weights (``ess``), and the 95%
intervals are taken over it.  Before the first card the play shows nothing,
so ``"play"`` and ``"all"`` are refused.

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
:func:`skatdd.analysis.best.api.discard_order_key`) and, as ``alternatives``, the next
two.  Provably equivalent discards play identically, so each class of them
is one candidate, shown by its first discard in that order.  Hand games need the skat unseen and are not
offered.

Per option, over the evaluated worlds: ``win`` (the declarer wins the game
as scored: 61 card points, no trick in null, and not overbid), its 95%
Wilson interval (a single point when every consistent world was evaluated:
there is no sampling error), the fractions in which he reaches schneider
(90+), is schneidered (30 or less), takes every trick, takes none (these
four are ``None`` in null), with *points* the mean card points (skat or
discard included; ``None`` in null, and for every option without *points*)
and the mean ISkO score at the bid, with the matadors
counted over the twelve cards of each world (the skat changes them) and the
overbid rule applied per world.  The recommendation is the option with the
highest mean score (ties: the first in the list), or ``None`` (*pass*)
when every mean score is below 0.

Double-dummy odds are optimistic for the side that needs information: in
every world both the declarer and the defenders play as if they saw all the
cards.

How the work is kept small
--------------------------
Every figure but the mean card points depends only on the band of each
world's result (no trick, <= 30, 31-60, 61-89, 90+, every trick: win,
schneider, schwarz and the score), so without *points* the engine is asked
only null-window threshold questions, never an exact value; the points
(opt-in: about four times the nodes) need the exact value, searched
inside the band.  Picked-up games without a known skat take each world's
best discard by an incumbent search (provably equivalent discards searched
once, one threshold question per discard against the best so far: the
next band up, or with *points* one point above its value), without the
discards another provably dominates, the chunk's earlier winners first
(:mod:`skatdd.analysis.odds.pickup`); the reported figures are the same
either way.  With a known skat the defenders' twenty
cards are the same in every world, so the equivalent-discard classes are
computed once per game; the scores of all classes are bounded world by
world with threshold questions, most promising class first, and a class
whose best possible total cannot reach the third-best certain total is
dropped unrefined; the three best are settled exactly, the best one's
bands (with *points* its values) world by world
(:mod:`skatdd.analysis.odds.discard_ranking`).

The modules
-----------
This module is the entry point (:func:`odds`).  The rest:
:mod:`~skatdd.analysis.odds.input` reads the hand and the contracts,
:mod:`~skatdd.analysis.odds.draw` draws the worlds,
:mod:`~skatdd.analysis.odds.tasks` is the work in each worker,
:mod:`~skatdd.analysis.odds.pickup` each world's best discard,
:mod:`~skatdd.analysis.odds.discard_ranking` ranks discards over shared worlds,
:mod:`~skatdd.analysis.odds.results` and :mod:`~skatdd.analysis.odds.stats` hold
the figures.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from skatdd.analysis.inference.api import parse_inference
from skatdd.analysis.worlds.space import SKAT, View, World
from skatdd.core.cards import Card, Mask
from skatdd.core.errors import DealFormatError, ScoringError
from skatdd.core.rules import Game
from skatdd.core.scoring import MAX_BID, MIN_BID, Declaration, null_value
from skatdd.core.seeds import DEFAULT_SEED, generator
from skatdd.engine.solve import Solver
from skatdd.formats.json_text import json_text
from skatdd.runner.lines import LineOutcome, run_lines, worker_count

from .draw import WorldConditionError, bid_weighted_draw, draw_worlds, world_draw
from .input import contracts, read_view
from .results import Alternative, Contract, OddsReport, OptionOdds, OptionTally, world_outcome
from .stats import wilson_interval
from .tasks import OddsJob, encode_worlds, handle, known_skat_order

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
#: The inferences odds takes: before the first card only the bidding can weigh the worlds.
ODDS_INFERENCES = ("none", "bids")

Progress = Callable[[int, int], None]


def _check_inference(inference: str, bids: Sequence[tuple[int, str]], accept: object) -> str:
    """*inference* when odds can use it with these *bids* and *accept*; else a one-line error."""
    parse_inference(inference)
    if inference not in ODDS_INFERENCES:
        raise DealFormatError(f"inference {inference!r} needs cards played: odds looks before the first card, "
                              "where only the bidding shows anything (use none or bids)")
    if inference == "bids" and not bids:
        raise DealFormatError("inference 'bids' needs the auction so far (the bids: seat and move, e.g. M:18 F:p)")
    if inference == "bids" and accept is not None:
        raise DealFormatError("accept= and inference 'bids' exclude each other: condition the worlds one way")
    return inference


def odds(
    cards: View | Mask | str | Iterable[Card], *, seat: int | str | None = None,
    skat: Mask | str | Iterable[Card] | None = None,
    games: Iterable[Game | str | tuple[Game, bool]] | None = None, hand_games: bool = True, picked_up: bool = True,
    worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED, bid: int = MIN_BID, jobs: int | None = 1,
    solver: Solver | None = None, accept: Callable[[World], bool] | None = None, max_draws: int | None = None,
    progress: Progress | None = None, dask: str | None = None, inference: str = "none",
    bids: Sequence[tuple[int, str]] = (), points: bool = False,
) -> OddsReport:
    """The chances of every contract for a hand whose other cards are unseen (see the module docstring).

    Args:
        cards: the seat's ten dealt cards (a card string, card ints or a
            mask), or a :class:`~skatdd.analysis.worlds.space.View` from
            :func:`~skatdd.analysis.worlds.space.hand_view` (then *seat* and *skat* come from it).
        seat: the seat holding them (0/1/2, F/M/R...); forehand leads.
        skat: the two skat cards when the seat has picked them up.
        games: contracts to compute (``Game`` values, names such as
            ``'clubs'`` or ``'null-ouvert'``, or ``(game, ouvert)``); all seven by default.
        hand_games, picked_up: which kinds to compute (hand games need the skat unseen).
        worlds: worlds to evaluate (all consistent ones when there are no more).
        seed: seeds the one generator every random choice comes from (:func:`skatdd.core.seeds.generator`).
        bid: the bid the scores are computed at (overbid per world; nulls below it left out).
        jobs: worker processes (``None``: every core); the report does not depend on it.
        solver: the solver whose configuration (its table size) every
            worker's own solver takes (:func:`~skatdd.engine.solve.solver_or_default`).
        accept: ``accept(world) -> bool`` conditions the worlds (rejection sampling).
        max_draws: cap on the worlds drawn for *accept*.
        progress: called as ``progress(done, total)`` as tasks finish.
        dask: a Dask scheduler address or ``local[:N]``: the worlds are solved
            on that cluster instead of *jobs* local workers (same report).
        inference: ``"none"`` (every world the same) or ``"bids"`` (worlds
            weighed by *bids*; ``"play"`` and ``"all"`` are refused).
        bids: the auction so far, ``(seat, move)`` with move a bid
            (``"18"``), ``"y"`` (hold) or ``"p"`` (pass); used with ``"bids"``.
        points: compute every suit and grand option's mean card points
            (exact values: about four times the nodes); without them
            ``mean_points`` is ``None`` and every other figure is the same.

    Returns an :class:`OddsReport`.  Raises :class:`~skatdd.core.errors.SkatddError`
    subclasses for bad input (cards, seat, counts, a bid outside 18..264, nothing
    left to compute, an inference odds cannot use, bad bids, *points* not a bool) and
    :class:`WorldConditionError` when *accept* is too rare.
    """
    start = time.perf_counter()
    view = read_view(cards, seat, skat)
    hand = view.known[view.seat]
    known_skat = view.known[SKAT] or None
    if isinstance(bid, bool) or not isinstance(bid, int) or not MIN_BID <= bid <= MAX_BID:
        raise ScoringError(f"bid {bid!r} is not a bid: expected a whole number from {MIN_BID} to {MAX_BID} "
                           "(the highest game value)")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise DealFormatError(f"the number of worlds must be a whole number of at least 1, not {worlds!r}")
    _check_inference(inference, bids, accept)
    if not isinstance(points, bool):
        raise DealFormatError(f"points must be True or False, not {points!r}")
    if known_skat is not None:
        if not picked_up:
            raise DealFormatError("hand games need the skat unseen: with a known skat only picked-up games are offered")
        hand_games = False
    kinds = [k for k in (False, True) if (k and hand_games) or (not k and picked_up)]
    plan: list[tuple[Contract, bool]] = []
    left_out: list[str] = []
    for contract in contracts(games):
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
    limit: dict[str, Any] = {} if known_skat is None else {
        "limit": MAX_KNOWN_SKAT_WORLDS,
        "rule": f"with a known skat the discards are ranked over at most {MAX_KNOWN_SKAT_WORLDS:,}"}
    weights: list[float] | None = None
    weighing: dict[str, Any] = {}
    if inference == "bids":
        weighed = bid_weighted_draw(view, bids, worlds, rng, **limit)
        chosen: Iterable[World] = weighed.worlds
        chunks: Iterable[Sequence[World]] = (weighed.worlds[i:i + CHUNK] for i in range(0, len(weighed.worlds), CHUNK))
        distinct, count, consistent, exact = len(weighed.worlds), weighed.count, weighed.consistent, weighed.exact
        weights = weighed.weights
        if known_skat is not None:
            # The discards are ranked over the worlds as drawn, a world drawn k times k times (the
            # weights are whole: a view before the first card has more worlds than a pool holds).
            chosen = [w for w, k in zip(weighed.worlds, weights, strict=True) for _ in range(round(k))]
            weights = None
        weighing = {"inference": "bids", "ess": weighed.ess, "pool": weighed.pool, "pool_ess": weighed.pool_ess}
    else:
        draw = world_draw(view, worlds, rng, accept, max_draws, **limit)
        chosen, chunks = draw, draw.chunks(CHUNK)
        distinct = count = draw.count
        consistent, exact = draw.consistent, draw.exact
    sample_size = weighing.get("ess")
    play_games = tuple(dict.fromkeys(c[0] for c, _ in plan))
    job = OddsJob(view.seat, hand, known_skat, bid, play_games,
                  hand_games=any(h for _, h in plan), picked_up=any(not h for _, h in plan), points=points)
    tasks: Iterable[str]
    if known_skat is None:
        # The worlds go out CHUNK at a time as the workers ask for them: a million of them never sit in memory.
        tasks = (json_text({"worlds": encode_worlds(chunk)}) for chunk in chunks)
        task_count = -(-distinct // CHUNK)
    else:
        # Every discard is ranked over all the worlds at once (at most MAX_KNOWN_SKAT_WORLDS of them), one
        # task per game, the likely longest first so that the two workers finish together.
        encoded = encode_worlds(list(chosen))
        task_games = known_skat_order(play_games, hand | known_skat)
        tasks = [json_text({"game": int(g), "worlds": encoded}) for g in task_games]
        task_count = len(play_games)
    tallies = [OptionTally() for _ in plan]
    records: list[dict[str, Any]] = []      # with a known skat: one per task, in the order of task_games
    done = 0
    solved = 0

    def collect(outcome: LineOutcome) -> None:
        nonlocal done, solved
        done += 1
        if known_skat is None:
            for skat, results in zip(outcome.record["skats"], outcome.record["worlds"], strict=True):
                weight = 1 if weights is None else weights[solved]
                solved += 1
                for tally, (contract, is_hand) in zip(tallies, plan, strict=True):
                    result = results[play_games.index(contract[0])][0 if is_hand else 1]
                    tally.add(world_outcome(contract, is_hand, hand | skat, bid, result), weight)
        else:
            records.append(outcome.record)
        if progress is not None:
            progress(done, task_count)

    summary = run_lines(enumerate(tasks, start=1), handler=functools.partial(handle, job=job),
                        jobs=worker_count(jobs), solver=solver, emit=collect,
                        dask=dask, total=task_count)

    if known_skat is None:
        options = [tally.odds(contract, is_hand, exact, sample_size)
                   for tally, (contract, is_hand) in zip(tallies, plan, strict=True)]
    else:
        ranked = {g: record["ranked"] for g, record in zip(task_games, records, strict=True)}
        options = _known_skat_options(plan, ranked, hand | known_skat, bid, exact, sample_size)
    return OddsReport(
        seat=view.seat, hand=hand, skat=known_skat, bid=bid, worlds=consistent, evaluated=count,
        exact=exact, seed=seed, options=options, left_out=left_out, nodes=summary.nodes,
        seconds=time.perf_counter() - start, points=points, **weighing,
    )


def _known_skat_options(plan: list[tuple[Contract, bool]], ranked: dict[Game, list[dict[str, Any]]],
                        twelve: Mask, bid: int, exact: bool, sample_size: float | None) -> list[OptionOdds]:
    """The options of a run with a known skat: each game's best discard, with the next two as alternatives.

    *ranked* holds each game's task record's ``"ranked"`` list; the options come in the order of *plan*.
    """
    options = []
    for contract, _ in plan:
        best = ranked[contract[0]][0]
        outcomes = [world_outcome(contract, False, twelve, bid, r) for r in best["results"]]
        option = OptionOdds.tally(contract, False, outcomes, exact, sample_size=sample_size)
        option.discard = list(best["discard"])
        option.alternatives = []
        for entry in ranked[contract[0]][1:]:
            if contract[0].is_null:
                scored = [world_outcome(contract, False, twelve, bid, r) for r in entry["results"]]
                pairs = [(o.score, o.wins) for o in scored]
            else:
                pairs = [(int(s), bool(w)) for s, w in entry["results"]]
            option.alternatives.append(Alternative(
                discard=list(entry["discard"]), evaluated=len(pairs), wins=sum(w for _, w in pairs),
                total_score=sum(s for s, _ in pairs), exact=exact, sample_size=sample_size,
            ))
        options.append(option)
    return options
