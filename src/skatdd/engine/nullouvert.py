"""Is this null ouvert unbeatable?  Every distribution, double-dummy and honest.

:func:`analyse` takes the declarer's ten cards (after the discard), his seat
(seat 0 leads the first trick) and, when known, the two skat cards, and
answers two questions (docs/cli.md, ``skatdd null-ouvert``):

* **Double dummy, world by world.**  A *world* is one way the unseen cards
  lie: the split of the 20 unseen cards between the defenders (184,756 with
  a known skat) or, in a hand game, also which 2 of the 22 unseen cards are
  the skat (42,678,636 worlds).  In each world the defenders, seeing every
  card, either can force the declarer to take a trick (the world is *lost*)
  or not.  Worlds are counted one by one, but solved once per class of
  worlds that play identically: per suit, only the order of the cards in
  play and who holds each matters (the skat's cards never play), so two
  worlds whose suits give the same rank-normalised patterns, with the same
  seat holding each position, are one class.  The class sizes are products
  of per-suit multiplicities.  One double-dummy table, keyed by the
  rank-normalised, suit-sorted position at trick boundaries, is shared by
  every class (skatdd/_nullouvert, nullouvert_dd.pxi).

* **Honest.**  Can one declarer strategy that uses only what he sees (his
  cards, the cards played, the voids shown) win in every world, the
  defenders playing as if they saw everything?  A history fixes the
  declarer's information set, and the worlds consistent with it are the
  splits of the unseen cards that respect the voids shown: an AND-OR search
  over these information states (the declarer ORs over his cards, the
  defenders AND over every card some consistent world lets them play)
  decides it exactly (nullouvert_honest.pxi).  It never claims more than the
  double-dummy answer, so it runs first: when it wins, every world is won
  and no world needs solving.  When every world is won double-dummy but the
  honest answer is no, :class:`Guess` names the decision where every card
  fails and, per card, a world that beats it.

>>> r = analyse("C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", declarer=1, skat="CA SA")
>>> r.worlds, r.worlds_lost, r.unbeatable
(184756, 0, True)
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from skatdd.core.cards import Card, Mask, card_name, cards_of, format_cards, mask_of, parse_cards
from skatdd.core.errors import CardCountError, DuplicateCardError, plural, quote
from skatdd.core.rules import parse_seat

from . import _nullouvert
from .nullouvert_blocks import block_order, permute_mask, permute_suits, safe_positions
from .nullouvert_results import Guess, NullOuvertResult, World
from .threads import run_threads, usable_cores

__all__ = ["Guess", "HonestState", "NullOuvertAnalyser", "NullOuvertResult", "World", "analyse"]

#: Threads one count of worlds runs on at most (the engine's share of the work has room for so many).
MAX_JOBS = 64

#: The memo (MiB) of each thread but the first: the relaxed game of blocks keeps its states there
#: (at 1 MiB the hardest hand game with ``jobs=2`` took 97.0M nodes, at 16 MiB 87.0M, at 64 MiB 87.2M).
WORKER_MEMO_MB = 16


#: ``(D, U, void_left, void_right, cnt_left, cnt_right, k, declarer, leader, trick)``: the
#: declarer's hand, the unseen live cards, the suits each defender has shown void in (bit
#: per suit), the defenders' card counts, the unseen skat cards, the declarer's seat, the
#: current leader and the cards on the table; see
#: :meth:`skatdd.engine._nullouvert.NullSolver.honest_wins`.
HonestState = tuple[int, int, int, int, int, int, int, int, int, tuple[int, ...]]


class NullOuvertAnalyser:
    """Runs analyses with one :class:`~skatdd.engine._nullouvert.NullSolver` (tables shared across calls).

    The game may be reduced (fewer than ten cards a hand: the tests do so):
    the declarer holds *n* cards and the unseen pool holds ``2n`` cards plus
    the unseen skat cards (0 or 2); every other card is out of play.
    """

    def __init__(self, tt_mb: int = 128) -> None:
        self.solver = _nullouvert.NullSolver(tt_mb)
        self._workers: list[_nullouvert.NullSolver] = []
        #: prove blocks of classes at once (nullouvert_block.pxi): None lets
        #: nullouvert_blocks.block_order decide per hand game (where blocks are large);
        #: True always, False never (the answers are the same)
        self.blocks: bool | None = None

    # -- double dummy over the worlds --------------------------------------
    @staticmethod
    def suit_patterns(hand: Mask, pool: Mask, k: int, suit: int,
                      defender_leads: bool = False) -> list[tuple[int, int, int, int, int, int, Mask, Mask]]:
        """Distinct rank-normalised patterns of one suit with multiplicities.

        Each entry is ``(k_s, l_s, d, left, right, mult, skat_rep, left_rep)``:
        k_s unseen cards of the suit in the skat, l_s with the left defender;
        *d*, *left*, *right* the declarer's and defenders' cards compressed
        onto the suit's live cards (bit i = the i-th lowest live card) and
        placed in the suit's byte; *mult* the number of real choices (skat
        part, left part) giving it; one representative real choice, the first
        in the order of the choices.

        With *defender_leads* (a defender leads the first trick), a suit that
        is safe for the declarer (his i-th lowest card has at most i other
        live cards below it) takes its canonical form, his cards lowest and
        the defenders' above them in their own order: it plays alike (the
        double-dummy search keys such suits the same way, nullouvert_dd.pxi),
        so the patterns that agree in it are one.
        """
        base = suit * 8
        d_cards = [c for c in range(base, base + 8) if hand >> c & 1]
        p_cards = [c for c in range(base, base + 8) if pool >> c & 1]
        found: dict[tuple[int, int, int, int], list[Any]] = {}
        for ks in range(0, min(k, len(p_cards)) + 1):
            for skat_part in itertools.combinations(p_cards, ks):
                rest = [c for c in p_cards if c not in skat_part]
                live = sorted(d_cards + rest)
                if defender_leads and safe_positions([live.index(c) for c in d_cards]):
                    live = d_cards + rest
                pos = {c: i for i, c in enumerate(live)}
                dmask = sum(1 << pos[c] for c in d_cards)
                for ls in range(len(rest) + 1):
                    for left in itertools.combinations(rest, ls):
                        lmask = sum(1 << pos[c] for c in left)
                        key = (ks, ls, dmask, lmask)
                        entry = found.get(key)
                        if entry is None:
                            full = (1 << len(live)) - 1
                            found[key] = [1, mask_of(skat_part), mask_of(left), full & ~dmask & ~lmask]
                        else:
                            entry[0] += 1
        out = []
        for (ks, ls, dmask, lmask), (mult, skat_rep, left_rep, rmask) in found.items():
            out.append((ks, ls, dmask << base, lmask << base, rmask << base, mult, skat_rep, left_rep))
        out.sort(key=lambda p: (p[0], p[1]))
        return out

    @staticmethod
    def canonical_pattern(d: int, left: int, live: int) -> tuple[int, int]:
        """A suit's canonical form with a defender on lead: ``(d, left)`` compressed onto its *live* lowest bits.

        When the suit is safe for the declarer (his i-th lowest card is at
        most the 2i-th lowest live card), his cards go lowest and the
        defenders' above them in their own order (suit_sig() in
        nullouvert_dd.pxi); otherwise the pattern is its own form.
        """
        his = [pos for pos in range(live) if d >> pos & 1]
        if not safe_positions(his):
            return d, left
        theirs = [pos for pos in range(live) if not d >> pos & 1]
        return (1 << len(his)) - 1, sum(1 << (len(his) + j) for j, pos in enumerate(theirs) if left >> pos & 1)

    @classmethod
    def suit_groups(cls, hand: Mask, pool: Mask, k: int, suit: int,
                    declarer_leads: bool) -> tuple[list[tuple[int, int, int, int, int, int, Mask, Mask]], list[list[int]]]:
        """One suit's patterns (:meth:`suit_patterns`) and their groups, as lists of indices into them.

        With a defender on lead the patterns are merged by safe suits
        (``defender_leads``) and each is a group of its own.  With the
        declarer on lead they are the plain ones, grouped by their canonical
        form (:meth:`canonical_pattern`), in the order of their first
        patterns (so sorted by ``(k, l)`` like the patterns): the engine
        solves a group's patterns together (nullouvert_worlds.pxi).
        """
        pats = cls.suit_patterns(hand, pool, k, suit, defender_leads=not declarer_leads)
        if not declarer_leads:
            return pats, [[i] for i in range(len(pats))]
        base = suit * 8
        groups: dict[tuple[int, int, int, int], list[int]] = {}
        for i, (ks, ls, d, left, right, *_rest) in enumerate(pats):
            live = ((d | left | right) >> base).bit_count()
            form = cls.canonical_pattern(d >> base, left >> base, live)
            groups.setdefault((ks, ls, *form), []).append(i)
        return pats, list(groups.values())

    def count_worlds(self, hand: Mask, pool: Mask, k: int, declarer: int,
                     jobs: int = 1) -> tuple[int, int, int, World | None]:
        """Solve every world of the deal: ``(worlds, lost, classes, first lost world or None)``.

        *pool*: the unseen cards (defenders' hands plus the k unseen skat
        cards).  *jobs*: threads solving the classes, each with a solver of
        its own, all on one table (:meth:`solvers`), fewer when
        :meth:`count_jobs` says so;
        every figure but the node count is the same whatever *jobs*.  The
        first lost world is the first in the order of the plain patterns,
        whatever the merge and the threads.
        """
        n = hand.bit_count()
        suits = [self.suit_groups(hand, pool, k, s, declarer_leads=declarer == 0) for s in range(4)]
        solvers = self.solvers(self.count_jobs(k, jobs))
        order = None if self.blocks is False else block_order(suits, hand, pool, k, declarer, force=bool(self.blocks))
        counted, blocks = suits, None
        if order is not None:
            counted = permute_suits(suits, order)
            blocks = (permute_mask(hand, order) & 0xFF000000, permute_mask(pool, order) & 0xFF000000,
                      tuple(order.index(s) for s in range(4)))
        plan = _nullouvert.WorldClasses(
            [[[(*pats[i][:6], i) for i in group] for group in groups] for pats, groups in counted], k, n, len(solvers),
            blocks)
        runs = run_threads([partial(solver.count_worlds, plan, declarer) for solver in solvers], plan.stop)
        worlds, lost, classes = (sum(run[0] for run in runs), sum(run[1] for run in runs),
                                 sum(run[2] for run in runs))
        first = _nullouvert.WorldClasses.first([run[3] for run in runs])
        world = None
        if first is not None:
            skat = left = 0
            for s in range(4):
                p = suits[s][0][first[s]]
                skat |= p[6]
                left |= p[7]
            right = pool & ~skat & ~left
            hands = [0, 0, 0]
            hands[declarer] = hand
            hands[(declarer + 1) % 3] = left
            hands[(declarer + 2) % 3] = right
            world = World((hands[0], hands[1], hands[2]), skat)
        return worlds, lost, classes, world

    @staticmethod
    def count_jobs(k: int, jobs: int) -> int:
        """The threads a count of worlds with *k* unseen skat cards runs on, given *jobs*.

        A known skat's count (``k == 0``: at most 184,756 classes, a
        fraction of a second) runs on one: two threads were no faster there
        (two-gaps-R 0.58 s wall either way, ace-C-M 0.11 s against 0.16 s:
        their tables share nothing, and the count is too short to pay).
        """
        return jobs if k else 1

    def solvers(self, jobs: int) -> list[_nullouvert.NullSolver]:
        """*jobs* solvers for the count of worlds: :attr:`solver` and ``jobs - 1`` more, kept for later counts.

        The others share :attr:`solver`'s double-dummy table (one of the
        analyser's ``tt_mb`` for every thread: its entries are exact, and a
        thread's stores serve the others), each with a near cache, counters
        and a memo of :data:`WORKER_MEMO_MB` of its own (the relaxed game of
        blocks; the honest search runs on :attr:`solver` only).  At most
        :data:`MAX_JOBS`.
        """
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        jobs = min(jobs, MAX_JOBS)
        while len(self._workers) < jobs - 1:
            self._workers.append(_nullouvert.NullSolver(self.solver.tt_mb, WORKER_MEMO_MB, share=self.solver))
        return [self.solver, *self._workers[:jobs - 1]]

    def dd_lose(self, world: World, declarer: int) -> bool:
        """True when the defenders beat the declarer in *world* from the first trick."""
        return self.solver.dd_lose(list(world.hands), declarer, 0, ())

    def dd_line(self, world: World, declarer: int) -> list[Card]:
        """The defenders' winning line in a lost *world*, ending with the trick the declarer takes."""
        return [Card(c) for c in self.solver.dd_line(list(world.hands), declarer, 0, ())]

    # -- honest search -----------------------------------------------------
    @staticmethod
    def root_state(hand: Mask, pool: Mask, k: int, declarer: int) -> HonestState:
        n = hand.bit_count()
        return (hand, pool, 0, 0, n, n, k, declarer, 0, ())

    @staticmethod
    def play(state: HonestState, card: Card, shows_void: bool = False) -> HonestState:
        """The state after the player to move plays *card* (*shows_void*: a defender's discard)."""
        D, U, v0, v1, c0, c1, k, decl, leader, trick = state
        seat = (leader + len(trick)) % 3
        if seat == decl:
            D &= ~(1 << card)
        else:
            p = (seat - decl + 2) % 3
            U &= ~(1 << card)
            if p == 0:
                c0 -= 1
            else:
                c1 -= 1
            if trick and card >> 3 != trick[0] >> 3:
                if p == 0:
                    v0 |= 1 << (trick[0] >> 3)
                else:
                    v1 |= 1 << (trick[0] >> 3)
        trick = tuple(trick) + (card,)
        if len(trick) == 3:
            led = trick[0] >> 3
            best = max((i for i in range(3) if trick[i] >> 3 == led), key=lambda i: trick[i])
            leader = (leader + best) % 3
            trick = ()
        return (D, U, v0, v1, c0, c1, k, decl, leader, trick)

    def honest_wins(self, state: HonestState) -> bool:
        return self.solver.honest_wins(state)

    def find_guess(self, root: HonestState, skat_known: Mask) -> Guess | None:
        """Walk the refutation of a root the honest search lost, every world being won double-dummy.

        Defenders play a card that keeps the declarer beaten; at each
        declarer decision (all of whose cards fail) the walk stops when every
        card has a world in which it loses double-dummy, else it follows a
        card without one (its failure lies in a later decision).
        """
        state = root
        history: list[Card] = []
        for _ in range(40):
            D, _U, _v0, _v1, _c0, _c1, _k, decl, leader, trick = state
            moves = self.solver.honest_moves(state)
            if not moves:
                return None
            if (leader + len(trick)) % 3 == decl:
                refs: list[tuple[Card, World]] = []
                unrefuted = None
                led = trick[0] >> 3 if trick else None
                follow = D & (0xFF << (8 * led)) if led is not None else 0
                for card in cards_of(follow or D):
                    r = self.solver.refute(state, card)
                    if r is None:
                        unrefuted = card
                        break
                    left, right, skat = r
                    refs.append((card, self._world_at(history, decl, D, left, right, skat | skat_known, state)))
                if unrefuted is None:
                    return Guess(list(history), refs)
                history.append(unrefuted)
                state = self.play(state, unrefuted)
            else:
                for move, disc in moves:
                    card = Card(move)
                    child = self.play(state, card, disc)
                    if not self.solver.honest_wins(child):
                        history.append(card)
                        state = child
                        break
                else:
                    return None
        return None

    @staticmethod
    def _world_at(history: Sequence[Card], decl: int, D: Mask, left: Mask, right: Mask, skat: Mask,
                  state: HonestState) -> World:
        """The whole world (original hands) given the current hands at *state* after *history*."""
        hands = [0, 0, 0]
        hands[decl] = D
        hands[(decl + 1) % 3] = left
        hands[(decl + 2) % 3] = right
        leader, seat = 0, 0
        trick: list[Card] = []
        for card in history:
            seat = (leader + len(trick)) % 3
            hands[seat] |= 1 << card
            trick.append(card)
            if len(trick) == 3:
                led = trick[0] >> 3
                best = max((i for i in range(3) if trick[i] >> 3 == led), key=lambda i: trick[i])
                leader = (leader + best) % 3
                trick = []
        return World((hands[0], hands[1], hands[2]), skat)

    # -- everything --------------------------------------------------------
    def analyse(self, hand: Mask, declarer: int, skat: Mask | None = None, *, pool: Mask | None = None,
                exhaustive: bool = False, jobs: int = 1) -> NullOuvertResult:
        """Both answers for the declarer's *hand* (mask) in seat *declarer*.

        *skat*: the known skat (mask) or ``None`` for a hand game.  *pool*:
        the unseen cards, by default every card not in the hand or the known
        skat (reduced games pass a smaller one).

        The honest search runs first: when one strategy wins in every world,
        every world is won double-dummy too, so ``worlds_lost`` is 0 without
        solving the worlds one by one (``classes`` is then 0).  With
        *exhaustive* the worlds are solved class by class regardless.
        *jobs*: threads for the classes (:meth:`count_worlds`); the result
        is the same whatever *jobs*, but for ``nodes`` and ``seconds``.
        """
        start = time.perf_counter()
        if pool is None:
            pool = ((1 << 32) - 1) & ~hand & ~(skat or 0)
        n = hand.bit_count()
        k = pool.bit_count() - 2 * n
        if k not in (0, 2):
            raise ValueError(f"the unseen pool must hold 2n or 2n + 2 cards, got {pool.bit_count()} for n = {n}")
        solvers = self.solvers(self.count_jobs(k, jobs))
        for solver in solvers:
            solver.reset_stats()
        root = self.root_state(hand, pool, k, declarer)
        honest = self.honest_wins(root)
        if honest and not exhaustive:
            worlds, lost, classes, first = math.comb(pool.bit_count(), k) * math.comb(2 * n, n), 0, 0, None
        else:
            worlds, lost, classes, first = self.count_worlds(hand, pool, k, declarer, jobs)
            if honest and lost:
                raise RuntimeError("internal error: the honest search won a deal with a world lost double-dummy")
        result = NullOuvertResult(hand=hand, declarer=declarer, skat=skat, worlds=worlds, worlds_lost=lost,
                                  unbeatable=honest, classes=classes)
        if first is not None:
            world = World(first.hands, first.skat | (skat or 0))
            result.counterexample = (world, self.dd_line(first, declarer))
        elif not honest:
            result.guess = self.find_guess(root, skat or 0)
        result.nodes = sum(solver.nodes for solver in solvers)
        result.seconds = time.perf_counter() - start
        return result


def _card_tokens(cards: str | Iterable[int]) -> str | list[str]:
    """Card ints as their codes, so that :func:`parse_cards` checks them as it checks text.

    An int that is no card (not 0..31) stays as written, and the parser
    rejects it naming it.
    """
    if isinstance(cards, str):
        return cards
    return [card_name(c) if isinstance(c, int) and 0 <= c < 32 else str(c) for c in cards]


def _parse(hand: str | Iterable[int] | Mask, skat: str | Iterable[int] | Mask | None) -> tuple[Mask, Mask | None]:
    """Hand (10 cards) and skat (2 cards or None) as masks; raises skatdd input errors naming the token."""
    if isinstance(hand, int):
        hand_cards = cards_of(hand)
    else:
        hand_cards = parse_cards(_card_tokens(hand), what="the hand")
    if len(hand_cards) != 10:
        raise CardCountError(f"the hand has {plural(len(hand_cards), 'card')} {quote(format_cards(hand_cards))}: expected 10")
    hand_mask = mask_of(hand_cards)
    if skat is None:
        return hand_mask, None
    skat_cards = cards_of(skat) if isinstance(skat, int) else parse_cards(_card_tokens(skat), what="the skat")
    if len(skat_cards) != 2:
        raise CardCountError(f"the skat has {plural(len(skat_cards), 'card')} {quote(format_cards(skat_cards))}: expected 2")
    for c in skat_cards:
        if hand_mask >> c & 1:
            raise DuplicateCardError(f"card {card_name(c)!r} is both in the hand and in the skat")
    return hand_mask, mask_of(skat_cards)


#: Default table sizes (MiB): a hand game has ~30x more classes of worlds, whose
#: shared positions need a bigger table (measured on the benchmark's hardest hand
#: game: 64 MiB +7% nodes against 128 MiB, 256 MiB -0.7% nodes but 0.3 s more of
#: the kernel's time to hand the process its pages on first touch).
TT_MB_KNOWN_SKAT = 32
TT_MB_UNKNOWN_SKAT = 128


def analyse(hand: str | Iterable[int] | Mask, *, declarer: int | str, skat: str | Iterable[int] | Mask | None = None,
            solver: NullOuvertAnalyser | None = None, exhaustive: bool = False, jobs: int | None = 1) -> NullOuvertResult:
    """Is the null ouvert *hand* unbeatable with the declarer in seat *declarer*?

    *hand*: the declarer's ten cards after the discard (card string, card
    ints or a mask); *skat*: the two skat cards, or ``None`` when unknown
    (hand game); *solver*: the :class:`NullOuvertAnalyser` to run on, kept
    with its tables for later calls (default: a new one whose double-dummy
    table holds :data:`TT_MB_KNOWN_SKAT` or :data:`TT_MB_UNKNOWN_SKAT` MiB;
    the honest-search memo gets half); *exhaustive*: solve every class of
    worlds even when the honest search already proves them all won; *jobs*:
    threads solving the classes of worlds (``None``: one a usable core),
    sharing the solver's table, the result the same whatever *jobs* but
    for ``nodes`` and ``seconds``.  Raises
    :class:`~skatdd.core.errors.SkatddError` subclasses for
    bad input (unknown or duplicate card, wrong count, skat overlapping the
    hand, unknown seat), each message quoting the token.
    """
    seat = parse_seat(declarer)
    hand_mask, skat_mask = _parse(hand, skat)
    if solver is None:
        solver = NullOuvertAnalyser(TT_MB_KNOWN_SKAT if skat_mask is not None else TT_MB_UNKNOWN_SKAT)
    if jobs is None:
        jobs = usable_cores()
    return solver.analyse(hand_mask, seat, skat_mask, exhaustive=exhaustive, jobs=jobs)


def worlds_count(known_skat: bool, n: int = 10) -> int:
    """Number of worlds: C(2n, n), times C(2n + 2, 2) when the skat is unknown."""
    return math.comb(2 * n, n) * (math.comb(2 * n + 2, 2) if not known_skat else 1)
