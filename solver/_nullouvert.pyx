# cython: language_level=3
"""skatdd's null ouvert analyser: a specialised null double-dummy search and
an AND-OR search over the declarer's information sets.

Cards and masks use the public encoding of ``skatdd.core.cards`` (card = suit * 8
+ rank; within a suit the bit order is the null order 7 8 9 T J Q K A).
Seats are absolute (0 = forehand leads the first trick); "left defender"
means the seat after the declarer, "right defender" the one after that.
``skatdd.engine.nullouvert`` is the friendly API; this module validates nothing
beyond what C needs and runs every search without the GIL.

Parts: bits.pxi and play.pxi (bit helpers, rank compression, trick closing
and move insertion, shared with the engine), nullouvert_table.pxi (exact-key
result tables), nullouvert_suits.pxi (one suit's tables: safe, holds, its
code in the key), nullouvert_dd.pxi (double-dummy search),
nullouvert_worlds.pxi (solving classes of worlds), nullouvert_honest.pxi
(the honest AND-OR search).
"""

include "bits.pxi"
include "play.pxi"
include "nullouvert_table.pxi"
include "nullouvert_suits.pxi"
include "nullouvert_dd.pxi"
include "nullouvert_block.pxi"
include "nullouvert_worlds.pxi"
include "nullouvert_honest.pxi"

from libc.stdlib cimport free, malloc

init_pext_table()
init_safe_canon()
init_holds()
init_code3()


def suit_holds(declarer, left, right):
    """Whether one suit *holds* for the declarer (HOLDS in nullouvert_dd.pxi).

    *declarer*, *left*, *right*: the live cards of one suit held by the
    declarer and by the defenders after and before him (masks in the public
    encoding, all within one suit's byte).  True when his plain play in the
    suit (his highest card below the trick's best so far) never takes a trick
    of it, whatever the defenders do with it alone, each free to lead it
    whenever he holds a card of it and to throw his cards of it away.
    """
    cdef uint32_t d = <uint32_t>declarer, l = <uint32_t>left, r = <uint32_t>right, lv = d | l | r
    cdef int su
    if (d & l) or (d & r) or (l & r):
        raise ValueError("the three holdings overlap")
    if lv == 0:
        return True
    su = bit_index(lv) >> 3
    if lv & ~suit_bits(su):
        raise ValueError("the holdings must lie in one suit")
    lv = (lv >> (8 * su)) & 0xFF
    return bool(HOLDS[HOLDS_AT[__builtin_popcount(lv)]
                      + <int>((PEXT8[lv][(d >> (8 * su)) & 0xFF] << __builtin_popcount(lv))
                              + PEXT8[lv][(l >> (8 * su)) & 0xFF])])


cdef class WorldClasses:
    """The classes of worlds of one count (nullouvert_worlds.pxi), to be solved by :meth:`NullSolver.count_worlds`.

    ``WorldClasses(groups, skat_unseen, n, parts=1)``: *groups* is four lists (one
    per suit) of groups, each a non-empty list of patterns ``(k, l, d,
    left, right, mult, idx)`` sharing k and l, the last suit's groups sorted
    by ``(k, l)``; *skat_unseen* the unseen skat cards (0 or 2); *n* the
    cards per hand; *parts* the runs of :meth:`NullSolver.count_worlds`
    that share the classes (one a thread, at most 64; runs beyond them find
    nothing left).  Read-only once built but for the share of the work:
    each class is solved by exactly one run, whichever solver or thread
    runs it.  *blocks*: None, or ``(d3, u3[, order])`` to prove blocks of
    classes at once (nullouvert_block.pxi): the declarer's and the unseen
    cards of the last suit, and, when the caller relabelled the suits, where
    each of its suits went (its suit j is suit ``order[j]`` here: the first
    lost world is compared in the caller's order).
    """

    cdef Enum E
    cdef readonly bint split

    def __cinit__(self, groups, int skat_unseen, int n, int parts=1, blocks=None):
        cdef int su, i, j, kk, ll, np
        cdef Pattern* arr
        cdef Group* grp
        for su in range(4):
            self.E.pat[su] = NULL
            self.E.grp[su] = NULL
        if skat_unseen not in (0, 2) or not 0 <= n <= 10 or len(groups) != 4 or not 1 <= parts <= MAX_PARTS:
            raise ValueError(f"need four suits' groups, skat_unseen 0 or 2, n in 0..10 and parts in 1..{MAX_PARTS}")
        self.split = False
        for su in range(4):
            np = sum(len(g) for g in groups[su])
            self.E.ngrp[su] = len(groups[su])
            self.E.pat[su] = <Pattern*>malloc(max(1, np) * sizeof(Pattern))
            self.E.grp[su] = <Group*>malloc(max(1, self.E.ngrp[su]) * sizeof(Group))
            if self.E.pat[su] == NULL or self.E.grp[su] == NULL:
                raise MemoryError()
            arr = self.E.pat[su]
            grp = self.E.grp[su]
            j = 0
            for i, members in enumerate(groups[su]):
                if not members:
                    raise ValueError("a group needs at least one pattern")
                grp[i].start = j
                grp[i].count = len(members)
                grp[i].mult = 0
                grp[i].k = members[0][0]
                grp[i].l = members[0][1]
                if not (0 <= grp[i].k <= 2 and 0 <= grp[i].l <= 8):
                    raise ValueError("a pattern's counts are out of range")
                self.split |= len(members) > 1
                for kk, ll, d, lm, rm, mult, idx in members:
                    if (kk, ll) != (grp[i].k, grp[i].l):
                        raise ValueError("the patterns of a group must share k and l")
                    arr[j].k = kk
                    arr[j].l = ll
                    arr[j].d = d
                    arr[j].lm = lm
                    arr[j].rm = rm
                    arr[j].mult = mult
                    arr[j].idx = idx
                    grp[i].mult += mult
                    j += 1
        for kk in range(3):
            for ll in range(9):
                self.E.start3[kk][ll] = 0
                self.E.end3[kk][ll] = 0
        for i in range(self.E.ngrp[3] - 1, -1, -1):
            kk = self.E.grp[3][i].k
            ll = self.E.grp[3][i].l
            if i + 1 < self.E.ngrp[3] and (self.E.grp[3][i + 1].k, self.E.grp[3][i + 1].l) < (kk, ll):
                raise ValueError("the last suit's groups must be sorted by (k, l)")
            self.E.start3[kk][ll] = i
            if self.E.end3[kk][ll] == 0:
                self.E.end3[kk][ll] = i + 1
        self.E.K = skat_unseen
        self.E.n = n
        share_init(&self.E.share, (<long long>self.E.ngrp[0]) * self.E.ngrp[1], parts)
        self.E.stop = 0
        self.E.blocks = 0
        self.E.d3 = 0
        self.E.u3 = 0
        for su in range(4):
            self.E.order[su] = su
        if blocks is not None:
            self.E.blocks = 1
            self.E.d3 = <uint32_t>blocks[0]
            self.E.u3 = <uint32_t>blocks[1]
            if len(blocks) > 2:
                if sorted(blocks[2]) != [0, 1, 2, 3]:
                    raise ValueError("the suits' order must be a permutation of 0..3")
                for su in range(4):
                    self.E.order[su] = blocks[2][su]

    def __dealloc__(self):
        cdef int su
        for su in range(4):
            free(self.E.pat[su])
            free(self.E.grp[su])

    def stop(self):
        """Make every run of this plan stop at its next class (thread-safe; for Ctrl-C)."""
        set_stop(&self.E.stop)

    @staticmethod
    def first(firsts):
        """The first lost world among several runs' ``first_lost`` (None where a run lost none)."""
        found = [f for f in firsts if f is not None]
        return min(found) if found else None


cdef class NullSolver:
    """Owns the double-dummy table (or shares another solver's) and the honest-search memo (exact keys: valid across calls).

    ``NullSolver(tt_mb, memo_mb=None, near_bits=15, share=None)`` gives the
    double-dummy table *tt_mb* MiB and the memo *memo_mb* (default half of
    *tt_mb*; at least 1 MiB each), each with a near cache of ``1 <<
    near_bits`` entries (1..20; nullouvert_table.pxi: the tests make it
    tiny, so that every probe meets another key there).  With *share* (a
    NullSolver) the double-dummy table is *share*'s, not a new one (*tt_mb*
    is then its size): solvers on several threads may share one table, each
    with a near cache, counters and memo of its own.  Otherwise not
    thread-safe: one solver a thread.
    """

    cdef DTable own
    cdef DView view
    cdef Table memo
    cdef DD dd
    cdef HS hs
    cdef BS bs
    cdef public int tt_mb
    cdef NullSolver owner

    def __cinit__(self, int tt_mb=128, memo_mb=None, int near_bits=NEAR_BITS, NullSolver share=None):
        cdef int mm = max(1, tt_mb // 2) if memo_mb is None else memo_mb
        cdef DTable* t
        self.own.e = NULL
        self.own.nbuckets = 0
        self.view.near = NULL
        self.memo.e = NULL
        self.memo.near = NULL
        self.memo.nbuckets = 0
        if tt_mb < 1 or mm < 1:
            raise ValueError(f"tt_mb and memo_mb must be at least 1, got {tt_mb} and {mm}")
        if not 1 <= near_bits <= 20:
            raise ValueError(f"near_bits must be in 1..20, got {near_bits}")
        if share is None:
            if dtable_alloc(&self.own, tt_mb) != 0:
                raise MemoryError(f"cannot allocate {tt_mb} MiB of table")
            t = &self.own
        else:
            # the owner of the table, kept alive by this reference (None in the owner itself: no cycle)
            self.owner = share if share.owner is None else share.owner
            t = &self.owner.own
            tt_mb = share.tt_mb
        if dview_alloc(&self.view, t, near_bits) != 0 or table_alloc(&self.memo, mm, near_bits) != 0:
            raise MemoryError(f"cannot allocate {mm} MiB of memo")
        self.tt_mb = tt_mb
        self.dd.tt = &self.view
        self.dd.nodes = 0
        self.dd.lead_mask = ALL_CARDS
        self.dd.at_root = 0
        self.dd.killer = -1
        self.dd.rec_on = 0
        self.dd.nrec = 0
        self.dd.rec3 = 0
        self.hs.memo = &self.memo
        self.hs.dd = &self.dd
        self.hs.nodes = 0
        self.bs.memo = &self.memo
        self.bs.dd = &self.dd
        self.bs.nodes = 0
        self.bs.tries = 0
        self.bs.wins = 0
        self.bs.win_nodes = 0

    def __dealloc__(self):
        dtable_free(&self.own)
        dview_free(&self.view)
        table_free(&self.memo)

    def clear(self):
        """Empty the double-dummy table (shared with others or not), this solver's near cache and memo, and the counters."""
        dtable_clear(self.view.t)
        dview_clear(&self.view)
        table_clear(&self.memo)
        self.reset_stats()

    def reset_stats(self):
        self.dd.nodes = 0
        self.hs.nodes = 0
        self.bs.nodes = 0
        self.bs.tries = 0
        self.bs.wins = 0
        self.bs.win_nodes = 0
        self.view.hits = self.view.probes = self.view.near_hits = 0
        self.memo.hits = self.memo.probes = self.memo.near_hits = 0

    @property
    def nodes(self):
        """Double-dummy plus honest-search nodes since the last :meth:`reset_stats`."""
        return self.dd.nodes + self.hs.nodes + self.bs.nodes

    @property
    def block_stats(self):
        """``(tries, wins, nodes)`` of the blocks of classes searched at once since the last :meth:`reset_stats`."""
        return self.bs.tries, self.bs.wins, self.bs.nodes, self.bs.win_nodes

    @property
    def dd_nodes(self):
        return self.dd.nodes

    @property
    def honest_nodes(self):
        return self.hs.nodes

    @property
    def table_stats(self):
        """``(probes, hits, near_hits)`` of this solver's double-dummy probes since the last :meth:`reset_stats` (near: dtable_get)."""
        return self.view.probes, self.view.hits, self.view.near_hits

    # -- double dummy on one position --------------------------------------
    cdef void _set_dd(self, hands, int decl, int leader, trick) except *:
        cdef int i
        if len(hands) != 3 or not 0 <= decl <= 2 or not 0 <= leader <= 2 or len(trick) > 2:
            raise ValueError("need three hands, seats 0..2 and at most two cards on the table")
        for i in range(3):
            self.dd.hand[i] = <uint32_t>int(hands[i])
        self.dd.decl = decl
        self.dd.leader = leader
        self.dd.tlen = len(trick)
        for i in range(len(trick)):
            self.dd.tcard[i] = int(trick[i])

    def dd_lose(self, hands, int decl, int leader=0, trick=()):
        """True when the defenders can force the declarer to take a trick.

        *hands*: three card masks by seat (equal sizes once the trick on the
        table is accounted for); *trick*: cards already on the table, leader
        first (their players' hands no longer hold them).
        """
        cdef int r
        self._set_dd(hands, decl, leader, trick)
        with nogil:
            r = dd_lose(&self.dd)
        return bool(r)

    def refuted_leads(self, hands, int decl):
        """The declarer's first leads (a card mask) that the static tests refute without a search, him on lead.

        *hands*: three card masks by seat, the declarer's on lead.  Each such
        lead loses: the search skips them (first_lead_refuted()).
        """
        cdef uint32_t out = 0, held
        cdef int loss[2]
        cdef int c
        self._set_dd(hands, decl, decl, ())
        loss[0] = -1
        held = self.dd.hand[decl]
        with nogil:
            for c in range(32):
                if (held >> c) & 1 and first_lead_refuted(&self.dd, c, loss):
                    out |= (<uint32_t>1) << c
        return out

    def dd_line(self, hands, int decl, int leader=0, trick=()):
        """A line that beats the declarer in a lost position, ending with the trick he takes ([] if won)."""
        cdef int out[32]
        cdef int n, r
        self._set_dd(hands, decl, leader, trick)
        with nogil:
            r = dd_lose(&self.dd)
        if not r:
            return []
        with nogil:
            n = dd_line(&self.dd, out)
        return [out[i] for i in range(n)]

    # -- classes of worlds ---------------------------------------------------
    def count_worlds(self, WorldClasses plan, int decl):
        """Solve the classes of *plan* not yet taken by another run; returns ``(worlds, lost, classes, first_lost)``.

        *decl*: the declarer's seat (groups of more than one pattern need
        seat 0, the declarer on lead: nullouvert_worlds.pxi).  Runs without
        the GIL; several solvers may run one plan at once from several
        threads, each taking the next unit of classes, and their results
        add up (``first_lost``: the smallest, see :meth:`WorldClasses.first`).
        *first_lost* is the four pattern indices (the ``idx`` of the
        patterns) of the first lost world, or ``None``; after
        :meth:`WorldClasses.stop` the counts cover only part of the classes.
        """
        cdef Count C
        if not 0 <= decl <= 2:
            raise ValueError("decl must be 0, 1 or 2")
        if decl != 0 and plan.split:
            raise ValueError("groups of several patterns need the declarer on lead (seat 0)")
        self.dd.decl = decl
        with nogil:
            enum_run(&plan.E, &self.dd, &self.bs, &C)
        first = None if C.first_lost[0] < 0 else tuple(C.first_lost[i] for i in range(4))
        return C.worlds, C.lost, C.classes, first

    def block_wins(self, int decl, D, K0, K1, U, int cnt0, int cnt1, int k, pooled=0xFF000000):
        """The relaxed game of a block (nullouvert_block.pxi) from the first trick (seat 0 leads): True when won."""
        cdef int r
        self.bs.D = <uint32_t>D
        self.bs.K[0] = <uint32_t>K0
        self.bs.K[1] = <uint32_t>K1
        self.bs.U = <uint32_t>U
        self.bs.pooled = <uint32_t>pooled
        self.bs.vo[0] = 0
        self.bs.vo[1] = 0
        self.bs.cnt[0] = cnt0
        self.bs.cnt[1] = cnt1
        self.bs.k = k
        self.bs.decl = decl
        self.bs.leader = 0
        self.bs.tlen = 0
        self.bs.limit = <uint64_t>1 << 62
        self.dd.decl = decl
        with nogil:
            r = bs_win(&self.bs)
        return bool(r)

    # -- honest search -------------------------------------------------------
    cdef void _set_hs(self, state) except *:
        cdef int i
        D, U, vo0, vo1, c0, c1, k, decl, leader, trick = state
        self.hs.D = <uint32_t>D
        self.hs.U = <uint32_t>U
        self.hs.vo[0] = vo0
        self.hs.vo[1] = vo1
        self.hs.cnt[0] = c0
        self.hs.cnt[1] = c1
        self.hs.k = k
        self.hs.decl = decl
        self.hs.leader = leader
        self.hs.tlen = len(trick)
        for i in range(len(trick)):
            self.hs.tcard[i] = int(trick[i])

    def honest_wins(self, state):
        """True when one declarer strategy wins in every world of *state*.

        *state* = ``(D, U, void_left, void_right, cnt_left, cnt_right, k,
        declarer, leader, trick)``: the declarer's hand, the unseen live cards
        (defenders' hands and the k unseen skat cards), suits each defender
        has shown void in (bit per suit), the defenders' card counts, the
        declarer's seat, the leader of the current trick and its cards.
        """
        cdef int r
        self._set_hs(state)
        with nogil:
            r = hs_win(&self.hs)
        return bool(r)

    def honest_moves(self, state):
        """``[(card, shows_void), ...]``: one card per class the player to move may play in some world."""
        cdef int out[32]
        cdef int disc[32]
        cdef int n
        self._set_hs(state)
        n = hs_moves(&self.hs, out, disc)
        return [(out[i], bool(disc[i])) for i in range(n)]

    def refute(self, state, int card):
        """A world of *state* in which the declarer's *card* loses double-dummy: ``(left, right, skat)`` masks, or None.

        The declarer must be the player to move in *state*.
        """
        cdef uint32_t D, U, L, R, K, pool, rest, vm0, vm1
        cdef int c0, c1, k, decl, leader, i, j, npool, r, tlen, seat
        cdef int idx[32]
        cdef int tc[3]
        cdef uint64_t comb, lim, t, x
        D, U, vo0, vo1, c0, c1, k, decl, leader, trick = state
        tlen = len(trick)
        if (leader + tlen) % 3 != decl:
            raise ValueError("the declarer is not to move")
        for i in range(tlen):
            tc[i] = trick[i]
        vm0 = 0
        vm1 = 0
        for i in range(4):
            if (vo0 >> i) & 1:
                vm0 |= suit_bits(i)
            if (vo1 >> i) & 1:
                vm1 |= suit_bits(i)
        skats = [0]
        if k == 2:
            ucards = [c for c in range(32) if (U >> c) & 1]
            skats = [(1 << a) | (1 << b) for ia, a in enumerate(ucards) for b in ucards[ia + 1:]]
        elif k != 0:
            raise ValueError("k must be 0 or 2")
        for K in skats:
            pool = U & ~K
            npool = 0
            rest = pool
            while rest:
                idx[npool] = bit_index(rest)
                npool += 1
                rest &= rest - 1
            with nogil:
                r = refute_scan(&self.dd, D, pool, vm0, vm1, c0, npool, idx, decl, leader, tlen, tc, card, &L)
            if r:
                return (int(L), int(pool & ~L), int(K))
        return None


cdef int refute_scan(DD* s, uint32_t D, uint32_t pool, uint32_t vm0, uint32_t vm1, int c0, int npool,
                     int* idx, int decl, int leader, int tlen, int* tc, int card, uint32_t* found) noexcept nogil:
    """Scan the splits of *pool* (c0 cards to the left defender, voids respected); 1 and *found* = left hand on the first loss."""
    cdef uint64_t comb, t
    cdef uint32_t L, R
    cdef int i
    if c0 > npool:
        return 0
    if c0 == 0:
        comb = 0
    else:
        comb = ((<uint64_t>1) << c0) - 1
    while comb < ((<uint64_t>1) << npool):
        L = 0
        t = comb
        while t:
            L |= (<uint32_t>1) << idx[bit_index(<uint32_t>t)]
            t &= t - 1
        R = pool & ~L
        if (L & vm0) == 0 and (R & vm1) == 0:
            s.hand[decl] = D
            s.hand[(decl + 1) % 3] = L
            s.hand[(decl + 2) % 3] = R
            s.decl = decl
            s.leader = leader
            s.tlen = tlen
            for i in range(tlen):
                s.tcard[i] = tc[i]
            if dd_child(s, decl, card):
                found[0] = L
                return 1
        if comb == 0:
            break
        # Gosper's hack: next combination with the same popcount
        t = comb & (~comb + 1)
        comb = comb + t
        comb = comb | ((((comb ^ (comb - t)) >> 2)) // t)
    return 0
