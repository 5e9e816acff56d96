# One suit's tables for the null search (included by _nullouvert.pyx, before
# nullouvert_dd.pxi): the suit helpers, when a suit is safe for the declarer
# (SAFE_CANON), when it holds (HOLDS), and a suit's code in the table's key
# with its canonical form and those flags (CODE3).


from libc.stdint cimport uint16_t


cdef inline int suit_of(int c) noexcept nogil:
    return c >> 3


cdef inline uint32_t suit_bits(int s) noexcept nogil:
    return (<uint32_t>0xFF) << (s * 8)


cdef inline uint32_t below(int c) noexcept nogil:
    """Cards of c's suit below c."""
    return (((<uint32_t>1) << c) - 1) & suit_bits(c >> 3)


cdef inline uint32_t above(int c) noexcept nogil:
    """Cards of c's suit above c."""
    return suit_bits(c >> 3) & ~((((<uint32_t>1) << c) - 1) | ((<uint32_t>1) << c))


cdef inline int suit_safe(uint32_t ds, uint32_t es) noexcept nogil:
    """The condition of safe_all() in one suit: ds the declarer's cards, es the others'."""
    cdef int i = 0, c
    while ds:
        c = bit_index(ds)
        if __builtin_popcount(es & below(c)) > i:
            return 0
        ds &= ds - 1
        i += 1
    return 1


# SAFE_CANON[c]: for the declarer's cards c of one suit compressed onto its
# live cards, their canonical form (1 << popcount(c)) - 1 when the suit is
# safe for him (suit_safe: his i-th lowest card is at most the 2i-th lowest
# live one), else UNSAFE.
cdef enum:
    UNSAFE = 0x100


cdef uint16_t SAFE_CANON[256]


cdef void init_safe_canon() noexcept nogil:
    cdef int c
    for c in range(256):
        # Compressed onto the live cards, every position of the suit below
        # one of his cards that is not his holds another live card.
        SAFE_CANON[c] = ((1 << __builtin_popcount(c)) - 1) if suit_safe(c, 0xFF & ~c) else UNSAFE


# HOLDS[HOLDS_AT[n] + (d << n) + l]: 1 when the suit *holds* for the
# declarer, 0 when not; d and l are the declarer's and the left defender's
# cards of the suit compressed onto its n live cards (the right defender
# holds the rest).  The suit holds when the declarer's plain play in it
# (follow with his highest card below the trick's best card so far) never
# wins a trick of it, whatever the defenders do in it alone, granted more
# than they have: either defender may lead it whenever he holds a card of
# it, and either may throw away any of his cards of it between tricks.
#
# Sound as a static win with a defender on lead, when every suit holds:
# the declarer plays the plain play in the suit led and, when void in it,
# throws away the top card of any suit.  Every trick of a suit is a move
# of that suit's game; a defender's discard from it is one of the throws
# granted; and the declarer's plain play with his top card of a suit gone
# never does worse (his cards then stay the lowest ones of what he would
# have held, so whenever he would have a card below the trick's best, he
# has one too, or is void).  So he never wins a trick.  suit_safe() implies
# that the suit holds (it grants the defenders even more: every card of
# theirs below his may be led); the converse fails: a defender who must
# follow spends a card, so the split between them counts.
cdef uint8_t HOLDS[87381]
cdef int HOLDS_AT[10]


cdef int compute_holds(int n, uint32_t d, uint32_t l) noexcept nogil:
    """HOLDS for one suit (see above), computed on first use and memoised in HOLDS."""
    cdef int idx = HOLDS_AT[n] + <int>((d << n) + l)
    cdef uint32_t full = (<uint32_t>1 << n) - 1, r = full & ~d & ~l, xs, ys, bound, under, keep
    cdef int x, y, res = 1
    if HOLDS[idx] != 2:
        return HOLDS[idx]
    if d != 0:
        # a defender throws away one of his cards
        xs = l | r
        while xs and res:
            x = bit_index(xs)
            xs &= xs - 1
            keep = full & ~(<uint32_t>1 << x)
            res = compute_holds(n - 1, PEXT8[keep][d], PEXT8[keep][l])
        # the left defender leads x: the right one follows with y (or throws elsewhere), the declarer plays last
        xs = l
        while xs and res:
            x = bit_index(xs)
            xs &= xs - 1
            ys = r if r else (<uint32_t>1 << x)
            while ys and res:
                y = bit_index(ys)
                ys &= ys - 1
                bound = (<uint32_t>1 << (x if x > y else y)) - 1
                under = d & bound
                if under == 0:
                    res = 0
                else:
                    keep = full & ~((<uint32_t>1 << x) | (<uint32_t>1 << y) | (<uint32_t>1 << high_bit(under)))
                    res = compute_holds(__builtin_popcount(keep), PEXT8[keep][d], PEXT8[keep][l])
        # the right defender leads x: the declarer plays second, the left one follows with y (or throws elsewhere)
        xs = r
        while xs and res:
            x = bit_index(xs)
            xs &= xs - 1
            under = d & ((<uint32_t>1 << x) - 1)
            if under == 0:
                res = 0
                break
            ys = l if l else (<uint32_t>1 << x)
            while ys and res:
                y = bit_index(ys)
                ys &= ys - 1
                keep = full & ~((<uint32_t>1 << x) | (<uint32_t>1 << y) | (<uint32_t>1 << high_bit(under)))
                res = compute_holds(__builtin_popcount(keep), PEXT8[keep][d], PEXT8[keep][l])
    HOLDS[idx] = res
    return res


cdef void init_holds() noexcept nogil:
    """Fill HOLDS for every suit of up to eight live cards (87,381 patterns: a few milliseconds)."""
    cdef int n, at = 0
    cdef uint32_t d, l
    for n in range(10):
        HOLDS_AT[n] = at
        if n <= 8:
            at += 1 << (2 * n)
    memset(HOLDS, 2, sizeof(HOLDS))
    for n in range(9):
        for d in range(1u << n):
            l = 0
            while True:
                if (l & d) == 0:
                    compute_holds(n, d, l)
                if l == (1u << n) - 1:
                    break
                l += 1


# A suit's code: its live count n and the declarer's and left defender's
# cards compressed onto its n live cards, as the base-3 number whose i-th
# digit says who holds the i-th lowest live card (0 the right defender, 1
# the declarer, 2 the left one), offset by the codes of fewer live cards:
# CODE3_OFF[n] + T3[d] + 2 T3[l] < 9,841 = (3^9 - 1) / 2, so four suits and
# the leader fit in one 58-bit key (nullouvert_table.pxi: one word an entry).
# CODE3[code]: the code of the suit's canonical form with a defender on lead
# (a safe suit, suit_safe(), written with the declarer's cards lowest and the
# defenders' above them in their own order; any other suit is its own form),
# with flags: CODE3_OPEN when the suit neither is safe nor holds (HOLDS),
# CODE3_FAILS when it does not hold.  9,841 entries of two bytes (the first
# level cache), where the holdings' table HOLDS takes 87,381 bytes.
cdef enum:
    NCODES3 = 9841
    CODE3_MASK = 0x3FFF
    CODE3_OPEN = 0x4000
    CODE3_FAILS = 0x8000


cdef uint16_t T3[256]
cdef int CODE3_OFF[10]
cdef uint16_t CODE3[9841]
# T3P[lv][x] = T3[PEXT8[lv][x]]: one load where the compression and the
# base-3 digits were two dependent ones (the key's pass reads it eight times
# a position); 128 KiB, of which a search touches the live sets it meets.
cdef uint16_t T3P[256][256]


cdef inline int suit_code(uint32_t lv, uint32_t db, uint32_t lb) noexcept nogil:
    """The code of one suit (header): *lv* its live cards, *db* and *lb* the declarer's and left defender's, in one byte."""
    return CODE3_OFF[__builtin_popcount(lv)] + T3P[lv][db] + 2 * T3P[lv][lb]


cdef void init_code3() noexcept nogil:
    """Fill T3, CODE3_OFF and CODE3 (after init_pext_table() and init_holds())."""
    cdef int c, i, n, code, canon, flags
    cdef uint32_t d, l, full, cd, cl
    for c in range(256):
        T3[c] = 0
        i = 1
        for n in range(8):
            if (c >> n) & 1:
                T3[c] += i
            i *= 3
    for c in range(256):
        for i in range(256):
            T3P[c][i] = T3[PEXT8[c][i]]
    CODE3_OFF[0] = 0
    i = 1
    for n in range(9):
        CODE3_OFF[n + 1] = CODE3_OFF[n] + i
        i *= 3
    for n in range(9):
        full = (1u << n) - 1
        for d in range(1u << n):
            for l in range(1u << n):
                if d & l:
                    continue
                code = CODE3_OFF[n] + T3[d] + 2 * T3[l]
                canon = code
                flags = 0
                if not HOLDS[HOLDS_AT[n] + <int>((d << n) + l)]:
                    flags |= CODE3_FAILS
                if SAFE_CANON[d] != UNSAFE:
                    cd = SAFE_CANON[d]
                    cl = (<uint32_t>PEXT8[full & ~d][l]) << __builtin_popcount(d)
                    canon = CODE3_OFF[n] + T3[cd] + 2 * T3[cl]
                elif flags & CODE3_FAILS:
                    flags |= CODE3_OPEN
                CODE3[code] = <uint16_t>(canon | flags)


cdef inline int holds_in(uint32_t d, uint32_t l, uint32_t r, int su) noexcept nogil:
    """HOLDS for suit *su* of the hands d (declarer), l and r (the defenders after and before him)."""
    cdef uint32_t lv = ((d | l | r) >> (8 * su)) & 0xFF
    return not (CODE3[suit_code(lv, (d >> (8 * su)) & 0xFF, (l >> (8 * su)) & 0xFF)] & CODE3_FAILS)
