# A block of classes proved at once (included by _nullouvert.pyx).
#
# The count of worlds (nullouvert_worlds.pxi) fixes the suits' patterns one
# suit after another.  Once every suit but the *pooled* ones is fixed, the
# worlds left (a block: every split of the pooled suits' unseen cards into
# the skat, k cards, and the defenders' hands, cnt[0] and cnt[1] cards of
# them) are searched at once in a relaxed game: the declarer sees his cards,
# every defender card of the fixed suits and the cards played, but not who
# holds the pooled cards; the defenders see everything.  It is the honest
# search (nullouvert_honest.pxi) with the fixed suits' cards known:
#   declarer to move: OR over his legal cards;
#   defender to move: AND over every card some world of the block still
#     consistent with the history lets him play: a known card of his, or a
#     pooled card he may hold (feasible(): the split of the pooled cards left
#     must exist, voids shown respected).  Following suit: in a fixed suit
#     he follows exactly when his known cards hold the suit (then only
#     those); in a pooled suit he may follow with a pooled card of it or,
#     showing a void, play any card;
#   the declarer wins a trick: lost; all cards played: won.
# A declarer win here is one strategy, a function of the cards played, that
# wins in every world of the block against defenders who see everything
# (every line of a world is a line of this game), so every class of the
# block is won double-dummy and none needs a search.  A loss says nothing
# (the block is then solved class by class).  Static wins use the rule of
# suits that hold: with a defender on lead, when every fixed suit is safe or
# holds (its hands are known) and every pooled suit is safe against all its
# unseen cards, the plain play wins in every world (a strategy of the cards
# played).  Static losses: quick_loss() on the fixed suits (a world of the
# block loses, so no strategy wins them all).  States are memoised at trick
# boundaries in the solver's memo (the honest search's table; the keys carry
# a tag bit of their own) under a rank-normalised, suit-sorted exact key.


ctypedef struct BS:
    uint32_t D             # declarer's hand
    uint32_t K[2]          # known cards of each defender (0 = left of the declarer), all of fixed suits
    uint32_t U             # pooled unseen cards still live (the defenders' and the unseen skat's)
    uint32_t pooled        # the pooled suits' bits
    int vo[2]              # pooled suits each defender has shown void in (bit per suit)
    int cnt[2]             # pooled cards each defender still holds
    int k                  # unseen skat cards among U
    int decl
    int leader
    int tlen
    int tcard[3]
    uint64_t nodes
    uint64_t tries         # blocks searched
    uint64_t wins          # blocks won
    uint64_t win_nodes     # nodes of the blocks won
    uint64_t limit         # the search gives up (a loss, nothing stored) once nodes reach it
    Table* memo
    DD* dd                 # the double-dummy solver a state of one world is handed to


cdef inline int bs_safe_or_holds(const BS* b) noexcept nogil:
    """Static win with a defender on lead (header): fixed suits safe or holding, pooled ones safe against U."""
    cdef int su
    cdef uint32_t sb
    for su in range(4):
        sb = suit_bits(su)
        if b.pooled & sb:
            if not suit_safe(b.D & sb, b.U & sb):
                return 0
        elif not suit_safe(b.D & sb, (b.K[0] | b.K[1]) & sb) and not holds_in(b.D, b.K[0], b.K[1], su):
            return 0
    return 1


cdef inline int bs_quick_loss(const BS* b) noexcept nogil:
    """suit_loss() in a fixed suit (its hands known) with a defender on lead: some world of the block is lost."""
    cdef int p = (b.leader - b.decl + 2) % 3, su
    cdef uint32_t sb
    for su in range(4):
        sb = suit_bits(su)
        if not (b.pooled & sb) and suit_loss(b.D & sb, b.K[p] & sb, b.K[1 - p] & sb):
            return 1
    return 0


cdef inline void bs_key(const BS* b, uint64_t* k1, uint64_t* k2) noexcept nogil:
    """Exact key, per suit 21 bits, sorted; then counts and leader.

    A suit without unseen cards: its code (suit_code(), 14 bits; hands
    known), in its canonical form with a defender on lead (CODE3: a safe
    suit as the declarer's cards lowest), as the double-dummy table keys it.
    A pooled suit with unseen cards: bit 20, its live count, the declarer's
    cards compressed (the lowest ones when the suit is safe against the
    unseen cards and a defender leads: only his count matters, as in
    suit_sig()) and the voids shown.
    """
    cdef uint32_t live = b.D | b.K[0] | b.K[1] | b.U, lv, db
    cdef uint64_t sig[4]
    cdef int su, code, defender_leads = b.leader != b.decl
    for su in range(4):
        lv = (live >> (8 * su)) & 0xFF
        db = (b.D >> (8 * su)) & 0xFF
        if (b.U >> (8 * su)) & 0xFF:
            db = PEXT8[lv][db]
            if defender_leads and SAFE_CANON[db] != UNSAFE:
                db = SAFE_CANON[db]
            sig[su] = ((<uint64_t>1) << 20) | ((<uint64_t>__builtin_popcount(lv)) << 16) | ((<uint64_t>db) << 8) \
                | (<uint64_t>((b.vo[0] >> su) & 1) << 1) | <uint64_t>((b.vo[1] >> su) & 1)
        else:
            code = suit_code(lv, db, (b.K[0] >> (8 * su)) & 0xFF)
            if defender_leads:
                code = CODE3[code] & CODE3_MASK
            sig[su] = <uint64_t>code
    sort4(sig)
    k1[0] = sig[0] | (sig[1] << 21) | (sig[2] << 42)
    k2[0] = (sig[3] | ((<uint64_t>b.cnt[0]) << 21) | ((<uint64_t>b.cnt[1]) << 25) | ((<uint64_t>b.k) << 29)
             | ((<uint64_t>((b.leader - b.decl + 3) % 3)) << 31) | ((<uint64_t>1) << 40))


cdef int bs_moves(const BS* b, int* out, int* discard) noexcept nogil:
    """The cards the player to move may play in some world of the block, one per class of equal ones, ordered.

    For a defender, *discard[i]* is 1 when card i shows a void in the led pooled suit.
    """
    cdef int seat = (b.leader + b.tlen) % 3, p, i, c, n = 0, sc, j, led = b.tcard[0] if b.tlen > 0 else -1
    cdef int ls = led >> 3 if led >= 0 else -1
    cdef int scores[32]
    cdef uint32_t table = 0, live, cand, oth, kp
    cdef int win = -1, decl_played = -1, disc, may_void = 0
    for i in range(b.tlen):
        table |= (<uint32_t>1) << b.tcard[i]
        if (b.leader + i) % 3 == b.decl:
            decl_played = b.tcard[i]
    if b.tlen > 0:
        win = high_bit(table & suit_bits(ls))
    oth = b.K[0] | b.K[1] | b.U
    live = b.D | oth | table
    if seat == b.decl:
        return declarer_moves(b.D, oth, live, b.tlen, led, win, out, discard)
    p = (seat - b.decl + 2) % 3
    kp = b.K[p]
    if ls >= 0 and not (b.pooled & suit_bits(ls)) and (kp & suit_bits(ls)):
        cand = kp & suit_bits(ls)           # a fixed suit he holds: he follows with his own cards
    else:
        cand = kp | b.U
        if ls >= 0 and (b.pooled & suit_bits(ls)):
            # a pooled suit led: a card of another suit shows a void, which some world must allow
            may_void = 1
    while cand:
        c = bit_index(cand)
        cand &= cand - 1
        if (b.U >> c) & 1:
            if (b.vo[p] >> (c >> 3)) & 1 or unseen_alike(b.U, live, c, b.tlen, seat, b.decl):
                continue
        elif is_redundant(kp, live, c):
            continue
        disc = 1 if (may_void and (c >> 3) != ls) else 0
        if ((b.U >> c) & 1 or disc) and not defender_may_play(b.U, b.vo, b.cnt, b.k, p, c, ls, disc):
            continue
        sc = defender_score(b.D, c, b.tlen, ls, win, decl_played)
        j = insert_by_score(scores, out, n, sc, c)
        shift_in(discard, n, j, disc)
        n += 1
    return n


cdef int bs_win(BS* b) noexcept nogil:
    """1 when one declarer strategy wins in every world of the block state (header), else 0."""
    cdef int seat = (b.leader + b.tlen) % 3
    cdef int moves[32]
    cdef int disc[32]
    cdef int n, i, res, found
    cdef uint64_t k1 = 0, k2 = 0
    b.nodes += 1
    if b.nodes >= b.limit:
        return 0
    if b.tlen == 0:
        if b.D == 0:
            return 1
        if b.leader != b.decl:
            if (b.k == 0 and (b.cnt[0] == 0 or b.cnt[1] == 0)) or b.cnt[0] + b.cnt[1] == 0:
                # one world left: the double-dummy search (and its table, shared with the classes)
                b.dd.hand[b.decl] = b.D
                b.dd.hand[(b.decl + 1) % 3] = b.K[0] | (b.U if b.cnt[0] else 0)
                b.dd.hand[(b.decl + 2) % 3] = b.K[1] | (b.U if b.cnt[1] else 0)     # U: the skat's alone when both are 0
                b.dd.leader = b.leader
                b.dd.tlen = 0
                return not dd_lose(b.dd)
            if bs_quick_loss(b):
                return 0
            if bs_safe_or_holds(b):
                return 1
        bs_key(b, &k1, &k2)
        found = table_get(b.memo, k1, k2)
        if found >= 0:
            return found
    n = bs_moves(b, moves, disc)
    res = 0 if seat == b.decl else 1
    for i in range(n):
        if bs_child(b, seat, moves[i], disc[i]) != res:
            res = 1 - res
            break
    if b.nodes >= b.limit:
        return 0            # given up below: res may be wrong, so it is not stored
    if b.tlen == 0:
        table_put(b.memo, k1, k2, res, __builtin_popcount(b.D))
    return res


cdef int bs_child(BS* b, int seat, int c, int disc) noexcept nogil:
    """bs_win() after *seat* plays *c* (*disc*: a defender's card showing a void in the led pooled suit); state restored."""
    cdef int res, added, p = -1, saved_vo = 0, pool_card = 0
    cdef ClosedTrick saved
    if seat == b.decl:
        b.D &= ~((<uint32_t>1) << c)
    else:
        p = (seat - b.decl + 2) % 3
        saved_vo = b.vo[p]
        if (b.U >> c) & 1:
            pool_card = 1
            b.U &= ~((<uint32_t>1) << c)
            b.cnt[p] -= 1
        else:
            b.K[p] &= ~((<uint32_t>1) << c)
        if disc:
            b.vo[p] |= 1 << (b.tcard[0] >> 3)
    added = add_to_trick(b.tcard, &b.tlen, &b.leader, b.decl, c, &saved)
    res = 0 if added < 0 else bs_win(b)
    take_from_trick(b.tcard, &b.tlen, &b.leader, added, &saved)
    if seat == b.decl:
        b.D |= (<uint32_t>1) << c
    elif p >= 0:
        if pool_card:
            b.U |= (<uint32_t>1) << c
            b.cnt[p] += 1
        else:
            b.K[p] |= (<uint32_t>1) << c
        b.vo[p] = saved_vo
    return res
