# Card layouts: for each contract, a permutation of the 32 cards into
# "internal" bit positions so that every follow group (the trumps, each
# plain suit) is a contiguous run of bits ordered low to high by strength,
# with the trump group on the highest bits.  Then the winner of a trick is
# the highest bit among its cards that are trumps or of the led group, and
# legal moves are one AND with the led group's mask.
#
# Card ints (skatdd.core.cards): suit * 8 + rank, suits D H S C = 0..3,
# ranks 7 8 9 T J Q K A = 0..7.

cdef enum:                  # compile-time int constants (see tt.pxi)
    NGROUPS = 5             # follow groups: four plain suits + trump

cdef enum:
    G_DIAMONDS = 0
    G_HEARTS = 1
    G_SPADES = 2
    G_CLUBS = 3
    G_GRAND = 4
    G_NULL = 5

ctypedef struct Layout:
    uint8_t to_internal[32]   # card int -> internal bit
    uint8_t to_card[32]       # internal bit -> card int
    uint8_t group_of[32]      # internal bit -> follow group (0..3 plain suit slot, 4 trump)
    uint32_t group_mask[NGROUPS]  # internal mask of each follow group (0 where unused)
    uint32_t trump_mask       # internal mask of all trumps (0 in null)
    uint8_t points[32]        # card points by internal bit


# Strength order of plain ranks in suit and grand: 7 8 9 Q K T A (rank ints).
cdef uint8_t PLAIN_ORDER[7]
PLAIN_ORDER[:] = [0, 1, 2, 5, 6, 3, 7]
cdef uint8_t RANK_POINTS[8]
RANK_POINTS[:] = [0, 0, 0, 10, 2, 3, 4, 11]


cdef void build_layout(Layout* lay, int game) noexcept nogil:
    """Fill *lay* for *game* (G_DIAMONDS..G_NULL)."""
    cdef int s, r, i, bit, slot, c
    for i in range(5):
        lay.group_mask[i] = 0
    if game == G_NULL:
        # Null order 7 8 9 T J Q K A is the rank order itself: identity layout.
        for c in range(32):
            lay.to_internal[c] = c
            lay.group_of[c] = c >> 3
            lay.group_mask[c >> 3] |= (<uint32_t>1) << c
        lay.trump_mask = 0
    else:
        bit = 0
        slot = 0
        for s in range(4):
            if s == game:     # trump suit: placed with the jacks below
                continue
            for i in range(7):
                c = s * 8 + PLAIN_ORDER[i]
                lay.to_internal[c] = bit
                lay.group_of[bit] = slot
                lay.group_mask[slot] |= (<uint32_t>1) << bit
                bit += 1
            slot += 1
        if game != G_GRAND:
            for i in range(7):
                c = game * 8 + PLAIN_ORDER[i]
                lay.to_internal[c] = bit
                lay.group_of[bit] = 4
                lay.group_mask[4] |= (<uint32_t>1) << bit
                bit += 1
        for s in range(4):     # jacks DJ HJ SJ CJ, strongest on top
            c = s * 8 + 4
            lay.to_internal[c] = bit
            lay.group_of[bit] = 4
            lay.group_mask[4] |= (<uint32_t>1) << bit
            bit += 1
        lay.trump_mask = lay.group_mask[4]
    for c in range(32):
        lay.to_card[lay.to_internal[c]] = c
        lay.points[lay.to_internal[c]] = RANK_POINTS[c & 7]


cdef inline uint32_t permute_mask(const uint8_t* where, uint32_t bits) noexcept nogil:
    """The mask with each bit b of *bits* moved to where[b]."""
    cdef uint32_t out = 0
    while bits:
        out |= (<uint32_t>1) << where[bit_index(bits)]
        bits &= bits - 1
    return out


cdef inline uint32_t to_internal_mask(const Layout* lay, uint32_t cards) noexcept nogil:
    return permute_mask(lay.to_internal, cards)


cdef inline uint32_t to_card_mask(const Layout* lay, uint32_t bits) noexcept nogil:
    return permute_mask(lay.to_card, bits)


cdef inline uint32_t legal_bits(const Layout* lay, uint32_t hand, int led_bit) noexcept nogil:
    """Legal internal cards of *hand* when *led_bit* was led (-1: leading)."""
    cdef uint32_t follow
    if led_bit < 0:
        return hand
    follow = hand & lay.group_mask[lay.group_of[led_bit]]
    return follow if follow else hand


cdef inline int winner_bit(const Layout* lay, uint32_t trick_bits, int led_bit) noexcept nogil:
    """Internal bit of the card that wins a trick holding *trick_bits*, led by *led_bit*."""
    return high_bit(trick_bits & (lay.trump_mask | lay.group_mask[lay.group_of[led_bit]]))
