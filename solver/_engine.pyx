# cython: language_level=3
"""skatdd's double-dummy engine.

The engine works on 32-bit masks in a per-contract internal layout
(layout.pxi), searches with fail-soft alpha-beta (search.pxi, with move
ordering in moves.pxi and cheap bounds in bounds.pxi), caches bounds at
trick boundaries under exact keys in a bounded transposition table
(tt.pxi) and, for positions alike up to the points of their cards, in a
quasi-symmetric table (qsym.pxi), and answers queries through the drivers
(drivers.pxi).  bits.pxi and play.pxi are shared with the null-ouvert
extension.
Python code sees card ints and card masks in the public encoding of
``skatdd.core.cards``; conversion happens once, in :class:`Engine` methods, and
every search runs without the GIL.  ``skatdd.engine.solve`` is the friendly API.
"""

include "bits.pxi"
include "play.pxi"
include "layout.pxi"
include "tt.pxi"
include "qsym.pxi"
include "search.pxi"
include "moves.pxi"
include "bounds.pxi"
include "drivers.pxi"
include "position.pxi"
include "worlds.pxi"

import sys
from array import array

#: Search modes, see search.pxi.
POINTS = MODE_POINTS
DECLARER_TRICKS = MODE_DECL_TRICKS
DEFENDER_TRICKS = MODE_DEF_TRICKS
NULL_GAME = MODE_NULL
STATS_ENABLED = bool(SKATDD_STATS)
init_pext_table()


def _check_game(int game):
    if not 0 <= game <= 5:
        raise ValueError(f"game {game} is not 0..5")


cdef class Engine:
    """A double-dummy search with its own transposition table.

    ``Engine(tt_mb)`` allocates a table of at most *tt_mb* MiB (and the
    512 KiB quasi-symmetric table), kept for the engine's life: their
    entries stay valid across positions, deals, discards and thresholds
    because keys are exact (a quasi-symmetric entry's bounds are widened by
    what the cards it is used for weigh more or less).  Use
    :meth:`set_position`, then any of the queries; queries leave the
    position unchanged.  Not thread-safe: one engine per thread or process.
    """

    cdef TTable tt
    cdef QSTable qs
    cdef Search s
    cdef bint ready
    cdef public int tt_mb

    def __cinit__(self, int tt_mb=128):
        if tt_mb < 1:
            raise ValueError(f"tt_mb must be at least 1, got {tt_mb}")
        if tt_alloc(&self.tt, tt_mb) != 0:
            raise MemoryError(f"cannot allocate a {tt_mb} MiB transposition table")
        if qs_alloc(&self.qs) != 0:
            raise MemoryError("cannot allocate the quasi-symmetric table")
        self.tt_mb = tt_mb
        self.s.tt = &self.tt
        self.s.qs = &self.qs
        self.s.nodes = 0
        self.ready = False

    def __dealloc__(self):
        tt_free(&self.tt)
        qs_free(&self.qs)

    def clear(self):
        """Empty both tables and the statistics."""
        tt_clear(&self.tt)
        qs_clear(&self.qs)
        self.reset_stats()

    def reset_stats(self):
        self.s.nodes = 0
        self.tt.probes = self.tt.hits = self.tt.stores = 0
        self.qs.probes = self.qs.cuts = self.qs.stores = 0

    @property
    def nodes(self):
        """Nodes searched since the last :meth:`reset_stats` (0 when built without statistics)."""
        return self.s.nodes

    def stats(self):
        """Counters since the last reset: nodes, tt_probes, tt_hits, tt_stores; tt_used_bytes, the part of the table in use; qs_probes, qs_cuts, qs_stores of the quasi-symmetric table."""
        return {"nodes": self.s.nodes, "tt_probes": self.tt.probes, "tt_hits": self.tt.hits,
                "tt_stores": self.tt.stores, "tt_used_bytes": self.tt.used_buckets * TT_WAYS * sizeof(TTEntry),
                "qs_probes": self.qs.probes, "qs_cuts": self.qs.cuts, "qs_stores": self.qs.stores}

    def set_position(self, int game, int declarer, int mode, hands, int leader=0, trick=()):
        """Load a position: *hands* are three card masks (seat order), *trick* the cards on the table.

        *mode* is one of POINTS, DECLARER_TRICKS, DEFENDER_TRICKS, NULL_GAME.  The
        caller (skatdd.engine.solve) has validated the position; this checks only
        what would make the search misbehave and raises ValueError.
        """
        _check_game(game)
        if not 0 <= mode <= 3 or not 0 <= declarer <= 2 or not 0 <= leader <= 2:
            raise ValueError("mode, declarer or leader out of range")
        cdef uint32_t h[3]
        cdef int t[3]
        cdef int k, c, err
        trick = list(trick)
        if len(trick) > 2:
            raise ValueError("a trick on the table holds at most two cards")
        for k in range(3):
            h[k] = <uint32_t>hands[k]
        for k, c in enumerate(trick):
            t[k] = c if 0 <= c < 32 else -1
        err = check_deal(h, leader, t, len(trick))
        if err != DEAL_OK:
            raise ValueError(DEAL_ERRORS[err].decode())
        load_context(&self.s, game, declarer, mode)
        load_deal(&self.s, h, leader, t, len(trick))
        tt_new_generation(&self.tt)
        self.ready = True

    cdef void _require(self) except *:
        if not self.ready:
            raise RuntimeError("set_position() first")

    def to_move(self):
        """Seat to move."""
        self._require()
        return (self.s.leader + self.s.trick_len) % 3

    def max_q(self):
        """Upper bound on Q: all weight still in play."""
        self._require()
        return max_q(&self.s)

    def search(self, int alpha, int beta):
        """Fail-soft alpha-beta on Q in the window (alpha, beta); see search.pxi for the contract."""
        self._require()
        cdef int v
        with nogil:
            v = ab(&self.s, alpha, beta)
        return v

    def at_least(self, int target):
        """True when the maximising side can make Q >= *target*."""
        self._require()
        cdef int v
        if target <= 0:
            return True
        with nogil:
            v = ab(&self.s, target - 1, target)
        return v >= target

    def exact(self, int lo=0, int hi=-1):
        """The exact Q of the position, known to lie in [lo, hi] (hi < 0: no upper bound known).

        Bounds that are wrong give a wrong answer; tight ones save searches.
        """
        self._require()
        cdef int q, top = max_q(&self.s)
        if hi < 0 or hi > top:
            hi = top
        if lo < 0:
            lo = 0
        if lo > hi:
            raise ValueError(f"empty range [{lo}, {hi}]")
        with nogil:
            q = solve_exact(&self.s, lo, hi)
        return q

    def legal_cards(self):
        """Card ints the seat to move may play, ascending."""
        self._require()
        cdef int led = self.s.trick_card[0] if self.s.trick_len > 0 else -1
        cdef uint32_t legal = to_card_mask(&self.s.lay, legal_bits(&self.s.lay, self.s.hand[(self.s.leader + self.s.trick_len) % 3], led))
        return [c for c in range(32) if (legal >> c) & 1]

    def card_values(self, exact=True, int target=1):
        """For every legal card: its exact Q (*exact*) or whether Q >= *target* stays reachable.

        Q counts the trick the card completes.  Equivalent cards are searched
        once.  Exact values come from one search of the position that keeps
        every card's bounds (all_card_values() in drivers.pxi).
        """
        self._require()
        cdef int16_t row[32]
        cdef bint want_exact = exact
        cdef int c
        for c in range(32):
            row[c] = -1
        with nogil:
            card_values_row(&self.s, want_exact, target, True, 0, row)
        # Internal order, highest first, as the cards were always listed.
        order = [self.s.lay.to_card[c] for c in range(31, -1, -1)]
        if want_exact:
            return {c: row[c] for c in order if row[c] >= 0}
        return {c: row[c] == 1 for c in order if row[c] >= 0}

    def card_values_many(self, int game, int declarer, int mode, hands, int leader=0, trick=(), *,
                         exact=True, int target=1, int base=0, skats=None, tables="auto"):
        """Every legal card's value in each of many worlds of one decision, in one call without the GIL.

        The worlds share the contract (*game*, *declarer*, *mode*), the
        *leader* and the *trick* on the table, as in :meth:`set_position`;
        world w holds the hands ``hands[3w], hands[3w+1], hands[3w+2]`` (card
        masks: any C-contiguous buffer of 32-bit unsigned ints, such as
        ``array('I')`` or a numpy ``uint32`` array of shape (n, 3)) and, if
        *skats* is given (one mask a world, the same kinds of buffer), that
        skat.  Returns ``array('h')`` of 32 values a world, by card int:
        -1 for a card that is not legal; with *exact* ``base`` + the skat's
        weight + the exact Q after the card (the weight is the skat's card
        points in POINTS mode, 0 in the trick modes; in POINTS mode with
        *base* the declarer's points so far, the value is his final card
        points); otherwise 1 when the declarer gets his way after the card,
        0 when not: Q >= target - base - the skat's weight where he
        maximises Q (POINTS, DECLARER_TRICKS), Q < that where the defenders
        do (NULL_GAME: with target 1 and base 0, he takes no trick;
        DEFENDER_TRICKS), a lowered target <= 0 needing no search.
        *tables*: ``"auto"`` empties both tables before a world when the
        world before stored more than a few dozen entries or grew the exact
        table (worlds.pxi says why), ``"clear"`` before every world (as
        :meth:`clear`), ``"keep"`` never.  Every world is checked
        first (ValueError naming it); afterwards the last world is the
        loaded position.  Nodes add up in :attr:`nodes`.
        """
        _check_game(game)
        if not 0 <= mode <= 3 or not 0 <= declarer <= 2 or not 0 <= leader <= 2:
            raise ValueError("mode, declarer or leader out of range")
        if tables not in ("auto", "clear", "keep"):
            raise ValueError(f"tables must be 'auto', 'clear' or 'keep', got {tables!r}")
        cdef int policy = TABLES_AUTO if tables == "auto" else TABLES_CLEAR if tables == "clear" else TABLES_KEEP
        cdef const uint32_t[::1] h = _u32_buffer(hands, "hands")
        if h.shape[0] % 3:
            raise ValueError(f"hands holds {h.shape[0]} masks, not three a world")
        cdef Py_ssize_t n = h.shape[0] // 3, w
        cdef const uint32_t[::1] sk
        cdef const uint32_t* skp = NULL
        if skats is not None:
            sk = _u32_buffer(skats, "skats")
            if sk.shape[0] != n:
                raise ValueError(f"skats holds {sk.shape[0]} masks for {n} worlds")
            if n:
                skp = &sk[0]
        cdef int t[3]
        cdef int k, c, err
        trick = list(trick)
        if len(trick) > 2:
            raise ValueError("a trick on the table holds at most two cards")
        cdef int ntrick = len(trick)
        for k, c in enumerate(trick):
            t[k] = c if 0 <= c < 32 else -1
        for w in range(n):
            err = check_deal(&h[3 * w], leader, t, ntrick)
            if err == DEAL_OK and skp != NULL and skp[w] & (h[3 * w] | h[3 * w + 1] | h[3 * w + 2]):
                raise ValueError(f"world {w}: the skat overlaps a hand")
            if err != DEAL_OK:
                raise ValueError(f"world {w}: {DEAL_ERRORS[err].decode()}")
        out = array("h", bytes(64 * n))
        cdef int16_t[::1] o = out
        cdef bint want_exact = exact
        load_context(&self.s, game, declarer, mode)
        self.ready = False
        if n == 0:
            return out
        with nogil:
            card_values_worlds(&self.s, declarer, n, &h[0], skp, leader, t, ntrick, want_exact, target, base,
                               policy, &o[0])
        self.ready = True
        return out

    def line(self, int target, exact=True, stop_on_score=False):
        """A principal variation as card ints (see build_line in search.pxi)."""
        self._require()
        cdef int out[32]
        cdef int n, k
        cdef bint ex = exact, stop = stop_on_score
        with nogil:
            n = build_line(&self.s, target, ex, stop, out)
        return [self.s.lay.to_card[out[k]] for k in range(n)]


def _u32_buffer(obj, str name):
    """*obj* as a flat memoryview of native 32-bit unsigned ints (any C-contiguous buffer of them), else TypeError."""
    try:
        mv = memoryview(obj)
    except TypeError:
        raise TypeError(f"{name} must be a buffer of 32-bit unsigned ints (array('I'), numpy uint32)") from None
    fmt = mv.format.lstrip("@=<" if sys.byteorder == "little" else "@=>")
    if mv.itemsize != 4 or fmt not in ("I", "L") or not mv.c_contiguous:
        raise TypeError(f"{name} must be a C-contiguous buffer of 32-bit unsigned ints, got format {mv.format!r}")
    return mv.cast("B").cast("I")


def layout(int game):
    """``(to_internal, group_of, group_masks, trump_mask)`` of *game*'s internal layout (for tests)."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    return ([lay.to_internal[c] for c in range(32)], [lay.group_of[b] for b in range(32)],
            [lay.group_mask[g] for g in range(5)], lay.trump_mask)


def legal_cards(int game, unsigned int hand, int led_card=-1):
    """Mask of the legal cards of *hand* (card mask) when *led_card* was led (-1: leading)."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    cdef int led = lay.to_internal[led_card] if led_card >= 0 else -1
    return to_card_mask(&lay, legal_bits(&lay, to_internal_mask(&lay, hand), led))


def trick_winner(int game, cards):
    """Index (0 = lead) of the winning card of a trick given as card ints."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    cdef uint32_t bits = 0
    for c in cards:
        bits |= (<uint32_t>1) << lay.to_internal[c]
    cdef int win = lay.to_card[winner_bit(&lay, bits, lay.to_internal[cards[0]])]
    return list(cards).index(win)

