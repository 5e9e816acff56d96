"""Ranking discard classes over shared worlds by threshold questions (``odds --skat`` and ``bid``'s pick-up).

With the skat known the defenders' twenty cards are the same in every world,
so the classes of equivalent discards (:mod:`skatdd.analysis.best.api`,
reduction 2) are computed once per game (:func:`discard_classes_of`).  One
:class:`~skatdd.analysis.best.api.Probe` per (class, world) keeps what the
engine has told about that position; :func:`rank_probes` bounds every
class's total score from both sides world by world and asks the question
that can lower the most promising class's highest total the most, until
the best classes are settled exactly.  :func:`rank_discards` and
:func:`rank_null_discards` are the whole ranking of one game; :func:`settle`
is an exact outcome with the band questions first, :func:`settle_band` the
band alone by threshold questions.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from skatdd.analysis.best.bands import ALL_TRICKS, LOST, NO_TRICK, SCHNEIDER, SCHNEIDERED, WON, Bands, Probe
from skatdd.analysis.best.discard_heuristic import discard_heuristic
from skatdd.analysis.best.discards import DiscardClass, discard_classes
from skatdd.analysis.worlds.space import World
from skatdd.core.cards import ALL_CARDS, Mask, points_of
from skatdd.core.equivalence import group_orders
from skatdd.core.position import Position
from skatdd.core.rules import OUT_OF_SCHNEIDER_POINTS, SCHNEIDER_POINTS, WIN_POINTS, Game
from skatdd.core.scoring import matadors
from skatdd.engine.solve import Solver

__all__ = ["band_range", "deciding_band", "discard_classes_of", "discard_probes", "dominance_links", "narrow",
           "rank_discards", "rank_null_discards", "rank_probes", "settle", "settle_band", "share"]


@functools.lru_cache(maxsize=4096)
def discard_classes_of(game: Game, twelve: Mask) -> list[DiscardClass]:
    """Equivalent-discard classes of *twelve* (the defenders hold every other card), cached."""
    return discard_classes(game, twelve, ALL_CARDS & ~twelve)


def settle(probe: Probe) -> tuple[int, bool, bool]:
    """``(value, takes_all, trickless)`` of a position, exact.

    The band questions (61, then 90 or 31) go first: they narrow the exact
    search, which then starts from the band's top instead of 120.
    """
    probe.at_least(61)
    probe.at_least(90 if probe.lo >= 61 else 31)
    return probe.outcome()


def settle_band(probe: Probe) -> int:
    """The exact band of a position by threshold questions only: 61, then 90 or 31, then the trick fact there.

    What the probe already knows is not asked again; no exact value is searched.
    """
    if probe.at_least(WIN_POINTS):
        if probe.at_least(SCHNEIDER_POINTS):
            probe.takes_all()
    elif not probe.at_least(OUT_OF_SCHNEIDER_POINTS):
        probe.trickless()
    low, high = band_range(probe)
    assert low == high, (low, high)
    return low


def band_range(p: Probe) -> tuple[int, int]:
    """The lowest and highest band the probe's known facts still allow."""
    if p._all:
        low = ALL_TRICKS
    elif p.lo >= 90:
        low = SCHNEIDER
    elif p.lo >= 61:
        low = WON
    elif p.lo >= 31:
        low = LOST
    elif p.lo > p.discard_points or p._none is False:
        low = SCHNEIDERED
    else:
        low = NO_TRICK
    if p._none:
        high = NO_TRICK
    elif p.hi <= 30:
        high = SCHNEIDERED
    elif p.hi <= 60:
        high = LOST
    elif p.hi <= 89:
        high = WON
    elif p.hi < 120 or p._all is False:
        high = SCHNEIDER
    else:
        high = ALL_TRICKS
    return low, high


def narrow(p: Probe, low: int, high: int) -> None:
    """Ask the threshold question that settles whether the band range [low, high] keeps its top band.

    Top down: every trick, 90, 61, 31, a trick.  A question far above the
    value fails fast, so a weak discard's possible score falls cheaply (the
    first two cost next to nothing), and only the discards still in the
    running are asked the questions near their values.
    """
    if high == ALL_TRICKS:
        p.takes_all()
    elif high == SCHNEIDER:
        p.at_least(90)
    elif high == WON:
        p.at_least(61)
    elif high == LOST:
        p.at_least(31)
    else:
        p.trickless()


def deciding_band(score: Sequence[int], low: int, high: int) -> int:
    """The lowest band of [low, high] scoring as much as *high*: whether the result reaches it decides the score.

    When every band scores differently (the usual case) that is *high*
    itself; where an overbid makes neighbouring bands score alike, the
    questions between them would not change the score and are skipped.
    """
    while high > low and score[high - 1] == score[high]:
        high -= 1
    return high


def rank_discards(solver: Solver, seat: int, twelve: Mask, bid: int, game: Game,
                  worlds: Sequence[World], *, points: bool = True) -> list[tuple[DiscardClass, list[Any]]]:
    """The three best discard classes of a picked-up suit or grand game with a known skat, best first.

    Returns ``(class, per-world results)``: for the best ``[value,
    takes_all, trickless]`` (with *points*) or ``[band]`` (without: its
    band by threshold questions, :func:`settle_band`), for the other two
    ``[score, wins]``.  Ranked by total score over *worlds*, ties to the
    first class in tie order (:func:`rank_probes`); the ranking never needs
    an exact value, so *points* changes only what is asked of the best.
    """
    classes = discard_classes_of(game, twelve)
    score = Bands(game, matadors(game, twelve), bid).score
    looks = [discard_heuristic(game, twelve, cls.discard) for cls in classes]
    probes = discard_probes(solver, seat, twelve, game, classes, worlds)
    order, ranges = rank_probes(probes, score, looks, keep=3, links=dominance_links(game, twelve, classes))
    ranked: list[tuple[DiscardClass, list[Any]]] = []
    for rank, i in enumerate(order):
        if rank == 0:
            results = [list(settle(p)) if points else [settle_band(p)] for p in probes[i]]
        else:
            results = [[score[lo], score[lo] > 0] for lo, _ in ranges[i]]
        ranked.append((classes[i], results))
    return ranked


def discard_probes(solver: Solver, seat: int, twelve: Mask, game: Game, classes: Sequence[DiscardClass],
                   worlds: Sequence[World]) -> list[list[Probe]]:
    """One :class:`~skatdd.analysis.best.bands.Probe` per (class, world): the class's hand held, its discard the skat."""
    probes = []
    for cls in classes:
        row = []
        for world in worlds:
            hands = list(world.hands)
            hands[seat] = cls.hand
            row.append(Probe(solver, Position(game, seat, hands, twelve & ~cls.hand, leader=0)))
        probes.append(row)
    return probes


def dominance_links(game: Game, twelve: Mask, classes: Sequence[DiscardClass]) -> list[tuple[int, int, int]]:
    """``(top, low, delta)``: class *top* dominates class *low*, their values differing by 0 to *delta* points.

    Two discards that keep the same number of cards in every gap (a run of
    the declarer's cards between the defenders' cards of one follow group)
    play alike: a bijection inside each gap maps every play of one onto a
    play of the other with the same legal cards and trick winners.  Pair the
    kept cards of each gap in point order; if *top* keeps, card by card, no
    more points than *low*, then for every pair of mapped strategies
    ``V(top) - V(low) = sum (1 - w) (p_low - p_top)`` over the pairs (``w``:
    the declarer wins that card's trick; the twelve cards' points are the
    same), which lies between 0 and *delta*, the difference of the kept
    points.  So ``V(low) <= V(top) <= V(low) + delta`` and their trick facts
    (every trick, no trick) are equal.  Per vector of kept counts, the class
    keeping the fewest points (it throws the highest cards of every gap)
    dominates every other class with that vector; those are the links.
    """
    defenders = ALL_CARDS & ~twelve
    orders = group_orders(game)
    groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for i, cls in enumerate(classes):
        counts: list[int] = []
        for order in orders:
            run = 0
            for c in order:
                if defenders >> c & 1:
                    counts.append(run)
                    run = 0
                elif cls.hand >> c & 1:
                    run += 1
            counts.append(run)
        groups.setdefault(tuple(counts), []).append((points_of(cls.hand), i))
    links: list[tuple[int, int, int]] = []
    for members in groups.values():
        kept, top = min(members)
        links.extend((top, i, points - kept) for points, i in members if i != top)
    return links


def share(source: Probe, target: Probe, delta: int) -> bool:
    """Give *target* what *source*'s facts imply through a dominance link; True when *target* learnt something.

    *delta* >= 0: *source* dominates *target*, ``V(target)`` in ``[V(source)
    - delta, V(source)]``; *delta* < 0: *target* dominates *source*,
    ``V(target)`` in ``[V(source), V(source) - delta]``.  The trick facts are
    equal (:func:`dominance_links`).
    """
    before = (target.lo, target.hi, target._all, target._none)
    target.lo = max(target.lo, source.lo - max(delta, 0))
    target.hi = min(target.hi, source.hi + max(-delta, 0))
    if target._all is None and source._all is not None:
        target._all = source._all
        if source._all:
            target.lo = target.hi = 120
    if target._none is None and source._none is not None:
        target._none = source._none
        if source._none:
            target.hi = target.discard_points
    assert target.lo <= target.hi, (target.lo, target.hi)
    return (target.lo, target.hi, target._all, target._none) != before


#: Per band range top, the tracked bands (LOST, WON, SCHNEIDER) above it; per (top before, top after),
#: those the class has just fallen short of (above the new top, not above the old one).
_SHORT_OF = [tuple(b for b in (LOST, WON, SCHNEIDER) if hi < b) for hi in range(ALL_TRICKS + 1)]
_FALLS = [[tuple(b for b in _SHORT_OF[after] if b <= before) for after in range(ALL_TRICKS + 1)]
          for before in range(ALL_TRICKS + 1)]


def rank_probes(probes: Sequence[Sequence[Probe]], score: Sequence[int], looks: Sequence[int],
                keep: int, links: Sequence[tuple[int, int, int]] = ()) -> tuple[list[int], list[list[tuple[int, int]]]]:
    """The *keep* best classes by total score over the worlds, best first, and every class's band range per world.

    *probes* holds one row per discard class (one probe per world), *score*
    the score of each band (non-decreasing), *looks* each class's
    :func:`skatdd.analysis.best.discard_heuristic`.  Ties go to the first class in tie order
    (the lower index).  Each (class, world) probe's facts bound its band and
    so its score.  Repeatedly, among the classes that are not settled (some
    world's score still open) and whose highest possible total reaches the
    *keep*-th highest lowest possible total, the one with the highest
    possible total (ties: the better-looking discard) gets one threshold
    question in one open world: the one with the highest possible score,
    then the widest range, then where the most classes have already been
    shown not to reach the band that question asks about (a world where
    other discards fell short of 90, 61 or 31 is one where this one is
    likely to as well) -- so a weak discard's highest total falls as fast
    as possible and it drops out after few questions, mostly the cheap
    failing ones: a question it passes does not lower its highest total.
    It ends when no such class is left: every class still in the running
    is settled, and every other one is below *keep* settled
    ones, so the *keep* best and their totals are exact (a returned class's
    score is settled in every world: ``score[lo] == score[hi]``).  The
    probes keep what they learnt, so a second ranking of the same probes
    with another *score* starts from those facts.  *links*
    (:func:`dominance_links`) pass each answer on to the classes it bounds
    (:func:`share`), whose ranges then narrow without a question.  With
    ``keep=1`` a class whose highest possible total has come down to an
    earlier class's lowest is dropped unsettled: it can at best tie that
    class, and ties go to tie order (its ranges then stay open); so is,
    from the start, a class that *links* show dominated by an earlier one.
    """
    ranges = [[band_range(p) for p in row] for row in probes]
    n = len(probes)
    worlds = len(ranges[0]) if ranges else 0
    bands = len(score)
    low_sum = [0] * n
    high_sum = [0] * n
    linked: list[list[tuple[int, int]]] = [[] for _ in probes]   # per class: (other class, signed delta)
    for top, low, delta in links:
        linked[top].append((low, delta))
        linked[low].append((top, -delta))

    # The evidence: per world and band, the classes known not to reach that band there (band_range's
    # top below it), and the open classes whose next question there is that band's (asks[k][v]).  Kept
    # for the point thresholds only (LOST, WON, SCHNEIDER: consecutive bands): a failed trick question
    # costs a node or two whoever asks it, while tracking "every trick" would touch every class at
    # every first answer.
    below = [[0] * bands for _ in range(worlds)]
    waiting: list[list[set[int]]] = [[set() for _ in score] for _ in range(worlds)]
    open_count = [0] * n     # per class, the worlds whose score is still open
    for k, class_ranges in enumerate(ranges):
        for v, (lo, hi) in enumerate(class_ranges):
            low_sum[k] += score[lo]
            high_sum[k] += score[hi]
            open_count[k] += score[lo] < score[hi]
            counts = below[v]
            for b in _SHORT_OF[hi]:
                counts[b] += 1

    # Each class's choice of world, made by C loops: world v's place (the highest possible score, then
    # the widest range, the evidence against its next question, the first world) as one int, kept in
    # keys[k][v] (-1: settled), built when class k is first asked (many classes of a later score table never
    # are: they start below the leader) and from then on kept up to date.  Per band range, computed once:
    # None when its score is settled, else the band its next question asks (deciding_band) and the range's
    # part of the key, ``place * (n + 1) * worlds``; the key adds ``below[v][band] * worlds + worlds - 1 - v``.
    a_rank = {s: r for r, s in enumerate(sorted(set(score)))}
    widths = sorted({score[h] - score[lo] for lo in range(bands) for h in range(lo, bands)})
    b_rank = {d: r for r, d in enumerate(widths)}
    decide: dict[tuple[int, int], tuple[int, int] | None] = {}
    for lo in range(bands):
        for hi in range(bands):
            if score[lo] < score[hi]:
                place = a_rank[score[hi]] * len(widths) + b_rank[score[hi] - score[lo]]
                decide[lo, hi] = (deciding_band(score, lo, hi), place * (n + 1) * worlds)
            else:
                decide[lo, hi] = None
    asks: list[list[int]] = [[] for _ in probes]   # per world, the band of the next question, -1: settled
    keys: list[list[int]] = [[] for _ in probes]   # empty until built

    def build(k: int) -> list[int]:
        """Class *k*'s keys from the current evidence; files *k* under the bands its questions ask."""
        ask, row = [-1] * worlds, [-1] * worlds
        for v, rng in enumerate(ranges[k]):
            d = decide[rng]
            if d is not None:
                band, base = d
                ask[v] = band
                waiting[v][band].add(k)
                row[v] = base + below[v][band] * worlds + worlds - 1 - v
        asks[k] = ask
        keys[k] = row
        return row

    # The choice of class the same way: the highest possible total, then the better look, then the
    # first class, as one int (-1: settled in every world): (high_sum - floor) * span + tail[k].
    floor = worlds * min(score)
    look_rank = {x: r for r, x in enumerate(sorted(set(looks)))}
    span = len(look_rank) * n
    tail = [look_rank[looks[k]] * n + n - 1 - k for k in range(n)]
    class_keys = [(high_sum[k] - floor) * span + tail[k] if open_count[k] else -1 for k in range(n)]
    dropped: set[int] = set()
    if keep == 1:
        # A class dominated by an earlier one never scores more than it in any world (dominance_links: a
        # value no higher, the same trick facts, so a band no higher): at best it ties, and ties go to
        # tie order.  With more kept its rank among the kept would be needed.
        dropped.update(low for top, low, _ in links if top < low)
        for k in dropped:
            class_keys[k] = -1

    # The highest lowest possible total: lowest totals only rise (facts only narrow a range), so a running max.
    top_low = max(low_sum, default=0)

    def refresh(k: int, v: int) -> None:
        """Class *k*'s band range in world *v* from its probe's facts, and the sums, sets and keys that follow it."""
        nonlocal top_low
        class_ranges = ranges[k]
        before = class_ranges[v]
        after = class_ranges[v] = band_range(probes[k][v])
        if after == before:
            return          # the keys already follow the evidence (below, waiting) as it changes
        lo, hi = after
        low_sum[k] += score[lo] - score[before[0]]
        if low_sum[k] > top_low:
            top_low = low_sum[k]
        high_sum[k] += score[hi] - score[before[1]]
        counts = below[v]
        for b in _FALLS[before[1]][hi]:
            counts[b] += 1    # one more class falls short of b in world v: v moves up where b is asked next
            for j in waiting[v][b]:
                keys[j][v] += worlds    # only built rows are filed
        d = decide[after]
        if d is None and decide[before] is not None:
            open_count[k] -= 1
        row = keys[k]
        if row:
            ask = asks[k]
            old = ask[v]
            if old >= 0:
                waiting[v][old].discard(k)
            if d is None:
                ask[v] = row[v] = -1
            else:
                band, base = d
                ask[v] = band
                waiting[v][band].add(k)
                row[v] = base + counts[band] * worlds + worlds - 1 - v
        class_keys[k] = -1 if k in dropped or not open_count[k] else (high_sum[k] - floor) * span + tail[k]

    while True:
        if n <= keep:
            third: float = -math.inf
        elif keep == 1:
            third = top_low
        else:
            third = sorted(low_sum, reverse=True)[keep - 1]
        best = max(class_keys, default=-1)
        i = class_keys.index(best) if best >= 0 else -1
        if best < 0 or high_sum[i] < third:
            break           # the open class with the highest possible total cannot reach the third: none can
        if keep == 1 and high_sum[i] == third and low_sum.index(high_sum[i]) < i:
            # At best it ties with an earlier class, and ties go to tie order: it cannot come first.
            # (Only for keep=1: with more kept, the order among the kept would need it settled.)
            class_keys[i] = -1
            dropped.add(i)
            continue
        row = keys[i] or build(i)
        w = row.index(max(row))
        probe = probes[i][w]
        narrow(probe, ranges[i][w][0], asks[i][w])
        refresh(i, w)
        for j, delta in linked[i]:   # what the answer tells about the classes it dominates or is dominated by
            if share(probe, probes[j][w], delta):
                refresh(j, w)
    order = sorted((i for i in range(n) if not open_count[i] and i not in dropped),
                   key=lambda k: (-low_sum[k], k))[:keep]
    return order, ranges


def rank_null_discards(solver: Solver, seat: int, twelve: Mask, worlds: Sequence[World]) -> list[tuple[DiscardClass, list[Any]]]:
    """The three null discard classes that win in the most worlds (ties: tie order), each with ``[wins]`` per world."""
    table = []
    for cls in discard_classes_of(Game.NULL, twelve):
        results = []
        for world in worlds:
            hands = list(world.hands)
            hands[seat] = cls.hand
            results.append([solver.declarer_wins(Position(Game.NULL, seat, hands, twelve & ~cls.hand, leader=0))])
        table.append((cls, results))
    table.sort(key=lambda entry: -sum(r[0] for r in entry[1]))  # stable: ties keep the tie order
    return table[:3]
