"""Single-dummy advice: every legal card judged over the worlds its player cannot tell apart.

Double-dummy analysis sees every card; a player at the table does not.  For
the player to move this module takes his *view* (:func:`mover_view`): his own
cards, every card played and by whom with the voids that shows (jacks are
trumps in suit and grand), the skat or discard only when he is a declarer who
picked it up (in a hand game nobody knows it), and in an ouvert game the
declarer's open hand.  Every *world* consistent with the view counts the same
(:mod:`skatdd.analysis.worlds`): no inference from the bidding or from how the cards
were chosen, only from what the rules force.

For each legal card and each world the engine gives the exact double-dummy
result after that card (:meth:`skatdd.engine.solve.Solver.card_values`); over the
evaluated worlds a card gets

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
which solver computed it).  More than :data:`~skatdd.analysis.worlds.MAX_WORLDS`
worlds for one decision are refused.

Work is cut into :class:`Chunk`\\ s of worlds of one decision; a
:class:`WorldRunner` solves them in this process with one solver, or on
worker processes with one solver each (:func:`skatdd.runner.lines.run_lines`), and
a progress callback sees every finished chunk.  :func:`advise` answers one
position, :func:`single_dummy_game` every card of a played game (the view of
each card's player at that moment).

What these numbers cannot say: averaging double-dummy results assumes that,
once the card is played, everyone plays as if he saw every card.  That is
optimistic for whichever side must still guess (the "strategy fusion" of
perfect-information Monte Carlo), and equal weights ignore what the bidding
and the earlier play suggest about the hidden cards.
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple

from skatdd.core.cards import Card, card_name, display_sorted
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, WIN_POINTS, Game
from skatdd.core.scoring import Declaration
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver
from skatdd.formats.json_text import json_text
from skatdd.runner.lines import OK, LineOutcome, run_lines

from .worlds import View, World, WorldDraw, view_of

if TYPE_CHECKING:
    from .analyse import GameAnalysis

__all__ = [
    "CHUNK",
    "DEFAULT_SEED",
    "DEFAULT_WORLDS",
    "Advice",
    "CardAdvice",
    "Chunk",
    "SingleDummyGame",
    "SingleDummyPlay",
    "WinRule",
    "WorldRunner",
    "advise",
    "best_cards",
    "card_results",
    "judge_analysis",
    "mover_view",
    "single_dummy_game",
    "world_position",
]

DEFAULT_WORLDS = 200
DEFAULT_SEED = 1
#: Worlds per unit of work handed to a worker: small enough to share a decision between workers.
CHUNK = 8

#: One world's double-dummy results: ``{card: (declarer's final card points or None in null, declarer wins)}``.
CardResults = dict[Card, tuple[int | None, bool]]


# --------------------------------------------------------------------------- what winning means


class WinRule(NamedTuple):
    """How the declarer wins double-dummy: ``kind`` ``'null'``, ``'points'`` (with ``points``) or ``'schwarz'``."""

    kind: str
    points: int = WIN_POINTS

    @classmethod
    def of(cls, declaration: Declaration) -> WinRule:
        """The declared game's winning level: no trick (null), every trick (schwarz announced), 90 or 61."""
        if declaration.game.is_null:
            return cls("null", 0)
        if declaration.schwarz:
            return cls("schwarz", 120)
        return cls("points", SCHNEIDER_POINTS if declaration.schneider else WIN_POINTS)


def card_results(solver: Solver, pos: Position, rule: WinRule) -> CardResults:
    """``{card: (value, declarer wins)}`` for every legal card of *pos*, double-dummy.

    ``value`` is the declarer's final card points after the card (``None`` in
    null); the win follows *rule*.  Under schwarz announced the declarer wins
    only with every trick, which needs 120 points, so the trick question is
    asked only for cards worth 120.
    """
    values = solver.card_values(pos)
    if rule.kind == "null":
        return {card: (None, cv.declarer_wins) for card, cv in values.items()}
    out: CardResults = {}
    for card, cv in values.items():
        value = cv.value
        assert value is not None
        if rule.kind == "schwarz":
            wins = False
            if value == 120:
                pos.play(card)
                wins = solver.declarer_takes_all(pos)
                pos.undo()
        else:
            wins = value >= rule.points
        out[card] = (value, wins)
    return out


# --------------------------------------------------------------------------- views and worlds


def mover_view(pos: Position, declaration: Declaration) -> View:
    """What the player to move in *pos* knows (module docstring); *declaration* says hand and ouvert."""
    seat = pos.to_move
    knows_skat = seat == pos.declarer and not declaration.hand
    open_seats = (pos.declarer,) if declaration.ouvert and seat != pos.declarer else ()
    return view_of(pos, seat, knows_skat=knows_skat, open_seats=open_seats)


def world_position(pos: Position, world: World) -> Position:
    """*pos* with the hands and skat of *world* (no history: the engine needs none)."""
    return Position(
        pos.game, pos.declarer, list(world.hands), world.skat, pos.leader, list(pos.trick),
        pos.declarer_points, pos.declarer_tricks, pos.defender_tricks,
    )


# --------------------------------------------------------------------------- units of work


class Chunk(NamedTuple):
    """Worlds of one decision to solve: the position's public state, the win rule and the worlds.

    ``decision`` identifies the decision in the caller's list.  Chunks
    travel to worker processes as JSON (:meth:`to_text`, :meth:`from_text`).
    """

    decision: int
    pos: Position
    rule: WinRule
    worlds: tuple[World, ...]

    def to_text(self) -> str:
        """The chunk as one line of JSON (masks and card ints)."""
        p = self.pos
        return json_text({
            "decision": self.decision,
            "state": [int(p.game), p.declarer, p.leader, p.trick, p.declarer_points, p.declarer_tricks,
                      p.defender_tricks],
            "rule": list(self.rule),
            "worlds": [[*w.hands, w.skat] for w in self.worlds],
        })

    @classmethod
    def from_text(cls, text: str) -> Chunk:
        """The chunk :meth:`to_text` wrote."""
        obj = json.loads(text)
        game, declarer, leader, trick, points, dtricks, ftricks = obj["state"]
        pos = Position(Game(game), declarer, [0, 0, 0], 0, leader, list(trick), points, dtricks, ftricks)
        worlds = tuple(World((a, b, c), skat) for a, b, c, skat in obj["worlds"])
        return cls(obj["decision"], pos, WinRule(*obj["rule"]), worlds)

    def solve(self, solver: Solver) -> tuple[list[CardResults], int]:
        """Every world's :func:`card_results`, in order, and the nodes searched.

        The table is emptied before each world: the worlds are unrelated
        deals, and a table that stays small stays in cache (measured on the
        first trick of six fixture games, 40 worlds each: 12-15% less CPU
        time than keeping the entries).
        """
        results = []
        nodes = 0
        for world in self.worlds:
            solver.clear()
            results.append(card_results(solver, world_position(self.pos, world), self.rule))
            nodes += solver.nodes
        return results, nodes


def _chunk_line(solver: Solver, line: int, raw: bytes | str) -> LineOutcome:
    """Worker side of :class:`WorldRunner`: solve one chunk given as JSON text."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    chunk = Chunk.from_text(text)
    results, nodes = chunk.solve(solver)
    return LineOutcome(line, {
        "decision": chunk.decision,
        "results": [[[card, value, wins] for card, (value, wins) in world.items()] for world in results],
        "nodes": nodes,
    })


#: Called after each chunk is solved with ``(worlds solved so far, worlds in all)``.
Progress = Callable[[int, int], None]


@dataclass
class WorldRunner:
    """Solves chunks of worlds: in this process with *solver* (``jobs == 1``, or a single chunk), or on *jobs*
    worker processes.

    Workers each build one :class:`~skatdd.engine.solve.Solver` of *tt_mb* MiB and
    keep it for every chunk they get; chunks come back in order.  Ctrl-C
    stops the workers and re-raises :class:`KeyboardInterrupt`.
    """

    jobs: int = 1
    tt_mb: int = 128
    solver: Solver | None = None
    progress: Progress | None = None
    nodes: int = 0

    def run(self, chunks: Iterable[Chunk], *, worlds: int, tasks: int,
            emit: Callable[[int, list[CardResults]], None]) -> None:
        """Solve every chunk and call ``emit(decision, results)`` for each, in order: per world ``{card: (value, wins)}``.

        *chunks* is read as the solvers need more (it may draw its worlds
        lazily); *worlds* and *tasks* are how many worlds and chunks it
        holds (for the progress callback, and to work in this process when
        there is one chunk).
        """
        done = 0
        jobs = min(self.jobs, tasks)
        if jobs == 0:
            return
        if jobs == 1:
            solver = self.solver if self.solver is not None else Solver(tt_mb=self.tt_mb)
            self.solver = solver
            for chunk in chunks:
                results, nodes = chunk.solve(solver)
                self.nodes += nodes
                done += len(chunk.worlds)
                emit(chunk.decision, results)
                if self.progress is not None:
                    self.progress(done, worlds)
            return

        def collect(outcome: LineOutcome) -> None:
            nonlocal done
            if outcome.kind != OK:
                raise RuntimeError(f"a worker failed on a chunk of worlds: {outcome.record.get('error')}")
            rec = outcome.record
            self.nodes += rec["nodes"]
            done += len(rec["results"])
            emit(rec["decision"], [{card: (value, wins) for card, value, wins in world} for world in rec["results"]])
            if self.progress is not None:
                self.progress(done, worlds)

        items = ((i + 1, chunk.to_text()) for i, chunk in enumerate(chunks))
        run_lines(items, handler=_chunk_line, jobs=jobs, tt_mb=self.tt_mb, emit=collect)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CardAdvice:
    """One legal card over the evaluated worlds.

    ``wins``: worlds in which the declarer wins after the card; ``points``:
    the declarer's final card points summed over the worlds (``None`` in
    null); ``evaluated``: how many worlds.  ``win`` and ``mean_value`` are
    the fraction and the mean.
    """

    card: Card
    wins: int
    points: int | None
    evaluated: int

    @property
    def win(self) -> float:
        """The fraction of evaluated worlds the declarer wins after the card."""
        return self.wins / self.evaluated

    @property
    def mean_value(self) -> float | None:
        """The declarer's mean final card points after the card (``None`` in null)."""
        return None if self.points is None else self.points / self.evaluated

    def key(self) -> tuple[int, int]:
        """What the declarer maximises and the defenders minimise: wins, then points."""
        return self.wins, self.points or 0

    def to_json(self) -> dict[str, Any]:
        """``{card, win, mean_value}``."""
        return {"card": card_name(self.card), "win": self.win, "mean_value": self.mean_value}


class _CardTally:
    """Per legal card, the wins and points summed over the worlds solved so far (no world's result is kept)."""

    def __init__(self) -> None:
        self.wins: dict[Card, int] = {}
        self.points: dict[Card, int] = {}
        self.evaluated = 0

    def add(self, results: Iterable[CardResults]) -> None:
        """Count each world of *results*."""
        for world in results:
            self.evaluated += 1
            for card, (value, won) in world.items():
                self.wins[card] = self.wins.get(card, 0) + won
                self.points[card] = self.points.get(card, 0) + (value or 0)

    def cards(self, pos: Position) -> list[CardAdvice]:
        """One :class:`CardAdvice` per legal card of *pos*, in display order."""
        null = pos.game.is_null
        return [CardAdvice(card, self.wins[card], None if null else self.points[card], self.evaluated)
                for card in display_sorted(self.wins)]


def best_cards(cards: Sequence[CardAdvice], declarer_moves: bool) -> list[Card]:
    """The cards best for the mover's side: the declarer maximises (wins, points), a defender minimises them."""
    keys = [c.key() for c in cards]
    target = max(keys) if declarer_moves else min(keys)
    return [c.card for c, key in zip(cards, keys, strict=True) if key == target]


@dataclass
class Advice:
    """What :func:`advise` finds for the player to move (see :meth:`to_json`)."""

    seat: int
    declarer: int
    worlds: int
    evaluated: int
    exact: bool
    cards: list[CardAdvice]
    best: list[Card]
    seed: int
    view: View
    nodes: int = 0
    seconds: float = 0.0

    def card(self, card: Card) -> CardAdvice:
        """The advice on *card* (a legal card)."""
        for advice in self.cards:
            if advice.card == card:
                return advice
        raise KeyError(card_name(card))

    def to_json(self) -> dict[str, Any]:
        """``seat, worlds, evaluated, exact, cards, best`` (docs/cli.md), plus ``declarer, seed, nodes, seconds``."""
        return {
            "seat": self.seat,
            "declarer": self.declarer,
            "worlds": self.worlds,
            "evaluated": self.evaluated,
            "exact": self.exact,
            "seed": self.seed,
            "cards": [c.to_json() for c in self.cards],
            "best": [card_name(c) for c in self.best],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class _Decision(NamedTuple):
    """One decision to judge: its public state, the mover's view, its worlds (drawn lazily) and its win rule."""

    decision: int
    public: Position  # who moves, the trick and the score; no hands
    view: View
    draw: WorldDraw
    rule: WinRule

    @property
    def worlds(self) -> int:
        """Consistent worlds, counted exactly."""
        return self.draw.consistent

    @property
    def exact(self) -> bool:
        """All of them are solved."""
        return self.draw.exact

    @property
    def tasks(self) -> int:
        """How many chunks :meth:`chunks` yields."""
        return -(-self.draw.count // CHUNK)

    def chunks(self) -> Iterator[Chunk]:
        """The worlds in chunks of :data:`CHUNK`, each drawn when the chunk is asked for."""
        for worlds in self.draw.chunks(CHUNK):
            yield Chunk(self.decision, self.public, self.rule, tuple(worlds))


def _plan(pos: Position, declaration: Declaration, n: int, rng: random.Random, decision: int) -> _Decision:
    """The worlds of the mover's view in *pos*: at most *n*, drawn from *rng* as the chunks are taken.

    Raises :class:`~skatdd.analysis.worlds.WorldCountError` when more than
    :data:`~skatdd.analysis.worlds.MAX_WORLDS` would be solved.
    """
    view = mover_view(pos, declaration)
    draw = WorldDraw(view, n, rng)
    return _Decision(decision, world_position(pos, World((0, 0, 0), 0)), view, draw, WinRule.of(declaration))


def advise(pos: Position, declaration: Declaration, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
           runner: WorldRunner | None = None) -> Advice:
    """Single-dummy values of every legal card of the player to move in *pos* (module docstring).

    *pos* is the full deal in play (its ``history`` gives the voids);
    only what the mover can see is used.  *declaration* gives the winning
    level and who knows the skat (hand) or sees the declarer's hand
    (ouvert).  At most *worlds* worlds are solved, drawn with
    ``generator(seed)`` (:mod:`skatdd.core.seeds`).  *runner* (default: one solver in this process)
    does the solving.

    Raises :class:`~skatdd.core.errors.DealFormatError` for *worlds* < 1 or a
    position in which the game is over.
    """
    started = time.perf_counter()
    if pos.is_over():
        raise DealFormatError("the game is over in this position: no card is left to choose")
    runner = runner if runner is not None else WorldRunner()
    plan = _plan(pos, declaration, worlds, generator(seed), 0)
    nodes = runner.nodes
    tally = _CardTally()
    runner.run(plan.chunks(), worlds=plan.draw.count, tasks=plan.tasks, emit=lambda _, results: tally.add(results))
    cards = tally.cards(pos)
    mover_declares = pos.to_move == pos.declarer
    return Advice(
        seat=pos.to_move, declarer=pos.declarer, worlds=plan.worlds, evaluated=tally.evaluated, exact=plan.exact,
        cards=cards, best=best_cards(cards, mover_declares), seed=seed, view=plan.view,
        nodes=runner.nodes - nodes, seconds=time.perf_counter() - started,
    )


# --------------------------------------------------------------------------- a whole game


@dataclass(frozen=True)
class SingleDummyPlay:
    """One card of a game judged from its player's view at that moment.

    ``win`` / ``mean_value``: the played card's numbers; ``best``: the
    single-dummy best cards; ``cost_win``: how far the card's win fraction
    fell short of the best card's, in percentage points (>= 0);
    ``cost_points``: how far its mean fell short of the best card's mean
    (>= 0; 0 in null, and 0 when the card's mean is better for its side
    than the best card's, which then has a better win fraction).
    """

    index: int
    seat: int
    card: Card
    win: float
    mean_value: float | None
    best: tuple[Card, ...]
    cost_win: float
    cost_points: float
    worlds: int
    evaluated: int
    exact: bool

    @property
    def mistake(self) -> bool:
        """The card lowered its side's win fraction against the single-dummy best."""
        return self.cost_win > 0

    def to_json(self) -> dict[str, Any]:
        """The ``sd_*`` fields of an ``analyse`` play."""
        return {
            "sd_win": self.win,
            "sd_mean_value": self.mean_value,
            "sd_best": [card_name(c) for c in self.best],
            "sd_cost": {"win": round(self.cost_win, 4), "points": round(self.cost_points, 4)},
            "sd_worlds": self.worlds,
            "sd_evaluated": self.evaluated,
            "sd_exact": self.exact,
        }


@dataclass
class SingleDummyGame:
    """Every card of a game judged single-dummy: ``plays[i]`` for card *i*, then the summary."""

    plays: list[SingleDummyPlay]
    worlds: int
    seed: int
    nodes: int = 0
    seconds: float = 0.0

    @property
    def costs(self) -> list[float]:
        """Per seat, the summed win shortfalls (percentage points)."""
        costs = [0.0, 0.0, 0.0]
        for play in self.plays:
            costs[play.seat] += play.cost_win
        return [round(c, 4) for c in costs]

    @property
    def first_mistake(self) -> int | None:
        """Index of the first card with a win shortfall, or ``None``."""
        return next((p.index for p in self.plays if p.mistake), None)

    def add_to(self, analysis: dict[str, Any]) -> None:
        """Add the ``sd_*`` fields to an ``analyse`` JSON object: to each play, and to its summary.

        The summary gets ``sd_costs`` and ``sd_first_mistake`` (docs/cli.md)
        and ``sd_worlds``, ``sd_seed``; ``nodes`` and ``seconds`` come to
        include the single-dummy work.
        """
        for play, record in zip(self.plays, analysis["plays"], strict=True):
            record.update(play.to_json())
        analysis["summary"].update({
            "sd_costs": self.costs, "sd_first_mistake": self.first_mistake, "sd_worlds": self.worlds,
            "sd_seed": self.seed,
        })
        analysis["nodes"] += self.nodes
        analysis["seconds"] = round(analysis["seconds"] + self.seconds, 6)


def _judge(index: int, pos: Position, card: Card, cards: list[CardAdvice], worlds: int, exact: bool) -> SingleDummyPlay:
    mover_declares = pos.to_move == pos.declarer
    best = best_cards(cards, mover_declares)
    top = next(c for c in cards if c.card == best[0])
    mine = next(c for c in cards if c.card == card)
    sign = 1 if mover_declares else -1
    cost_win = max(0.0, sign * (top.win - mine.win) * 100)
    cost_points = 0.0
    if top.mean_value is not None and mine.mean_value is not None:
        cost_points = max(0.0, sign * (top.mean_value - mine.mean_value))
    return SingleDummyPlay(
        index=index, seat=pos.to_move, card=card, win=mine.win, mean_value=mine.mean_value, best=tuple(best),
        cost_win=cost_win, cost_points=cost_points, worlds=worlds, evaluated=mine.evaluated, exact=exact,
    )


def single_dummy_game(start: Position, cards: Sequence[Card], declaration: Declaration, *,
                      worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                      runner: WorldRunner | None = None) -> SingleDummyGame:
    """Judge every card of *cards*, played in order from *start*, from its player's view at that moment.

    For card *i* the worlds are those consistent with what its player saw
    before playing it (:func:`mover_view`); at most *worlds* are solved per
    card, drawn in card order from one ``generator(seed)`` (:mod:`skatdd.core.seeds`):
    in this process, a chunk at a time as *runner* asks for them, each
    decision's after the one before, so *runner*'s number of jobs cannot
    change the numbers.  Every decision's count is checked before any world
    is solved (:class:`~skatdd.analysis.worlds.WorldCountError`).  *cards* must be
    legal in turn (:class:`~skatdd.core.errors.IllegalPlayError` otherwise).
    """
    started = time.perf_counter()
    runner = runner if runner is not None else WorldRunner()
    rng = generator(seed)
    pos = start.copy()
    plans: list[_Decision] = []
    for index, card in enumerate(cards):
        plans.append(_plan(pos, declaration, worlds, rng, index))
        pos.play(card)
    nodes = runner.nodes
    tallies = [_CardTally() for _ in plans]
    # Decision by decision: each one's worlds are drawn from rng after the previous one's, as they always were.
    chunks = chain.from_iterable(plan.chunks() for plan in plans)
    runner.run(chunks, worlds=sum(plan.draw.count for plan in plans), tasks=sum(plan.tasks for plan in plans),
               emit=lambda decision, results: tallies[decision].add(results))
    plays = []
    for index, (card, plan) in enumerate(zip(cards, plans, strict=True)):
        advice = tallies[index].cards(plan.public)
        plays.append(_judge(index, plan.public, card, advice, plan.worlds, plan.exact))
    return SingleDummyGame(plays=plays, worlds=worlds, seed=seed, nodes=runner.nodes - nodes,
                           seconds=time.perf_counter() - started)


def judge_analysis(analysis: GameAnalysis, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                   runner: WorldRunner | None = None) -> GameAnalysis:
    """Set ``analysis.single_dummy`` to :func:`single_dummy_game` of its cards and return *analysis*."""
    analysis.single_dummy = single_dummy_game(
        analysis.start, [play.card for play in analysis.plays], analysis.declaration,
        worlds=worlds, seed=seed, runner=runner,
    )
    return analysis
