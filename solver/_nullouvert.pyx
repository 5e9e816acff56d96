# cython: language_level=3
"""skatdd's null ouvert analyser: a specialised null double-dummy search and
an AND-OR search over the declarer's information sets.

Cards and masks use the public encoding of ``skatdd.cards`` (card = suit * 8
+ rank; within a suit the bit order is the null order 7 8 9 T J Q K A).
Seats are absolute (0 = forehand leads the first trick); "left defender"
means the seat after the declarer, "right defender" the one after that.
``skatdd.nullouvert`` is the friendly API; this module validates nothing
beyond what C needs and runs every search without the GIL.

Parts: bits.pxi and play.pxi (bit helpers, rank compression, trick closing
and move insertion, shared with the engine), nullouvert_table.pxi (exact-key
result table), nullouvert_dd.pxi (double-dummy search),
nullouvert_worlds.pxi (solving classes of worlds), nullouvert_honest.pxi
(the honest AND-OR search).
"""

include "bits.pxi"
include "play.pxi"
include "nullouvert_table.pxi"
include "nullouvert_dd.pxi"
include "nullouvert_worlds.pxi"
include "nullouvert_honest.pxi"

from libc.stdlib cimport malloc

init_pext_table()
init_safe_canon()
init_holds()


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


cdef class NullSolver:
    """Owns the double-dummy table and the honest-search memo (exact keys: valid across calls).

    ``NullSolver(tt_mb)`` gives the double-dummy table *tt_mb* MiB and the
    memo half of it (at least 1 MiB each).  Not thread-safe.
    """

    cdef Table tt
    cdef Table memo
    cdef DD dd
    cdef HS hs
    cdef public int tt_mb

    def __cinit__(self, int tt_mb=128):
        if tt_mb < 1:
            raise ValueError(f"tt_mb must be at least 1, got {tt_mb}")
        if table_alloc(&self.tt, tt_mb) != 0 or table_alloc(&self.memo, max(1, tt_mb // 2)) != 0:
            raise MemoryError(f"cannot allocate {tt_mb} MiB of tables")
        self.tt_mb = tt_mb
        self.dd.tt = &self.tt
        self.dd.nodes = 0
        self.hs.memo = &self.memo
        self.hs.dd = &self.dd
        self.hs.nodes = 0

    def __dealloc__(self):
        table_free(&self.tt)
        table_free(&self.memo)

    def clear(self):
        """Empty both tables and the node counters."""
        table_clear(&self.tt)
        table_clear(&self.memo)
        self.reset_stats()

    def reset_stats(self):
        self.dd.nodes = 0
        self.hs.nodes = 0
        self.tt.hits = self.tt.probes = 0
        self.memo.hits = self.memo.probes = 0

    @property
    def nodes(self):
        """Double-dummy plus honest-search nodes since the last :meth:`reset_stats`."""
        return self.dd.nodes + self.hs.nodes

    @property
    def dd_nodes(self):
        return self.dd.nodes

    @property
    def honest_nodes(self):
        return self.hs.nodes

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
    def count_worlds(self, patterns, int decl, int skat_unseen, int n):
        """Solve every class of worlds; returns ``(worlds, lost, classes, first_lost)``.

        *patterns*: four lists (one per suit) of ``(k, l, d, left, right,
        mult)`` as described in nullouvert_worlds.pxi, the last suit's list
        sorted by ``(k, l)``; *skat_unseen*: unseen skat cards (0 or 2);
        *n*: cards per hand.  *first_lost* is the four pattern indices of the
        first lost class, or ``None``.
        """
        cdef Enum E
        cdef int su, i, kk, ll
        cdef Pattern* arr
        if skat_unseen not in (0, 2) or not 0 <= n <= 10:
            raise ValueError("skat_unseen must be 0 or 2 and n in 0..10")
        for su in range(4):
            E.pat[su] = NULL
        try:
            for su in range(4):
                E.npat[su] = len(patterns[su])
                arr = <Pattern*>malloc(max(1, E.npat[su]) * sizeof(Pattern))
                if arr == NULL:
                    raise MemoryError()
                E.pat[su] = arr
                for i, (kk, ll, d, lm, rm, mult) in enumerate(patterns[su]):
                    arr[i].k = kk
                    arr[i].l = ll
                    arr[i].d = d
                    arr[i].lm = lm
                    arr[i].rm = rm
                    arr[i].mult = mult
            for kk in range(3):
                for ll in range(9):
                    E.start3[kk][ll] = 0
                    E.end3[kk][ll] = 0
            for i in range(E.npat[3] - 1, -1, -1):
                kk = E.pat[3][i].k
                ll = E.pat[3][i].l
                if i + 1 < E.npat[3] and (E.pat[3][i + 1].k, E.pat[3][i + 1].l) < (kk, ll):
                    raise ValueError("the last suit's patterns must be sorted by (k, l)")
                E.start3[kk][ll] = i
                if E.end3[kk][ll] == 0:
                    E.end3[kk][ll] = i + 1
            E.K = skat_unseen
            E.n = n
            self.dd.decl = decl
            with nogil:
                enum_run(&E, &self.dd)
            first = None if E.first_lost[0] < 0 else tuple(E.first_lost[i] for i in range(4))
            return E.worlds, E.lost, E.classes, first
        finally:
            for su in range(4):
                free(E.pat[su])

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
