# Exact-key result table (included by _nullouvert.pyx).
#
# Entry layout (two uint64):
#   a   the first key word (k1)
#   b   (size << 58) | (k2 << 2) | 2 (occupied) | result bit   (k2 < 2^56)
# Buckets of 4 entries; a full bucket replaces its entry with the most
# cards left (table_put).  Keys are exact, so a hit is always correct.

from libc.stdlib cimport free
from libc.string cimport memset

ctypedef struct Table:
    uint64_t* e            # 2 words per entry
    uint64_t nbuckets      # power of two
    uint64_t* near         # the near cache: 1 << near_bits entries of 2 words, direct-mapped (see table_get)
    int near_bits
    uint64_t hits
    uint64_t probes
    uint64_t near_hits


cdef enum:
    NEAR_BITS = 15         # the near cache's default size: 32,768 entries, 512 KiB


cdef extern from *:
    """
    #include <sys/mman.h>
    /* Probes land anywhere in a table of up to hundreds of MiB: with 4 KiB
       pages nearly every one misses the TLB as well as the caches (perf: the
       probe's first load took half of the hardest hand game's time).  Huge
       pages, where the kernel grants them, make the hardest hand game of the
       benchmark 36% cheaper (10.9 s -> 7.0 s CPU) and the known-skat hands
       with many worlds about twice as fast; a first touch zeroes 2 MiB, so
       the smallest analyses take 0.1-0.2 ms instead of 0.03. */
    static void* null_table_map(size_t n) {
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, n, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void skatdd_null_table_unmap(void* p, size_t n) { if (p) munmap(p, n); }
    """
    void* null_table_map(size_t n) nogil
    void null_table_unmap "skatdd_null_table_unmap"(void* p, size_t n) nogil


cdef uint64_t table_buckets(int mb) noexcept nogil:
    """The buckets of 64 bytes a table of about *mb* MiB holds: the largest power of two that fits, at least 4096."""
    cdef uint64_t want = (<uint64_t>mb) * 1024 * 1024 // 64
    cdef uint64_t n = 4096
    while n * 2 <= want:
        n *= 2
    return n


cdef int table_alloc(Table* t, int mb, int near_bits=NEAR_BITS) noexcept nogil:
    """Map a zeroed table of about *mb* MiB (at least 4096 buckets), huge pages preferred, and its near cache of 1 << *near_bits* (1..20) entries; 0 on success."""
    cdef uint64_t n = table_buckets(mb)
    t.e = <uint64_t*>null_table_map(n * 8 * sizeof(uint64_t))
    if t.e == NULL:
        return -1
    t.near_bits = near_bits
    t.near = <uint64_t*>null_table_map((<size_t>1 << near_bits) * 2 * sizeof(uint64_t))
    if t.near == NULL:
        null_table_unmap(t.e, n * 8 * sizeof(uint64_t))
        t.e = NULL
        return -1
    t.nbuckets = n
    t.hits = 0
    t.probes = 0
    t.near_hits = 0
    return 0


cdef void table_free(Table* t) noexcept nogil:
    """Give the table's memory back (safe on a table that failed to allocate or was freed)."""
    null_table_unmap(t.e, t.nbuckets * 8 * sizeof(uint64_t))
    null_table_unmap(t.near, (<size_t>1 << t.near_bits) * 2 * sizeof(uint64_t))
    t.e = NULL
    t.near = NULL
    t.nbuckets = 0


cdef void table_clear(Table* t) noexcept nogil:
    memset(t.e, 0, t.nbuckets * 8 * sizeof(uint64_t))
    memset(t.near, 0, (<size_t>1 << t.near_bits) * 2 * sizeof(uint64_t))


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= 0xff51afd7ed558ccdULL
    x ^= x >> 33
    x *= 0xc4ceb9fe1a85ec53ULL
    x ^= x >> 33
    return x


cdef extern from *:
    void __builtin_prefetch(const void*) nogil


cdef inline uint64_t table_hash(uint64_t k1, uint64_t k2) noexcept nogil:
    return mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL))


cdef inline uint64_t* table_bucket(const Table* t, uint64_t k1, uint64_t k2) noexcept nogil:
    """The bucket (4 entries, one cache line) that holds the key."""
    return t.e + (table_hash(k1, k2) & (t.nbuckets - 1)) * 8


cdef inline uint64_t* near_slot(const Table* t, uint64_t h) noexcept nogil:
    """The key's entry in the near cache (from the hash's top bits: the table's index uses the low ones)."""
    return t.near + (h >> (64 - t.near_bits)) * 2


cdef inline void table_prefetch(const Table* t, uint64_t k1, uint64_t k2) noexcept nogil:
    """Start loading the key's bucket into the cache: a probe anywhere in the table is a cache miss."""
    __builtin_prefetch(table_bucket(t, k1, k2))


cdef inline int table_get(Table* t, uint64_t k1, uint64_t k2) noexcept nogil:
    """Stored result (0/1) for the key, or -1.

    The near cache is looked at first: a small direct-mapped array of the
    entries last stored or found, private to the table (so to its thread),
    that stays in the core's own cache, where the table's bucket is a
    memory load.  Its entries are exact too.
    """
    cdef uint64_t h = table_hash(k1, k2)
    cdef uint64_t* nr = near_slot(t, h)
    cdef uint64_t* b
    cdef uint64_t want = (k2 << 2) | 2
    cdef uint64_t low58 = ((<uint64_t>1) << 58) - 2
    cdef int i
    t.probes += 1
    if nr[0] == k1 and (nr[1] & low58) == want:
        t.hits += 1
        t.near_hits += 1
        return <int>(nr[1] & 1)
    b = t.e + (h & (t.nbuckets - 1)) * 8
    for i in range(4):
        if b[2 * i] == k1 and (b[2 * i + 1] & low58) == want:
            t.hits += 1
            nr[0] = k1
            nr[1] = b[2 * i + 1]
            return <int>(b[2 * i + 1] & 1)
    return -1


cdef inline void table_put(Table* t, uint64_t k1, uint64_t k2, int res, int size) noexcept nogil:
    """Store an exact result; *size* (cards left, 0..63) ranks entries for replacement.

    A full bucket gives up its entry with the most cards left (the least
    likely to recur), the new entry included: large positions never evict
    small ones.  The near cache always takes it.
    """
    cdef uint64_t h = table_hash(k1, k2)
    cdef uint64_t* b = t.e + (h & (t.nbuckets - 1)) * 8
    cdef uint64_t* nr = near_slot(t, h)
    cdef uint64_t word = ((<uint64_t>size) << 58) | (k2 << 2) | 2 | <uint64_t>(res & 1)
    cdef int i, slot = -1, worst = size
    nr[0] = k1
    nr[1] = word
    for i in range(4):
        if b[2 * i + 1] == 0:
            slot = i
            break
        if <int>(b[2 * i + 1] >> 58) >= worst:
            worst = <int>(b[2 * i + 1] >> 58)
            slot = i
    if slot < 0:
        return
    b[2 * slot] = k1
    b[2 * slot + 1] = word


# The double-dummy table: one word an entry, shared by the threads of a count.
#
# A position's key (key_of() in nullouvert_dd.pxi) fits in 58 bits, so an
# entry is one uint64:
#   bits 0-57   the key
#   bit 58      the result
#   bits 59-62  the declarer's cards left (0..10: ranks entries for replacement)
#   bit 63      occupied
# Buckets of 8 entries (one cache line).  A word is loaded and stored whole
# (aligned 64-bit atomics, relaxed: plain moves on x86-64), so threads may
# share the table without locks: a probe sees an entry some thread stored,
# never half of one, and entries are exact, so whichever thread stored it,
# a hit is correct.  Two threads replacing in one bucket at once may lose
# an entry: a later miss, never a wrong answer.  Each thread has a near
# cache and counters of its own (DView), so that no cache line it writes
# on every probe is shared.

cdef extern from *:
    """
    static inline unsigned long long skatdd_ld64(const unsigned long long* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void skatdd_st64(unsigned long long* p, unsigned long long v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    uint64_t ld64 "skatdd_ld64"(const uint64_t* p) nogil
    void st64 "skatdd_st64"(uint64_t* p, uint64_t v) nogil


cdef enum:
    DKEY_BITS = 58


cdef uint64_t DKEY_MASK = ((<uint64_t>1) << 58) - 1
cdef uint64_t DRES = (<uint64_t>1) << 58
cdef uint64_t DOCC = (<uint64_t>1) << 63
cdef uint64_t DCMP = DKEY_MASK | DOCC


ctypedef struct DTable:
    uint64_t* e            # 8 words a bucket
    uint64_t nbuckets      # power of two


ctypedef struct DView:
    DTable* t              # the table, maybe shared with other threads
    uint64_t* near         # this thread's near cache: 1 << near_bits words, direct-mapped
    int near_bits
    uint64_t hits
    uint64_t probes
    uint64_t near_hits


cdef int dtable_alloc(DTable* t, int mb) noexcept nogil:
    """Map a zeroed table of about *mb* MiB (at least 4096 buckets of 64 bytes), huge pages preferred; 0 on success."""
    cdef uint64_t n = table_buckets(mb)
    t.e = <uint64_t*>null_table_map(n * 8 * sizeof(uint64_t))
    if t.e == NULL:
        t.nbuckets = 0
        return -1
    t.nbuckets = n
    return 0


cdef void dtable_free(DTable* t) noexcept nogil:
    null_table_unmap(t.e, t.nbuckets * 8 * sizeof(uint64_t))
    t.e = NULL
    t.nbuckets = 0


cdef void dtable_clear(DTable* t) noexcept nogil:
    memset(t.e, 0, t.nbuckets * 8 * sizeof(uint64_t))


cdef int dview_alloc(DView* v, DTable* t, int near_bits) noexcept nogil:
    """A thread's view of *t* with a near cache of 1 << *near_bits* (1..20) entries; 0 on success."""
    v.t = t
    v.near_bits = near_bits
    v.near = <uint64_t*>null_table_map((<size_t>1 << near_bits) * sizeof(uint64_t))
    v.hits = v.probes = v.near_hits = 0
    return 0 if v.near != NULL else -1


cdef void dview_free(DView* v) noexcept nogil:
    null_table_unmap(v.near, (<size_t>1 << v.near_bits) * sizeof(uint64_t))
    v.near = NULL


cdef void dview_clear(DView* v) noexcept nogil:
    memset(v.near, 0, (<size_t>1 << v.near_bits) * sizeof(uint64_t))


cdef inline uint64_t* dtable_bucket(const DView* v, uint64_t h) noexcept nogil:
    return v.t.e + (h & (v.t.nbuckets - 1)) * 8


cdef inline void dtable_prefetch(const DView* v, uint64_t key) noexcept nogil:
    """Start loading the key's bucket into the cache: a probe anywhere in the table is a cache miss."""
    __builtin_prefetch(dtable_bucket(v, mix64(key)))


cdef inline int dtable_get(DView* v, uint64_t key) noexcept nogil:
    """Stored result (0/1) for the key (58 bits), or -1: the thread's near cache first, then the shared bucket."""
    cdef uint64_t h = mix64(key)
    cdef uint64_t* nr = v.near + (h >> (64 - v.near_bits))
    cdef uint64_t* b
    cdef uint64_t want = key | DOCC, w
    cdef int i
    v.probes += 1
    if (nr[0] & DCMP) == want:
        v.hits += 1
        v.near_hits += 1
        return <int>((nr[0] >> DKEY_BITS) & 1)
    b = dtable_bucket(v, h)
    for i in range(8):
        w = ld64(&b[i])
        if (w & DCMP) == want:
            v.hits += 1
            nr[0] = w
            return <int>((w >> DKEY_BITS) & 1)
    return -1


cdef inline int dtable_near(DView* v, uint64_t key, uint64_t h) noexcept nogil:
    """dtable_get()'s first half: the result (0/1) in this thread's near cache for the key whose hash is *h*, or -1."""
    cdef uint64_t* nr = v.near + (h >> (64 - v.near_bits))
    v.probes += 1
    if (nr[0] & DCMP) == (key | DOCC):
        v.hits += 1
        v.near_hits += 1
        return <int>((nr[0] >> DKEY_BITS) & 1)
    return -1


cdef inline int dtable_far(DView* v, uint64_t key, uint64_t h) noexcept nogil:
    """dtable_get()'s second half, after dtable_near() missed: the result in the shared bucket, or -1."""
    cdef uint64_t* b = dtable_bucket(v, h)
    cdef uint64_t want = key | DOCC, w
    cdef int i
    for i in range(8):
        w = ld64(&b[i])
        if (w & DCMP) == want:
            v.hits += 1
            v.near[h >> (64 - v.near_bits)] = w
            return <int>((w >> DKEY_BITS) & 1)
    return -1


cdef inline void dtable_put(DView* v, uint64_t key, int res, int size) noexcept nogil:
    """Store an exact result; *size* (the declarer's cards left, 0..15) ranks entries for replacement.

    A full bucket gives up its entry with the most cards left (the least
    likely to recur), the new entry included: large positions never evict
    small ones.  The near cache always takes it.
    """
    cdef uint64_t h = mix64(key)
    cdef uint64_t* b = dtable_bucket(v, h)
    cdef uint64_t word = DOCC | ((<uint64_t>size) << 59) | ((<uint64_t>(res & 1)) << DKEY_BITS) | key, w
    cdef int i, slot = -1, worst = size
    v.near[h >> (64 - v.near_bits)] = word
    for i in range(8):
        w = ld64(&b[i])
        if w == 0:
            slot = i
            break
        if <int>((w >> 59) & 15) >= worst:
            worst = <int>((w >> 59) & 15)
            slot = i
    if slot >= 0:
        st64(&b[slot], word)
