"""The work of ``skatdd odds`` in a worker process: the job every task shares, a task's encoding, its solving.

A task is one JSON line: ``{"worlds": [[h0, h1, h2, skat], ...]}`` (a chunk
of worlds, the skat unseen: every requested game in each world) or
``{"game": G, "worlds": [...]}`` (with a known skat: one game's discard
ranking over every world, :mod:`skatdd.analysis.discard_ranking`).
:func:`handle` solves it with the worker's :class:`~skatdd.engine.solve.Solver`
and returns the results as a :class:`~skatdd.runner.lines.LineOutcome`
record; the parent scores them (:func:`skatdd.analysis.odds_report.world_outcome`).

How one world is kept cheap (the skat unseen)
---------------------------------------------
Suit and grand: the hand game's exact outcome (:func:`~skatdd.analysis.discard_ranking.settle`:
the band questions, then the exact value inside the band).  The picked-up
game is the best discard *of that world* (highest score, then value:
``skatdd best``'s incumbent search, :class:`~skatdd.analysis.best.PickedUpSearch`,
seeded with the hand game, which is the discard of the dealt skat), over
fewer candidates and in a better order than ``best``'s:

* **Dominated discards are not searched.**  Two discards that keep the same
  number of cards in every gap (a run of the declarer's cards between the
  defenders' cards of one follow group) play alike: a bijection inside each
  gap maps every play of one onto a play of the other with the same legal
  cards and trick winners.  Only the points differ: if discard D1 keeps, gap
  by gap, cards worth no more than D2 keeps (sorted, card by card), then for
  any pair of mapped strategies ``V(D1) - V(D2) = sum (1 - w) (p2 - p1) >= 0``
  over the mapped kept cards (``w``: the declarer wins that card's trick),
  since the twelve cards' points are the same.  So D1's value is at least
  D2's and their trick facts are equal: D2 never scores more.  For each
  vector of kept counts one discard dominates all the others (in every gap
  it throws the highest cards), and only it is searched.  The figures
  reported are the best discard's value and trick facts, which ties in
  score and value can only change when an overbid makes "every trick" score
  like 90+ or "no trick" like 30-: then nothing is dropped.
* **The discards that won the chunk's earlier worlds go first** (then
  ``best``'s heuristic): the best discard of a hand changes little from
  world to world, and an early incumbent near the best makes every later
  candidate fail its one threshold question faster.  The chunk is the same
  whatever the number of workers, so the work is too.
* **A new incumbent's exact value starts with the band questions** (61,
  then 90, where its bounds leave them open), as the hand game's does: the
  descent then starts from the band's top instead of 120 (2-5% fewer nodes
  in the pick-up search on the benchmark hands).

Null: the hand game is one win question, the picked-up game the first
winning discard class.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skatdd.core.cards import Mask, cards_of, display_sorted
from skatdd.core.rules import Game
from skatdd.core.scoring import matadors
from skatdd.engine.solve import Solver
from skatdd.runner.lines import LineOutcome

from .bands import ALL_TRICKS, NO_TRICK, SCHNEIDER, SCHNEIDERED, Bands, Probe
from .best import PickedUpSearch, SeatSearch
from .discard_heuristic import discard_heuristic
from .discard_ranking import discard_classes_of, dominance_links, rank_discards, rank_null_discards, settle
from .discards import DiscardClass
from .worlds import World

__all__ = ["OddsJob", "encode_worlds", "handle", "solve_world", "undominated", "world_from_json"]

#: Per game, how often each discard pair was a world's best discard in the chunk so far.
Memory = dict[Game, Counter[tuple[int, int]]]


@dataclass(frozen=True)
class OddsJob:
    """What every task of one run shares (pickled once per task)."""

    seat: int
    hand: Mask
    skat: Mask | None
    bid: int
    games: tuple[Game, ...]     # games for play: null stands for null ouvert too
    hand_games: bool
    picked_up: bool


def encode_worlds(worlds: Sequence[World]) -> list[list[int]]:
    """The worlds as a task's JSON lists ``[h0, h1, h2, skat]``."""
    return [[*w.hands, w.skat] for w in worlds]


def world_from_json(item: Sequence[int]) -> World:
    """A world back from its JSON list ``[h0, h1, h2, skat]``."""
    return World((item[0], item[1], item[2]), item[3])


def undominated(game: Game, twelve: Mask, classes: Sequence[DiscardClass]) -> list[DiscardClass]:
    """The classes no other class dominates (:func:`~skatdd.analysis.discard_ranking.dominance_links`), in their order."""
    dominated = {low for _, low, _ in dominance_links(game, twelve, classes)}
    return [cls for i, cls in enumerate(classes) if i not in dominated]


class _WorldPickUp(PickedUpSearch):
    """``best``'s incumbent search, asking a new incumbent's band before its exact value."""

    def _adopt(self, cls: DiscardClass, probe: Probe) -> None:
        if probe.lo < 61 <= probe.hi:
            probe.at_least(61)
        if probe.lo < 90 <= probe.hi:
            probe.at_least(90)
        super()._adopt(cls, probe)


def _best_discard(seat: SeatSearch, game: Game, bands: Bands, hand_probe: Probe, memory: Counter[tuple[int, int]]) -> Probe:
    """The probe of the world's best discard of picked-up *game* (its outcome is then cheap); *memory* counts it."""
    classes = discard_classes_of(game, seat.twelve)
    skat_pair = tuple(display_sorted(cards_of(seat.skat)))
    seed = next(c for c in classes if skat_pair in c.members)
    score = bands.score
    candidates: Sequence[DiscardClass] = classes
    if score[ALL_TRICKS] != score[SCHNEIDER] and score[NO_TRICK] != score[SCHNEIDERED]:
        candidates = undominated(game, seat.twelve, classes)
    picked = _WorldPickUp(seat, game, bands)
    picked.offer_known(seed, hand_probe)
    rest = sorted((c for c in candidates if c is not seed),
                  key=lambda c: (-max(memory[m] for m in c.members), -discard_heuristic(game, seat.twelve, c.discard), c.order))
    for cls in rest:
        picked.offer(cls)
    assert picked.best is not None and picked.best_probe is not None
    memory.update(picked.best.members)
    return picked.best_probe


def solve_world(solver: Solver, job: OddsJob, world: World, memory: Memory | None = None) -> list[list[Any]]:
    """One world, every requested game: per game ``[hand result, picked-up result]`` (``None`` when not asked).

    Suit and grand results are ``[value, takes_all, trickless]``; null
    results ``[wins]``.  *memory* carries the best discards of earlier
    worlds (an order, never a result).
    """
    memory = memory if memory is not None else {}
    seat = SeatSearch(solver, list(world.hands), world.skat, job.seat, job.bid, None)
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
                classes = discard_classes_of(game, seat.twelve)
                picked_result = [any(solver.declarer_wins(seat.position(game, c.hand, seat.twelve & ~c.hand))
                                     for c in classes)]
        else:
            hand_probe = Probe(solver, hand_pos)
            if job.hand_games:
                hand_result = list(settle(hand_probe))
            if job.picked_up:
                bands = Bands(game, matadors(game, seat.twelve), job.bid)
                probe = _best_discard(seat, game, bands, hand_probe, memory.setdefault(game, Counter()))
                picked_result = list(probe.outcome())
        out.append([hand_result, picked_result])
    return out


def handle(solver: Solver, line: int, raw: bytes | str, *, job: OddsJob) -> LineOutcome:
    """One task: a chunk of worlds (no known skat) or one game over every world (known skat)."""
    task = json.loads(raw)
    worlds = [world_from_json(item) for item in task["worlds"]]
    record: dict[str, Any] = {}
    if "game" in task:
        nodes = solver.nodes
        game = Game(task["game"])
        assert job.skat is not None
        twelve = job.hand | job.skat
        ranked = (rank_null_discards(solver, job.seat, twelve, worlds) if game.is_null
                  else rank_discards(solver, job.seat, twelve, job.bid, game, worlds))
        record["ranked"] = [{"discard": list(cls.discard), "results": results} for cls, results in ranked]
        record["nodes"] = solver.nodes - nodes
    else:
        record["worlds"], record["nodes"], record["skats"] = [], 0, [world.skat for world in worlds]
        memory: Memory = {}
        for world in worlds:
            # Worlds share little but the declarer's hand: a table emptied for each stays
            # small and in cache (measured: 10% less time than one kept across worlds).
            solver.clear()
            record["worlds"].append(solve_world(solver, job, world, memory))
            record["nodes"] += solver.nodes
    return LineOutcome(line, record)
