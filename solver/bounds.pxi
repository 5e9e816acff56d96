# Cheap bounds on Q at trick boundaries (included by _engine.pyx after search.pxi).
#
# Each function returns facts that hold whatever anyone plays: sure trump
# winners, tricks the side on lead can cash, and the two null tests.

# Cards by points in the suit and grand layouts (layout.pxi): every seven-bit
# group runs 7 8 9 Q K T A from its lowest bit; the four jacks (2 points) are
# bits 28-31.
# Compile-time int constants (see tt.pxi); the highest bit set is 27, so
# every mask fits a C int as an enum member must.
cdef enum:
    RANKS_0 = 0x00E1C387        # 7 8 9: 0 points
    RANKS_Q = 0x01020408        # 3
    RANKS_K = 0x02040810        # 4
    RANKS_T = 0x04081020        # 10
    RANKS_A = 0x08102040        # 11


cdef inline int all_left(const Search* s) noexcept nogil:
    """At a trick boundary, Q if the scoring side took every card and trick still in the hands."""
    return weight_of(s, s.hand[0] | s.hand[1] | s.hand[2]) + s.trick_weight * __builtin_popcount(s.hand[s.leader])


cdef inline void sure_bounds(const Search* s, int maxq, int* lower, int* upper) noexcept nogil:
    """Bounds on Q at a trick boundary from the trumps: what each side surely takes with them.

    The declarer's side (one seat) takes trump_tricks_weight(), the pair's
    sure trumps (above every trump of the declarer) take sure_trick_weight();
    each goes to Q (lower bound) when that side scores, out of Q's reach
    (upper bound) otherwise.
    """
    cdef uint32_t trumps = s.lay.trump_mask, lone_t, pair_t, sure
    cdef int lone, w_lone, w_pair = 0
    lower[0] = 0
    upper[0] = maxq                         # all_left(), which the caller has
    if trumps == 0:
        return
    lone = 2 if s.scorer[0] == s.scorer[1] else (1 if s.scorer[0] == s.scorer[2] else 0)
    lone_t = s.hand[lone] & trumps
    pair_t = (s.hand[MOD3[lone + 1]] | s.hand[MOD3[lone + 2]]) & trumps
    w_lone = trump_tricks_weight(s, lone, lone_t, pair_t)
    if pair_t == 0 and lone != s.leader and lone_takes_all(s, lone):
        w_lone = upper[0]                   # every trick left
    elif pair_t:
        sure = pair_t & ~((((<uint32_t>2) << high_bit(lone_t))) - 1) if lone_t else pair_t
        if sure:
            w_pair = sure_trick_weight(s, sure)
    if s.scorer[lone]:
        lower[0] = w_lone
        upper[0] -= w_pair
    else:
        lower[0] = w_pair
        upper[0] -= w_lone


cdef inline bint lone_takes_all(const Search* s, int lone) noexcept nogil:
    """True when the lone seat takes every trick left while the pair holds no trumps.

    (Called when the pair is on lead: with the lone seat on lead quick_tricks()
    finds the same, and testing both costs more than it saves.)

    Every card of his wins whenever he leads it: each trump (the pair has
    none), each plain card above all the pair's cards of its suit (a void
    opponent cannot ruff it).  When the pair leads he wins that trick too:
    he follows with such a card, or, void in the led suit, ruffs with a
    trump (required when the leader holds a suit he lacks).  So he takes
    this trick, then leads winners to the end.
    """
    cdef uint32_t hand = s.hand[lone], pair = s.hand[MOD3[lone + 1]] | s.hand[MOD3[lone + 2]]
    cdef uint32_t lead = s.hand[s.leader], gm, m, o
    cdef bint ruff = (hand & s.lay.trump_mask) != 0
    cdef int g
    for g in range(4):
        gm = s.lay.group_mask[g]
        m = hand & gm
        if m:
            o = pair & gm
            if o and bit_index(m) < high_bit(o):
                return False
        elif (lead & gm) and not ruff:
            return False
    return True


cdef inline int trump_tricks_weight(const Search* s, int lone, uint32_t mine, uint32_t theirs) noexcept nogil:
    """Least weight of the tricks that the lone seat *lone* takes with his trumps *mine*.

    His trump loses a trick only to a higher trump in the same trick, and
    each of the pair's trumps *theirs* beats at most one of his (he has one
    card in a trick); so at most as many of his trumps lose as a greedy
    matching of his trumps to higher ones of theirs pairs up, and the rest
    (his sure trumps, above all of theirs, among them) win.  Those tricks
    hold at least his lightest trumps but the sure ones, and one card of
    each other seat.  When every card he holds wins, he takes every trick.
    """
    cdef uint32_t sure, rest, free = theirs, above
    cdef int c, beaten = 0, tricks, n = __builtin_popcount(s.hand[lone]), total
    if mine == 0:
        return 0
    sure = mine & ~((((<uint32_t>2) << high_bit(theirs))) - 1) if theirs else mine
    rest = mine & ~sure
    while rest:
        c = bit_index(rest)
        rest &= rest - 1
        above = free & ~((((<uint32_t>2) << c)) - 1)
        if above:
            free &= ~(above & (~above + 1))     # their lowest trump above c is spent on c
            beaten += 1
    tricks = __builtin_popcount(mine) - beaten
    if tricks >= n:
        return all_left(s)
    total = s.trick_weight * tricks
    if s.trick_weight == 0:
        total += weight_of(s, sure) + smallest_weights(s, mine & ~sure, tricks - __builtin_popcount(sure))
        total += smallest_weights(s, s.hand[MOD3[lone + 1]], tricks) + smallest_weights(s, s.hand[MOD3[lone + 2]], tricks)
    return total


cdef inline int sure_trick_weight(const Search* s, uint32_t sure) noexcept nogil:
    """Least weight of the tricks that the sure winners *sure* (all of one side) take.

    Each seat's sure winners fall in different tricks, so the side takes at
    least as many tricks as its seat with the most of them holds; when all
    of a seat's cards are sure winners, his side takes every trick.  Every
    such trick also holds one card of each seat without a sure winner: at
    least its smallest weights.
    """
    cdef int k, n, tricks = 0, fall = 0
    for k in range(3):
        n = __builtin_popcount(s.hand[k] & sure)
        if n > 0 and s.hand[k] == (s.hand[k] & sure):
            return all_left(s)
        if n > tricks:
            tricks = n
    if s.trick_weight == 0:         # points mode: cards have weights
        for k in range(3):
            if not (s.hand[k] & sure):
                fall += smallest_weights(s, s.hand[k], tricks)
    return weight_of(s, sure) + s.trick_weight * tricks + fall


cdef inline bint take_lightest(int n, int weight, int* j, int* total) noexcept nogil:
    """One rung of smallest_weights()' ladder: add the weights of up to *j* of *n* cards of *weight* to *total*.

    Lowers *j* by the cards taken; true when the *j* cards wanted are all taken.
    """
    if n >= j[0]:
        total[0] += weight * j[0]
        return True
    total[0] += weight * n
    j[0] -= n
    return False


cdef inline int smallest_weights(const Search* s, uint32_t cards, int j) noexcept nogil:
    """Sum of the *j* smallest weights among *cards*."""
    cdef int total = 0, best, bestc, c, n
    cdef uint32_t m
    if s.trick_weight != 0:
        return 0            # trick modes: every card weighs 0
    if s.lay.trump_mask != 0:
        # Suit and grand: points by rank class, each class one mask of the layout.
        if (take_lightest(__builtin_popcount(cards & RANKS_0), 0, &j, &total)
                or take_lightest(__builtin_popcount(cards >> 28), 2, &j, &total)        # the jacks
                or take_lightest(__builtin_popcount(cards & RANKS_Q), 3, &j, &total)
                or take_lightest(__builtin_popcount(cards & RANKS_K), 4, &j, &total)
                or take_lightest(__builtin_popcount(cards & RANKS_T), 10, &j, &total)):
            return total
        n = __builtin_popcount(cards & RANKS_A)
        return total + 11 * (n if n < j else j)
    while j > 0 and cards:
        best = 1000
        bestc = 0
        m = cards
        while m:
            c = bit_index(m)
            m &= m - 1
            if s.weight[c] < best:
                best = s.weight[c]
                bestc = c
        total += best
        cards &= ~((<uint32_t>1) << bestc)
        j -= 1
    return total


cdef inline int quick_tricks(const Search* s) noexcept nogil:
    """Weight the side on lead can cash at once: a lower bound on its share of what is left.

    In each group the leader's run of top live cards (his cards above every
    other live card of the group) wins trick after trick; in a plain suit an
    opponent holding trumps can ruff once void, so the run counts only as
    often as every such opponent can follow.  Cashing one group changes no
    other group for an opponent who holds trumps (he only follows), and an
    opponent without trumps can never ruff, so the groups add up.  The
    followers' forced cards add their smallest weights in the group: whatever
    they discard meanwhile also lands in the leader's tricks.

    Drawing trumps: when the leader's run of top trumps is at least as long
    as every opponent's trumps, the opponents are out of trumps after it;
    then every trump of the leader wins a trick and no plain run is capped.
    """
    cdef int L = s.leader, p1 = MOD3[L + 1], p2 = MOD3[L + 2], g, run, k, pts = 0, tricks = 0, opp_trumps = 0
    cdef uint32_t trumps = s.lay.trump_mask, hand = s.hand[L], h1 = s.hand[p1], h2 = s.hand[p2]
    cdef uint32_t others = h1 | h2, gm, mine, rest, run_cards, f1, f2
    cdef bint ruff1 = False, ruff2 = False
    if s.scorer[p1] != s.scorer[L]:
        k = __builtin_popcount(h1 & trumps)
        opp_trumps = k
        ruff1 = k > 0
    if s.scorer[p2] != s.scorer[L]:
        k = __builtin_popcount(h2 & trumps)
        if k > opp_trumps:
            opp_trumps = k
        ruff2 = k > 0
    for g in range(4, -1, -1):      # trumps first: drawing them may lift the ruff caps
        gm = s.lay.group_mask[g]
        mine = hand & gm
        if mine == 0:
            continue
        rest = others & gm
        run_cards = mine & ~((((<uint32_t>2) << high_bit(rest))) - 1) if rest else mine
        run = __builtin_popcount(run_cards)
        f1 = h1 & gm
        f2 = h2 & gm
        if g == 4:
            if trumps == 0:
                pass
            elif run >= opp_trumps:
                # the opponents follow with all their trumps, then every trump of ours wins
                ruff1 = ruff2 = False
                run_cards = mine
                run = __builtin_popcount(mine)
        elif run:
            if ruff1:
                k = __builtin_popcount(f1)
                if k < run:
                    run = k
            if ruff2:
                k = __builtin_popcount(f2)
                if k < run:
                    run = k
            while __builtin_popcount(run_cards) > run:      # cash the highest cards of the run
                run_cards &= run_cards - 1
        if run == 0:
            continue
        pts += weight_of(s, run_cards)
        tricks += run
        if f1:
            k = __builtin_popcount(f1)
            pts += smallest_weights(s, f1, run if run < k else k)
        if f2:
            k = __builtin_popcount(f2)
            pts += smallest_weights(s, f2, run if run < k else k)
    if tricks >= __builtin_popcount(hand):
        return all_left(s)         # every remaining trick is cashed
    return pts + s.trick_weight * tricks


cdef inline int null_defenders_lead(const Search* s) noexcept nogil:
    """Null with a defender on lead: 0 if the declarer is safe in every suit, 1 if he takes this trick, -1 unknown.

    Safe: in each suit, matching the declarer's cards and the defenders'
    cards from the lowest up, every declarer card is below its partner.  Then
    whatever the defenders lead, the declarer answers with his highest card
    below the lead (he is second or third to play, and a third-hand defender
    only makes it easier); a defender card that leaves play otherwise only
    raises the defenders' sequence, and when void the declarer discards his
    highest card of a suit, which keeps the condition.  Once the defenders
    have no card of a suit nobody leads it: the declarer never leads again
    in a null he has not lost.
    Forced now: the leader holds a card below the declarer's lowest card of a
    suit, and the other defender is void there or also holds a card below it.
    """
    cdef int decl = 0, k, p = s.leader, q, g, d1
    cdef uint32_t D, E, gm, lp, lq, low
    cdef bint safe = True
    for k in range(3):
        if s.scorer[k]:
            decl = k
    q = 3 - decl - p
    for g in range(4):
        gm = s.lay.group_mask[g]
        D = s.hand[decl] & gm
        if D == 0:
            continue
        E = (s.hand[p] | s.hand[q]) & gm
        d1 = bit_index(D)
        lp = s.hand[p] & gm
        lq = s.hand[q] & gm
        low = ((<uint32_t>1) << d1) - 1
        if (lp & low) and (lq == 0 or (lq & low)):
            return 1
        while safe and D and E:
            if bit_index(D) > bit_index(E):
                safe = False
            D &= D - 1
            E &= E - 1
    return 0 if safe else -1




cdef inline int two_tricks(const Search* s) noexcept nogil:
    """Exact Q at a trick boundary with two cards in every hand: minimax over its (at most eight) lines.

    Cheaper than a transposition-table probe, so positions this short are
    neither looked up nor stored; an exact value also serves every window.
    """
    cdef int L = s.leader, p1 = MOD3[s.leader + 1], p2 = MOD3[s.leader + 2]
    cdef uint32_t hL = s.hand[L], h1 = s.hand[p1], h2 = s.hand[p2], gm, win, l1, l2, ma, mb, mc, ra, rb, rc
    cdef int wall = weight_of(s, hL | h1 | h2), tw = s.trick_weight
    cdef int a, b, c, wb, q, wt, led2, best0, best1, best2
    cdef bint max0 = s.maxer[L], max1 = s.maxer[p1], max2 = s.maxer[p2], sc
    best0 = -INF if max0 else INF
    ma = hL
    while ma:
        a = bit_index(ma)
        ma &= ma - 1
        gm = s.lay.group_mask[s.lay.group_of[a]]
        win = s.lay.trump_mask | gm
        ra = hL & ~((<uint32_t>1) << a)
        l1 = h1 & gm
        if l1 == 0:
            l1 = h1
        l2 = h2 & gm
        if l2 == 0:
            l2 = h2
        best1 = -INF if max1 else INF
        mb = l1
        while mb:
            b = bit_index(mb)
            mb &= mb - 1
            rb = h1 & ~((<uint32_t>1) << b)
            best2 = -INF if max2 else INF
            mc = l2
            while mc:
                c = bit_index(mc)
                mc &= mc - 1
                rc = h2 & ~((<uint32_t>1) << c)
                # this trick, then the last one, led by this trick's winner
                wb = high_bit((((<uint32_t>1) << a) | ((<uint32_t>1) << b) | ((<uint32_t>1) << c)) & win)
                if wb == a:
                    sc = s.scorer[L]
                    led2 = bit_index(ra)
                elif wb == b:
                    sc = s.scorer[p1]
                    led2 = bit_index(rb)
                else:
                    sc = s.scorer[p2]
                    led2 = bit_index(rc)
                wt = s.weight[a] + s.weight[b] + s.weight[c]
                q = wt + tw if sc else 0
                wb = winner_bit(&s.lay, ra | rb | rc, led2)
                if (ra >> wb) & 1:
                    sc = s.scorer[L]
                elif (rb >> wb) & 1:
                    sc = s.scorer[p1]
                else:
                    sc = s.scorer[p2]
                if sc:
                    q += wall - wt + tw
                if (q > best2) if max2 else (q < best2):
                    best2 = q
            if (best2 > best1) if max1 else (best2 < best1):
                best1 = best2
        if (best1 > best0) if max0 else (best1 < best0):
            best0 = best1
    return best0


cdef inline int min_weight(const Search* s, uint32_t cards) noexcept nogil:
    """Smallest weight among the non-empty *cards*."""
    cdef int best = 1000, c
    if s.trick_weight != 0:
        return 0            # trick modes: every card weighs 0
    if s.lay.trump_mask != 0:
        # Suit and grand: points by rank class (see smallest_weights)
        if cards & RANKS_0:
            return 0
        if cards >> 28:
            return 2
        if cards & RANKS_Q:
            return 3
        if cards & RANKS_K:
            return 4
        return 10 if cards & RANKS_T else 11
    while cards:
        c = bit_index(cards)
        cards &= cards - 1
        if s.weight[c] < best:
            best = s.weight[c]
    return best


cdef inline int max_weight(const Search* s, uint32_t cards) noexcept nogil:
    """Largest weight among the non-empty *cards*."""
    cdef int best = 0, c
    if s.trick_weight != 0:
        return 0
    if s.lay.trump_mask != 0:
        if cards & RANKS_A:
            return 11
        if cards & RANKS_T:
            return 10
        if cards & RANKS_K:
            return 4
        if cards & RANKS_Q:
            return 3
        return 2 if cards >> 28 else 0
    while cards:
        c = bit_index(cards)
        cards &= cards - 1
        if s.weight[c] > best:
            best = s.weight[c]
    return best


cdef inline bint last_card_decides(const Search* s, int seat, int alpha, int beta, int* result) noexcept nogil:
    """True (and the value in *result*) when the trick's last card settles the window without a search.

    Each legal card of *seat* gives the trick to a known seat; with it Q
    lies between what the trick gains and that plus everything left
    afterwards.  When every card (for the minimiser) or some card (for the
    maximiser) puts Q on one side of the window, the node is decided: the
    maximiser's best card to the scoring side is its heaviest one, else the
    lightest he gives away; the minimiser's best card to the other side is
    its heaviest, else the lightest he must give to the scoring side.
    """
    cdef int led = s.trick_card[0], wbit, owner, tw = s.trick_weight, after, wt0, lower, upper
    cdef uint32_t wmask = s.lay.trump_mask | s.lay.group_mask[s.lay.group_of[led]]
    cdef uint32_t legal = legal_bits(&s.lay, s.hand[seat], led), beat, to_s
    wbit = high_bit(s.trick_bits & wmask)
    owner = s.leader if wbit == led else MOD3[s.leader + 1]
    beat = legal & wmask & ~((((<uint32_t>2) << wbit)) - 1)
    if s.scorer[seat] == s.scorer[owner]:
        to_s = legal if s.scorer[owner] else 0
    elif s.scorer[seat]:
        to_s = beat
    else:
        to_s = legal & ~beat
    wt0 = weight_of(s, s.trick_bits) + tw
    after = tw * (__builtin_popcount(s.hand[seat]) - 1)
    # a card to the scoring side: Q in [wt0 + w, wt0 + wrem + after]; to the other: Q in [0, wrem - w + after]
    if s.maxer[seat]:
        if to_s:
            lower = wt0 + max_weight(s, to_s)
            if lower >= beta:
                result[0] = lower
                return True
            upper = wt0 + weight_of(s, s.hand[0] | s.hand[1] | s.hand[2]) + after
        else:
            upper = weight_of(s, s.hand[0] | s.hand[1] | s.hand[2]) - min_weight(s, legal) + after
            if 0 >= beta:
                result[0] = 0
                return True
    else:
        if to_s != legal:
            upper = weight_of(s, s.hand[0] | s.hand[1] | s.hand[2]) - max_weight(s, legal & ~to_s) + after
            if 0 >= beta:
                result[0] = 0
                return True
        else:
            lower = wt0 + min_weight(s, to_s)
            if lower >= beta:
                result[0] = lower
                return True
            upper = wt0 + weight_of(s, s.hand[0] | s.hand[1] | s.hand[2]) + after
    if upper <= alpha:
        result[0] = upper
        return True
    return False
