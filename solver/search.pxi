# The alpha-beta search (included by _engine.pyx).
#
# Objective.  A search mode fixes which seats score (the "scoring side") and
# which seats maximise; Q is the weight of the tricks the scoring side takes
# from the current position on, a trick weighing its cards' points plus
# trick_weight.  The modes:
#   MODE_POINTS  declarer scores and maximises, weight = card points
#                (suit and grand: the declarer's card points)
#   MODE_DECL_TRICKS  declarer scores and maximises, weight = 1 per trick
#                (Q >= 1: the declarer escapes schwarz)
#   MODE_DEF_TRICKS   defenders score and maximise, weight = 1 per trick
#                (Q == 0: the declarer takes every trick, schwarz)
#   MODE_NULL    declarer scores, defenders maximise, weight = 1 per trick
#                (Q == 0: the null declarer wins)
#
# ab(s, alpha, beta) is fail-soft alpha-beta on Q: the result v satisfies
#   v <= alpha  ->  Q <= v    (upper bound)
#   v >= beta   ->  Q >= v    (lower bound)
#   otherwise       Q == v.
# The drivers call it with a null window (alpha = T - 1, beta = T) to ask
# "is Q >= T?" and find the exact value by descending from an upper bound
# (solve_exact).

cdef enum:
    MODE_POINTS = 0
    MODE_DECL_TRICKS = 1
    MODE_DEF_TRICKS = 2
    MODE_NULL = 3

cdef enum:
    MAX_MOVES = 12
    INF = 1000

cdef extern from *:
    """
    #ifndef SKATDD_STATS
    #define SKATDD_STATS 1
    #endif
    """
    int SKATDD_STATS     # compile-time switch for node and TT counters

ctypedef struct Search:
    Layout lay
    uint32_t hand[3]          # internal masks
    uint8_t scorer[3]         # 1: seat belongs to the scoring side
    uint8_t maxer[3]          # 1: seat maximises Q
    uint8_t weight[32]        # per internal card: points it adds to a trick's weight
    uint8_t weight_byte[4][256]   # weight of each byte of a mask, for weight_of()
    int trick_weight          # added per trick (1 in trick modes, 0 in points mode)
    bint null_mode            # MODE_NULL: the defenders try to give the declarer a trick
    int leader                # seat leading the current trick
    int trick_len             # cards on the table (0..2)
    int trick_card[3]         # internal bits, in play order
    uint32_t trick_bits
    uint32_t keymeta_ctx      # context bits for TT keys (leader added per probe)
    TTable* tt
    int nblocks               # blocks of interchangeable cards, for canonical TT keys
    uint8_t block_start[8]
    uint32_t block_width_mask[8]
    uint64_t nodes


cdef uint8_t PEXT8[256][256]     # PEXT8[live][held]: held compressed to the positions of live


cdef void init_pext_table() noexcept nogil:
    cdef int live, held, bit, out, k
    for live in range(256):
        for held in range(256):
            out = 0
            k = 0
            for bit in range(8):
                if (live >> bit) & 1:
                    if (held >> bit) & 1:
                        out |= 1 << k
                    k += 1
            PEXT8[live][held] = out


cdef inline uint32_t pext_small(uint32_t held, uint32_t live) noexcept nogil:
    """Bits of *held* compressed to the ranks of *live* (both within one block)."""
    cdef uint32_t out = 0, bit = 1
    if live < 256:
        return PEXT8[live][held]
    while live:
        if held & live & (~live + 1):
            out |= bit
        bit <<= 1
        live &= live - 1
    return out


cdef inline void canonical_hands(const Search* s, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t* out) noexcept nogil:
    """Hands with every block of interchangeable cards compressed to its lowest bits.

    A block is a run of cards of one follow group that weigh the same (the
    7 8 9 of a suit, the four jacks; a whole group when weights are all 0).
    Cards that are out of play never matter again, so two positions whose
    live cards differ only by which cards of a block are live play the same:
    compressing the live cards of each block to its lowest bits keeps every
    order relation and every weight, and makes their TT keys equal.
    """
    cdef uint32_t live = h0 | h1 | h2, l, m, keep
    cdef uint32_t o0 = h0, o1 = h1, o2 = h2      # locals, not out[]: no aliasing with *s
    cdef const uint8_t* row
    cdef int b, st
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
            o0 = (o0 & keep) | (pext_small((h0 >> st) & m, l) << st)
            o1 = (o1 & keep) | (pext_small((h1 >> st) & m, l) << st)
            o2 = (o2 & keep) | (pext_small((h2 >> st) & m, l) << st)
    out[0] = o0
    out[1] = o1
    out[2] = o2


cdef void init_blocks(Search* s) noexcept nogil:
    """Find the blocks of interchangeable cards for the current layout and weights."""
    cdef int c = 0, start, g
    s.nblocks = 0
    while c < 32:
        start = c
        g = s.lay.group_of[c]
        while c + 1 < 32 and s.lay.group_of[c + 1] == g and s.weight[c + 1] == s.weight[start] and (s.lay.group_mask[g] >> (c + 1)) & 1:
            c += 1
        if c > start:
            s.block_start[s.nblocks] = start
            s.block_width_mask[s.nblocks] = ((<uint32_t>1) << (c - start + 1)) - 1
            s.nblocks += 1
        c += 1


cdef int MOD3[6]
MOD3[:] = [0, 1, 2, 0, 1, 2]


cdef inline int weight_of(const Search* s, uint32_t cards) noexcept nogil:
    return (s.weight_byte[0][cards & 0xFF] + s.weight_byte[1][(cards >> 8) & 0xFF]
            + s.weight_byte[2][(cards >> 16) & 0xFF] + s.weight_byte[3][cards >> 24])


cdef void init_weight_bytes(Search* s) noexcept nogil:
    cdef int b, v, k, w
    for b in range(4):
        for v in range(256):
            w = 0
            for k in range(8):
                if (v >> k) & 1:
                    w += s.weight[b * 8 + k]
            s.weight_byte[b][v] = w


cdef inline void play_card(Search* s, int seat, int c) noexcept nogil:
    s.hand[seat] &= ~((<uint32_t>1) << c)
    s.trick_card[s.trick_len] = c
    s.trick_len += 1
    s.trick_bits |= (<uint32_t>1) << c


cdef inline void unplay_card(Search* s, int seat, int c) noexcept nogil:
    s.trick_len -= 1
    s.trick_bits &= ~((<uint32_t>1) << c)
    s.hand[seat] |= (<uint32_t>1) << c


cdef inline int next_above(const Search* s, int c, uint32_t live) noexcept nogil:
    """Lowest live card above *c* in c's follow group, or -1."""
    cdef uint32_t above = live & s.lay.group_mask[s.lay.group_of[c]] & ~((((<uint32_t>2) << c)) - 1)
    if c == 31:
        above = 0
    if above == 0:
        return -1
    return bit_index(above)


cdef inline int index_in_trick(const Search* s, int c) noexcept nogil:
    cdef int i
    for i in range(s.trick_len):
        if s.trick_card[i] == c:
            return i
    return 0


cdef int last_trick(Search* s) noexcept nogil:
    """Q of the final trick, each seat holding one card (plus any cards already on the table)."""
    cdef int seat = (s.leader + s.trick_len) % 3
    cdef uint32_t bits = s.trick_bits
    cdef int led = s.trick_card[0] if s.trick_len > 0 else bit_index(s.hand[s.leader])
    cdef int k, wbit, w
    for k in range(s.trick_len, 3):
        bits |= s.hand[(s.leader + k) % 3]
    wbit = winner_bit(&s.lay, bits, led)
    for k in range(3):
        if (s.hand[k] >> wbit) & 1:
            w = k
            break
    else:
        w = (s.leader + index_in_trick(s, wbit)) % 3
    if s.scorer[w]:
        return weight_of(s, bits) + s.trick_weight
    return 0


cdef inline int complete_trick(Search* s) noexcept nogil:
    """Close a full trick: the winner leads next; returns the weight gained by the scoring side."""
    cdef int winner = (s.leader + index_in_trick(s, winner_bit(&s.lay, s.trick_bits, s.trick_card[0]))) % 3
    cdef int gained = weight_of(s, s.trick_bits) + s.trick_weight if s.scorer[winner] else 0
    s.leader = winner
    s.trick_len = 0
    s.trick_bits = 0
    return gained


cdef int ab(Search* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on Q from the current node (contract in the header)."""
    cdef int seat = MOD3[s.leader + s.trick_len]
    cdef int moves[MAX_MOVES]
    cdef int n, i, c, v, best, best_move = -1, gained, old_leader, tt_move = -1, c0, c1
    cdef uint32_t bits
    cdef int lower, upper, maxq, cards_each, alpha0 = alpha, beta0 = beta
    cdef uint32_t legal, remaining, keymeta = 0
    cdef uint32_t key[3]
    cdef TTEntry* e
    cdef bint maximising = s.maxer[seat]
    if SKATDD_STATS:
        s.nodes += 1

    # Step 1. Trick boundary: trivial ends, bounds and the transposition table.
    if s.trick_len == 0:
        remaining = s.hand[0] | s.hand[1] | s.hand[2]
        if remaining == 0:
            return 0
        cards_each = __builtin_popcount(s.hand[s.leader])
        if cards_each == 1:
            return last_trick(s)
        maxq = weight_of(s, remaining) + s.trick_weight * cards_each
        if maxq <= alpha:
            return maxq
        if beta <= 0:
            return 0
        if cards_each == 2:
            return two_tricks(s)
        # Cheap bounds: trumps above every trump of the other side win their tricks.
        sure_bounds(s, maxq, &lower, &upper)
        if upper <= alpha:
            return upper
        if lower >= beta:
            return lower
        if s.scorer[s.leader] == s.maxer[s.leader]:
            v = quick_tricks(s)
            if s.scorer[s.leader]:
                if v > lower:
                    lower = v
            elif maxq - v < upper:
                upper = maxq - v
        elif s.null_mode and not s.scorer[s.leader]:
            v = null_defenders_lead(s)
            if v == 0:
                return 0                    # the declarer can never be forced
            if v > 0 and lower < s.trick_weight:
                lower = s.trick_weight      # he must take this very trick
        if upper <= alpha:
            return upper
        if lower >= beta:
            return lower
        keymeta = s.keymeta_ctx | <uint32_t>s.leader
        canonical_hands(s, s.hand[0], s.hand[1], s.hand[2], key)
        e = tt_find(s.tt, key[0], key[1], key[2], keymeta)
        if SKATDD_STATS:
            s.tt.probes += 1
        if e != NULL:
            if SKATDD_STATS:
                s.tt.hits += 1
            lower = (e.meta >> LB_SHIFT) & BOUND_MASK
            upper = (e.meta >> UB_SHIFT) & BOUND_MASK
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if e.meta & BEST_VALID:
                tt_move = (e.meta >> BEST_SHIFT) & 31
    elif s.trick_len == 2 and last_card_decides(s, seat, alpha, beta, &v):
        return v

    # Step 2. Moves, best first.
    legal = legal_bits(&s.lay, s.hand[seat], s.trick_card[0] if s.trick_len > 0 else -1)
    n = order_moves(s, seat, legal, tt_move, moves)

    # Step 3. Search each move.
    best = -INF if maximising else INF
    for i in range(n):
        c = moves[i]
        play_card(s, seat, c)
        if s.trick_len == 3:
            # The next trick reuses trick_card[]: keep this trick's cards to restore them.
            c0 = s.trick_card[0]
            c1 = s.trick_card[1]
            bits = s.trick_bits
            old_leader = s.leader
            gained = complete_trick(s)
            v = gained + ab(s, alpha - gained, beta - gained)
            s.leader = old_leader
            s.trick_len = 3
            s.trick_bits = bits
            s.trick_card[0] = c0
            s.trick_card[1] = c1
            s.trick_card[2] = c
        else:
            v = ab(s, alpha, beta)
        unplay_card(s, seat, c)
        if maximising:
            if v > best:
                best = v
                best_move = c
                if best >= beta:
                    break
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                best_move = c
                if best <= alpha:
                    break
                if best < beta:
                    beta = best

    # Step 4. Store the bound at trick boundaries.
    if s.trick_len == 0:
        if best <= alpha0:
            tt_save(s.tt, key[0], key[1], key[2], keymeta, 0, best, best_move)
        elif best >= beta0:
            tt_save(s.tt, key[0], key[1], key[2], keymeta, best, INF, best_move)
        else:
            tt_save(s.tt, key[0], key[1], key[2], keymeta, best, best, best_move)
    return best


cdef int max_q(const Search* s) noexcept nogil:
    """Upper bound on Q: every weight still in play and every trick left."""
    cdef uint32_t remaining = s.hand[0] | s.hand[1] | s.hand[2]
    cdef int tricks = (__builtin_popcount(remaining) + s.trick_len + 2) // 3
    return weight_of(s, remaining | s.trick_bits) + s.trick_weight * tricks


cdef int solve_exact(Search* s, int lo, int hi) noexcept nogil:
    """Exact Q, known to lie in [lo, hi], by null-window searches stepping down from *hi*.

    Each search asks "is Q >= t?" with t the best upper bound known so far;
    a failing search returns a fail-soft upper bound below t, which becomes
    the next t.  So the driver never tests a t under what it knows to be possible: the only "Q >= t" proof is
    the last one, at the value itself, and none at all when the value is *lo*.

    Why downwards: measured on the realistic benchmark sets, a test below the
    value costs about as much as the final proof, however far below, while
    tests above it get cheaper the farther above they are, and the table keeps
    their refutations for the next, lower t.  Stepping down from the value
    plus 1, 3, 6, 25 costs 37.2M, 39.7M, 41.7M, 43.2M nodes on seed 1; from
    the value minus 1, 3, 6: 45.5M, 58.2M, 73.4M.  Stepping down from *hi*
    takes 23% (seed 1: 56.57M -> 43.47M nodes) and 10% (seed 7: 39.73M ->
    35.65M) fewer nodes than the bisection skewed upwards (70%, then 60%)
    it replaces, and fewer in every contract but hearts on seed 7 (+0.5%);
    bisection at 90% (49.0M, 38.6M), steps of 2-5 points below the bound
    (45.9M-47.1M, 36.1M-37.5M) and windows wider than null (45.3M-56.2M,
    37.0M-43.8M) all cost more.
    """
    cdef int v
    while lo < hi:
        v = ab(s, hi - 1, hi)
        if v >= hi:
            return hi
        hi = v if v > lo else lo
    return lo


ctypedef struct Step:
    int seat                  # who played the card
    int card                  # internal bit
    int leader                # the trick state before the card
    int trick_len
    int trick_card[3]
    uint32_t trick_bits


cdef inline int play_step(Search* s, int c, Step* step) noexcept nogil:
    """Play *c* for the seat to move, closing the trick if it is full; returns the weight gained.

    *step* records what undo_step() needs.  The drivers below use it; the
    search itself keeps a leaner copy of the same bookkeeping on its hot path.
    """
    cdef int k
    step.seat = MOD3[s.leader + s.trick_len]
    step.card = c
    step.leader = s.leader
    step.trick_len = s.trick_len
    step.trick_bits = s.trick_bits
    for k in range(3):
        step.trick_card[k] = s.trick_card[k]
    play_card(s, step.seat, c)
    if s.trick_len == 3:
        return complete_trick(s)
    return 0


cdef inline void undo_step(Search* s, const Step* step) noexcept nogil:
    cdef int k
    s.leader = step.leader
    s.trick_len = step.trick_len
    s.trick_bits = step.trick_bits
    for k in range(3):
        s.trick_card[k] = step.trick_card[k]
    s.hand[step.seat] |= (<uint32_t>1) << step.card


cdef int child_at_least(Search* s, int c, int t) noexcept nogil:
    """1 when playing *c* (for the seat to move) keeps Q >= t, else 0.  The state is restored."""
    cdef Step step
    cdef int gained = play_step(s, c, &step)
    cdef int v = gained + ab(s, t - gained - 1, t - gained)
    undo_step(s, &step)
    return 1 if v >= t else 0


cdef int child_exact(Search* s, int c, int node_q) noexcept nogil:
    """Exact Q after playing *c* for the seat to move (weight of a trick it completes included).  State restored.

    *node_q* is the exact Q of the current node, or -1 if unknown.  When it
    is known it bounds the child: a maximiser's card is worth at most node_q
    (solve_exact's first test, so an optimal card costs one null-window
    search) and a minimiser's at least node_q (a lower bound solve_exact never
    needs to prove: an optimal card costs only the descent to it).
    """
    cdef bint maximising = s.maxer[MOD3[s.leader + s.trick_len]]
    cdef Step step
    cdef int gained = play_step(s, c, &step)
    cdef int lo = 0, hi = max_q(s), t, q
    if node_q >= 0:
        t = node_q - gained
        if maximising:
            if 0 <= t < hi:
                hi = t
        elif lo < t <= hi:
            lo = t
    q = gained + solve_exact(s, lo, hi)
    undo_step(s, &step)
    return q


cdef int build_line(Search* s, int target, bint exact, bint stop_on_score, int* out) noexcept nogil:
    """Write a principal variation to *out* (internal bits); returns its length.  State restored.

    exact: *target* is the exact Q of the current node; each move keeps it.
    Otherwise *target* is a threshold T: the side the test favours keeps
    Q >= T (or Q < T) while the other side plays its first-ordered move.
    stop_on_score: end the line after the first trick the scoring side wins
    (null: the trick the declarer is forced to take).
    """
    cdef int n = 0, seat, m, i, c, chosen, gained
    cdef int moves[MAX_MOVES]
    cdef bint holds, maximising
    cdef Step steps[32]
    holds = ab(s, target - 1, target) >= target
    while (s.hand[0] | s.hand[1] | s.hand[2]) != 0:
        seat = MOD3[s.leader + s.trick_len]
        maximising = s.maxer[seat]
        m = order_moves(s, seat, legal_bits(&s.lay, s.hand[seat], s.trick_card[0] if s.trick_len > 0 else -1), -1, moves)
        chosen = moves[0]
        for i in range(m):
            c = moves[i]
            if exact:
                if maximising:
                    if child_at_least(s, c, target):
                        chosen = c
                        break
                elif not child_at_least(s, c, target + 1):
                    chosen = c
                    break
            elif maximising == holds:
                if child_at_least(s, c, target) == holds:
                    chosen = c
                    break
            else:
                break
        out[n] = chosen
        gained = play_step(s, chosen, &steps[n])
        n += 1
        target -= gained
        if stop_on_score and gained > 0:
            break
    for i in range(n - 1, -1, -1):
        undo_step(s, &steps[i])
    return n
