"""The searches of ``skatdd bid`` (:mod:`skatdd.analysis.bid.api`): the skats and worlds drawn, one game on one skat per task.

A task is one game (null standing for null ouvert too) on one sampled
skat's W worlds, solved in a worker process with its
:class:`~skatdd.engine.solve.Solver`.  It returns, per world, the band of the hand
game (the declarer's ten cards, the skat as dealt: the skat's own discard
class, :mod:`skatdd.analysis.best.api` reduction 3) and of the best discard of that world
(the per-world bound), and the honest choice of discard for each score
table the bid can impose (:func:`game_values`), ranked by
:func:`skatdd.analysis.odds.discard_ranking.rank_probes` on the probes of
:func:`skatdd.analysis.odds.discard_ranking.discard_probes` -- the computation of ``odds --skat``.
All the questions are the engine's threshold questions: a score needs only
the band.
"""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from skatdd.analysis.best.bands import Bands
from skatdd.analysis.best.discard_heuristic import discard_heuristic
from skatdd.analysis.odds.discard_ranking import (
    band_range,
    discard_classes_of,
    discard_probes,
    dominance_links,
    narrow,
    rank_null_discards,
    rank_probes,
    settle_band,
)
from skatdd.analysis.odds.draw import draw_worlds
from skatdd.analysis.odds.tasks import world_from_json
from skatdd.analysis.worlds.space import World, hand_view
from skatdd.core.cards import Mask, cards_of, display_sorted
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, WIN_POINTS, Game
from skatdd.core.scoring import Declaration, _seeger, matadors, score_game
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver
from skatdd.runner.lines import LineOutcome

__all__ = ["BidJob", "SkatDraw", "band_scores", "draw_skats", "game_values", "handle", "skat_seeds", "skat_worlds"]


# ---------------------------------------------------------------------------
# Drawing the skats and their worlds


@dataclass(frozen=True)
class SkatDraw:
    """One sampled skat, the seed of its worlds and the worlds (``odds --skat SKAT --seed SEED``'s)."""

    skat: Mask
    seed: int
    worlds: list[World]


def skat_seeds(hand: Mask, skats: int, rng: random.Random) -> tuple[list[tuple[Mask, int]], bool]:
    """``([(skat, seed), ...], every_skat)``: *skats* skats of the unseen cards (all 231 when no fewer), a seed each.

    The skats are taken uniformly without repeats and listed in a fixed
    order (lexicographic in the unseen cards); each gets a seed from *rng*
    for its own ``random.Random``, which draws its worlds as
    :func:`skatdd.analysis.odds.draw.draw_worlds` does for ``odds --skat``
    (:func:`skat_worlds`).  At most 231 pairs, whatever *skats*: the worlds
    are drawn skat by skat as they are solved, so memory does not grow with
    the counts.
    """
    unseen = [c for c in range(32) if not hand >> c & 1]
    pairs = [1 << a | 1 << b for a, b in combinations(unseen, 2)]
    every = skats >= len(pairs)
    chosen = list(range(len(pairs))) if every else sorted(rng.sample(range(len(pairs)), skats))
    return [(pairs[index], rng.randrange(2 ** 32)) for index in chosen], every


def skat_worlds(seat: int, hand: Mask, skat: Mask, seed: int, worlds: int) -> list[World]:
    """The *worlds* worlds of one skat, drawn from *seed* as ``odds HAND --skat SKAT --seed SEED`` draws them."""
    drawn, _, _ = draw_worlds(hand_view(seat, hand, skat), worlds, generator(seed))
    return drawn


def draw_skats(seat: int, hand: Mask, skats: int, worlds: int, rng: random.Random) -> tuple[list[SkatDraw], bool]:
    """``(draws, every_skat)``: :func:`skat_seeds`' skats with their worlds, all drawn at once.

    For callers that look at every world (tests, benchmarks);
    :func:`skatdd.analysis.bid.api.bid` draws the same worlds one skat at a time.
    """
    seeds, every = skat_seeds(hand, skats, rng)
    return [SkatDraw(skat, seed, skat_worlds(seat, hand, skat, seed, worlds)) for skat, seed in seeds], every


# ---------------------------------------------------------------------------
# The work done in each worker: one game on one skat's worlds


@dataclass(frozen=True)
class BidJob:
    """What every task of one run shares."""

    seat: int
    hand: Mask
    picked_up: bool
    tournament: bool


def game_values(game: Game, m: int) -> tuple[int, int, int]:
    """Values of a picked-up suit or grand *game* with matadors *m*: won plain, with schneider, with schwarz."""
    decl = Declaration(game)
    return (score_game(decl, matadors=m, points=WIN_POINTS).game_value,
            score_game(decl, matadors=m, points=SCHNEIDER_POINTS).game_value,
            score_game(decl, matadors=m, points=120, tricks=10).game_value)


def band_scores(game: Game, m: int, bid: int, tournament: bool) -> list[int]:
    """The six bands' scores of a picked-up suit or grand game at *bid*: list, or Seeger-Fabian points."""
    scores = Bands(game, m, bid).score
    return [_seeger(s, s > 0)[0] for s in scores] if tournament else scores


def _best_band(column: Sequence[Any], looks: Sequence[int]) -> int:
    """The highest band any discard class reaches in one world (*column*: the classes' probes there)."""
    ranges = [band_range(p) for p in column]
    best = max(lo for lo, _ in ranges)
    while True:
        open_ = [i for i, (_, hi) in enumerate(ranges) if hi > best]
        if not open_:
            return best
        i = max(open_, key=lambda k: (ranges[k][1], looks[k], -k))
        narrow(column[i], *ranges[i])
        ranges[i] = band_range(column[i])
        best = max(best, ranges[i][0])


def _skat_class(classes: Sequence[Any], skat: Mask) -> int:
    """Index of the discard class holding the dealt skat: the hand game is that discard (best.api, reduction 3)."""
    pair = tuple(display_sorted(cards_of(skat)))
    return next(i for i, c in enumerate(classes) if pair in c.members)


def _points_task(solver: Solver, job: BidJob, game: Game, skat: Mask, worlds: Sequence[World]) -> dict[str, Any]:
    """One suit or grand game on one skat: hand bands, the best discard per regime and scoring, the per-world bound."""
    twelve = job.hand | skat
    classes = discard_classes_of(game, twelve)
    probes = discard_probes(solver, job.seat, twelve, game, classes, worlds)
    record: dict[str, Any] = {"hand": [settle_band(p) for p in probes[_skat_class(classes, skat)]]}
    if not job.picked_up:
        return record
    m = matadors(game, twelve)
    looks = [discard_heuristic(game, twelve, c.discard) for c in classes]
    links = dominance_links(game, twelve, classes)
    picked = []
    for regime, value in enumerate(game_values(game, m)):
        for tournament in (False, True) if job.tournament else (False,):
            order, ranges = rank_probes(probes, band_scores(game, m, value, tournament), looks, keep=1, links=links)
            best = order[0]
            lows = [lo for lo, _ in ranges[best]]
            listed, seeger = band_scores(game, m, value, False), band_scores(game, m, value, True)
            picked.append([regime, tournament, list(classes[best].discard), sum(listed[b] for b in lows),
                           sum(seeger[b] for b in lows), sum(listed[b] > 0 for b in lows)])
    record["picked"] = picked
    record["optimistic"] = [_best_band([row[w] for row in probes], looks) for w in range(len(worlds))]
    return record


def _null_position(job: BidJob, hand: Mask, twelve: Mask, world: World) -> Position:
    hands = list(world.hands)
    hands[job.seat] = hand
    return Position(Game.NULL, job.seat, hands, twelve & ~hand, leader=0)


def _null_task(solver: Solver, job: BidJob, skat: Mask, worlds: Sequence[World]) -> dict[str, Any]:
    """Null on one skat: hand wins per world, the discard winning most often, the per-world bound."""
    twelve = job.hand | skat
    classes = discard_classes_of(Game.NULL, twelve)
    own = classes[_skat_class(classes, skat)].hand
    record: dict[str, Any] = {"hand": [int(solver.declarer_wins(_null_position(job, own, twelve, w))) for w in worlds]}
    if job.picked_up:
        cls, results = rank_null_discards(solver, job.seat, twelve, worlds)[0]
        wins = sum(bool(r[0]) for r in results)
        record["picked"] = [[0, False, list(cls.discard), None, None, wins]]
        record["optimistic"] = [int(any(solver.declarer_wins(_null_position(job, c.hand, twelve, w)) for c in classes))
                                for w in worlds]
    return record


def handle(solver: Solver, line: int, raw: bytes | str, *, job: BidJob) -> LineOutcome:
    """One task: one game (``Game`` value; null stands for null ouvert too) on one skat's worlds."""
    task = json.loads(raw)
    worlds = [world_from_json(item) for item in task["worlds"]]
    game = Game(task["game"])
    # A fresh table for each task (as odds' tasks): the worker's last task shares few positions, and
    # the node count then depends on the task alone, not on which worker ran what before it.
    solver.clear()
    if game.is_null:
        record = _null_task(solver, job, task["skat"], worlds)
    else:
        record = _points_task(solver, job, game, task["skat"], worlds)
    record["nodes"] = solver.nodes
    return LineOutcome(line, record)
