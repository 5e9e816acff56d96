"""Solving the worlds of single-dummy decisions: units of work, in this process or on worker processes.

Work is cut into :class:`Chunk`\\ s of worlds of one decision.  A chunk's
worlds go to the engine in one call (:func:`skatdd.analysis.worlds.values.card_results_many`);
when the play is weighed (:mod:`skatdd.analysis.inference.api`) the chunk also
multiplies each world's weight by its play likelihood, so that work is
shared by the workers too.  A :class:`WorldRunner` solves chunks in this
process with one solver, or on worker processes with one solver each
(:func:`skatdd.runner.lines.run_lines`; a chunk travels as one line of JSON,
encoded and decoded here, on the runner's side), and a progress callback
sees every finished chunk.  Every number a chunk gives is exact, so it does
not depend on which process or solver computed it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from skatdd.analysis.inference.api import PlayEvidence
from skatdd.analysis.worlds.space import World
from skatdd.analysis.worlds.values import CardResults, WinRule, card_results_many
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.json_text import json_text
from skatdd.runner.lines import OK, LineOutcome, run_lines

__all__ = ["CHUNK", "Chunk", "ChunkResult", "Emit", "Progress", "WorldRunner"]

#: Worlds per unit of work handed to a worker: small enough to share a decision between workers.
CHUNK = 8


class ChunkResult(NamedTuple):
    """What a chunk gives: per world ``{card: (value, wins)}``, the worlds' final weights, and the work done.

    ``weights`` is ``None`` when every world weighs 1 (plain PIMC);
    ``searches`` counts the play model's engine searches.
    """

    decision: int
    results: list[CardResults]
    weights: list[float] | None
    nodes: int
    searches: int = 0


class Chunk(NamedTuple):
    """Worlds of one decision to solve: the position's public state, the win rule and the worlds.

    ``decision`` identifies the decision in the caller's list.  ``weights``
    (``None``: all 1) are the worlds' weights so far (the bidding's);
    ``play``, when given, multiplies each by the world's play likelihood.
    """

    decision: int
    pos: Position
    rule: WinRule
    worlds: tuple[World, ...]
    weights: tuple[float, ...] | None = None
    play: PlayEvidence | None = None

    def solve(self, solver: Solver) -> ChunkResult:
        """Every world's card results (one engine call), then the play likelihoods if asked for."""
        results, nodes = card_results_many(self.pos, self.rule, self.worlds, solver=solver)
        weights = None if self.weights is None else list(self.weights)
        searches = 0
        if self.play is not None:
            weights = weights if weights is not None else [1.0] * len(self.worlds)
            for i, world in enumerate(self.worlds):
                solver.reset_stats()
                likelihood, used = self.play.likelihood(self.pos.game, self.pos.declarer, world, solver=solver)
                weights[i] *= likelihood
                searches += used
                nodes += solver.nodes
        return ChunkResult(self.decision, results, weights, nodes, searches)


# --------------------------------------------------------------------------- the workers' JSON lines


def _chunk_text(chunk: Chunk) -> str:
    """*chunk* as one line of JSON (masks and card ints; weights as floats, which JSON keeps exactly)."""
    p = chunk.pos
    return json_text({
        "decision": chunk.decision,
        "state": [int(p.game), p.declarer, p.leader, p.trick, p.declarer_points, p.declarer_tricks,
                  p.defender_tricks],
        "rule": list(chunk.rule),
        "worlds": [[*w.hands, w.skat] for w in chunk.worlds],
        "weights": None if chunk.weights is None else list(chunk.weights),
        "play": None if chunk.play is None else list(chunk.play),  # tuples are written as JSON arrays
    })


def _chunk_of(text: str) -> Chunk:
    """The chunk :func:`_chunk_text` wrote."""
    obj = json.loads(text)
    game, declarer, leader, trick, points, dtricks, ftricks = obj["state"]
    pos = Position(Game(game), declarer, [0, 0, 0], 0, leader, list(trick), points, dtricks, ftricks)
    worlds = tuple(World((a, b, c), skat) for a, b, c, skat in obj["worlds"])
    weights = None if obj["weights"] is None else tuple(obj["weights"])
    play = None
    if obj["play"] is not None:
        (s_leader, s_trick, s_points, s_dtricks, s_ftricks), played, seats, temperature, max_cards = obj["play"]
        play = PlayEvidence((s_leader, tuple(s_trick), s_points, s_dtricks, s_ftricks),
                            tuple((seat, card) for seat, card in played), tuple(seats), temperature, max_cards)
    return Chunk(obj["decision"], pos, WinRule(*obj["rule"]), worlds, weights, play)


def _chunk_line(solver: Solver, line: int, raw: bytes | str) -> LineOutcome:
    """Worker side of :class:`WorldRunner`: solve one chunk given as JSON text."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    result = _chunk_of(text).solve(solver)
    return LineOutcome(line, {
        "decision": result.decision,
        "results": [[[card, value, wins] for card, (value, wins) in world.items()] for world in result.results],
        "weights": result.weights,
        "nodes": result.nodes,
        "searches": result.searches,
    })


def _result_of(record: dict[str, object]) -> ChunkResult:
    """The chunk result :func:`_chunk_line` sent back."""
    results = [{card: (value, wins) for card, value, wins in world} for world in record["results"]]  # type: ignore[attr-defined]
    weights = record["weights"]
    return ChunkResult(record["decision"], results, None if weights is None else list(weights),  # type: ignore[arg-type, call-overload]
                       record["nodes"], record["searches"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the runner


#: Called after each chunk is solved with ``(worlds solved so far, worlds in all)``.
Progress = Callable[[int, int], None]
#: Called with each chunk's result, in the order of the chunks.
Emit = Callable[[ChunkResult], None]


@dataclass
class WorldRunner:
    """Solves chunks of worlds: in this process with *solver* (``jobs == 1``, or a single chunk), or on *jobs*
    worker processes.

    *solver* (default: a new one) is the solver of this process; each
    worker builds one like it (a :class:`~skatdd.engine.solve.Solver`
    pickles as its table bound) and keeps it for every chunk it gets;
    chunks come back in order.  ``nodes`` adds up every chunk's nodes.
    Ctrl-C stops the workers and re-raises :class:`KeyboardInterrupt`.
    """

    jobs: int = 1
    solver: Solver | None = None
    progress: Progress | None = None
    nodes: int = 0

    def local_solver(self) -> Solver:
        """The solver of this process (made on first use)."""
        self.solver = solver_or_default(self.solver)
        return self.solver

    def run(self, chunks: Iterable[Chunk], *, worlds: int, tasks: int, emit: Emit, local: bool = False) -> None:
        """Solve every chunk and call ``emit(result)`` for each, in order.

        *chunks* is read as the solvers need more (it may draw its worlds
        lazily); *worlds* and *tasks* are how many worlds and chunks it
        holds (for the progress callback, and to work in this process when
        there is one chunk).  *local*: the caller knows the work is smaller
        than starting worker processes costs, so it is done in this process.
        """
        done = 0
        jobs = 1 if local else min(self.jobs, tasks)
        if jobs == 0:
            return

        def take(result: ChunkResult) -> None:
            nonlocal done
            self.nodes += result.nodes
            done += len(result.results)
            emit(result)
            if self.progress is not None:
                self.progress(done, worlds)

        if jobs == 1:
            solver = self.local_solver()
            for chunk in chunks:
                take(chunk.solve(solver))
            return

        def collect(outcome: LineOutcome) -> None:
            if outcome.kind != OK:
                raise RuntimeError(f"a worker failed on a chunk of worlds: {outcome.record.get('error')}")
            take(_result_of(outcome.record))

        items = ((i + 1, _chunk_text(chunk)) for i, chunk in enumerate(chunks))
        run_lines(items, handler=_chunk_line, jobs=jobs, solver=self.local_solver(), emit=collect)
