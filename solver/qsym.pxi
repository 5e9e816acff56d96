# Quasi-symmetric transposition table (included by _engine.pyx after tt.pxi).
#
# Two trick-boundary positions with the same leader whose live cards, follow
# group by follow group, are held by the same seats in the same rank order
# play out alike: pairing the i-th live card of a group in one with the i-th
# in the other maps every legal move, every line and every trick's winner
# across.  Only the weights of the paired cards differ: along any line the
# scoring side's tricks in A weigh at most MORE above and at most LESS below
# the same tricks in B, MORE and LESS the sums over the pairs of the weight
# A's card has above, and below, B's.  That holds line by line, so it holds
# for the values: bounds [lo, hi] known for B give [lo - LESS, hi + MORE]
# for A.  (Bounding both sides by the sum of all the differences, as the
# method is usually stated, took 82% more nodes on the benchmark.  Positions
# whose interchangeable cards differ, 7 for 8 say, are the case of no
# difference at all: the exact table leaves them to this one in points mode.)
#
# The abstract key of a position is its three hands with each follow group's
# live cards compressed onto the group's lowest bits: it records who holds
# the i-th card of every group and nothing else.  An entry stores that key,
# the live cards of the position it was computed for (with the key they fix
# the position, and they price the pairing), and its bounds.  Entries never
# go stale: the differences are priced against whatever position made the
# entry, of any deal, so a bucket simply keeps its newest entries.
#
# The table is probed wherever the exact one is (every trick boundary with
# three or more cards a hand), after it, when that one did not settle the
# window, and stored with it.  (Only from four or five cards a hand: 10% and
# 45% more nodes, and 1-3% and 20% more time.)  Only points mode has cards
# of different weights; in the trick modes every card weighs 0, the
# canonical key already is the abstract key, and the table is not used.

cdef enum:                      # compile-time int constants (see tt.pxi)
    QS_WAYS = 3                 # entries a bucket (60 bytes, one cache line)
    QS_BUCKETS = 1 << 13        # 512 KiB
    QS_VALID = 1 << 9           # in meta: bits 0-8 key, 15-21 lower, 22-28 upper (as in TTEntry)

ctypedef struct QSEntry:
    uint32_t a0                 # abstract hands of seats 0, 1, 2
    uint32_t a1
    uint32_t a2
    uint32_t live               # live cards of the position the bounds are for
    uint32_t meta

ctypedef struct QSBucket:
    QSEntry e[QS_WAYS]          # newest first
    uint32_t pad

ctypedef struct QSTable:
    QSBucket* buckets
    bint dirty                  # something was stored since the last clear
    uint64_t probes
    uint64_t cuts
    uint64_t stores


cdef int qs_alloc(QSTable* q) noexcept nogil:
    """Map the zeroed table; 0 on success, -1 when out of memory."""
    q.buckets = <QSBucket*> skatdd_map_table(QS_BUCKETS * sizeof(QSBucket))
    q.dirty = False
    q.probes = q.cuts = q.stores = 0
    return 0 if q.buckets != NULL else -1


cdef void qs_free(QSTable* q) noexcept nogil:
    skatdd_unmap_table(q.buckets, QS_BUCKETS * sizeof(QSBucket))
    q.buckets = NULL


cdef void qs_clear(QSTable* q) noexcept nogil:
    if q.buckets != NULL and q.dirty:
        memset(q.buckets, 0, QS_BUCKETS * sizeof(QSBucket))
        q.dirty = False


cdef void init_group_blocks(KeyBlocks* s, const Layout* lay) noexcept nogil:
    """One block per follow group, so that canonical_hands() gives the abstract key."""
    cdef int g, st
    s.nblocks = 0
    for g in range(5):
        if lay.group_mask[g]:
            st = bit_index(lay.group_mask[g])
            s.block_start[s.nblocks] = st
            s.block_width_mask[s.nblocks] = lay.group_mask[g] >> st
            s.nblocks += 1


cdef inline QSBucket* qs_bucket(const QSTable* q, const uint32_t* a, uint32_t keymeta) noexcept nogil:
    return q.buckets + (tt_hash(a[0], a[1], a[2], keymeta) & (QS_BUCKETS - 1))


cdef inline bint qs_same_key(const QSEntry* e, const uint32_t* a, uint32_t keymeta) noexcept nogil:
    return (e.a0 == a[0] and e.a1 == a[1] and e.a2 == a[2]
            and (e.meta & (META_KEY_MASK | QS_VALID)) == (keymeta | QS_VALID))


cdef inline int qs_distance(const Layout* lay, const uint8_t* weight, uint32_t live_a, uint32_t live_b,
                            int sign) noexcept nogil:
    """How much more (*sign* 1) or less (*sign* -1) the live cards of *live_a* weigh than those of *live_b* paired in rank order.

    The sum over the pairs, group by group, of the positive (or of the
    negative) weight differences; the two sets hold as many cards of each
    group (their abstract keys are equal).  Played alike, the scoring side's
    tricks in A weigh at most MORE above and LESS below those in B.  Only
    the side the settling bound needs is counted.
    """
    cdef int g, d, total = 0
    cdef uint32_t a, b
    if live_a == live_b:
        return 0
    for g in range(5):
        a = live_a & lay.group_mask[g]
        b = live_b & lay.group_mask[g]
        while a != b:
            d = sign * (<int>weight[bit_index(a)] - <int>weight[bit_index(b)])
            if d > 0:
                total += d
            a &= a - 1
            b &= b - 1
    return total


cdef inline bint qs_probe(QSTable* q, const Layout* lay, const uint8_t* weight, const uint32_t* a,
                          uint32_t live, uint32_t keymeta, int alpha, int beta, int* out) noexcept nogil:
    """True, with the fail-soft result in *out*, when an entry for a quasi-symmetric position settles (alpha, beta)."""
    cdef QSBucket* b = qs_bucket(q, a, keymeta)
    cdef QSEntry* e
    cdef int i, lo, hi
    if SKATDD_STATS:
        q.probes += 1
    for i in range(QS_WAYS):
        e = &b.e[i]
        if not qs_same_key(e, a, keymeta):
            continue
        # The widening only loosens a bound: price the pairing only when the
        # entry's own bound settles the window.
        lo = <int>((e.meta >> LB_SHIFT) & BOUND_MASK)
        hi = <int>((e.meta >> UB_SHIFT) & BOUND_MASK)
        if lo >= beta:
            lo -= qs_distance(lay, weight, live, e.live, -1)
            if lo < beta:
                continue
            out[0] = lo
        elif hi <= alpha and hi < BOUND_MASK:             # BOUND_MASK: no upper bound known
            hi += qs_distance(lay, weight, live, e.live, 1)
            if hi > alpha:
                continue
            out[0] = hi
        else:
            continue
        if SKATDD_STATS:
            q.cuts += 1
        return True
    return False


cdef inline void qs_save(QSTable* q, const uint32_t* a, uint32_t live, uint32_t keymeta,
                         int lower, int upper) noexcept nogil:
    """Record lower <= Q <= upper (intersected with what the entry of this very position knew) as the bucket's newest entry."""
    cdef QSBucket* b = qs_bucket(q, a, keymeta)
    cdef QSEntry* e
    cdef int i, last = QS_WAYS - 1
    if upper > BOUND_MASK:
        upper = BOUND_MASK
    if lower < 0:
        lower = 0
    for i in range(QS_WAYS):
        e = &b.e[i]
        if e.live == live and qs_same_key(e, a, keymeta):
            if <int>((e.meta >> LB_SHIFT) & BOUND_MASK) > lower:
                lower = (e.meta >> LB_SHIFT) & BOUND_MASK
            if <int>((e.meta >> UB_SHIFT) & BOUND_MASK) < upper:
                upper = (e.meta >> UB_SHIFT) & BOUND_MASK
            last = i
            break
    for i in range(last, 0, -1):
        b.e[i] = b.e[i - 1]
    e = &b.e[0]
    e.a0 = a[0]
    e.a1 = a[1]
    e.a2 = a[2]
    e.live = live
    e.meta = keymeta | QS_VALID | (<uint32_t>lower << LB_SHIFT) | (<uint32_t>upper << UB_SHIFT)
    q.dirty = True
    if SKATDD_STATS:
        q.stores += 1
