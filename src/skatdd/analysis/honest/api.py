"""Honest endgames for the declarer: the best strategy that plays the same card in worlds he cannot tell apart.

Plain single-dummy values (:mod:`skatdd.analysis.advise.api`) solve every world as if the
declarer could see it, so in two worlds he cannot tell apart he may play two
different cards ("strategy fusion"): that overrates his guesses.  Here the
declarer is honest: a *strategy* picks one card for each of his information
sets, a set of worlds he cannot tell apart because every card played so far
is the same in them (his own hand is the same in every world of his view;
the defenders' hands and, in a hand game, the skat differ).  The defenders
see every card and know his strategy: in each world they play the cards that
beat it if any do (alpha-mu search run to the end of the game, after
Cazenave & Ventos 2019; the worst case for the declarer, as PIMC's is the
best case).

For a declarer decision with at most *k* tricks left and a list of worlds
(with weights: see :mod:`skatdd.analysis.inference.api`), :func:`honest_card_values`
gives per legal card

``honest_win``
    the weighted fraction of the worlds won by the best honest strategy that
    starts with the card: ``max over strategies of sum(weight of worlds won)
    / sum(weights)``;
``pimc_win``
    the fused value, the weighted fraction of worlds the declarer wins
    double-dummy after the card.  Every honest strategy wins a subset of
    those worlds, so ``honest_win <= pimc_win``, with equality when there is
    one world.

The search (exact in that model): a node's value is the set of the
maximal sets of worlds some strategy wins from it (its Pareto front under
inclusion; sets of worlds are bit masks).  At a declarer node the fronts of
his cards are merged: one card for all worlds of the node.  At a defender
node the worlds split by the card played, and each world takes the child
worst for the declarer: every choice of one set per child combines into the
worlds won in every child the world could reach.  Worlds already decided
(the declarer's points reached, or out of reach) leave the search; a node
with one world is one double-dummy question to the engine; a declarer card
whose double-dummy wins are all inside a set already found cannot add a
better set and is skipped (alpha-mu's cut), and a set equal to every world
the declarer can win double-dummy ends the node.

Only the heaviest set of each root card is wanted, and the fronts grow as
the product of the children's fronts when each defender card leads to its
own guess (4,096 sets after one lead over 70 worlds; with 200 worlds no
answer in minutes).  So: a narrow search (:data:`BEAM` sets a node) finds
sets some strategy wins, a lower bound; a node is then asked only for the
sets that could beat it (its *floor*: the bound less the worlds outside the
node still open), at the root the children's sets are combined depth first
with a cut instead of into a front, and a world lost double-dummy after a
card, or lost in one child of a defender node whatever the declarer does,
is dropped from the other subtrees.  docs/inference.md has the measurements.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skatdd.analysis.worlds.space import World
from skatdd.analysis.worlds.values import WinRule, card_results, world_position
from skatdd.core.cards import CARD_POINTS, CARDS, Card, display_sorted
from skatdd.core.errors import DealFormatError, plural
from skatdd.core.position import Position
from skatdd.core.rules import legal_mask, trick_winner
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver, solver_or_default

from .fronts import Front, Weigher, Worlds, heaviest, maximal
from .results import HonestBudgetExceeded, HonestCard, HonestResult

__all__ = ["DEFAULT_BUDGET", "DEFAULT_TRICKS", "HonestBudgetExceeded", "HonestCard", "HonestResult",
           "honest_card_values"]

#: The most tricks left at which an honest search is run by default (measured: docs/inference.md).
DEFAULT_TRICKS = 4
#: The most search nodes (memoised fronts) one decision may take by default before it gives up.
DEFAULT_BUDGET = 20_000


class _Search:
    """One honest search: the worlds' hands, the win rule, the engine and the memo of fronts."""

    def __init__(self, root: Position, worlds: Sequence[Position], weights: Sequence[float], rule: WinRule,
                 solver: Solver, budget: int) -> None:
        self.budget = budget
        self.game = root.game
        self.declarer = root.declarer
        self.rule = rule
        self.solver = solver
        self.hands = [list(w.hands) for w in worlds]
        self.skats = [w.skat for w in worlds]
        self.skat_points = [0 if root.game.is_null else sum(CARD_POINTS[c] for c in range(32) if w.skat >> c & 1)
                            for w in worlds]
        # A node's memo holds its list and the threshold it was computed under (see front()).
        self.memo: dict[tuple[Any, ...], tuple[Front, float]] = {}
        self.dd_memo: dict[tuple[Any, ...], dict[Card, Worlds]] = {}
        self.beams: dict[tuple[Any, ...], Front] = {}
        self.nodes = 0
        self.searches = 0
        self.weight = Weigher(weights)
        # Weights are summed in different orders along different paths: a set is dropped only when its bound
        # lies this far below the threshold, so rounding never drops a set the exact sums would keep.
        self.eps = 1e-9 * (self.weight(self.weight.everyone) + 1.0)

    # -- one world ---------------------------------------------------------
    def _position(self, w: int, st: _State) -> Position:
        hands = [h & ~st.played for h in self.hands[w]]
        return Position(self.game, self.declarer, hands, self.skats[w], st.leader, list(st.trick), st.declarer_points,
                        st.declarer_tricks, st.defender_tricks)

    def _wins(self, w: int, st: _State) -> bool:
        """Double-dummy: does the declarer win world *w* from *st*?"""
        pos = self._position(w, st)
        self.searches += 1
        if self.rule.kind == "null":
            return self.solver.declarer_wins(pos)
        if self.rule.kind == "schwarz":
            return self.solver.declarer_takes_all(pos)
        return self.solver.reaches(pos, self.rule.points)

    # -- decided worlds ----------------------------------------------------
    def _settle(self, worlds: Worlds, st: _State) -> tuple[Worlds, Worlds]:
        """``(won, open)``: the worlds won whatever is played from *st*, and those still to search."""
        rule = self.rule
        if rule.kind == "null":
            return (0, 0) if st.declarer_tricks else (worlds if st.over else 0, 0 if st.over else worlds)
        if rule.kind == "schwarz":
            if st.defender_tricks:
                return 0, 0
            return (worlds, 0) if st.over else (0, worlds)
        if 120 - st.defender_points < rule.points:
            return 0, 0
        won = 0
        w = worlds
        while w:
            low = w & -w
            if st.declarer_points + self.skat_points[low.bit_length() - 1] >= rule.points:
                won |= low
            w ^= low
        rest = worlds & ~won
        return won, 0 if st.over else rest

    # -- the search --------------------------------------------------------
    def front(self, worlds: Worlds, st: _State, floor: float = -1.0) -> Front:
        """Sets of *worlds* that declarer strategies win from *st*: every maximal one heavier than *floor*.

        The list holds only sets some strategy wins, none inside another,
        and every maximal set (the Pareto front) whose weight exceeds
        *floor*; lighter ones may be left out (none when *floor* < 0).  A
        caller that needs only sets heavier than a bound passes it down:
        that is what keeps the fronts small (module docstring).
        """
        won, rest = self._settle(worlds, st)
        if not rest:
            return [won]
        if rest & (rest - 1) == 0:
            w = rest.bit_length() - 1
            return [won | (rest if self._wins(w, st) else 0)]
        floor -= self.weight(won)
        if self.weight(rest) <= floor - self.eps:
            return []  # not even every open world would be heavy enough
        key = (st.key(), rest)
        memo = self.memo.get(key)
        if memo is not None and memo[1] <= floor + self.eps:
            found = memo[0]
        else:
            self.nodes += 1
            if self.nodes > self.budget:
                raise HonestBudgetExceeded(f"the honest search needed more than {self.budget} nodes")
            found = self._max(rest, st, floor) if st.to_move == self.declarer else self._min(rest, st, floor)
            self.memo[key] = (found, floor)
        weight = self.weight
        return [won | s for s in found if weight(s) > floor - self.eps]

    def _legal(self, w: int, st: _State) -> int:
        hand = self.hands[w][st.to_move] & ~st.played
        return legal_mask(hand, st.trick[0] if st.trick else None, self.game)

    def _split(self, worlds: Worlds, st: _State) -> dict[Card, Worlds]:
        """At a defender node: per card the defender to move may play, the worlds in which he holds it."""
        by_card: dict[Card, Worlds] = {}
        w = worlds
        while w:
            low = w & -w
            legal = self._legal(low.bit_length() - 1, st)
            while legal:
                bit = legal & -legal
                card = CARDS[bit.bit_length() - 1]
                by_card[card] = by_card.get(card, 0) | low
                legal ^= bit
            w ^= low
        return by_card

    def dd_wins(self, worlds: Worlds, st: _State) -> dict[Card, Worlds]:
        """Per card the seat to move at *st* may play, the worlds the declarer wins double-dummy after it."""
        key = (st.key(), worlds)
        out = self.dd_memo.get(key)
        if out is not None:
            return out
        out = {}
        w = worlds
        while w:
            low = w & -w
            i = low.bit_length() - 1
            self.searches += 1
            for card, (_, wins) in card_results(self._position(i, st), self.rule, solver=self.solver).items():
                out[card] = out.get(card, 0) | (low if wins else 0)
            w ^= low
        self.dd_memo[key] = out
        return out

    def _max(self, worlds: Worlds, st: _State, floor: float) -> Front:
        """A declarer node: one card for every world; the union of the cards' fronts, maximal sets only."""
        bounds = self.dd_wins(worlds, st)
        everything = 0
        for wins in bounds.values():
            everything |= wins
        front: Front = []
        weight = self.weight
        for card in sorted(bounds, key=lambda c: -weight(bounds[c])):
            if weight(bounds[card]) <= floor - self.eps:
                break  # every set a card wins lies inside its double-dummy wins: this and the rest are too light
            if any(bounds[card] | s == s for s in front):
                continue  # every set this card can win lies inside one already found
            # a world the card loses double-dummy is lost in every set: the child need not carry it
            front = maximal(front + self.front(bounds[card], st.after(card, self.game), floor))
            if everything in front:
                return [everything]
        return front

    def _children(self, worlds: Worlds, st: _State, floor: float) -> list[tuple[Worlds, Front]] | None:
        """A defender node's children as ``(worlds reaching it, its front)``, or ``None`` if no set can be heavier
        than *floor*.  A world some child loses whatever the declarer does is lost here: the children after it
        are searched without it (their sets are the same on the other worlds), and each is asked only for sets
        heavier than *floor* less the open worlds outside it.  The children with fewer worlds are searched first:
        they cost less and narrow the larger ones.  They are returned largest front first, the order both
        callers combine them in: a partial set is narrowed by the guesses that matter most before the many
        small choices multiply it (docs/inference.md: 85 s -> 4.9 s on one position whose largest front held
        3,672 sets)."""
        by_card = self._split(worlds, st)
        dd = self.dd_wins(worlds, st)
        weight, eps = self.weight, self.eps
        children: list[tuple[Worlds, Front]] = []
        open_ = worlds  # the worlds no child has lost whatever the declarer does: at first, those won double-dummy
        for card, reach in by_card.items():
            open_ &= dd.get(card, 0) | ~reach
        for card in sorted(by_card, key=lambda c: by_card[c].bit_count()):
            reach = by_card[card]
            if not reach & open_:
                continue  # its worlds are lost already: nothing it does changes a set
            child = self.front(reach & open_, st.after(card, self.game), floor - weight(open_ & ~reach))
            if not child:
                return None
            union = 0
            for s in child:
                union |= s
            open_ &= union | ~reach
            children.append((reach, child))
            if weight(open_) <= floor - eps:
                return None
        children.sort(key=lambda c: -len(c[1]))
        return children

    @staticmethod
    def _caps(worlds: Worlds, children: list[tuple[Worlds, Front]]) -> list[Worlds]:
        """``caps[i]``: the most of *worlds* any choice of sets in ``children[i:]`` leaves."""
        caps = [worlds] * (len(children) + 1)
        for i in range(len(children) - 1, -1, -1):
            reach, child = children[i]
            union = 0
            for s in child:
                union |= s
            caps[i] = caps[i + 1] & (union | ~reach)
        return caps

    def _min(self, worlds: Worlds, st: _State, floor: float) -> Front:
        """A defender node: the worlds split by the card played; each world takes its worst child.

        A set heavier than *floor* here is, inside a child's worlds, one of
        the child's sets, and outside them at most the worlds the children
        seen so far leave open: so each child is asked only for sets heavier
        than *floor* less those, and while the children's sets are combined a
        partial set is dropped as soon as what the children still to come
        leave of it is too light.
        """
        children = self._children(worlds, st, floor)
        if children is None:
            return []
        caps = self._caps(worlds, children)
        weight, eps = self.weight, self.eps
        result: Front = [worlds]
        for i, (reach, child) in enumerate(children):
            cap = caps[i + 1]
            result = maximal([c for r in result for s in child
                               if weight((c := r & (s | ~reach)) & cap) > floor - eps])
            if not result:
                return []
        return result

    # -- the root: only the heaviest set is wanted ------------------------
    def best(self, worlds: Worlds, st: _State, floor: float) -> Worlds | None:
        """The heaviest set of *worlds* a strategy wins from *st* if it is heavier than *floor*, else ``None``.

        Like :meth:`front`, but a defender node's children's fronts are not
        combined into a front: a depth-first choice of one set per child,
        cut as soon as what the children still to come leave is no heavier
        than the best found, finds the heaviest combination alone.
        """
        won, rest = self._settle(worlds, st)
        weight, eps = self.weight, self.eps
        if not rest or rest & (rest - 1) == 0:
            found = self.front(worlds, st)[0]
            return found if weight(found) > floor + eps else None
        floor -= weight(won)
        best: Worlds | None = None
        if st.to_move == self.declarer:
            bounds = self.dd_wins(rest, st)
            for card in sorted(bounds, key=lambda c: -weight(bounds[c])):
                if weight(bounds[card]) <= floor + eps:
                    break
                got = self.best(bounds[card], st.after(card, self.game), floor)
                if got is not None:
                    best, floor = got, weight(got)
            return None if best is None else won | best
        children = self._children(rest, st, floor)
        if children is None:
            return None
        caps = self._caps(rest, children)
        n = len(children)

        def combine(i: int, r: Worlds) -> None:
            nonlocal best, floor
            if weight(r & caps[i]) <= floor + eps:
                return
            if i == n:
                best, floor = r, weight(r)
                return
            reach, child = children[i]
            for s in sorted(child, key=lambda m: -weight(m)):
                combine(i + 1, r & (s | ~reach))

        combine(0, rest)
        return None if best is None else won | best

    # -- a lower bound: a narrow search ------------------------------------
    def beam(self, worlds: Worlds, st: _State) -> Front:
        """Sets of *worlds* that strategies win from *st*: the search of :meth:`front` keeping only the
        :data:`BEAM` heaviest sets at each node, so every set is won by some strategy (a lower bound) at a
        cost that cannot blow up."""
        won, rest = self._settle(worlds, st)
        if not rest:
            return [won]
        if rest & (rest - 1) == 0:
            return [won | (rest if self._wins(rest.bit_length() - 1, st) else 0)]
        key = (st.key(), rest)
        found = self.beams.get(key)
        if found is None:
            weight = self.weight
            if st.to_move == self.declarer:
                bounds = self.dd_wins(rest, st)
                found = []
                for card in sorted(bounds, key=lambda c: -weight(bounds[c])):
                    if any(bounds[card] | s == s for s in found):
                        continue
                    found = heaviest(maximal(found + self.beam(bounds[card], st.after(card, self.game))), weight)
            else:
                found = [rest]
                for card, reach in self._split(rest, st).items():
                    child = self.beam(reach, st.after(card, self.game))
                    found = heaviest(maximal([r & (s | ~reach) for r in found for s in child]), weight)
            self.beams[key] = found
        return [won | s for s in found]


@dataclass(frozen=True)
class _State:
    """The public state of a node: every card played since the root, the trick, the score."""

    played: int
    leader: int
    trick: tuple[Card, ...]
    declarer: int
    declarer_points: int
    defender_points: int
    declarer_tricks: int
    defender_tricks: int
    cards_left: int

    @property
    def to_move(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) % 3

    @property
    def over(self) -> bool:
        """Every card is played."""
        return self.cards_left == 0

    def key(self) -> tuple[Any, ...]:
        """What the futures of two nodes with the same worlds depend on."""
        return (self.played, self.leader, self.trick, self.declarer_points, self.defender_points,
                self.declarer_tricks, self.defender_tricks)

    def after(self, card: Card, game: Any) -> _State:
        """The state after the seat to move plays *card*."""
        trick = (*self.trick, card)
        played = self.played | 1 << card
        if len(trick) < 3:
            return _State(played, self.leader, trick, self.declarer, self.declarer_points, self.defender_points,
                          self.declarer_tricks, self.defender_tricks, self.cards_left - 1)
        winner = (self.leader + trick_winner(list(trick), game)) % 3
        points = sum(CARD_POINTS[c] for c in trick)
        if winner == self.declarer:
            return _State(played, winner, (), self.declarer, self.declarer_points + points, self.defender_points,
                          self.declarer_tricks + 1, self.defender_tricks, self.cards_left - 1)
        return _State(played, winner, (), self.declarer, self.declarer_points, self.defender_points + points,
                      self.declarer_tricks, self.defender_tricks + 1, self.cards_left - 1)


def honest_card_values(pos: Position, declaration: Declaration, worlds: Sequence[World], k: int = DEFAULT_TRICKS, *,
                       weights: Sequence[float] | None = None, solver: Solver | None = None,
                       budget: int = DEFAULT_BUDGET) -> HonestResult:
    """Per legal declarer card, ``honest_win`` and ``pimc_win`` over *worlds* (module docstring).

    *pos* is the game in play with the declarer to move; only its public
    state and the declarer's hand are used: each of *worlds* (the declarer's
    view's worlds, :func:`skatdd.analysis.worlds.draw.choose_worlds` or
    :func:`skatdd.analysis.inference.api.weighted_worlds`) gives the other hands and the
    skat.  *weights* (default: all 1) weigh the worlds; *declaration* gives
    the winning level (:class:`skatdd.analysis.advise.api.WinRule`).  The search stops
    with :class:`HonestBudgetExceeded` after *budget* nodes.  Raises
    :class:`~skatdd.core.errors.DealFormatError` when a defender is to move, the
    game is over, the declarer holds more than *k* cards, no world is given,
    or the weights do not match the worlds.
    """
    started = time.perf_counter()
    if pos.is_over():
        raise DealFormatError("the game is over in this position: no card is left to choose")
    if pos.to_move != pos.declarer:
        raise DealFormatError(f"an honest search is for the declarer's decisions: seat {pos.to_move} to move "
                              f"is a defender (the declarer is seat {pos.declarer})")
    left = pos.hands[pos.declarer].bit_count()
    if left > k:
        raise DealFormatError(f"the declarer holds {left} cards: an honest search runs with at most {k} tricks left")
    if not worlds:
        raise DealFormatError("an honest search needs at least one world")
    weights = [1.0] * len(worlds) if weights is None else list(weights)
    if len(weights) != len(worlds) or any(w <= 0 for w in weights):
        raise DealFormatError(f"{plural(len(weights), 'weight')} for {plural(len(worlds), 'world')}: expected one "
                              "positive weight each")
    solver = solver_or_default(solver)
    positions = [world_position(pos, w) for w in worlds]
    search = _Search(pos, positions, weights, WinRule.of(declaration), solver, budget)
    defender_points = _defender_points(pos)
    root = _State(0, pos.leader, tuple(pos.trick), pos.declarer, pos.declarer_points, defender_points,
                  pos.declarer_tricks, pos.defender_tricks, pos.cards_left)
    everyone = (1 << len(worlds)) - 1
    bounds = search.dd_wins(everyone, root)
    total = sum(weights)

    def share(mask: Worlds) -> float:
        return sum(weights[i] for i in range(len(weights)) if mask >> i & 1) / total

    weight = search.weight
    cards = []
    for card in display_sorted(bounds):
        after = root.after(card, pos.game)
        # One strategy's wins are a lower bound; only sets heavier than it are searched for, and none when it
        # already wins every world won double-dummy after the card.
        best = max(search.beam(bounds[card], after), key=weight)
        if weight(best) < weight(bounds[card]) - search.eps:
            best = search.best(bounds[card], after, weight(best)) or best
        cards.append(HonestCard(card, share(best), share(bounds[card])))
    return HonestResult(cards, len(worlds), search.nodes, search.searches, time.perf_counter() - started)


def _defender_points(pos: Position) -> int:
    """Card points in the defenders' completed tricks: all 120 less the declarer's, the skat and the cards in play."""
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | sum(1 << c for c in pos.trick)
    rest = sum(CARD_POINTS[c] for c in range(32) if (in_play | pos.skat) >> c & 1)
    return 120 - pos.declarer_points - rest
