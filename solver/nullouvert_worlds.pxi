# Counting lost worlds by classes (included by _nullouvert.pyx).
#
# A world is a split of the unseen cards into the skat (K cards, 0 when the
# skat is known) and the two defenders' hands.  Per suit, Python lists the
# distinct rank-normalised patterns of that suit (how many cards go to the
# skat, how many to the left defender, and the compressed declarer / left /
# right masks placed in the suit's byte) with the number of real choices
# that give each.  Every combination of one pattern per suit whose counts
# add up is one class of worlds that play identically (a relabelling of
# ranks, the skat's cards being out of play); its size is the product of
# the four multiplicities.
#
# Patterns come in groups (Group): the patterns of a group agree on the
# suit's counts and differ only where the declarer is safe in the suit
# (safe_all()), which a trick-boundary position with a defender on lead
# keys alike (suit_sig()).  A combination of one group per suit is one
# *class* here, solved together:
#
# * every group of one pattern: one search of the position (always so when
#   a defender leads the first trick: Python merges such patterns into one,
#   their positions being alike from the start);
# * otherwise (the declarer leads the first trick, and some suits are
#   *split*: their group has two or more patterns), the class's value in a
#   world is the OR over the declarer's first leads of "the defenders do
#   not beat that lead".  A lead in suit s is followed by a trick after
#   which a defender leads, so its outcome depends on s exactly and on
#   every other suit only through its canonical form: the defenders'
#   discards to the trick take a card of a safe suit away, which leaves it
#   safe, and the same card (by its place among the defenders' cards) comes
#   off every pattern of the group.  So the leads in unsplit suits are
#   searched once for the whole class (lead_mask: their cards); if one
#   wins, every world of the class is won.  Otherwise each pattern p of
#   each split suit s is searched with leads in s only, the other suits
#   held at any pattern of their groups; a world is lost exactly when, in
#   every split suit, its pattern's leads lose, so the lost worlds are the
#   product over split suits of the lost patterns' multiplicities, and
#   their first one (in the order of the patterns) takes each suit's first
#   lost pattern.  A split suit none of whose patterns lose wins the class
#   and ends it.

cdef enum:
    MAX_PARTS = 64         # threads one count can run on


cdef extern from *:
    """
    /* The units of work of one count, cut into one contiguous range a part
       (a thread): classes next to each other share most of their later
       positions, so a thread that walks a range of its own keeps them in
       its table (interleaving single units between two threads took 37%
       more nodes on the hardest hand game, two fixed halves 4%).  A part
       whose range is empty takes the back half of the largest range left.
       The spin lock is taken once a unit (hundreds of classes). */
    #define SKATDD_MAX_PARTS 64
    typedef struct { long long lo[SKATDD_MAX_PARTS], hi[SKATDD_MAX_PARTS]; int nparts, joined; unsigned char lock; } skatdd_share;

    static void skatdd_share_init(skatdd_share* s, long long units, int nparts) {
        int i;
        s->nparts = nparts; s->joined = 0; s->lock = 0;
        for (i = 0; i < nparts; i++) { s->lo[i] = units * i / nparts; s->hi[i] = units * (i + 1) / nparts; }
    }
    static int skatdd_share_join(skatdd_share* s) {
        int me = __atomic_fetch_add(&s->joined, 1, __ATOMIC_RELAXED);
        return me < s->nparts ? me : -1;
    }
    /* The next unit for part *me*, or -1 when none is left anywhere. */
    static long long skatdd_share_take(skatdd_share* s, int me) {
        long long unit = -1, best = 0, mid;
        int i, j = -1;
        while (__atomic_test_and_set(&s->lock, __ATOMIC_ACQUIRE)) { }
        if (s->lo[me] >= s->hi[me]) {
            for (i = 0; i < s->nparts; i++)
                if (s->hi[i] - s->lo[i] > best) { best = s->hi[i] - s->lo[i]; j = i; }
            if (j >= 0) {
                mid = s->lo[j] + best / 2;
                s->lo[me] = mid; s->hi[me] = s->hi[j]; s->hi[j] = mid;
            }
        }
        if (s->lo[me] < s->hi[me]) unit = s->lo[me]++;
        __atomic_clear(&s->lock, __ATOMIC_RELEASE);
        return unit;
    }
    static inline int skatdd_stopped(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void skatdd_set_stop(int* p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }
    """
    ctypedef struct Share "skatdd_share":
        int nparts
    void share_init "skatdd_share_init"(Share* s, long long units, int nparts) nogil
    int share_join "skatdd_share_join"(Share* s) nogil
    long long share_take "skatdd_share_take"(Share* s, int me) nogil
    int stopped "skatdd_stopped"(int* p) nogil
    void set_stop "skatdd_set_stop"(int* p) nogil


ctypedef struct Pattern:
    int k                  # skat cards of the suit
    int l                  # left defender's cards of the suit
    uint32_t d, lm, rm     # normalised masks (declarer, left, right) in the suit's byte
    int64_t mult           # real choices giving this pattern
    int idx                # the pattern's index in the caller's list (first_lost reports it)


ctypedef struct Group:
    int k                  # the counts its patterns share
    int l
    int start              # its patterns: pat[su][start : start + count], in the caller's order
    int count
    int64_t mult           # their multiplicities' sum


ctypedef struct Enum:
    Pattern* pat[4]
    Group* grp[4]
    int ngrp[4]
    int start3[3][9]       # suit 3 groups sorted by (k, l): bucket [start, end)
    int end3[3][9]
    int K                  # skat cards among the unseen (0 or 2)
    int n                  # cards per hand
    Share share            # the units of work (pairs of groups of suits 0 and 1) left to each part
    int stop               # set to stop every run at its next class
    int blocks             # prove blocks of classes at once (nullouvert_block.pxi) before solving them one by one
    uint32_t d3            # the declarer's real cards of the last suit (a block pools its unseen cards)
    uint32_t u3            # the unseen real cards of the last suit (the defenders' and the skat's)
    int order[4]           # the caller's suit j is suit order[j] here (the caller may relabel the suits)


ctypedef struct Count:
    int64_t worlds
    int64_t lost
    int64_t classes
    int first_lost[4]      # idx of the first lost world's patterns, in the caller's suit order (the smallest), -1 if none
    int order[4]           # E.order: first_lost[j] is the idx of suit order[j]


cdef inline void note_lost(Count* C, int* idx) noexcept nogil:
    """Keep *idx* (four pattern indices of a lost world, by suit) when it comes before C's first lost world.

    Worlds compare in the caller's suit order (C.order), so the first lost
    world is the same whatever order the suits are enumerated in.
    """
    cdef int i
    if C.first_lost[0] >= 0:
        for i in range(4):
            if idx[C.order[i]] != C.first_lost[i]:
                if idx[C.order[i]] > C.first_lost[i]:
                    return
                break
        else:
            return
    for i in range(4):
        C.first_lost[i] = idx[C.order[i]]


cdef inline void place(DD* s, int dseat, const Pattern* p, int su) noexcept nogil:
    """Put pattern *p* of suit *su* into the three hands."""
    cdef uint32_t keep = ~suit_bits(su)
    s.hand[dseat] = (s.hand[dseat] & keep) | p.d
    s.hand[(dseat + 1) % 3] = (s.hand[(dseat + 1) % 3] & keep) | p.lm
    s.hand[(dseat + 2) % 3] = (s.hand[(dseat + 2) % 3] & keep) | p.rm


cdef inline int root_lose(DD* s, uint32_t leads) noexcept nogil:
    """dd_lose() at the first trick (seat 0 leads), the declarer's leads limited to *leads* when he is on lead."""
    cdef int r
    s.leader = 0
    s.tlen = 0
    s.lead_mask = leads
    s.at_root = 1
    r = dd_lose(s)
    s.lead_mask = ALL_CARDS
    return r


cdef void solve_split(Enum* E, DD* s, Group** g, Count* C) noexcept nogil:
    """One class with split suits (the declarer leads; header), hands placed at each group's first pattern."""
    cdef int su, j, dseat = s.decl
    cdef int idx[4]
    cdef uint32_t fixed = 0
    cdef int64_t lost = 1, part
    cdef Pattern* p
    for su in range(4):
        idx[su] = E.pat[su][g[su].start].idx
        if g[su].count == 1:
            fixed |= suit_bits(su)
            lost *= g[su].mult
    if not root_lose(s, fixed):
        return
    for su in range(4):
        if g[su].count == 1:
            continue
        part = 0
        idx[su] = -1
        for j in range(g[su].start, g[su].start + g[su].count):
            p = &E.pat[su][j]
            place(s, dseat, p, su)
            if root_lose(s, suit_bits(su)):
                part += p.mult
                if idx[su] < 0:
                    idx[su] = p.idx
        place(s, dseat, &E.pat[su][g[su].start], su)
        if part == 0:
            return
        lost *= part
    C.lost += lost
    note_lost(C, idx)


cdef int block_won(Enum* E, DD* s, BS* b, uint32_t dfix, uint32_t lfix, uint32_t rfix, uint32_t dpool,
                   uint32_t upool, uint32_t pooled, int kr, int lr, uint64_t budget) noexcept nogil:
    """1 when the relaxed game of the block (the fixed suits at these hands, every split of the pooled suits'
    unseen cards *upool* with *kr* in the skat and *lr* with the left defender) is won: every class of the block is won."""
    b.D = dfix | dpool
    b.K[0] = lfix
    b.K[1] = rfix
    b.U = upool
    b.pooled = pooled
    b.vo[0] = 0
    b.vo[1] = 0
    b.k = kr
    b.cnt[0] = lr
    b.cnt[1] = __builtin_popcount(upool) - kr - lr
    b.decl = s.decl
    b.leader = 0
    b.tlen = 0
    b.dd = s
    b.limit = b.nodes + budget
    return bs_win(b) and b.nodes < b.limit


cdef void enum_run(Enum* E, DD* s, BS* b, Count* C) noexcept nogil:
    """Solve the classes of the units this run takes from E.share until none is left, adding them up in *C*.

    A unit is a pair of groups of suits 0 and 1.  Each run joins as the
    next part of E.share (a run beyond its parts does nothing) and takes the
    units of its range in order, then the back half of the largest range
    left; one part alone takes them all, in the order of the classes.  The
    parts run at once, on threads of their own, each with its own DD and
    table (the Enum is only read, but for E.share and the stop flag).
    Stops early once E.stop is set (C then counts only part of the worlds).

    The root of a class is probed in the table, almost always a cache miss,
    so the next class's bucket is prefetched while this one is solved; but
    not after a class the static tests settled (hands of such classes come
    in runs, and the key would be wasted), nor for a class with split suits
    (its root is not probed).
    """
    cdef int i0, i1, i2, i3, kr, lr, r, dseat = s.decl, lead_rel = (3 - s.decl) % 3, searched = 1, su, split
    cdef int idx[4]
    cdef Group* g[4]
    cdef Pattern *q
    cdef Pattern *qn
    cdef uint32_t d3, l3, r3
    cdef uint64_t key, nodes0, probes0
    cdef int64_t m, unit, bw
    cdef int tryblock, i
    cdef int64_t blost0
    cdef int me = share_join(&E.share)
    C.worlds = 0
    C.lost = 0
    C.classes = 0
    C.first_lost[0] = -1
    for su in range(4):
        C.order[su] = E.order[su]
    if me < 0:
        return
    while True:
        unit = share_take(&E.share, me)
        if unit < 0 or stopped(&E.stop):
            return
        i0 = <int>(unit // E.ngrp[1])
        i1 = <int>(unit % E.ngrp[1])
        g[0] = &E.grp[0][i0]
        g[1] = &E.grp[1][i1]
        if g[0].k + g[1].k > E.K or g[0].l + g[1].l > E.n:
            continue
        for i2 in range(E.ngrp[2]):
            g[2] = &E.grp[2][i2]
            kr = E.K - g[0].k - g[1].k - g[2].k
            lr = E.n - g[0].l - g[1].l - g[2].l
            if kr < 0 or kr > 2 or lr < 0 or lr > 8:
                continue
            if stopped(&E.stop):
                return
            split = g[0].count > 1 or g[1].count > 1 or g[2].count > 1
            # the hands in the first three suits, at each group's first pattern
            d3 = l3 = r3 = 0
            for su in range(3):
                q = &E.pat[su][g[su].start]
                d3 |= q.d
                l3 |= q.lm
                r3 |= q.rm
                idx[su] = q.idx
            s.nrec = 0          # the noted positions are of this block's first three suits only
            # a block (every class of these three suits' groups) is tried at once after its first class,
            # when that one is won: a lost first class is the usual sign of a lost block, whose relaxed
            # game is lost too and would be searched for nothing
            tryblock = E.blocks and not split and E.end3[kr][lr] - E.start3[kr][lr] >= 2
            blost0 = C.lost
            for i3 in range(E.start3[kr][lr], E.end3[kr][lr]):
                g[3] = &E.grp[3][i3]
                q = &E.pat[3][g[3].start]
                if searched and not split and i3 + 1 < E.end3[kr][lr] and g[3][1].count == 1:
                    qn = &E.pat[3][g[3][1].start]
                    if key_of(d3 | qn.d, l3 | qn.lm, d3 | l3 | r3 | qn.d | qn.lm | qn.rm, lead_rel, &key) or lead_rel == 0:
                        dtable_prefetch(s.tt, key)      # (not a static win, so the key was written)
                m = g[0].mult * g[1].mult * g[2].mult * g[3].mult
                s.hand[dseat] = d3 | q.d
                s.hand[(dseat + 1) % 3] = l3 | q.lm
                s.hand[(dseat + 2) % 3] = r3 | q.rm
                C.classes += 1
                C.worlds += m
                if split or g[3].count > 1:
                    solve_split(E, s, g, C)
                    searched = 1
                else:
                    nodes0 = s.nodes
                    probes0 = s.tt.probes
                    prefetch_noted(s)
                    s.rec_on = 1
                    r = root_lose(s, ALL_CARDS)
                    s.rec_on = 0
                    searched = s.nodes - nodes0 > 1 or s.tt.probes != probes0
                    if r:
                        C.lost += m
                        idx[3] = q.idx
                        note_lost(C, idx)
                if tryblock and C.lost == blost0 and i3 + 1 < E.end3[kr][lr]:
                    tryblock = 0
                    b.tries += 1
                    nodes0 = b.nodes
                    if block_won(E, s, b, d3, l3, r3, E.d3, E.u3, suit_bits(3), kr, lr, <uint64_t>1 << 62):
                        b.wins += 1
                        b.win_nodes += b.nodes - nodes0
                        bw = g[0].mult * g[1].mult * g[2].mult
                        for i in range(i3 + 1, E.end3[kr][lr]):
                            C.classes += 1
                            C.worlds += bw * E.grp[3][i].mult
                        break
