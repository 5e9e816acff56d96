# Move generation and ordering (included by _engine.pyx after search.pxi).
#
# order_moves() keeps one card per class of equivalent cards and sorts the
# rest by Skat sense; the search tries them in that order.

ctypedef struct LeadInfo:
    uint32_t ally_hands          # the partner's cards (0 for the declarer)
    uint32_t scorer_hands        # cards of the scoring side (null: the declarer's)
    uint32_t opp_ruffs           # bit g: an opponent is void in group g and holds a trump
    uint32_t ally_ruffs          # bit g: the partner is void in group g and holds a trump
    uint32_t opp_trumps          # the opponents' trumps
    bint wants                   # the mover's side wants to win tricks


cdef inline void lead_info(const Search* s, int seat, LeadInfo* info) noexcept nogil:
    cdef int k, g
    cdef uint32_t trumps = s.lay.trump_mask
    info.ally_hands = 0
    info.scorer_hands = 0
    info.opp_ruffs = 0
    info.ally_ruffs = 0
    info.opp_trumps = 0
    info.wants = s.scorer[seat] == s.maxer[seat]
    for k in range(3):
        if s.scorer[k]:
            info.scorer_hands |= s.hand[k]
        if k == seat:
            continue
        if s.scorer[k] == s.scorer[seat]:
            info.ally_hands |= s.hand[k]
        else:
            info.opp_trumps |= s.hand[k] & trumps
        if trumps and (s.hand[k] & trumps):
            for g in range(4):
                if (s.hand[k] & s.lay.group_mask[g]) == 0:
                    if s.scorer[k] == s.scorer[seat]:
                        info.ally_ruffs |= 1 << g
                    else:
                        info.opp_ruffs |= 1 << g


cdef void init_same_weight(Search* s) noexcept nogil:
    """Fill s.same_weight (for order_moves' equivalence test) from the layout and the card weights."""
    cdef int c, d
    cdef uint32_t group
    for c in range(32):
        group = s.lay.group_mask[s.lay.group_of[c]]
        s.same_weight[c] = 0
        for d in range(32):
            if (group >> d) & 1 and s.weight[d] == s.weight[c]:
                s.same_weight[c] |= (<uint32_t>1) << d


cdef inline int lead_score(const Search* s, int seat, int c, uint32_t nxt_bit, uint32_t live, const LeadInfo* info) noexcept nogil:
    """Ordering score of leading *c* (higher first); *nxt_bit* is the next live card above it, of any group.

    A side that wants tricks cashes sure winners (top card of a group that no
    opponent can ruff), then leads low to the partner's top card or to his
    ruff, then trumps from the top, then low cards; it avoids suits an
    opponent ruffs.  Once the opponents have no trumps left, every trump is a
    sure trick that can wait: trumps come last (measured: 20% and 15% fewer
    nodes on the two benchmark sets).  A suit an opponent ruffs is a poor
    lead even to the partner's top card (14% and 19% fewer nodes), and a
    defender forcing the declarer to ruff a top card comes after his low
    leads (4% fewer nodes than before them).  A null declarer leads low; null defenders lead low into
    a group where the declarer must follow with a higher card.
    """
    cdef int g = s.lay.group_of[c]
    cdef uint32_t group = s.lay.group_mask[g]
    cdef bint is_trump = group == s.lay.trump_mask
    if not info.wants:
        if s.scorer[seat]:
            return -(c & 31) * 4 - s.weight[c]
        if info.scorer_hands & group:
            if bit_index(info.scorer_hands & group) > c:
                return 2000 - (c & 31)
            return 1000 - (c & 31)
        return -(c & 31)
    if (nxt_bit & group) == 0:             # c is its group's top live card
        if is_trump:
            if info.opp_trumps == 0:
                return -1000 + s.weight[c]
            return 3000 + s.weight[c]
        if (info.opp_ruffs >> g) & 1:
            return 500 - s.weight[c] if info.ally_hands == 0 else -200 - s.weight[c]
        return 4000 + s.weight[c]
    if (info.opp_ruffs >> g) & 1:
        return -300 - 4 * s.weight[c] - (c & 31)
    if (info.ally_hands >> high_bit(live & group)) & 1:
        return 2000 - s.weight[c]
    if is_trump:
        if info.opp_trumps == 0:
            return -1000 + s.weight[c]
        return 1000 + (c & 31) - 4 * s.weight[c]
    if (info.ally_ruffs >> g) & 1:
        return 1500 - 4 * s.weight[c] - (c & 31)
    if s.scorer[seat]:
        # The declarer's low leads: suits with fewer live cards first
        # (measured: 0.4% and 0.9% fewer nodes on the two benchmark sets).
        return -4 * s.weight[c] - (c & 31) - 16 * __builtin_popcount(live & group)
    return -4 * s.weight[c] - (c & 31)


cdef inline int shed_score(const Search* s, int seat, int c) noexcept nogil:
    """Ordering score of giving *c* away to the other side: fewest points first.

    In points mode, among equal points, from the shortest suit first
    (measured: 1.5% fewer nodes); trick modes weigh nothing and keep the
    rank order alone.
    """
    if s.trick_weight:
        return 0
    return -512 * s.weight[c] - 32 * __builtin_popcount(s.hand[seat] & s.lay.group_mask[s.lay.group_of[c]])


cdef int order_moves(Search* s, int seat, uint32_t legal, int first, int* out) noexcept nogil:
    """Fill *out* with one card per class of equivalent legal cards, best first; returns the count.

    Two cards of one hand are equivalent when no live card (in a hand or on the
    table) lies between them in their group and they weigh the same: any play
    with one can be copied with the other.  The kept card is the highest of its
    run.  *first* (the TT move, or -1) goes first if it is legal.

    Following: a card "beats" when it is a trump or of the led group and above
    the card winning so far (trumps lie above every plain card in the layout).
    Second hand asks whether the trick ends with his side once the third
    player has answered; third hand knows who wins.  A trick that ends well
    gets points (or, with none at stake, a high card to shed); otherwise the
    mover gives as little as he can.
    """
    cdef uint32_t live = s.hand[0] | s.hand[1] | s.hand[2] | s.trick_bits
    cdef uint32_t rest = legal, winning_mask = 0, legal3 = 0, nxt_bit
    cdef int n = 0, c, sc, led = -1, wbit = -1, owner, third
    cdef int scores[MAX_MOVES]
    cdef bint ally_winning = False, third_is_ally = False, beats, ends_good
    cdef int good_scorer = s.maxer[seat]   # a trick won by a seat with scorer == this is good for the mover
    # Second hand among equal weights: in points mode the lower card when the
    # trick ends well, the higher when not (measured: 1.9% fewer nodes); in
    # trick modes (null, schwarz) the reverse, which null needs (the points
    # order doubled its nodes).
    cdef int second_tie = 1 if s.trick_weight == 0 else -1
    cdef LeadInfo info
    if (legal & (legal - 1)) == 0:
        out[0] = bit_index(legal)         # a forced card: nothing to order
        return 1
    if s.trick_len == 0:
        lead_info(s, seat, &info)
    else:
        led = s.trick_card[0]
        winning_mask = s.lay.trump_mask | s.lay.group_mask[s.lay.group_of[led]]
        wbit = high_bit(s.trick_bits & winning_mask)
        if s.trick_len == 1:
            third = MOD3[seat + 1]
            third_is_ally = s.scorer[third] == good_scorer
            legal3 = legal_bits(&s.lay, s.hand[third], led) & winning_mask
        else:
            ally_winning = s.scorer[MOD3[s.leader + (0 if wbit == led else 1)]] == good_scorer
    while rest:
        c = bit_index(rest)
        rest &= rest - 1
        nxt_bit = next_live_above(c, live)
        if nxt_bit & s.hand[seat] & s.same_weight[c]:
            continue
        # Heuristic score: higher is tried earlier.
        beats = ((winning_mask >> c) & 1) != 0 and c > wbit
        if s.trick_len == 0:
            sc = lead_score(s, seat, c, nxt_bit, live, &info)
        elif s.trick_len == 1:
            owner = seat if beats else s.leader
            if legal3 and high_bit(legal3) > (c if beats else wbit):
                ends_good = third_is_ally
            else:
                ends_good = s.scorer[owner] == good_scorer
            if ends_good:
                sc = 1000 + 8 * s.weight[c] - second_tie * (c & 31)
            else:
                sc = shed_score(s, seat, c) + second_tie * (c & 31)
        elif ally_winning:
            sc = -2000 + c if beats else 8 * s.weight[c] + (c & 31)
        else:
            sc = 2000 + 8 * s.weight[c] - c if beats else shed_score(s, seat, c) - c
        if c == first:
            sc = 1 << 28
        insert_by_score(scores, out, n, sc, c)
        n += 1
    return n
