# The honest answer: AND-OR search over the declarer's information sets
# (included by _nullouvert.pyx).
#
# The declarer sees his cards and every card played, so a history fixes
# his information set, and the worlds consistent with it are exactly the
# splits of the still-unseen cards U into the skat (k cards, never played)
# and the defenders' hands (cnt[0], cnt[1] cards) in which no defender holds
# a suit he has shown void in.  Hence the state
#     (declarer's hand D, unseen U, voids, cnt, k, trick, leader)
# determines the set of worlds W, and the game is one of full information
# on these states:
#   declarer to move: OR over his legal cards (the same in every world);
#   defender to move: AND over every card some world in W lets him play
#     (he holds it and, when it does not follow, is void in the led suit);
#     the child's worlds are those where he does;
#   the declarer wins a trick: lost; all cards played: won.
# A declarer strategy that wins this game wins in every world against
# defenders who see everything (they may pick any line some world allows),
# and conversely.  Unseen cards adjacent among live cards are
# interchangeable when they cannot meet in the current trick (the partner,
# who may hold the other, has played or plays no more to it), and then one
# per run is tried; states are memoised at trick
# boundaries under a rank-normalised, suit-sorted key (exact).
#
# Feasibility of W: per suit the unseen cards may go to the left defender,
# the right one, or the skat, minus the voids; by Hall's theorem for three
# bins a split exists iff A <= k, A + BL <= k + cnt[0], A + BR <= k + cnt[1],
# where A counts cards of suits both are void in, BL those only the left
# defender may hold (right void), BR those only the right one may hold.


ctypedef struct HS:
    uint32_t D             # declarer's hand (cards)
    uint32_t U             # unseen cards still live (defenders' hands and unknown skat)
    int vo[2]              # suits each defender has shown void in (bit per suit); 0 = left of declarer
    int cnt[2]             # cards each defender still holds
    int k                  # unseen skat cards (0 or 2)
    int decl               # declarer's seat
    int leader
    int tlen
    int tcard[3]
    uint64_t nodes
    Table* memo
    DD* dd                 # scratch double-dummy solver for the one-world loss test


cdef inline void void_tally(uint32_t cards, int vo0, int vo1, int* a, int* bl, int* br) noexcept nogil:
    """Add to *a*, *bl*, *br* the cards that only the skat, only the skat or defender 0, only the skat or
    defender 1 may hold, by the suits each defender has shown void in."""
    cdef int su, u, v0, v1
    for su in range(4):
        u = __builtin_popcount(cards & suit_bits(su))
        if u == 0:
            continue
        v0 = (vo0 >> su) & 1
        v1 = (vo1 >> su) & 1
        if v0 and v1:
            a[0] += u
        elif v1:
            bl[0] += u
        elif v0:
            br[0] += u


cdef inline int feasible(uint32_t U, int vo0, int vo1, int c0, int c1, int k) noexcept nogil:
    """1 when some split of U matches the counts and voids (Hall conditions in the header)."""
    cdef int a = 0, bl = 0, br = 0
    if c0 < 0 or c1 < 0:
        return 0
    void_tally(U, vo0, vo1, &a, &bl, &br)
    return a <= k and a + bl <= k + c0 and a + br <= k + c1


cdef inline int defender_index(const HS* h, int seat) noexcept nogil:
    return (seat - h.decl + 2) % 3


cdef inline int hs_quick_loss(const HS* h) noexcept nogil:
    """Some world loses at once (quick_loss of the DD search holds in it): the node is lost.

    The leader P holds x < the declarer's lowest card m of the suit and the
    partner holds no card of the suit above m (feasible iff the split with x
    in P's hand and every unseen card of the suit above m with P or in the
    skat exists), or the partner holds another card y < m (P holds x, the
    partner y, the rest split freely).
    """
    cdef int p = defender_index(h, h.leader), su, m, x, y, a, bl, br, c0, c1
    cdef uint32_t ds, us, hi, sb, rest
    for su in range(4):
        sb = suit_bits(su)
        ds = h.D & sb
        if ds == 0 or (h.vo[p] >> su) & 1:
            continue
        m = bit_index(ds)
        us = h.U & sb & below(m)
        if us == 0:
            continue
        x = bit_index(us)
        hi = h.U & sb & ~below(m) & ~((<uint32_t>1) << x)
        rest = h.U & ~hi & ~((<uint32_t>1) << x)
        c0 = h.cnt[0] - (1 if p == 0 else 0)
        c1 = h.cnt[1] - (1 if p == 1 else 0)
        a = 0
        bl = 0
        br = 0
        void_tally(rest, h.vo[0], h.vo[1], &a, &bl, &br)
        # the high cards may only go to P or the skat
        if p == 0:
            bl += __builtin_popcount(hi)
        else:
            br += __builtin_popcount(hi)
        if a <= h.k and a + bl <= h.k + c0 and a + br <= h.k + c1 and c0 >= 0 and c1 >= 0:
            return 1
        # or the partner holds another card of the suit below m
        if (h.vo[1 - p] >> su) & 1 == 0 and (us & (us - 1)) != 0:
            y = bit_index(us & (us - 1))
            if feasible(h.U & ~((<uint32_t>1) << x) & ~((<uint32_t>1) << y), h.vo[0], h.vo[1],
                        h.cnt[0] - 1, h.cnt[1] - 1, h.k):
                return 1
    return 0


cdef inline void hs_key(const HS* h, uint64_t* k1, uint64_t* k2) noexcept nogil:
    cdef uint32_t live = h.D | h.U, lv
    cdef uint64_t sig[4]
    cdef int su, v0, v1
    for su in range(4):
        lv = (live >> (8 * su)) & 0xFF
        if (h.U >> (8 * su)) & 0xFF:
            v0 = (h.vo[0] >> su) & 1
            v1 = (h.vo[1] >> su) & 1
        else:
            v0 = 0
            v1 = 0
        sig[su] = ((<uint64_t>__builtin_popcount(lv)) << 10) | ((<uint64_t>PEXT8[lv][(h.D >> (8 * su)) & 0xFF]) << 2) | (v0 << 1) | v1
    sort4(sig)
    k1[0] = sig[0] | (sig[1] << 14) | (sig[2] << 28) | (sig[3] << 42)
    k2[0] = (<uint64_t>h.cnt[0]) | ((<uint64_t>h.cnt[1]) << 4) | ((<uint64_t>h.k) << 8) | ((<uint64_t>((h.leader - h.decl + 3) % 3)) << 10)


cdef inline int unseen_alike(uint32_t U, uint32_t live, int c, int tlen, int seat, int decl) noexcept nogil:
    """The unseen card *c* of *seat*, a defender, plays like the unseen card next to it, so only one of them
    is tried: they cannot meet in this trick (the partner, who may hold the other one, plays no more card
    after this one)."""
    return is_redundant(U, live, c) and (tlen == 2 or (tlen == 1 and (seat + 1) % 3 == decl))


cdef inline int defender_may_play(uint32_t U, const int* vo, const int* cnt, int k, int p, int c, int ls,
                                  int disc) noexcept nogil:
    """Some world lets defender *p* (0: left of the declarer) play *c*: the unseen cards *U* (without c when
    c is one of them, his count then one less) still split by the voids *vo* (his void in the led suit *ls*
    added when *disc*), the counts *cnt* and the *k* skat cards (feasible())."""
    cdef int vo0 = vo[0], vo1 = vo[1], c0 = cnt[0], c1 = cnt[1]
    cdef uint32_t bit = (<uint32_t>1) << c
    if disc:
        if p == 0:
            vo0 |= 1 << ls
        else:
            vo1 |= 1 << ls
    if U & bit:
        if p == 0:
            c0 -= 1
        else:
            c1 -= 1
    return feasible(U & ~bit, vo0, vo1, c0, c1, k)


cdef inline int declarer_moves(uint32_t D, uint32_t others, uint32_t live, int tlen, int led, int win,
                               int* out, int* discard) noexcept nogil:
    """The declarer's cards to try in a search over worlds, one per class of equal ones, best first; their count.

    *others*: every card the defenders may hold (seen or not), *live*: every
    card still in play, the trick's included.  At the lead his lowest
    cards under the fewest live ones come first; following, a card under the
    trick's winner (highest first), else the lowest; throwing, the card with
    most others below it.  *discard* is filled with 0 (he shows no void that counts).
    """
    cdef int scores[32]
    cdef int c, sc, j, n = 0, ls = led >> 3 if led >= 0 else -1
    cdef uint32_t cand = declarer_choices(D, tlen, led, win)
    while cand:
        c = bit_index(cand)
        cand &= cand - 1
        if is_redundant(D, live, c):
            continue
        if tlen == 0:
            sc = 100 - __builtin_popcount(live & below(c))
        elif (c >> 3) == ls:
            sc = 1000 + c if c < win else -c
        else:
            sc = 8 * (__builtin_popcount(others & below(c)) - __builtin_popcount(D & below(c))) + (c & 7)
        j = insert_by_score(scores, out, n, sc, c)
        shift_in(discard, n, j, 0)
        n += 1
    return n


cdef inline int defender_score(uint32_t D, int c, int tlen, int ls, int win, int decl_played) noexcept nogil:
    """A defender's card *c*'s place in a search over worlds (higher first); *ls* the led suit, -1 at the lead.

    At the lead: a suit of the declarer's under few of his cards, low first.
    When the declarer's card is winning the trick: a throw or a card under
    it.  Otherwise the lowest card of the led suit, or the highest throw.
    """
    if tlen == 0:
        if D & suit_bits(c >> 3):
            return 500 - 50 * __builtin_popcount(D & below(c)) - (c & 7)
        return 50 - (c & 7)
    if decl_played >= 0 and decl_played == win:
        return 10000 if ((c >> 3) != ls or c < win) else -c
    if (c >> 3) == ls:
        return -(c & 7)
    return c & 7


cdef int hs_moves(const HS* h, int* out, int* discard) noexcept nogil:
    """Cards the player to move may play in some world of the state, one per class, ordered.

    For a defender *discard[i]* is 1 when card i shows a void in the led suit.
    """
    cdef int seat = (h.leader + h.tlen) % 3, p, i, c, n = 0, sc, j, led = h.tcard[0] if h.tlen > 0 else -1
    cdef int ls = led >> 3 if led >= 0 else -1
    cdef int scores[32]
    cdef uint32_t table = 0, live, cand, ledbits = 0
    cdef int win = -1, decl_played = -1, disc
    for i in range(h.tlen):
        table |= (<uint32_t>1) << h.tcard[i]
        if (h.leader + i) % 3 == h.decl:
            decl_played = h.tcard[i]
    if h.tlen > 0:
        ledbits = table & suit_bits(ls)
        win = high_bit(ledbits)
    live = h.D | h.U | table
    if seat == h.decl:
        return declarer_moves(h.D, h.U, live, h.tlen, led, win, out, discard)
    p = defender_index(h, seat)
    cand = h.U
    while cand:
        c = bit_index(cand)
        cand &= cand - 1
        if (h.vo[p] >> (c >> 3)) & 1 or unseen_alike(h.U, live, c, h.tlen, seat, h.decl):
            continue
        disc = 1 if (ls >= 0 and (c >> 3) != ls) else 0
        if not defender_may_play(h.U, h.vo, h.cnt, h.k, p, c, ls, disc):
            continue
        sc = defender_score(h.D, c, h.tlen, ls, win, decl_played)  # (following, disc is a card off the led suit)
        j = insert_by_score(scores, out, n, sc, c)
        shift_in(discard, n, j, disc)
        n += 1
    return n


cdef int hs_win(HS* h) noexcept nogil:
    """1 when one declarer strategy wins in every world of the state (header), else 0."""
    cdef int seat = (h.leader + h.tlen) % 3
    cdef int moves[32]
    cdef int disc[32]
    cdef int n, i, res, found
    cdef uint64_t k1 = 0, k2 = 0
    h.nodes += 1
    if h.tlen == 0:
        if h.D == 0:
            return 1
        if h.leader != h.decl:
            if safe_all(h.D, h.U):
                return 1
            if hs_quick_loss(h):
                return 0
        hs_key(h, &k1, &k2)
        found = table_get(h.memo, k1, k2)
        if found >= 0:
            return found
    n = hs_moves(h, moves, disc)
    # declarer: lost unless a card wins; defender: won unless a card refutes
    res = 0 if seat == h.decl else 1
    for i in range(n):
        if hs_child(h, seat, moves[i], disc[i]) != res:
            res = 1 - res
            break
    if h.tlen == 0:
        table_put(h.memo, k1, k2, res, __builtin_popcount(h.D))
    return res


cdef int hs_child(HS* h, int seat, int c, int disc) noexcept nogil:
    """hs_win() after *seat* plays *c* (*disc*: a defender's card showing a void); state restored."""
    cdef int res, added, p = -1, saved_vo = 0
    cdef ClosedTrick saved
    if seat == h.decl:
        h.D &= ~((<uint32_t>1) << c)
    else:
        p = defender_index(h, seat)
        h.U &= ~((<uint32_t>1) << c)
        h.cnt[p] -= 1
        saved_vo = h.vo[p]
        if disc:
            h.vo[p] |= 1 << (h.tcard[0] >> 3)
    added = add_to_trick(h.tcard, &h.tlen, &h.leader, h.decl, c, &saved)
    res = 0 if added < 0 else hs_win(h)
    take_from_trick(h.tcard, &h.tlen, &h.leader, added, &saved)
    if seat == h.decl:
        h.D |= (<uint32_t>1) << c
    else:
        h.U |= (<uint32_t>1) << c
        h.cnt[p] += 1
        h.vo[p] = saved_vo
    return res
