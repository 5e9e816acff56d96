"""How high to bid with ten cards, and what to play (``skatdd bid``), honest about the skat.

A player holding ten cards before the auction asks *up to which bid does
declaring beat passing, and with what game?*  :func:`bid` answers it for
every bid of the Skat ladder (:func:`bid_ladder`: every possible game
value, 18, 20, 22, 23, 24, 27, ...) from the lowest up to the highest at
which any declaration wins in some evaluated world, in list (ISkO) scoring
and in tournament (Seeger-Fabian) scoring.

The worlds: nested Monte Carlo
------------------------------
S skats are drawn from the 231 pairs of the 22 unseen cards (all of them
when S >= 231), uniformly without repeats, from one ``random.Random(seed)``,
and for each skat a seed for its worlds; then W worlds (splits of the other
twenty cards between the two defenders) are drawn for each skat exactly as
``skatdd odds HAND --skat SKAT --worlds W --seed SEED`` draws them
(:func:`skatdd.analysis.odds.draw.draw_worlds`).  Every (skat, world) pair is one lie of
all 22 unseen cards, uniformly distributed, so the S x W pairs also serve
the hand games: every declaration is scored on the very same worlds.  A
skat's worlds are drawn when its tasks are handed out, and its results kept
as counts of each outcome, so memory does not grow with S or W; W above
5,000 or S x W above a million is refused (:func:`check_counts`).

The declarations at a bid
-------------------------
* **Hand games**: grand and the four suits, each plain, schneider
  announced, schwarz announced and ouvert, and null hand and null ouvert
  hand (a null only while its fixed value reaches the bid).  A declaration
  is made before the play, so it is one choice over all the worlds; the
  announcements are candidates of their own, so one is chosen exactly where
  it raises the expectation.
* **Pick up** (the honest pick-up): the declarer sees the skat, then
  chooses the game and discard with the highest mean over *that skat's* W
  worlds -- the worlds consistent with his twelve cards -- not the best of
  each world.  For each skat this is the computation of ``odds --skat``
  (:func:`skatdd.analysis.odds.discard_ranking.rank_probes` on :func:`skatdd.analysis.odds.discard_ranking.discard_probes`,
  equivalent discards searched once, threshold questions only), run for
  each score table the bid can impose: a picked-up suit or grand game with
  matadors m is worth v0 = base x (m + 1) plain, v1 with schneider, v2 with
  schwarz; at a bid up to v0 it is scored as usual, above v0 only a
  schneider wins (the rest is overbid: lost, charged v1), above v1 only
  schwarz (charged v2), above v2 every discard is overbid alike.  So three
  rankings per game (and one per scoring) answer every bid.  The pick-up's
  figure at a bid is the mean over the skats of the declarer's best choice
  for each.

Every score is exact for its world: suit and grand results need only the
band (no trick, <= 30, 31-60, 61-89, 90+, every trick), settled by the
engine's threshold questions; nulls by one win question.  Overbid games
are scored as overbid (ISkO 5.4.2: lost, charged the smallest multiple of
the base value reaching the bid).  List scoring: the ISkO score; tournament
scoring: the declarer's Seeger-Fabian points (score + 50 won, - 50 lost).
The 40 points each defender gets when the declarer loses are reported
(``defenders``) but not subtracted: in a tournament a player is ranked by
his own total.  Passing scores 0, so declaring *beats passing* at a bid
when the best declaration's mean there is above 0; :attr:`BidReport.max_bid`
is the highest such bid.  Means never rise with the bid (an overbid only
lowers a world's score, and a null only leaves the candidates), so the
bids that beat passing are the ladder's bottom.

Beside the honest pick-up, :attr:`BidReport.options` shows for each game at
bid 18 the per-world bound ``odds`` gives without a known skat (the best
discard of each world, as if the declarer saw the defenders' cards): on the
same worlds it can only be higher.

What the numbers assume: double-dummy play within each world (both sides
see all cards), every consistent world equally likely (no inference from
the bidding), and a declarer whose pick-up choice sees the W worlds of his
skat: with few worlds his choice fits them a little better than it would
fit fresh ones, so the pick-up is flattered by a bias that shrinks with W.
"""
from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from skatdd.analysis.best.bands import ALL_TRICKS, SCHNEIDER
from skatdd.analysis.best.results import GAME_ORDER
from skatdd.analysis.odds.api import MAX_KNOWN_SKAT_WORLDS
from skatdd.analysis.odds.input import read_view
from skatdd.analysis.worlds.draw import MAX_WORLDS, WorldCountError
from skatdd.core.cards import Card, Mask
from skatdd.core.errors import DealFormatError
from skatdd.core.rules import Game
from skatdd.core.scoring import BASE_VALUES, MIN_BID, NULL_VALUES, Declaration, matadors
from skatdd.core.seeds import DEFAULT_SEED, generator
from skatdd.engine.solve import Solver
from skatdd.formats.json_text import json_text
from skatdd.runner.lines import OK, LineOutcome, run_lines, worker_count

from .results import PICK_UP, SCORINGS, BidReport, GameOption, Level, Pick, pick
from .skat import Choice, GameOnSkat, SkatOutcome, hand_declarations, null_allowed, scored
from .stegen import stegen_count
from .tasks import BidJob, draw_skats, handle, skat_seeds, skat_worlds

__all__ = [
    "DEFAULT_SKATS", "DEFAULT_WORLDS", "PICK_UP", "SCORINGS", "SKAT_PAIRS", "BidReport", "GameOption", "Level", "Pick",
    "bid", "bid_ladder", "check_counts", "declarations_at", "draw_skats",
]

#: Skats drawn when the caller does not say (of 231).
DEFAULT_SKATS = 20
#: Worlds drawn for each skat when the caller does not say.
DEFAULT_WORLDS = 20
#: Pairs of the 22 cards a seat cannot see: the possible skats.
SKAT_PAIRS = 231

Progress = Callable[[int, int], None]


def bid_ladder() -> tuple[int, ...]:
    """Every bid a player can say: every possible game value, lowest first (18, 20, 22, 23, 24, 27, 30, ...).

    Suit and grand values are the base value times a multiplier from 2
    (with or without 1, game) to the matadors' top (11 in a suit game, 4 in
    grand) plus the seven levels game, hand, schneider, schneider announced,
    schwarz, schwarz announced, ouvert; the nulls' four fixed values.
    """
    values = set(NULL_VALUES.values())
    for game, base in BASE_VALUES.items():
        top = (11 if game.is_suit else 4) + 7
        values.update(base * k for k in range(2, top + 1))
    return tuple(sorted(values))


# ---------------------------------------------------------------------------
# From the per-skat results to the table


class _Table:
    """Builds the levels and options from the per-skat results."""

    def __init__(self, skats: list[SkatOutcome], worlds: int, picked_up: bool) -> None:
        self.skats, self.worlds, self.picked_up = skats, worlds, picked_up
        reached = {g: max(o for s in skats for o in s.games[g].hand) for g in GAME_ORDER}
        # An announcement never met in any world loses everywhere: the plain hand game is never worse.
        self.hand_decls = [d for d in hand_declarations()
                           if d.game.is_null or ((not d.schneider or reached[d.game] >= SCHNEIDER)
                           and (not d.schwarz or reached[d.game] >= ALL_TRICKS))]

    def hand_totals(self, decl: Declaration, bid: int) -> list[tuple[int, int, int]]:
        """Per skat ``(score, seeger, wins)`` totals of a hand declaration at *bid*."""
        out = []
        for s in self.skats:
            m = s.games[decl.game].matadors
            score = seeger = wins = 0
            for outcome, n in s.games[decl.game].hand.items():
                a, b, won = scored(decl, m, outcome, bid)
                score, seeger, wins = score + n * a, seeger + n * b, wins + n * won
            out.append((score, seeger, wins))
        return out

    def top(self) -> int:
        """The highest value any declaration wins with in some evaluated world (at least 18)."""
        best = MIN_BID
        for s in self.skats:
            for decl in self.hand_decls:
                result = s.games[decl.game]
                for outcome in result.hand:
                    sc, _, won = scored(decl, result.matadors, outcome, MIN_BID)
                    if won:
                        best = max(best, sc)
            for game, result in s.games.items():
                for outcome in set(result.optimistic or ()):
                    for decl in [Declaration(game, ouvert=o) for o in ((False, True) if game.is_null else (False,))]:
                        sc, _, won = scored(decl, result.matadors, outcome, MIN_BID)
                        if won:
                            best = max(best, sc)
        return best

    def best(self, bid: int, tournament: bool) -> Pick:
        """The declaration with the highest mean in the scoring at *bid* (ties: pick up, then list order)."""
        k = 1 if tournament else 0
        candidates: list[tuple[str, Declaration | None, list[tuple[int, int, int]], list[str] | None]] = []
        if self.picked_up:
            chosen = [s.picked_up(bid, tournament) for s in self.skats]
            candidates.append((PICK_UP, None, [c[1:] for c in chosen], [c[0] for c in chosen]))
        for decl in self.hand_decls:
            if null_allowed(decl, bid):
                candidates.append((str(decl), decl, self.hand_totals(decl, bid), None))
        label, chosen_decl, per_skat, choices = max(candidates, key=lambda c: (sum(t[k] for t in c[2]),
                                                                                -candidates.index(c)))
        return pick(label, chosen_decl, per_skat, self.worlds, choices)

    def levels(self, scorings: tuple[bool, ...]) -> list[Level]:
        top = self.top()
        return [Level(b, {t: self.best(b, t) for t in scorings}) for b in bid_ladder() if b <= top]

    def options(self, tournament: bool) -> list[GameOption]:
        """Every game at bid 18: picked up (honest and per-world bound) before hand (best announcement)."""
        out = []
        n = len(self.skats) * self.worlds
        for game in GAME_ORDER:
            for ouvert in (False, True) if game.is_null else (False,):
                if self.picked_up:
                    out.append(self._picked_option(Declaration(game, ouvert=ouvert), tournament, n))
                decls = [d for d in self.hand_decls if (d.game == game and d.ouvert == ouvert) or
                         (d.game == game and not game.is_null)]
                picks = [pick(str(d), d, self.hand_totals(d, MIN_BID), self.worlds) for d in decls]
                best = max(picks, key=lambda p: (p.mean(tournament), -picks.index(p)))
                assert best.decl is not None
                out.append(GameOption(best.decl, best.win, best.score, best.tournament))
        return out

    def _picked_option(self, decl: Declaration, tournament: bool, n: int) -> GameOption:
        honest = [0, 0, 0]
        bound = [0, 0, 0]
        for s in self.skats:
            result = s.games[decl.game]
            ch = result.picked[0, tournament if not decl.game.is_null else False]
            if decl.game.is_null:
                won, lost = scored(decl, 0, 1, MIN_BID), scored(decl, 0, 0, MIN_BID)
                totals = (won[0] * ch.wins + lost[0] * (s.worlds - ch.wins),
                          won[1] * ch.wins + lost[1] * (s.worlds - ch.wins), ch.wins)
            else:
                assert ch.score is not None and ch.tournament is not None
                totals = (ch.score, ch.tournament, ch.wins)
            for i in range(3):
                honest[i] += totals[i]
            for outcome, k in (result.optimistic or Counter()).items():
                a, b, won_ = scored(decl, result.matadors, outcome, MIN_BID)
                bound[0], bound[1], bound[2] = bound[0] + k * a, bound[1] + k * b, bound[2] + k * won_
        return GameOption(decl, honest[2] / n, honest[0] / n, honest[1] / n, bound[2] / n, bound[0] / n, bound[1] / n)


# ---------------------------------------------------------------------------
# Public API


def _outcome(skat: Mask, seed: int, games: Sequence[Game], records: list[dict[str, Any]],
             hand: Mask) -> SkatOutcome:
    """One skat's :class:`SkatOutcome` from its tasks' records (game by game, in *games* order).

    The per-world outcomes are kept as counts (:class:`~skatdd.analysis.bid.skat.GameOnSkat`).
    """
    results = {}
    for game, record in zip(games, records, strict=True):
        m = 0 if game.is_null else matadors(game, hand | skat)
        optimistic = record.get("optimistic")
        result = GameOnSkat(game, m, Counter(record["hand"]), None if optimistic is None else Counter(optimistic))
        for regime, tournament, discard, score, seeger, wins in record.get("picked", []):
            result.picked[regime, bool(tournament)] = Choice((discard[0], discard[1]), score, seeger, wins)
        results[game] = result
    return SkatOutcome(skat, seed, len(records[0]["hand"]), results)


def check_counts(skats: int, worlds: int) -> None:
    """Refuse counts a run could not finish, before any work (one line naming them, exit 2 in the CLI).

    Each skat's pick-up ranks every discard over that skat's worlds: ``odds
    --skat``'s computation, bounded as it is (:data:`~skatdd.analysis.odds.api.MAX_KNOWN_SKAT_WORLDS`
    worlds).  The skats are at most 231, and the worlds of all of them at
    most :data:`~skatdd.analysis.worlds.draw.MAX_WORLDS`, as an ``odds`` run.
    """
    for name, value in (("skats", skats), ("worlds", worlds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DealFormatError(f"--{name} {value!r}: the number of {name} must be a whole number of at least 1")
    if worlds > MAX_KNOWN_SKAT_WORLDS:
        raise WorldCountError(f"--worlds {worlds}: each skat's discards are ranked over its worlds, as odds --skat "
                              f"does, at most {MAX_KNOWN_SKAT_WORLDS:,} (docs/cli.md); ask for at most "
                              f"{MAX_KNOWN_SKAT_WORLDS:,}")
    total = min(skats, SKAT_PAIRS) * worlds
    if total > MAX_WORLDS:
        raise WorldCountError(f"--skats {skats} x --worlds {worlds}: {total:,} worlds, and a run solves at most "
                              f"{MAX_WORLDS:,} (docs/cli.md); ask for fewer skats or worlds")


def bid(
    cards: Mask | str | Sequence[Card], *, seat: int | str, skats: int = DEFAULT_SKATS, worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED, scoring: str = "both", hand_only: bool = False, jobs: int | None = 1,
    solver: Solver | None = None, progress: Progress | None = None, dask: str | None = None,
) -> BidReport:
    """How high to bid with a ten-card hand, and what to play (see the module docstring).

    Args:
        cards: the seat's ten dealt cards (a card string, card ints or a mask).
        seat: its seat (0/1/2, F/M/R...); forehand leads.
        skats: skats to draw (all 231 when no fewer).
        worlds: worlds drawn for each skat.
        seed: seeds the one ``random.Random`` every draw comes from.
        scoring: ``'both'`` (the default: list chooses ``best``, tournament shown
            beside it), ``'list'`` or ``'tournament'``.
        hand_only: only hand games (no pick-up), on the same worlds.
        jobs: worker processes (``None``: every core); the report does not depend on it.
        solver: the solver whose configuration (its table size) every
            worker's own solver takes (:func:`~skatdd.engine.solve.solver_or_default`).
        progress: called as ``progress(done, total)`` as tasks (a game on a skat) finish.
        dask: a Dask scheduler address or ``local[:N]`` instead of local workers.

    Raises :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    start = time.perf_counter()
    if seat is None:
        raise DealFormatError("bid needs the seat of the hand (0, 1, 2 or F, M, R)")
    view = read_view(cards, seat, None)
    hand = view.known[view.seat]
    check_counts(skats, worlds)
    shown = {"both": (False, True), "list": (False,), "tournament": (True,)}
    if scoring not in shown:
        raise DealFormatError(f"unknown scoring {scoring!r}: expected list, tournament or both")
    scorings = shown[scoring]

    seeds, every = skat_seeds(hand, skats, generator(seed))
    job = BidJob(view.seat, hand, picked_up=not hand_only, tournament=True in scorings)
    total = len(seeds) * len(GAME_ORDER)

    def tasks() -> Iterator[str]:
        # One skat's worlds at a time, as the workers take its tasks: memory does not grow with the counts.
        for skat, skat_seed in seeds:
            rows = [[*w.hands, w.skat] for w in skat_worlds(view.seat, hand, skat, skat_seed, worlds)]
            for g in GAME_ORDER:
                yield json_text({"skat": skat, "game": int(g), "worlds": rows})

    outcomes: list[SkatOutcome] = []
    pending: list[dict[str, Any]] = []
    done = 0

    def collect(outcome: LineOutcome) -> None:
        nonlocal done
        if outcome.kind != OK:
            raise RuntimeError(f"a task failed: {outcome.record.get('error')}")
        pending.append(outcome.record)
        done += 1
        if len(pending) == len(GAME_ORDER):  # a skat's last game: its outcome, counted, replaces its records
            skat, skat_seed = seeds[len(outcomes)]
            outcomes.append(_outcome(skat, skat_seed, GAME_ORDER, pending, hand))
            pending.clear()
        if progress is not None:
            progress(done, total)

    summary = run_lines(enumerate(tasks(), start=1), handler=functools.partial(handle, job=job),
                        jobs=worker_count(jobs), solver=solver, emit=collect, dask=dask, total=total)
    table = _Table(outcomes, worlds, picked_up=not hand_only)
    return BidReport(
        seat=view.seat, hand=hand, scorings=scorings, skats=outcomes, every_skat=every, worlds=worlds, seed=seed,
        picked_up=not hand_only, levels=table.levels(scorings), options=table.options(scorings[0]),
        stegen=stegen_count(hand), nodes=summary.nodes, seconds=time.perf_counter() - start,
    )


def declarations_at(report: BidReport, bid: int, tournament: bool = False,
                    include: Sequence[Declaration] = ()) -> list[Pick]:
    """Every declaration open at *bid* over *report*'s worlds: the pick-up first (when computed), then the hand ones.

    The same figures :attr:`BidReport.levels` shows for the best of them, at any bid (above the table's top
    too, where every declaration loses everywhere); the best is the first with the highest mean in the
    scoring (list, or *tournament*), as ``bid`` chooses.  *include*: hand declarations to list even where
    the table leaves them out (an announcement met in no world).  For the decisions review
    (:mod:`skatdd.analysis.review`).
    """
    table = _Table(report.skats, report.worlds, report.picked_up)
    out = []
    if report.picked_up:
        chosen = [s.picked_up(bid, tournament) for s in report.skats]
        out.append(pick(PICK_UP, None, [c[1:] for c in chosen], report.worlds, [c[0] for c in chosen]))
    extra = [d for d in include if d.hand and d not in table.hand_decls]
    for decl in [*table.hand_decls, *extra]:
        if null_allowed(decl, bid):
            out.append(pick(str(decl), decl, table.hand_totals(decl, bid), report.worlds))
    return out
