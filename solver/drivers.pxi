# The drivers (included by _engine.pyx after the search): exact values by a
# descent of null-window tests, one card's value or threshold test, and a
# principal variation.  Each leaves the position as it found it.

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

    *step* records what undo_step() needs, half-played tricks included; the
    search itself, which only ever closes full tricks, uses complete_trick()
    and reopen_trick() directly.
    """
    cdef int k
    cdef ClosedTrick closed
    step.seat = MOD3[s.leader + s.trick_len]
    step.card = c
    step.leader = s.leader
    step.trick_len = s.trick_len
    step.trick_bits = s.trick_bits
    for k in range(3):
        step.trick_card[k] = s.trick_card[k]
    play_card(s, step.seat, c)
    if s.trick_len == 3:
        return complete_trick(s, &closed)
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
