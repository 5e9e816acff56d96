"""The best contract for a deal: every game, picked up or hand, scored by the ISkO (the search).

This module holds the search: :class:`SeatSearch`, with :func:`best_contracts`
and :func:`best_all_seats` over it.  Its pieces are modules of their own: the
results (:mod:`~skatdd.analysis.best.results`, re-exported here), the score
bands and lazy probes (:mod:`~skatdd.analysis.best.bands`), the discards' tie
order and classes (:mod:`~skatdd.analysis.best.discards`) and the order the
discards are tried in (:mod:`~skatdd.analysis.best.discard_heuristic`).

:func:`best_contracts` answers, for one declarer seat and a deal whose skat is
the skat as dealt, what a double-dummy declarer should play (docs/cli.md,
``skatdd best``).  It reports one :class:`Option` for every
declarable game and returns them in a :class:`SeatReport`:

* the four suit games and grand, each **picked up** (the best of the 66
  discards of the twelve cards; the discard counts for the declarer) and
  **hand** (the skat untouched, counting for the declarer);
* null and null ouvert, each picked up and hand.  Double-dummy, null ouvert
  plays exactly like null (only the information differs), so it has the same
  result and best discard; only the fixed value differs.  A null whose fixed
  value is below the bid cannot be declared and is left out.

So there are 14 options when no bid excludes a null.  The fields of each
follow docs/cli.md:

``value``
    The declarer's final card points under double-dummy play, discard or skat
    included (``None`` for null).
``schneider`` / ``schwarz``
    ``'declarer'`` or ``'defenders'`` when that side reaches the level
    against the other, else ``None``.  Schneider is about points: value
    >= 90, or value <= 30.  Schwarz is about tricks and has its own trick
    queries: the declarer takes every trick against best defence
    (:meth:`~skatdd.engine.solve.Solver.declarer_takes_all`), or the defenders can
    keep him from taking any (:meth:`~skatdd.engine.solve.Solver.defenders_take_all`).
    Both are ``None`` for null.
``announce``
    Picked-up suit and grand games announce nothing (ISkO 5.2.5: only hand
    games may).  A hand game reports the set of announcements, implied levels
    included, that a double-dummy declarer can *safely* make -- schneider
    when he reaches 90, schwarz when he takes every trick, ouvert when he
    takes every trick with his cards open, which double-dummy is the same
    thing as schwarz -- choosing the safe set with the highest score (ties:
    the fewer announcements).  A declarer who loses announces nothing.  Null
    ouvert is ``game='null'`` with ``announce=['ouvert']``.
``matadors``, ``game_value``, ``score``, ``declarer_wins``
    From :func:`skatdd.core.scoring.score_game` over the twelve cards (hand plus
    skat), with the announcements and, when a bid is given, the overbid rule
    (ISkO 5.4.2: an overbid game is lost whatever the card points, so
    ``declarer_wins`` follows the score).

Choosing among discards
-----------------------
A picked-up option shows the discard with the highest score; among equal
scores the higher double-dummy value (suit and grand); among equal values the
discard that comes first *in order*.  The order: write each discard's two
cards in display order (jacks CJ SJ HJ DJ, then clubs, spades, hearts,
diamonds, each A T K Q 9 8 7) and compare the pairs lexicographically, first
card first -- so ``CJ SJ`` comes before ``CJ C7`` comes before ``SJ HJ``
(:func:`~skatdd.analysis.best.discards.discard_order_key`).  For null every
winning discard scores the same and has no value, so the first winning discard in that order is shown (the
first discard of all when none wins).

Choosing the best option
------------------------
``best`` is a copy of the option with the highest score.  Among equal scores
the first in the options list wins; the list runs grand, clubs, spades,
hearts, diamonds, null, null ouvert, and within each game the picked-up
option before the hand option (at equal double-dummy score the picked-up game
is the one a real declarer, who cannot see the cards, risks less with).

How the search is kept small
----------------------------
All queries go through one :class:`~skatdd.engine.solve.Solver`, whose
transposition table is keyed by the exact hands, so entries stay valid across
discards, thresholds and contracts (after the declarer's first card, two
discards often reach the very same hands).

1. *Score bands.*  For a picked-up suit or grand game the matadors (over the
   twelve cards) and the bid are fixed, so a discard's score depends only on
   its band: declarer without a trick, <= 30, 31..60, 61..89, >= 90, every
   trick.  The score is non-decreasing in the band (checked in
   :class:`~skatdd.analysis.best.bands.Bands`).  A discard is compared with the best so far (the
   incumbent) by the fewest null-window questions that decide "is its
   (score, value) higher?": usually one, "does it reach the incumbent's
   value + 1?" (proof in :meth:`PickedUpSearch._beats`).  Only a discard that
   beats the incumbent gets its exact value; the trick queries are asked
   only where they can matter (every trick needs value 120; no trick needs
   value = the discard's points, since a declarer kept trickless has exactly
   his discard).
2. *Equivalent discards.*  Two discards give the same value, tricks and
   score when they have the same card points and leave equivalent hands
   against the defenders' twenty cards (:mod:`skatdd.analysis.best.discards`,
   :mod:`skatdd.core.equivalence`: in every gap the defenders' cards leave
   in a follow group, the same multiset of card points); only the first
   discard of each class in the tie order is searched.  In null the points
   play no part, and the discard's own points do not matter.
3. *The hand game is a discard.*  The hand game's declarer holds the twelve
   cards minus the dealt skat, with the skat counting for him: exactly the
   picked-up game with the skat as its discard.  Its exact result seeds the
   picked-up search as the first incumbent.
4. *Heuristic order.*  After that seed, discards are tried best-looking
   first (:func:`~skatdd.analysis.best.discard_heuristic.discard_heuristic`:
   points banked, voids made; trumps and aces kept), so the
   incumbent is usually the winner early and later discards fail their one
   null-window question quickly.
5. *Null.*  Double-dummy null ouvert is null, so null ouvert costs nothing
   extra.  Discard classes are scanned in the tie order and the scan stops
   at the first discard that wins.
6. *Trick questions first.*  Before an exact points search the two trick
   questions are asked (they cost a handful of nodes): every trick fixes the
   value at 120, no trick at the discard's points, and neither needs a
   points search.
7. *Lines* are built only for ``best`` (``all_lines=True`` for every option):
   a line costs a null-window search per card.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from skatdd.core.cards import ALL_CARDS, Card, Mask, card_name, cards_of, display_sorted
from skatdd.core.errors import CardCountError, DuplicateCardError, InvalidSeatError, plural, quote
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, WIN_POINTS, Game
from skatdd.core.scoring import Declaration, Score, null_value, score_game
from skatdd.core.scoring import matadors as count_matadors
from skatdd.engine.solve import Solver, solver_or_default

from .bands import ALL_TRICKS, SCHNEIDERED, Bands, Probe, band_of, tricks_arg
from .discard_heuristic import discard_heuristic
from .discards import DiscardClass, discard_classes, discard_order_key
from .results import GAME_ORDER, Option, SeatReport, best_index, option_position

__all__ = [
    "GAME_ORDER", "Option", "SeatReport", "SeatSearch", "best_all_seats", "best_contracts", "discard_order_key",
    "option_position",
]

#: ``progress(done, total)`` while a search runs.
Progress = Callable[[int, int], None]


class SeatSearch:
    """The searches of one declarer seat on one deal, and the options they build (module docstring).

    *hands* and *skat* are the deal as dealt (masks), *declarer* the seat,
    *bid* the bid or ``None``; *progress* is called once per discard class
    searched.  :meth:`run` answers everything; :meth:`best_discard` (one
    picked-up game's best discard) and :meth:`position` (the deal with the
    declarer holding a given hand) serve ``odds`` as well.  Not thread-safe;
    every answer goes through *solver*.
    """

    def __init__(self, solver: Solver, hands: list[Mask], skat: Mask, declarer: int, bid: int | None,
                 progress: Progress | None) -> None:
        self.solver = solver
        self.hands = hands
        self.skat = skat
        self.declarer = declarer
        self.bid = bid
        self.twelve = hands[declarer] | skat
        self.defenders = ALL_CARDS & ~self.twelve
        self.progress = progress
        self.done = 0
        self.total = 0

    # -- helpers -----------------------------------------------------------
    def position(self, game: Game, hand: Mask, skat: Mask) -> Position:
        """The position before the first card of *game* with the declarer holding *hand* and *skat* as the skat."""
        hands = list(self.hands)
        hands[self.declarer] = hand
        return Position(game, self.declarer, hands, skat, leader=0)

    def tick(self, n: int = 1) -> None:
        """Count *n* discard classes as done and report progress."""
        self.done += n
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)

    def null_allowed(self, ouvert: bool, hand: bool) -> bool:
        """A null (*ouvert*, *hand*) can be declared after the bid (always without one)."""
        return self.bid is None or _null_allowed(ouvert, hand, self.bid)

    # -- suit and grand ----------------------------------------------------
    def points_game(self, game: Game, classes: list[DiscardClass]) -> list[Option]:
        """The picked-up and the hand option of a suit or grand game."""
        m = count_matadors(game, self.twelve)
        bands = Bands(game, m, self.bid)

        # Hand game = the discard of the dealt skat (reduction 3).
        hand_probe = Probe(self.solver, self.position(game, self.hands[self.declarer], self.skat))
        hand_outcome = hand_probe.outcome()
        hand_option = self._hand_option(game, m, *hand_outcome)
        self.tick()

        best, best_probe = self.best_discard(game, classes, bands, hand_probe)
        value, takes_all, trickless = best_probe.outcome()
        picked_option = self._option(game, Declaration(game), m, value, takes_all, trickless, list(best.discard))
        return [picked_option, hand_option]

    def best_discard(self, game: Game, classes: list[DiscardClass], bands: Bands,
                     hand_probe: Probe) -> tuple[DiscardClass, Probe]:
        """The discard class of a picked-up suit or grand *game* with the highest (score, value, tie order).

        *classes* are :func:`discard_classes` of the twelve cards, *bands*
        the game's band scores, *hand_probe* the hand game's probe (the dealt
        skat as discard), which seeds the search (reduction 3).  Returns the
        class and its probe, whose :meth:`Probe.outcome` is then cheap.
        """
        picked = PickedUpSearch(self, game, bands)
        skat_pair = tuple(display_sorted(cards_of(self.skat)))
        seed = next(c for c in classes if skat_pair in c.members)
        picked.offer_known(seed, hand_probe)
        rest = [c for c in classes if c is not seed]
        rest.sort(key=lambda c: (-discard_heuristic(game, self.twelve, c.discard), c.order))
        for cls in rest:
            picked.offer(cls)
            self.tick()
        assert picked.best is not None and picked.best_probe is not None
        return picked.best, picked.best_probe

    def _option(self, game: Game, decl: Declaration, m: int, value: int, takes_all: bool, trickless: bool,
                discard: list[Card] | None) -> Option:
        """The option of *decl* with the outcome (*value*, *takes_all*, *trickless*) and *m* matadors."""
        sc = score_game(decl, matadors=m, points=value, tricks=tricks_arg(takes_all, trickless), bid=self.bid)
        return _option_from_score(game, decl, discard, value, sc)

    def _hand_option(self, game: Game, m: int, value: int, takes_all: bool, trickless: bool) -> Option:
        """The hand option with the safe announcement set that scores highest."""
        candidates = [Declaration(game, hand=True)]
        if value >= SCHNEIDER_POINTS:
            candidates.append(Declaration(game, hand=True, schneider=True))
        if takes_all:
            candidates.append(Declaration(game, hand=True, schwarz=True))
            candidates.append(Declaration(game, ouvert=True))
        best: Option | None = None
        for decl in candidates:  # fewest announcements first: ties keep the earlier
            opt = self._option(game, decl, m, value, takes_all, trickless, None)
            if best is None or opt.score > best.score:
                best = opt
        assert best is not None
        return best

    # -- null ----------------------------------------------------------------
    def null_game(self, classes: list[DiscardClass]) -> list[Option]:
        """Null and null ouvert, picked up and hand (those the bid allows)."""
        want_picked = any(self.null_allowed(o, False) for o in (False, True))
        want_hand = any(self.null_allowed(o, True) for o in (False, True))
        options: list[Option] = []
        picked: tuple[list[Card], bool] | None = None
        if want_picked:
            chosen: DiscardClass | None = None
            for i, cls in enumerate(classes):  # tie order: the first winner is the answer
                self.tick()
                if self.solver.declarer_wins(self.position(Game.NULL, cls.hand, self.twelve & ~cls.hand)):
                    chosen = cls
                    self.tick(len(classes) - i - 1)
                    break
            wins = chosen is not None
            picked = (list((chosen or classes[0]).discard), wins)
        else:
            self.tick(len(classes))
        hand_wins: bool | None = None
        if want_hand:
            hand_wins = self.solver.declarer_wins(self.position(Game.NULL, self.hands[self.declarer], self.skat))
        self.tick()
        for ouvert in (False, True):
            if picked is not None and self.null_allowed(ouvert, False):
                options.append(self._null_option(ouvert, False, picked[0], picked[1]))
            if hand_wins is not None and self.null_allowed(ouvert, True):
                options.append(self._null_option(ouvert, True, None, hand_wins))
        return options

    def _null_option(self, ouvert: bool, hand: bool, discard: list[Card] | None, wins: bool) -> Option:
        """The null option (*ouvert*, *hand*) that the declarer *wins* or loses."""
        decl = Declaration(Game.NULL, hand=hand, ouvert=ouvert)
        sc = score_game(decl, tricks=0 if wins else 1, bid=self.bid)
        return _option_from_score(Game.NULL, decl, discard, None, sc)

    # -- lines ---------------------------------------------------------------
    def line(self, option: Option) -> list[Card]:
        """A principal variation of *option* from the first lead."""
        pos = option_position(option, self.hands, self.skat, self.declarer)
        return self.solver.line(pos, value=option.value)

    # -- everything ------------------------------------------------------------
    def run(self, *, all_lines: bool = False) -> tuple[Option, list[Option]]:
        """``(best, options)``: every option in :data:`GAME_ORDER`, and a copy of the best, its line filled.

        *all_lines* fills every option's line, not only the best one's.
        """
        plans: list[tuple[Game, list[DiscardClass]]] = []
        for game in GAME_ORDER:
            plans.append((game, discard_classes(game, self.twelve, self.defenders)))
        # One tick per discard class of every game (a suit or grand game's hand
        # game stands for its seed class) and one for the null hand game.
        self.total = sum(len(cs) for _, cs in plans) + 1
        options: list[Option] = []
        for game, classes in plans:
            if game.is_null:
                options.extend(self.null_game(classes))
            else:
                options.extend(self.points_game(game, classes))
        chosen_index = best_index(options)
        targets = options if all_lines else [options[chosen_index]]
        for opt in targets:
            opt.line = self.line(opt)
        chosen = options[chosen_index]
        best = replace(chosen, line=list(chosen.line), announce=list(chosen.announce),
                       discard=None if chosen.discard is None else list(chosen.discard))
        return best, options


def _null_allowed(ouvert: bool, hand: bool, bid: int) -> bool:
    """A null (ouvert, hand) can be declared after *bid*: its fixed value reaches the bid."""
    return null_value(Declaration(Game.NULL, hand=hand, ouvert=ouvert)) >= bid


def _option_from_score(game: Game, decl: Declaration, discard: list[Card] | None, value: int | None,
                       sc: Score) -> Option:
    """The :class:`Option` of *decl* scored *sc* (discard in display order)."""
    return Option(
        game=game, hand=decl.hand, discard=None if discard is None else display_sorted(discard),
        announce=decl.announce, value=value, declarer_wins=sc.declarer_wins,
        schneider=sc.schneider, schwarz=sc.schwarz, matadors=sc.matadors,
        game_value=sc.game_value, score=sc.score,
    )


class PickedUpSearch:
    """The search for the best discard of one picked-up suit or grand game.

    Keeps the incumbent (the best discard so far) with its exact band, value
    and score, and replaces it when a discard beats it in (score, value, tie
    order).
    """

    def __init__(self, seat: SeatSearch, game: Game, bands: Bands) -> None:
        self.seat = seat
        self.game = game
        self.bands = bands
        self.best: DiscardClass | None = None
        self.best_probe: Probe | None = None
        self.best_score = 0
        self.best_value = 0
        self.best_band = 0

    def _probe(self, cls: DiscardClass) -> Probe:
        dmask = self.seat.twelve & ~cls.hand
        return Probe(self.seat.solver, self.seat.position(self.game, cls.hand, dmask))

    def _adopt(self, cls: DiscardClass, probe: Probe) -> None:
        value, takes_all, trickless = probe.outcome()
        band = band_of(value, takes_all, trickless)
        self.best, self.best_probe = cls, probe
        self.best_score, self.best_value, self.best_band = self.bands.score[band], value, band

    def offer_known(self, cls: DiscardClass, probe: Probe) -> None:
        """Make *cls* (whose *probe* may already know its outcome) the first incumbent."""
        assert self.best is None
        self._adopt(cls, probe)

    def offer(self, cls: DiscardClass) -> None:
        """Consider *cls*; it becomes the incumbent when it beats it."""
        probe = self._probe(cls)
        if self.best is None or self._beats(cls, probe):
            self._adopt(cls, probe)

    def _beats(self, cls: DiscardClass, probe: Probe) -> bool:
        """Is (score, value, earlier in tie order) of *cls* higher than the incumbent's?

        Let S*, V*, B* be the incumbent's score, value and band, B+ the lowest
        band scoring more than S* (none when S* is the top score), and Blo the
        lowest band scoring S*; the score is non-decreasing in the band, so
        Blo <= B* < B+.  *cls* beats the incumbent iff (1) its band reaches
        B+, or (2) its band is at least Blo and its value exceeds V* -- or
        equals it when *cls* comes first in the tie order.

        * B+ = "a trick" (B* is trickless, so V* is the incumbent's discard
          points): a trickless *cls* has value = its own discard points, so
          it beats the incumbent iff those pass (2), or it can take a trick.
        * B+ = "every trick" with V* = 120: (1) is every trick, (2) needs 120
          points and an earlier place.
        * Blo = "every trick" (so B* too, and V* = 120): only an earlier
          discard that also takes every trick.
        * Otherwise the value test of (2) is necessary: when B+ is a points
          band its floor exceeds V*; when it is "every trick", 120 > V*.  And
          when the value test passes, the band test of (2) holds by itself
          (V* is at least Blo's floor) except for Blo = "<= 30 with a trick",
          where a value above the discard's points proves a trick and
          otherwise the trick is asked.  Reaching B+ after failing the band
          test is impossible: a trickless declarer has at most 22 points.
        """
        S, V = self.best_score, self.best_value
        assert self.best is not None
        earlier = cls.order < self.best.order
        target = V if earlier else V + 1
        up = self.bands.above(S)
        lowest = self.bands.lowest_equal(S)
        if up == SCHNEIDERED:
            return probe.discard_points >= target or not probe.trickless()
        if up == ALL_TRICKS and V == 120:
            return probe.takes_all() or (earlier and probe.at_least(120))
        if lowest == ALL_TRICKS:
            return earlier and probe.takes_all()
        if target > 120 or not probe.at_least(target):
            return False
        if lowest == SCHNEIDERED and target <= probe.discard_points:
            return not probe.trickless()
        return True



def _check_deal(hands: list[int], skat: int, declarer: int) -> None:
    """Raise for a seat other than 0..2 or a deal that is not 10+10+10+2 distinct cards (as masks)."""
    if isinstance(declarer, bool) or not isinstance(declarer, int) or not 0 <= declarer <= 2:
        raise InvalidSeatError(f"unknown seat {quote(declarer)}: expected 0, 1 or 2")
    if len(hands) != 3:
        raise CardCountError(f"a deal has three hands, got {len(hands)}")
    seen = 0
    for name, mask, want in [(f"hand {i}", h, 10) for i, h in enumerate(hands)] + [("skat", skat, 2)]:
        if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= ALL_CARDS:
            raise CardCountError(f"{name} must be a 32-bit card mask, got {quote(mask)}")
        if mask.bit_count() != want:
            raise CardCountError(f"{name} has {plural(mask.bit_count(), 'card')}: expected {want}")
        if seen & mask:
            raise DuplicateCardError(f"card {card_name(cards_of(seen & mask)[0])!r} appears twice in the deal")
        seen |= mask


def best_contracts(
    hands: list[int], skat: int, declarer: int, *, bid: int | None = None, solver: Solver | None = None,
    progress: Progress | None = None, all_lines: bool = False,
) -> SeatReport:
    """Every option of *declarer* for the deal, with the best (docs/cli.md, ``skatdd best``).

    Args:
        hands: the three ten-card hands as dealt, as masks (index = seat).
        skat: the two dealt skat cards, as a mask.
        declarer: the seat to analyse (0, 1, 2).
        bid: the bid, to apply the overbid rule and leave out nulls below it.
        solver: the :class:`~skatdd.engine.solve.Solver` to use (its table is kept
            and reused; pass one to share it across seats and deals; ``None``: a new default one).
        progress: called as ``progress(done, total)`` while the search runs.
        all_lines: compute the principal line of every option, not only of ``best``.

    Returns a :class:`SeatReport`; see the module docstring for every field
    and the tie rules.  Deterministic: the same deal gives the same report.

    Raises:
        InvalidSeatError: *declarer* is not 0, 1 or 2.
        CardCountError, DuplicateCardError: the deal is not 10+10+10+2 distinct cards.
        ScoringError: *bid* is not a valid bid (outside 18..264).
    """
    _check_deal(hands, skat, declarer)
    if bid is not None:
        score_game(Declaration(Game.GRAND), matadors=1, points=WIN_POINTS, bid=bid)  # validates the bid
    start = time.perf_counter()
    solver = solver_or_default(solver)
    nodes0 = solver.nodes
    seat = SeatSearch(solver, list(hands), skat, declarer, bid, progress)
    best, options = seat.run(all_lines=all_lines)
    return SeatReport(
        declarer=declarer, bid=bid, best=best, options=options,
        nodes=solver.nodes - nodes0, seconds=time.perf_counter() - start, hands=list(hands), skat=skat,
    )


def best_all_seats(
    hands: list[int], skat: int, *, bid: int | None = None, solver: Solver | None = None,
    progress: Progress | None = None, all_lines: bool = False, seats: Sequence[int] = (0, 1, 2),
) -> list[SeatReport]:
    """:func:`best_contracts` for each of *seats* (default all three), sharing one solver; *progress* spans them all."""
    solver = solver_or_default(solver)
    reports = []
    for k, seat in enumerate(seats):
        def seat_progress(done: int, total: int, k: int = k) -> None:
            if progress is not None:
                progress(k * total + done, len(seats) * total)
        reports.append(best_contracts(hands, skat, seat, bid=bid, solver=solver,
                                      progress=seat_progress if progress else None, all_lines=all_lines))
    return reports
