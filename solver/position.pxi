# Loading a position into the search (included by _engine.pyx after the
# drivers): the contract's context once, then hands, leader and trick, which
# is all that changes from one world of a decision to the next.  Shared by
# Engine.set_position() and the batch of worlds (worlds.pxi); the checks run
# without the GIL and report by code, the callers turn a code into an error.

cdef enum:
    DEAL_OK = 0
    DEAL_OVERLAP = 1          # two hands share a card
    DEAL_TRICK_CARD = 2       # a trick card is out of range or also in a hand
    DEAL_SIZES = 3            # hand sizes do not fit the trick on the table

cdef const char* DEAL_ERRORS[4]
DEAL_ERRORS[:] = [b"", b"hands overlap", b"trick card out of range or also in a hand",
                  b"hand sizes do not fit the trick on the table"]


cdef int check_deal(const uint32_t* h, int leader, const int* trick, int ntrick) noexcept nogil:
    """DEAL_OK when the three card masks *h* and the *ntrick* cards on the table (card ints) form a position."""
    cdef uint32_t seen = 0
    cdef int k, n0
    for k in range(3):
        if seen & h[k]:
            return DEAL_OVERLAP
        seen |= h[k]
    for k in range(ntrick):
        if not 0 <= trick[k] < 32 or (seen >> trick[k]) & 1:
            return DEAL_TRICK_CARD
        seen |= (<uint32_t>1) << trick[k]
    # Seats that already played to the trick hold one card fewer than the rest.
    n0 = __builtin_popcount(h[leader]) + (1 if ntrick else 0)
    for k in range(3):
        if __builtin_popcount(h[MOD3[leader + k]]) != (n0 - 1 if k < ntrick else n0):
            return DEAL_SIZES
    return DEAL_OK


cdef void load_context(Search* s, int game, int declarer, int mode) noexcept nogil:
    """The contract's layout, who scores and maximises, the card weights and every table derived from them."""
    cdef int k, c
    build_layout(&s.lay, game)
    for k in range(3):
        if mode == MODE_DEF_TRICKS:
            s.scorer[k] = k != declarer
        else:
            s.scorer[k] = k == declarer
        if mode == MODE_NULL or mode == MODE_DEF_TRICKS:
            s.maxer[k] = k != declarer
        else:
            s.maxer[k] = k == declarer
    for c in range(32):
        s.weight[c] = s.lay.points[c] if mode == MODE_POINTS else 0
    s.trick_weight = 0 if mode == MODE_POINTS else 1
    s.null_mode = mode == MODE_NULL and s.lay.trump_mask == 0
    init_blocks(&s.blocks, &s.lay, s.weight)
    init_group_blocks(&s.groups, &s.lay)
    s.qs_on = mode == MODE_POINTS
    init_weight_bytes(s)
    init_same_weight(s)
    s.keymeta_ctx = ((<uint32_t>game << 4) | (<uint32_t>declarer << 2) | <uint32_t>mode) << 2


cdef void load_deal(Search* s, const uint32_t* h, int leader, const int* trick, int ntrick) noexcept nogil:
    """Hands (card masks), leader and the cards on the table (card ints), in the context loaded; check_deal() first."""
    cdef int k
    for k in range(3):
        s.hand[k] = to_internal_mask(&s.lay, h[k])
    s.leader = leader
    s.trick_len = ntrick
    s.trick_bits = 0
    for k in range(3):
        s.trick_card[k] = 0
    for k in range(ntrick):
        s.trick_card[k] = s.lay.to_internal[trick[k]]
        s.trick_bits |= (<uint32_t>1) << s.trick_card[k]
