"""Each world's best discard of a picked-up suit or grand game for ``skatdd odds`` (the skat unseen).

In one world the declarer picks up the skat and keeps the discard with the
highest (score, value, earliest in tie order), as ``skatdd best`` chooses
(:class:`~skatdd.analysis.best.api.PickedUpSearch`).  Two searches find it:

* :func:`best_discard_probe` (``odds --points``): ``best``'s incumbent
  search, so the winner's exact value (the mean card points) is known.
* :func:`best_band` (the default): only the winner's *band* (no trick,
  <= 30, 31-60, 61-89, 90+, every trick), which decides every other figure
  odds reports, by threshold questions alone (module text below).

Both search the candidates in the same order: the hand game's discard (the
dealt skat, whose probe the hand game has already asked) first, then the
discards that won the chunk's earlier worlds, then ``best``'s heuristic;
and both skip the discards another provably dominates.

Dominated discards
------------------
Two discards that keep the same number of cards in every gap (a run of the
declarer's cards between the defenders' cards of one follow group) play
alike: a bijection inside each gap maps every play of one onto a play of the
other with the same legal cards and trick winners.  Only the points differ:
if discard D1 keeps, gap by gap, cards worth no more than D2 keeps (sorted,
card by card), then for any pair of mapped strategies ``V(D1) - V(D2) = sum
(1 - w) (p2 - p1) >= 0`` over the mapped kept cards (``w``: the declarer
wins that card's trick), since the twelve cards' points are the same.  So
D1's value is at least D2's and their trick facts are equal: D2 never
scores more, and its band is never higher.  For each vector of kept counts
one discard dominates all the others (in every gap it throws the highest
cards), and only it is searched.  The figures reported are the best
discard's value and trick facts, which ties in score and value can only
change when an overbid makes "every trick" score like 90+ or "no trick"
like 30-: then nothing is dropped.

The band search, and the tie rule
---------------------------------
The winner's band is all the figures need but the mean points.  When the
six bands score differently (every bid at which the game can be won
plainly, so always at the default bid of 18), the highest score is the
highest band, and the winner's band is the highest band any discard
reaches: an incumbent search by bands (:func:`best_band`) asks each other
discard one question, "does it reach the lowest band scoring more than the
incumbent?", and a discard that does becomes the incumbent, its band then
asked upwards.  When an overbid makes neighbouring bands score alike, the
winner is still the discard with the most card points among those with the
highest score, then the first in tie order; its band follows from threshold
questions too (:func:`_tied_band`): card points order the bands from 31 up
(the points bands), except that "every trick" and a 90+ result of 120
points tie at 120 (then the first discard in tie order with 120 decides),
and below 31 a declarer without a trick holds exactly his discard's points
(then the best such discard is compared with every discard that takes a
trick at that many points).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from skatdd.analysis.best.api import PickedUpSearch, SeatSearch
from skatdd.analysis.best.bands import ALL_TRICKS, LOST, NO_TRICK, SCHNEIDER, SCHNEIDERED, Bands, Probe
from skatdd.analysis.best.discard_heuristic import discard_heuristic
from skatdd.analysis.best.discards import DiscardClass
from skatdd.core.cards import Mask, cards_of, display_sorted
from skatdd.core.rules import Game

from .discard_ranking import discard_classes_of, dominance_links, settle_band

__all__ = ["best_band", "best_discard_probe", "undominated"]


def undominated(game: Game, twelve: Mask, classes: Sequence[DiscardClass]) -> list[DiscardClass]:
    """The classes no other class dominates (:func:`~skatdd.analysis.odds.discard_ranking.dominance_links`), in their order."""
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


def _candidates(seat: SeatSearch, game: Game, bands: Bands,
                memory: Counter[tuple[int, int]]) -> tuple[DiscardClass, list[DiscardClass], list[DiscardClass]]:
    """``(seed, rest, classes)``: the dealt skat's class, the other candidates in search order, every class.

    Dominated classes are left out of *rest* unless an overbid ties "every
    trick" with 90+ or "no trick" with 30- (module docstring).
    """
    classes = discard_classes_of(game, seat.twelve)
    skat_pair = tuple(display_sorted(cards_of(seat.skat)))
    seed = next(c for c in classes if skat_pair in c.members)
    score = bands.score
    candidates: Sequence[DiscardClass] = classes
    if score[ALL_TRICKS] != score[SCHNEIDER] and score[NO_TRICK] != score[SCHNEIDERED]:
        candidates = undominated(game, seat.twelve, classes)
    rest = sorted((c for c in candidates if c is not seed),
                  key=lambda c: (-max(memory[m] for m in c.members), -discard_heuristic(game, seat.twelve, c.discard),
                                 c.order))
    return seed, rest, classes


def best_discard_probe(seat: SeatSearch, game: Game, bands: Bands, hand_probe: Probe,
                       memory: Counter[tuple[int, int]]) -> Probe:
    """The probe of the world's best discard of picked-up *game* (its outcome is then cheap); *memory* counts it.

    *hand_probe* is the hand game's probe (the dealt skat as the discard);
    *memory* the chunk's earlier winners (an order, never a result).
    """
    seed, rest, _ = _candidates(seat, game, bands, memory)
    picked = _WorldPickUp(seat, game, bands)
    picked.offer_known(seed, hand_probe)
    for cls in rest:
        picked.offer(cls)
    assert picked.best is not None and picked.best_probe is not None
    memory.update(picked.best.members)
    return picked.best_probe


def best_band(seat: SeatSearch, game: Game, bands: Bands, hand_probe: Probe,
              memory: Counter[tuple[int, int]]) -> int:
    """The band of the world's best discard of picked-up *game* (as :func:`best_discard_probe`'s), by thresholds.

    Never searches an exact value.  *hand_probe* and *memory* as for
    :func:`best_discard_probe`; *memory* counts the discard found best.
    """
    seed, rest, classes = _candidates(seat, game, bands, memory)
    score = bands.score
    probes = {id(seed): hand_probe}
    best, best_band_ = seed, settle_band(hand_probe)
    for cls in rest:
        up = bands.above(score[best_band_])
        if up is None:
            break
        probe = probes[id(cls)] = Probe(seat.solver, seat.position(game, cls.hand, seat.twelve & ~cls.hand))
        if probe.reaches_band(up):
            best, best_band_ = cls, up
            while (up := bands.above(score[best_band_])) is not None and probe.reaches_band(up):
                best_band_ = up
    tied = [b for b in range(6) if score[b] == score[best_band_]]
    if len(tied) > 1:
        def probe_of(cls: DiscardClass) -> Probe:
            if id(cls) not in probes:
                probes[id(cls)] = Probe(seat.solver, seat.position(game, cls.hand, seat.twelve & ~cls.hand))
            return probes[id(cls)]

        found, best_band_ = _tied_band([(c, probe_of(c)) for c in classes], tied[0], tied[-1])
        best = found or best
    memory.update(best.members)
    return best_band_


def _tied_band(classes: Sequence[tuple[DiscardClass, Probe]], low: int, high: int) -> tuple[DiscardClass | None, int]:
    """The band of the class with the most card points, then first in tie order, among bands *low*..*high*.

    Every class (*classes*: all of them, in tie order, each with its probe)
    is at band *high* or lower, some class at *low* or higher, and the bands
    *low*..*high* score the same: the highest score any class reaches.
    Returns the winner's band, with a class at that band where the
    questions name one (else ``None``).  Threshold questions only:

    * "every trick" is 120 points, and so is a 90+ result in which the
      defenders take only tricks without points: the winner is the first
      class in tie order with 120 points, and it takes every trick or not;
    * from 31 up the bands are ranges of points, so the highest band a class
      reaches holds the winner;
    * below 31, a class without a trick holds exactly its discard's points:
      the best of those (most points, then tie order) wins unless a class
      that takes a trick has more points, or as many and an earlier place.
    """
    if high == ALL_TRICKS:
        for cls, probe in classes:
            if probe.takes_all():
                return cls, ALL_TRICKS
            if probe.at_least(120):
                return cls, SCHNEIDER
        high = SCHNEIDER
    for band in range(min(high, SCHNEIDER), max(low, LOST) - 1, -1):
        for cls, probe in classes:
            if probe.reaches_band(band):
                return cls, band
    assert low <= SCHNEIDERED, "no class reaches the tied bands"
    if low == SCHNEIDERED:
        return None, SCHNEIDERED
    top: tuple[DiscardClass, Probe] | None = None
    for cls, probe in classes:   # in tie order: a later class needs more points to win
        if probe.trickless() and (top is None or probe.discard_points > top[1].discard_points):
            top = cls, probe
    if top is None:
        return None, SCHNEIDERED
    points, place = top[1].discard_points, top[0].order
    for cls, probe in classes:
        if not probe.trickless() and probe.at_least(points + (0 if cls.order < place else 1)):
            return cls, SCHNEIDERED
    return top[0], NO_TRICK
