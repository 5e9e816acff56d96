"""The work of ``skatdd odds`` in a worker process: the job every task shares, a task's encoding, its solving.

A task is one JSON line: ``{"worlds": [[h0, h1, h2, skat], ...]}`` (a chunk
of worlds, the skat unseen: every requested game in each world) or
``{"game": G, "worlds": [...]}`` (with a known skat: one game's discard
ranking over every world, :mod:`skatdd.analysis.odds.discard_ranking`).
:func:`handle` solves it with the worker's :class:`~skatdd.engine.solve.Solver`
and returns the results as a :class:`~skatdd.runner.lines.LineOutcome`
record; the parent scores them (:func:`skatdd.analysis.odds.results.world_outcome`).

What a world's results are
--------------------------
Suit and grand results are ``[value, takes_all, trickless]`` when the job
asks for the mean card points (``odds --points``), else ``[band]`` (no
trick, <= 30, 31-60, 61-89, 90+, every trick: :mod:`skatdd.analysis.best.bands`),
which decides every other figure.  The band comes from threshold questions
alone; only the points need exact values.

* The hand game: the band questions (61, then 90 or 31, then the trick fact
  there: :func:`~skatdd.analysis.odds.discard_ranking.settle_band`), and with
  points the exact value inside the band
  (:func:`~skatdd.analysis.odds.discard_ranking.settle`).
* The picked-up game: the best discard *of that world* (highest score, then
  value, then tie order: ``skatdd best``'s choice), seeded with the hand
  game, which is the discard of the dealt skat, over fewer candidates and
  in a better order than ``best``'s (:mod:`skatdd.analysis.odds.pickup`:
  with points ``best``'s incumbent search, else an incumbent search by
  bands).  The discards that won the chunk's earlier worlds go first: the
  best discard of a hand changes little from world to world, and an early
  incumbent near the best makes every later candidate fail its one
  threshold question faster.  The chunk is the same whatever the number of
  workers, so the work is too.
* Null: the hand game is one win question, the picked-up game the first
  winning discard class.

With a known skat there is one task per game, and two workers finish
together only if the long games go first (:func:`known_skat_order`).
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skatdd.analysis.best.api import SeatSearch
from skatdd.analysis.best.bands import Bands, Probe
from skatdd.analysis.worlds.space import World
from skatdd.core.cards import Mask
from skatdd.core.rules import Game, trump_mask
from skatdd.core.scoring import matadors
from skatdd.engine.solve import Solver
from skatdd.runner.lines import LineOutcome

from .discard_ranking import discard_classes_of, rank_discards, rank_null_discards, settle, settle_band
from .pickup import best_band, best_discard_probe

__all__ = ["OddsJob", "encode_worlds", "handle", "known_skat_order", "solve_world", "world_from_json"]

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
    points: bool = False        # suit and grand results exact (the mean card points), not bands


def encode_worlds(worlds: Sequence[World]) -> list[list[int]]:
    """The worlds as a task's JSON lists ``[h0, h1, h2, skat]``."""
    return [[*w.hands, w.skat] for w in worlds]


def known_skat_order(games: Sequence[Game], twelve: Mask) -> list[Game]:
    """The order a known-skat run hands its games (one task each) to the workers: the likely longest first.

    A pool gives each free worker the next task, so the last long game
    decides when the run ends; longest first, the short ones fill the gaps.
    The ranking's cost is not known before it runs, so this is an estimate
    from the cards alone (deterministic, no search): grand, then the suits
    by the declarer's trumps among *twelve*, most first (a suit he is strong
    in is one whose discards compete around 61 and 90, where the questions
    are hard; one he is weak in is lost by every discard alike), ties in
    the order of *games*, null last (it asks one win question per class and
    world: a few per cent of a suit game).  Measured on the declarers' hands
    of the first 14 realistic deals of seed 1 (200 worlds, nodes as the
    time): the two workers' makespan over an even split 1.070 on average,
    1.16 at most, against 1.175 and 1.42 in the order of *games*
    (docs/engine.md).  Only the order changes: each task starts from an
    emptied table, so its results and nodes are the same whoever runs it
    when.
    """
    def rank(game: Game) -> tuple[int, int]:
        if game.is_null:
            return 2, 0
        if game == Game.GRAND:
            return 0, 0
        return 1, -(twelve & trump_mask(game)).bit_count()

    return sorted(games, key=rank)       # stable: ties keep the order of games


def world_from_json(item: Sequence[int]) -> World:
    """A world back from its JSON list ``[h0, h1, h2, skat]``."""
    return World((item[0], item[1], item[2]), item[3])


def solve_world(solver: Solver, job: OddsJob, world: World,
                memory: Memory | None = None) -> tuple[list[list[Any]], int]:
    """One world, every requested game: per game ``[hand result, picked-up result]`` (``None`` when not asked).

    Suit and grand results are ``[value, takes_all, trickless]`` with
    ``job.points``, else ``[band]``; null results ``[wins]``.  *memory*
    carries the best discards of earlier worlds (an order, never a result).
    Returns the results and the nodes searched.  The solver's table is
    emptied before each game: the games of one world share no position,
    and a table emptied for each stays small and in cache (measured: 4-12%
    less CPU than one kept across a world's games, docs/engine.md).
    """
    memory = memory if memory is not None else {}
    seat = SeatSearch(solver, list(world.hands), world.skat, job.seat, job.bid, None)
    hand = world.hands[job.seat]
    out: list[list[Any]] = []
    nodes = 0
    for game in job.games:
        solver.clear()          # also zeroes the node count
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
                hand_result = list(settle(hand_probe)) if job.points else [settle_band(hand_probe)]
            if job.picked_up:
                bands = Bands(game, matadors(game, seat.twelve), job.bid)
                seen = memory.setdefault(game, Counter())
                if job.points:
                    picked_result = list(best_discard_probe(seat, game, bands, hand_probe, seen).outcome())
                else:
                    picked_result = [best_band(seat, game, bands, hand_probe, seen)]
        out.append([hand_result, picked_result])
        nodes += solver.nodes
    return out, nodes


def handle(solver: Solver, line: int, raw: bytes | str, *, job: OddsJob) -> LineOutcome:
    """One task: a chunk of worlds (no known skat) or one game over every world (known skat)."""
    task = json.loads(raw)
    worlds = [world_from_json(item) for item in task["worlds"]]
    record: dict[str, Any] = {}
    if "game" in task:
        solver.clear()      # the worker's last game shares no position: a fresh table, the same nodes whoever runs it
        game = Game(task["game"])
        assert job.skat is not None
        twelve = job.hand | job.skat
        ranked = (rank_null_discards(solver, job.seat, twelve, worlds) if game.is_null
                  else rank_discards(solver, job.seat, twelve, job.bid, game, worlds, points=job.points))
        record["ranked"] = [{"discard": list(cls.discard), "results": results} for cls, results in ranked]
        record["nodes"] = solver.nodes
    else:
        record["worlds"], record["nodes"], record["skats"] = [], 0, [world.skat for world in worlds]
        memory: Memory = {}
        for world in worlds:
            results, nodes = solve_world(solver, job, world, memory)
            record["worlds"].append(results)
            record["nodes"] += nodes
    return LineOutcome(line, record)
