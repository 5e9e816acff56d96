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
    uint32_t same_weight[32]  # per internal card: the cards of its group that weigh as much (moves.pxi)
    int trick_weight          # added per trick (1 in trick modes, 0 in points mode)
    bint null_mode            # MODE_NULL: the defenders try to give the declarer a trick
    int leader                # seat leading the current trick
    int trick_len             # cards on the table (0..2)
    int trick_card[3]         # internal bits, in play order
    uint32_t trick_bits
    uint32_t keymeta_ctx      # context bits for TT keys (leader added per probe)
    TTable* tt
    KeyBlocks blocks          # blocks of interchangeable cards, for canonical TT keys
    QSTable* qs               # the quasi-symmetric table (qsym.pxi)
    KeyBlocks groups          # one block per follow group, for its abstract keys
    bint qs_on                # points mode: cards differ in weight, the table is used
    uint64_t nodes


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


cdef inline uint32_t next_live_above(int c, uint32_t live) noexcept nogil:
    """The lowest live card above *c*, of any group, as a one-bit mask (0: none).

    Groups are contiguous, so it is c's group's next card when that group
    has one.  Unsigned arithmetic makes the mask of cards above 31 empty.
    With ``& hand & s.same_weight[c]`` it tells whether c and the card above
    are interchangeable (same holder, same group, same weight, nothing
    between), the equivalence order_moves() and card_values() share.
    """
    cdef uint32_t above = live & ~(((<uint32_t>2) << c) - 1)
    return above & (0 - above)


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


cdef inline int complete_trick(Search* s, ClosedTrick* saved) noexcept nogil:
    """Close a full trick, saving it in *saved*: the winner leads next; returns the weight gained by the scoring side.

    reopen_trick() and the trick's bits (which the caller keeps) restore it.
    """
    cdef int winner = (s.leader + index_in_trick(s, winner_bit(&s.lay, s.trick_bits, s.trick_card[0]))) % 3
    cdef int gained = weight_of(s, s.trick_bits) + s.trick_weight if s.scorer[winner] else 0
    close_trick(&s.leader, &s.trick_len, s.trick_card, winner, saved)
    s.trick_bits = 0
    return gained


cdef int ab(Search* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on Q from the current node (contract in the header)."""
    cdef int seat = MOD3[s.leader + s.trick_len]
    cdef int moves[MAX_MOVES]
    cdef int n, i, c, v, best, best_move = -1, gained, tt_move = -1
    cdef ClosedTrick closed
    cdef uint32_t bits
    cdef int lower, upper, maxq, cards_each, alpha0 = alpha, beta0 = beta
    cdef uint32_t legal, remaining, keymeta = 0
    cdef uint32_t key[3]
    cdef uint32_t akey[3]
    cdef TTEntry* e
    cdef bint maximising = s.maxer[seat]
    if SKATDD_STATS:
        s.nodes += 1

    # Step 1. Trick boundary: trivial ends, the tables, then cheap bounds.
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
        keymeta = s.keymeta_ctx | <uint32_t>s.leader
        if s.qs_on:
            # Points mode: the exact key is the hands themselves.  Positions
            # that differ only by which cards of an interchangeable run are
            # live share their abstract key at distance 0, so the
            # quasi-symmetric table merges them; canonical exact keys on top
            # cost more time than the probes they saved.
            key[0] = s.hand[0]
            key[1] = s.hand[1]
            key[2] = s.hand[2]
        else:
            canonical_hands(&s.blocks, s.hand[0], s.hand[1], s.hand[2], key)
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
        if s.qs_on:
            canonical_hands(&s.groups, key[0], key[1], key[2], akey)
            if qs_probe(s.qs, &s.lay, s.weight, akey, key[0] | key[1] | key[2], keymeta, alpha, beta, &v):
                return v
        # Cheap bounds: trumps above every trump of the other side win their
        # tricks.  After the tables: they settle most positions that reach
        # them, so the bounds run less often (measured: 1.2-1.5% fewer nodes,
        # 3.5-5% less time; before the quasi-symmetric table no gain).
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
            bits = s.trick_bits
            gained = complete_trick(s, &closed)
            v = gained + ab(s, alpha - gained, beta - gained)
            reopen_trick(&s.leader, &s.trick_len, s.trick_card, &closed)
            s.trick_bits = bits
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
        lower = 0 if best <= alpha0 else best
        upper = INF if best >= beta0 else best
        tt_save(s.tt, key[0], key[1], key[2], keymeta, lower, upper, best_move)
        if s.qs_on:
            qs_save(s.qs, akey, key[0] | key[1] | key[2], keymeta, lower, upper)
    return best


cdef int max_q(const Search* s) noexcept nogil:
    """Upper bound on Q: every weight still in play and every trick left."""
    cdef uint32_t remaining = s.hand[0] | s.hand[1] | s.hand[2]
    cdef int tricks = (__builtin_popcount(remaining) + s.trick_len + 2) // 3
    return weight_of(s, remaining | s.trick_bits) + s.trick_weight * tricks
