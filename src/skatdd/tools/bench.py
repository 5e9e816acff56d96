"""Timing the engine on realistic deals: the logic behind ``skatdd bench`` and ``benchmarks/``.

:func:`run_bench` generates *deals* realistic deals with
:func:`skatdd.tools.generate.realistic_deals` (same seed, same deals) and, with
ONE :class:`~skatdd.engine.solve.Solver` for the whole run, single-threaded:

1. times the exact value of each full deal: :meth:`Solver.value` for suit
   and grand, :meth:`Solver.declarer_wins` for null;
2. times the values of all first cards (:meth:`Solver.card_values`) of the
   same deal, to compare with one solve;
3. times the win-only questions of suit and grand deals on their own
   (:data:`QUERIES`: ``reaches`` 61, 90 and 31 and the schwarz question
   :meth:`Solver.declarer_takes_all`), each from an empty table, to compare
   with the exact value.

With *close* the deals are :func:`close_deals`: realistic suit and grand
deals whose double-dummy value lies within :data:`CLOSE_MARGIN` points of
61, the games a few points decide (the selecting solve is not timed).

The transposition table is cleared (untimed) before every timed query, so
each figure is a cold solve of one deal: independent of the order of the
deals and of what was solved before.  The node count of a query is then a
function of the deal, the engine and the table size only; their sum over a
seeded deal set is the engine's fingerprint (same seed, same nodes), the
way Stockfish's ``bench`` pins its search.

Times are wall-clock (``time.perf_counter``); the process CPU time
(``time.process_time``) is reported beside them, since a shared, loaded
machine stretches the wall clock but not the CPU time of a single-threaded
solve.

Percentiles use the nearest-rank method: p90 of n times is the
``ceil(0.9 n)``-th smallest.
"""
from __future__ import annotations

import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, WIN_POINTS, Game
from skatdd.core.seeds import DEFAULT_SEED, generator
from skatdd.engine.solve import Solver, solver_or_default

__all__ = [
    "CLOSE_MARGIN",
    "DEFAULT_DEALS",
    "DEFAULT_SEED",
    "QUERIES",
    "BenchReport",
    "DealTiming",
    "GameStats",
    "close_deals",
    "machine_info",
    "percentile",
    "run_bench",
    "time_card_values",
    "time_query",
    "time_solve",
]

DEFAULT_DEALS = 100
#: A close game: the declarer's double-dummy value lies in 61 +- CLOSE_MARGIN.
CLOSE_MARGIN = 5
#: Redeals allowed per close deal asked for before close_deals() gives up.
CLOSE_ATTEMPTS = 200
#: The win-only questions timed beside the exact value: label -> query.
QUERIES: dict[str, Callable[[Solver, Position], bool]] = {
    "reaches 61": lambda solver, pos: solver.reaches(pos, 61),
    "reaches 90": lambda solver, pos: solver.reaches(pos, 90),
    "reaches 31": lambda solver, pos: solver.reaches(pos, 31),
    "schwarz": lambda solver, pos: solver.declarer_takes_all(pos),
}


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile: the ``ceil(q/100 * n)``-th smallest of *values* (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class DealTiming:
    """One deal's measurements.  ``value`` is ``None`` in null; times in seconds."""

    index: int
    game: Game
    declarer: int
    value: int | None
    declarer_wins: bool
    seconds: float
    nodes: int
    cpu_seconds: float = 0.0
    card_values_seconds: float | None = None
    card_values_nodes: int | None = None
    card_values_cpu_seconds: float | None = None
    #: :data:`QUERIES` label -> (seconds, nodes); empty for null deals or when not measured.
    queries: dict[str, tuple[float, int]] = field(default_factory=dict)


@dataclass
class GameStats:
    """Summary of the solve times of a group of deals (all, or one contract)."""

    deals: int
    total_seconds: float
    median: float
    p90: float
    max: float
    nodes: int

    @classmethod
    def of(cls, timings: Sequence[DealTiming], *, cpu: bool = False) -> GameStats:
        """Stats of *timings* by wall-clock time, or by process CPU time with *cpu*."""
        times = [t.cpu_seconds if cpu else t.seconds for t in timings]
        return cls(
            deals=len(times), total_seconds=sum(times),
            median=statistics.median(times) if times else 0.0,
            p90=percentile(times, 90), max=max(times, default=0.0),
            nodes=sum(t.nodes for t in timings),
        )

    @property
    def solves_per_second(self) -> float:
        return self.deals / self.total_seconds if self.total_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "solves_per_second": round(self.solves_per_second, 2),
            "median_ms": round(self.median * 1e3, 3),
            "p90_ms": round(self.p90 * 1e3, 3),
            "max_ms": round(self.max * 1e3, 3),
            "total_seconds": round(self.total_seconds, 4),
            "nodes": self.nodes,
        }


def machine_info() -> dict[str, Any]:
    """What the figures were measured on: CPU model and count, Python, platform."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for row in fh:
                if row.startswith("model name"):
                    cpu = row.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}


@dataclass
class BenchReport:
    """Everything ``skatdd bench`` prints (:meth:`lines`) or emits as JSON (:meth:`to_json`)."""

    deals: int
    seed: int
    game: Game | None
    tt_mb: int
    timings: list[DealTiming]
    generate_seconds: float = 0.0
    close: bool = False
    machine: dict[str, Any] = field(default_factory=machine_info)

    @property
    def overall(self) -> GameStats:
        return GameStats.of(self.timings)

    @property
    def overall_cpu(self) -> GameStats:
        """As :attr:`overall`, by CPU time: what the solves cost when the machine is shared and loaded."""
        return GameStats.of(self.timings, cpu=True)

    def per_game(self) -> dict[Game, GameStats]:
        """Stats per contract present, in the order grand, clubs, spades, hearts, diamonds, null."""
        out = {}
        for g in ALL_GAMES:
            group = [t for t in self.timings if t.game == g]
            if group:
                out[g] = GameStats.of(group)
        return out

    def card_values_summary(self) -> dict[str, Any] | None:
        """All-first-card times against one solve: total ratio, median and max per-deal ratio."""
        measured = [t for t in self.timings if t.card_values_seconds is not None]
        if not measured:
            return None
        cv = [t.card_values_seconds or 0.0 for t in measured]
        solve_total = sum(t.seconds for t in measured)
        ratios = [c / t.seconds for c, t in zip(cv, measured, strict=True) if t.seconds > 0]
        cv_cpu = sum(t.card_values_cpu_seconds or 0.0 for t in measured)
        solve_cpu = sum(t.cpu_seconds for t in measured)
        return {
            "total_seconds": round(sum(cv), 4),
            "median_ms": round(statistics.median(cv) * 1e3, 3),
            "p90_ms": round(percentile(cv, 90) * 1e3, 3),
            "nodes": sum(t.card_values_nodes or 0 for t in measured),
            "ratio_total": round(sum(cv) / solve_total, 3) if solve_total > 0 else None,
            "ratio_median": round(statistics.median(ratios), 3) if ratios else None,
            "ratio_max": round(max(ratios), 3) if ratios else None,
            "ratio_total_cpu": round(cv_cpu / solve_cpu, 3) if solve_cpu > 0 else None,
        }

    def queries_summary(self) -> dict[str, dict[str, Any]]:
        """Per win-only question: median, p90, nodes, and cost relative to the exact value of the same deals."""
        out = {}
        for label in QUERIES:
            measured = [t for t in self.timings if label in t.queries]
            if not measured:
                continue
            times = [t.queries[label][0] for t in measured]
            exact_total = sum(t.seconds for t in measured)
            ratios = [t.seconds / t.queries[label][0] for t in measured if t.queries[label][0] > 0]
            out[label] = {
                "deals": len(measured),
                "median_ms": round(statistics.median(times) * 1e3, 3),
                "p90_ms": round(percentile(times, 90) * 1e3, 3),
                "max_ms": round(max(times) * 1e3, 3),
                "nodes": sum(t.queries[label][1] for t in measured),
                "cheaper_total": round(exact_total / sum(times), 2) if sum(times) > 0 else None,
                "cheaper_median": round(statistics.median(ratios), 2) if ratios else None,
            }
        return out

    def to_json(self) -> dict[str, Any]:
        overall = self.overall
        return {
            "deals": self.deals,
            "seed": self.seed,
            "game": self.game.label if self.game is not None else None,
            "close": self.close,
            "tt_mb": self.tt_mb,
            **overall.to_json(),
            "cpu": self.overall_cpu.to_json(),
            "per_game": {g.label: s.to_json() for g, s in self.per_game().items()},
            "card_values": self.card_values_summary(),
            "queries": self.queries_summary(),
            "generate_seconds": round(self.generate_seconds, 3),
            "machine": self.machine,
        }

    def lines(self) -> list[str]:
        """The readable report, one string per line."""
        o, c = self.overall, self.overall_cpu
        which = "realistic deals" if self.game is None else f"realistic {self.game.label} deals"
        if self.close:
            which = f"close {which} (value 61 +- {CLOSE_MARGIN})"
        out = [
            f"skatdd bench: {self.deals} {which}, seed {self.seed}, one solver, "
            f"transposition table {self.tt_mb} MiB, single-threaded",
            f"machine: {self.machine.get('cpu')}, {self.machine.get('cpus')} cores, "
            f"Python {self.machine.get('python')}",
            "exact value of each full deal (null: win or loss), cold table:",
            f"  solves/s {o.solves_per_second:>9.1f}   median {o.median * 1e3:8.2f} ms   "
            f"p90 {o.p90 * 1e3:8.2f} ms   max {o.max * 1e3:8.2f} ms",
            f"  total {o.total_seconds:.3f} s, nodes {o.nodes:,} (fingerprint)",
            f"  CPU time: median {c.median * 1e3:.2f} ms   p90 {c.p90 * 1e3:.2f} ms   max {c.max * 1e3:.2f} ms   "
            f"total {c.total_seconds:.3f} s" + ("   (wall clock > CPU: the machine is busy)"
                                               if o.total_seconds > 1.2 * c.total_seconds else ""),
            "",
            f"  {'game':<9}{'deals':>6}{'median ms':>12}{'p90 ms':>11}{'max ms':>11}{'nodes':>15}",
        ]
        for g, s in self.per_game().items():
            out.append(
                f"  {g.label:<9}{s.deals:>6}{s.median * 1e3:>12.2f}{s.p90 * 1e3:>11.2f}{s.max * 1e3:>11.2f}"
                f"{s.nodes:>15,}"
            )
        cv = self.card_values_summary()
        if cv is not None:
            out.append("")
            out.append("values of all first cards (Solver.card_values), cold table:")
            out.append(
                f"  median {cv['median_ms']:.2f} ms   p90 {cv['p90_ms']:.2f} ms   total {cv['total_seconds']:.3f} s"
                f"   nodes {cv['nodes']:,}"
            )
            out.append(
                f"  relative to one solve: {cv['ratio_total']}x in total, "
                f"{cv['ratio_median']}x median per deal, {cv['ratio_max']}x at most"
            )
        queries = self.queries_summary()
        if queries:
            out.append("")
            out.append("win-only questions (suit and grand), cold table; 'cheaper' = exact value time / question time:")
            for label, q in queries.items():
                out.append(
                    f"  {label:<11} median {q['median_ms']:8.2f} ms   p90 {q['p90_ms']:8.2f} ms   "
                    f"nodes {q['nodes']:>13,}   cheaper {q['cheaper_total']}x in total, "
                    f"{q['cheaper_median']}x median per deal"
                )
        return out


def time_solve(pos: Position, *, solver: Solver | None = None, clear: bool = True) -> tuple[float, float, int, int | None, bool]:
    """Time one exact solve of *pos*: ``(seconds, cpu_seconds, nodes, value, declarer_wins)``.

    Suit and grand: :meth:`Solver.value`; null: :meth:`Solver.declarer_wins`.
    *solver* (default: a fresh one) is timed; with *clear* its
    transposition table is emptied first (not timed).
    """
    solver = solver_or_default(solver)
    if clear:
        solver.clear()
    solver.reset_stats()
    start, cpu = time.perf_counter(), time.process_time()
    if pos.game.is_null:
        value = None
        wins = solver.declarer_wins(pos)
    else:
        value = solver.value(pos)
        wins = None
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    nodes = solver.nodes
    if value is not None:
        wins = value >= WIN_POINTS
    return seconds, cpu, nodes, value, bool(wins)


def time_query(pos: Position, query: Callable[[Solver, Position], object], *, solver: Solver | None = None,
               clear: bool = True) -> tuple[float, float, int]:
    """Time ``query(solver, pos)``: ``(seconds, cpu_seconds, nodes)``; with *clear* from an empty table (not timed).

    *solver* defaults to a fresh one.
    """
    solver = solver_or_default(solver)
    if clear:
        solver.clear()
    solver.reset_stats()
    start, cpu = time.perf_counter(), time.process_time()
    query(solver, pos)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu, solver.nodes


def time_card_values(pos: Position, *, solver: Solver | None = None, clear: bool = True) -> tuple[float, float, int]:
    """Time :meth:`Solver.card_values` of *pos* (exact values; null: win or loss): ``(seconds, cpu_seconds, nodes)``."""
    return time_query(pos, lambda sv, p: sv.card_values(p), solver=solver, clear=clear)


def close_deals(seed: int, n: int, *, game: Game | None = None, margin: int = CLOSE_MARGIN,
                solver: Solver | None = None) -> list[Position]:
    """The first *n* realistic deals of *seed* whose double-dummy value lies in ``61 +- margin``.

    Deals come from one :func:`skatdd.core.seeds.generator` of *seed* as in
    :func:`skatdd.tools.generate.realistic_deals` (null deals, which have no
    point value, are skipped); each is solved (with *solver*, or a new
    one) to select it, so the same seed gives the same list.  *game* forces
    the contract.  Raises ``ValueError`` for null, ``n < 1``, a negative
    margin, or when ``CLOSE_ATTEMPTS * n`` deals do not hold *n* close ones.
    """
    from .generate import realistic_deal  # imported here: generation is only needed without positions

    if game is not None and game.is_null:
        raise ValueError("close games are decided by points: there are none in null")
    if n < 1 or margin < 0:
        raise ValueError(f"need n >= 1 and margin >= 0, got n={n}, margin={margin}")
    rng = generator(seed)
    solver = solver if solver is not None else Solver()
    out: list[Position] = []
    for _ in range(CLOSE_ATTEMPTS * n):
        pos = realistic_deal(rng, game=game)[0]
        if pos.game.is_null:
            continue
        solver.clear()
        value = solver.value(pos)
        if value is not None and abs(value - 61) <= margin:
            out.append(pos)
            if len(out) == n:
                return out
    raise ValueError(f"only {len(out)} of {CLOSE_ATTEMPTS * n} deals of seed {seed} lie within {margin} of 61")


def run_bench(*, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, game: Game | None = None,
              card_values: bool = True, queries: bool = True, close: bool = False,
              positions: Sequence[Position] | None = None, solver: Solver | None = None,
              progress: Callable[[int, DealTiming], None] | None = None) -> BenchReport:
    """Run the benchmark and return its :class:`BenchReport` (see the module docstring).

    *queries* times the win-only questions; *close* benchmarks
    :func:`close_deals` instead of all realistic deals.  *positions*
    replaces the generated deals (then *deals*, *seed*, *game* and *close*
    only label the report); *solver* is the solver timed (default: a fresh
    one, :func:`~skatdd.engine.solve.solver_or_default`), its table size
    reported.
    *progress* is called after each deal with its index and timing.
    Raises ``ValueError`` for ``deals < 1`` (and as :func:`close_deals`).
    """
    solver = solver_or_default(solver)
    generated = [0.0]  # the seconds spent making the deals
    source: Iterable[Position]
    if positions is None:
        if deals < 1:
            raise ValueError(f"deals must be at least 1, got {deals}")
        if close:
            start = time.perf_counter()
            source = close_deals(seed, deals, game=game, solver=solver)
            generated[0] = time.perf_counter() - start
        else:
            source = _generate(seed, deals, game, generated)
    else:
        source = positions
        deals = len(positions)
    solver.clear()  # first touch of the table's memory happens here, not in the first timing
    timings: list[DealTiming] = []
    for i, pos in enumerate(source):
        seconds, cpu, nodes, value, wins = time_solve(pos, solver=solver)
        timing = DealTiming(i, pos.game, pos.declarer, value, wins, seconds, nodes, cpu)
        if card_values:
            (timing.card_values_seconds, timing.card_values_cpu_seconds,
             timing.card_values_nodes) = time_card_values(pos, solver=solver)
        if queries and not pos.game.is_null:
            for label, query in QUERIES.items():
                q_seconds, _, q_nodes = time_query(pos, query, solver=solver)
                timing.queries[label] = (q_seconds, q_nodes)
        timings.append(timing)
        if progress is not None:
            progress(i, timing)
    return BenchReport(deals=deals, seed=seed, game=game, tt_mb=solver.tt_mb, timings=timings,
                       generate_seconds=generated[0] if positions is None else 0.0, close=close)


def _generate(seed: int, n: int, game: Game | None, seconds: list[float]) -> Iterator[Position]:
    """The deals of ``realistic_deals(seed, n, game=game)``, each made when it is asked for.

    Made one at a time, so memory does not grow with *n* and the first deal
    is timed at once whatever *n* (``--deals 10**30`` made every deal
    first, without end).  The seconds spent making them are added to ``seconds[0]``.
    """
    from .generate import realistic_deal  # imported here: generation is only needed without positions

    rng = generator(seed)
    for _ in range(n):
        start = time.perf_counter()
        pos = realistic_deal(rng, game=game)[0]
        seconds[0] += time.perf_counter() - start
        yield pos
