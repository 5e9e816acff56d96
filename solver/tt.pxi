# Transposition table (included by _engine.pyx).
#
# Entries are stored only at trick boundaries.  The key is exact: the three
# hands (internal masks), the leader and a context byte (contract, declarer
# seat, search mode), so an entry is valid for every deal, discard and
# threshold that reaches the same hands; nothing needs clearing between
# calls.  The value stored is a pair of bounds on Q, the quantity still to
# be won by the scoring side from this trick on.
#
# Entry layout (16 bytes):
#   h0, h1, h2   uint32  the hands of seats 0, 1, 2
#   meta         uint32  bits 0-1   leader
#                        bits 2-8   context (game 3 bits, declarer 2, mode 2)
#                        bits 9-13  best move (internal bit)
#                        bit  14    best move valid
#                        bits 15-21 lower bound on Q
#                        bits 22-28 upper bound on Q
#                        bits 29-31 generation (the engine's root count, mod 8)
# An all-zero entry is empty: no probed state has three empty hands.
# Buckets hold four entries (one cache line).
#
# The table in use grows: it starts at TT_START_BUCKETS and doubles (moving
# each entry to its bucket under the wider mask) whenever a quarter of its
# slots hold entries of the current generation, up to the size the user
# set.  A solve that needs a few megabytes then probes a few megabytes,
# which the caches hold, instead of scattering its entries over the whole
# mapping: on the benchmark a 128 MiB table used from the start was about
# 20-30% slower than a small one with the same nodes.  Entries of earlier
# generations do not count, since they are the first to be replaced: a
# solver kept for thousands of unrelated deals (a batch, a Monte Carlo
# loop) would otherwise grow to its bound and lose the caches (measured:
# 25% slower than clearing before each deal; with this rule, as fast).
# clear() shrinks the table back.  Slots beyond the part in use are always
# empty.
#
# Replacement: the same key is
# updated in place; otherwise an empty slot; otherwise, preferring entries
# from an older generation (an earlier root position: still valid, but
# likely of a deal that is done), the entry with the fewest cards left (the
# cheapest to recompute).  Without the generation, deep entries of old deals
# would never leave a long-lived table.

from libc.string cimport memset

ctypedef struct TTEntry:
    uint32_t h0
    uint32_t h1
    uint32_t h2
    uint32_t meta

# Members of an anonymous enum are C compile-time int constants (every value
# here fits an int), as the DEF constants they replace were (DEF is
# deprecated in Cython 3); TT_WAYS and QS_WAYS size C arrays.
cdef enum:
    TT_WAYS = 4
    META_KEY_MASK = 0x1FF        # leader + context
    BEST_SHIFT = 9
    BEST_VALID = 1 << 14
    LB_SHIFT = 15
    UB_SHIFT = 22
    BOUND_MASK = 0x7F
    GEN_SHIFT = 29
    TT_START_BUCKETS = 1 << 14   # 16384 buckets of 64 bytes: 1 MiB

ctypedef struct TTable:
    TTEntry* entries
    uint64_t nbuckets            # mapped buckets, a power of two
    uint64_t used_buckets        # buckets in use (a power of two, <= nbuckets)
    uint64_t current             # slots holding entries of the current generation
    uint64_t probes
    uint64_t hits
    uint64_t stores
    uint32_t generation          # 0..7, bumped by tt_new_generation()


cdef extern from *:
    """
    #include <sys/mman.h>
    /* The table is mapped anonymously: pages arrive zeroed on first touch,
       so a large table costs nothing until the search uses it.  (Huge pages
       were tried: with the kernel's defrag-on-madvise setting a fault could
       stall for most of a second, so they are not requested.) */
    static void* skatdd_map_table(size_t n) {
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    static void skatdd_unmap_table(void* p, size_t n) { if (p) munmap(p, n); }
    """
    void* skatdd_map_table(size_t n) nogil
    void skatdd_unmap_table(void* p, size_t n) nogil


cdef inline uint64_t tt_start_buckets(const TTable* t) noexcept nogil:
    """Size of the part in use after allocation or clear()."""
    return t.nbuckets if t.nbuckets < TT_START_BUCKETS else TT_START_BUCKETS


cdef int tt_alloc(TTable* t, uint64_t megabytes) noexcept nogil:
    """Map a zeroed table of at most *megabytes* MiB; 0 on success, -1 when out of memory."""
    cdef uint64_t nbytes = megabytes << 20
    cdef uint64_t buckets = 1
    while buckets * 2 * TT_WAYS * sizeof(TTEntry) <= nbytes:
        buckets *= 2
    t.entries = <TTEntry*> skatdd_map_table(buckets * TT_WAYS * sizeof(TTEntry))
    if t.entries == NULL:
        t.nbuckets = 0
        return -1
    t.nbuckets = buckets
    t.used_buckets = tt_start_buckets(t)
    t.current = 0
    t.probes = t.hits = t.stores = 0
    t.generation = 0
    return 0


cdef inline void tt_new_generation(TTable* t) noexcept nogil:
    """Mark every entry stored so far as older than what comes next (for replacement only)."""
    t.generation = (t.generation + 1) & 7
    t.current = 0


cdef void tt_free(TTable* t) noexcept nogil:
    skatdd_unmap_table(t.entries, t.nbuckets * TT_WAYS * sizeof(TTEntry))
    t.entries = NULL
    t.nbuckets = 0


cdef void tt_clear(TTable* t) noexcept nogil:
    """Empty the table and shrink the part in use to its starting size."""
    if t.entries != NULL:
        memset(t.entries, 0, t.used_buckets * TT_WAYS * sizeof(TTEntry))
        t.used_buckets = tt_start_buckets(t)
        t.current = 0


cdef inline uint64_t tt_hash(uint32_t h0, uint32_t h1, uint32_t h2, uint32_t keymeta) noexcept nogil:
    cdef uint64_t x = (<uint64_t>h0 * 0x9E3779B97F4A7C15ULL) ^ (<uint64_t>h1 * 0xC2B2AE3D27D4EB4FULL)
    x ^= (<uint64_t>h2 * 0x165667B19E3779F9ULL) ^ (<uint64_t>keymeta * 0xD6E8FEB86659FD93ULL)
    x ^= x >> 31
    x *= 0x94D049BB133111EBULL
    return x ^ (x >> 29)


cdef inline TTEntry* tt_bucket(const TTable* t, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t keymeta) noexcept nogil:
    """First entry of the bucket of this key in the part in use."""
    return t.entries + (tt_hash(h0, h1, h2, keymeta) & (t.used_buckets - 1)) * TT_WAYS


cdef inline bint tt_empty(const TTEntry* e) noexcept nogil:
    return e.meta == 0 and e.h0 == 0 and e.h1 == 0 and e.h2 == 0


cdef inline TTEntry* tt_match(TTEntry* b, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t keymeta) noexcept nogil:
    """The entry of bucket *b* holding this key, or NULL."""
    cdef int i
    for i in range(TT_WAYS):
        if b[i].h0 == h0 and b[i].h1 == h1 and b[i].h2 == h2 and (b[i].meta & META_KEY_MASK) == keymeta:
            return &b[i]
    return NULL


cdef inline TTEntry* tt_find(TTable* t, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t keymeta) noexcept nogil:
    """The entry holding this key, or NULL."""
    return tt_match(tt_bucket(t, h0, h1, h2, keymeta), h0, h1, h2, keymeta)


cdef inline void tt_save(TTable* t, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t keymeta,
                         int lower, int upper, int best) noexcept nogil:
    """Record lower <= Q <= upper (intersected with what is known) and the best move (-1: none)."""
    cdef TTEntry* b = tt_bucket(t, h0, h1, h2, keymeta)
    cdef TTEntry* slot = tt_match(b, h0, h1, h2, keymeta)
    cdef int i, old_lo, old_hi, cards, fewest = 99
    cdef uint32_t meta
    if slot != NULL:
        old_lo = (slot.meta >> LB_SHIFT) & BOUND_MASK
        old_hi = (slot.meta >> UB_SHIFT) & BOUND_MASK
        if old_lo > lower:
            lower = old_lo
        if old_hi < upper:
            upper = old_hi
        if best < 0 and (slot.meta & BEST_VALID):
            best = (slot.meta >> BEST_SHIFT) & 31
    else:
        for i in range(TT_WAYS):
            if tt_empty(&b[i]):
                slot = &b[i]
                break
            cards = __builtin_popcount(b[i].h0 | b[i].h1 | b[i].h2)
            if (b[i].meta >> GEN_SHIFT) != t.generation:
                cards -= 64                     # any older entry goes before a current one
            if cards < fewest:
                fewest = cards
                slot = &b[i]
    if upper > BOUND_MASK:
        upper = BOUND_MASK
    if lower < 0:
        lower = 0
    meta = keymeta | (<uint32_t>lower << LB_SHIFT) | (<uint32_t>upper << UB_SHIFT) | (t.generation << GEN_SHIFT)
    if best >= 0:
        meta |= (<uint32_t>best << BEST_SHIFT) | BEST_VALID
    if tt_empty(slot) or (slot.meta >> GEN_SHIFT) != t.generation:
        t.current += 1                          # an empty or older slot becomes current
    slot.h0 = h0
    slot.h1 = h1
    slot.h2 = h2
    slot.meta = meta
    t.stores += 1
    if t.current * 4 > t.used_buckets * TT_WAYS and t.used_buckets < t.nbuckets:
        tt_grow(t)


cdef void tt_grow(TTable* t) noexcept nogil:
    """Double the part in use: each entry of bucket i stays or moves to bucket i + old size.

    Bucket i + old size is empty and receives entries from bucket i only, so
    every entry finds a slot.
    """
    cdef uint64_t old = t.used_buckets, i, j
    cdef uint64_t mask = 2 * old - 1
    cdef TTEntry* b
    cdef TTEntry* dst
    cdef int k, d
    for i in range(old):
        b = t.entries + i * TT_WAYS
        d = 0
        for k in range(TT_WAYS):
            if tt_empty(&b[k]):
                continue
            j = tt_hash(b[k].h0, b[k].h1, b[k].h2, b[k].meta & META_KEY_MASK) & mask
            if j != i:
                dst = t.entries + j * TT_WAYS
                dst[d] = b[k]
                d += 1
                memset(&b[k], 0, sizeof(TTEntry))
    t.used_buckets = 2 * old


# Canonical keys: in the trick modes the hands are compressed block by
# block before every probe and store, so equivalent positions share an
# entry.  Points mode keys the exact table by the hands themselves: the
# quasi-symmetric table (qsym.pxi) merges such positions at no cost in
# bounds, and computing both keys took 4-5% more time (0.2-0.8% fewer nodes).

ctypedef struct KeyBlocks:
    int nblocks
    uint8_t block_start[8]
    uint32_t block_width_mask[8]


cdef inline void canonical_hands(const KeyBlocks* s, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t* out) noexcept nogil:
    """Hands with every block of interchangeable cards compressed to its lowest bits.

    A block is a run of cards of one follow group that weigh the same (the
    7 8 9 of a suit, the four jacks; a whole group when weights are all 0).
    Cards that are out of play never matter again, so two positions whose
    live cards differ only by which cards of a block are live play the same:
    compressing the live cards of each block to its lowest bits keeps every
    order relation and every weight, and makes their TT keys equal.
    """
    cdef uint32_t live = h0 | h1 | h2, l, m, keep, x
    cdef uint32_t o0 = h0, o1 = h1, o2 = h2      # locals, not out[]: no aliasing with *s
    cdef const uint8_t* row
    cdef const uint8_t* high
    cdef int b, st, sh
    for b in range(s.nblocks):
        st = s.block_start[b]
        m = s.block_width_mask[b]
        l = (live >> st) & m
        if (l & (l + 1)) == 0:
            continue                      # the live cards already fill the lowest bits
        keep = ~(m << st)
        if l < 256:
            row = PEXT8[l]
            o0 = (o0 & keep) | (<uint32_t>row[(h0 >> st) & m] << st)
            o1 = (o1 & keep) | (<uint32_t>row[(h1 >> st) & m] << st)
            o2 = (o2 & keep) | (<uint32_t>row[(h2 >> st) & m] << st)
        else:
            # A block wider than a byte (a suit game's eleven trumps, in the
            # trick modes and in abstract keys): its low byte, then the rest
            # above the low byte's live cards.
            row = PEXT8[l & 0xFF]
            high = PEXT8[l >> 8]
            sh = __builtin_popcount(l & 0xFF)
            x = (h0 >> st) & m
            o0 = (o0 & keep) | ((<uint32_t>row[x & 0xFF] | (<uint32_t>high[x >> 8] << sh)) << st)
            x = (h1 >> st) & m
            o1 = (o1 & keep) | ((<uint32_t>row[x & 0xFF] | (<uint32_t>high[x >> 8] << sh)) << st)
            x = (h2 >> st) & m
            o2 = (o2 & keep) | ((<uint32_t>row[x & 0xFF] | (<uint32_t>high[x >> 8] << sh)) << st)
    out[0] = o0
    out[1] = o1
    out[2] = o2


cdef void init_blocks(KeyBlocks* s, const Layout* lay, const uint8_t* weight) noexcept nogil:
    """Find the blocks of interchangeable cards for the layout *lay* and the card weights *weight*."""
    cdef int c = 0, start, g
    s.nblocks = 0
    while c < 32:
        start = c
        g = lay.group_of[c]
        while c + 1 < 32 and lay.group_of[c + 1] == g and weight[c + 1] == weight[start] and (lay.group_mask[g] >> (c + 1)) & 1:
            c += 1
        if c > start:
            s.block_start[s.nblocks] = start
            s.block_width_mask[s.nblocks] = ((<uint32_t>1) << (c - start + 1)) - 1
            s.nblocks += 1
        c += 1
