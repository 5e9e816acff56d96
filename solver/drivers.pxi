# The drivers (included by _engine.pyx after the search): exact values by a
# descent of null-window tests, every legal card's value from one search of the
# position, one card's threshold test, and a principal variation.  Each leaves
# the position as it found it.

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


cdef int solve_exact_up(Search* s, int lo, int hi) noexcept nogil:
    """Exact Q, known to lie in [lo, hi] with *lo* likely close, by null-window tests galloping up from *lo*.

    Tests "Q >= lo + step" with the step doubling from 2 after every success
    (the fail-soft result raises *lo* further); the first failure bounds Q
    above by its fail-soft result, and solve_exact() descends from there.
    Used for a minimiser's cards, and for a maximiser's card that beat the
    best so far (all_card_values()).  For a minimiser's cards, each proven
    worth at least the position's exact Q and most a few points more,
    measured against descending from max_q: 9.3% fewer card-value nodes
    on seed 1 (10.35M -> 9.39M), 8.5% on the close games (30.92M ->
    28.30M); first steps of 1, 3 or 4, steps growing 1.5x or 3x, or a
    fixed step cost within 1-3% of it, either way.
    """
    cdef int step = 2, t, v
    while lo < hi:
        t = lo + step
        if t > hi:
            t = hi
        v = ab(s, t - 1, t)
        if v < t:
            return solve_exact(s, lo, v if v > lo else lo)
        lo = v if v < hi else hi
        step *= 2
    return lo


cdef int child_bound(Search* s, int c, int t) noexcept nogil:
    """Fail-soft result of the test "Q >= t" after playing *c* for the seat to move, in the node's units.  State restored."""
    cdef Step step
    cdef int gained = play_step(s, c, &step)
    cdef int v = gained + ab(s, t - gained - 1, t - gained)
    undo_step(s, &step)
    return v


cdef inline int child_at_least(Search* s, int c, int t) noexcept nogil:
    """1 when playing *c* (for the seat to move) keeps Q >= t, else 0.  The state is restored."""
    return 1 if child_bound(s, c, t) >= t else 0


cdef void root_pairs(const Search* s, int seat, const int* moves, int n, int* dist) noexcept nogil:
    """dist[i * MAX_MOVES + j]: how far the values of moves i and j can lie apart (-1: no bound).

    Two cards c, c' of the mover in one follow group with no card of another
    seat (in a hand or on the table) ranked between them play alike:
    swapping them maps every line after c onto a line after c' (they never
    meet in a trick, and every other card compares with both alike), and
    only their own weights differ, once in each of two tricks.  So along
    every line, and hence in value, the two differ by at most
    |weight(c) - weight(c')|.  (Pairs of equal weight are order_moves()'s
    equivalent cards, merged already: equal weights are contiguous in every
    group, so in the trick modes, where every card weighs 0, no pair is left.)
    """
    cdef uint32_t others = (s.hand[0] | s.hand[1] | s.hand[2] | s.trick_bits) & ~s.hand[seat]
    cdef int i, j, a, b
    for i in range(n):
        dist[i * MAX_MOVES + i] = -1
        for j in range(i + 1, n):
            a = moves[i] if moves[i] < moves[j] else moves[j]
            b = moves[j] if moves[i] < moves[j] else moves[i]
            if (s.lay.group_of[a] == s.lay.group_of[b]
                    and (others & (((<uint32_t>1) << b) - 1) & ~(((<uint32_t>2) << a) - 1)) == 0):
                dist[i * MAX_MOVES + j] = s.weight[b] - s.weight[a] if s.weight[b] > s.weight[a] else s.weight[a] - s.weight[b]
            else:
                dist[i * MAX_MOVES + j] = -1
            dist[j * MAX_MOVES + i] = dist[i * MAX_MOVES + j]


cdef inline void pass_bounds(int n, int i, int* lo, int* hi, const int* dist) noexcept nogil:
    """Narrow the bounds of every card paired with card *i* (root_pairs()) by i's bounds.

    One pass suffices: the distances obey the triangle inequality, so a
    bound passed on through a third card is never tighter.
    """
    cdef int j, d
    for j in range(n):
        d = dist[i * MAX_MOVES + j]
        if d < 0:
            continue
        if lo[i] - d > lo[j]:
            lo[j] = lo[i] - d
        if hi[i] + d < hi[j]:
            hi[j] = hi[i] + d


cdef inline int card_exact(Search* s, int c, int lo, int hi, bint up) noexcept nogil:
    """Exact Q after card *c*, known to lie in [lo, hi]: by the descent from *hi*
    (solve_exact()) or, with *up*, galloping up from *lo* (solve_exact_up()).  State restored."""
    cdef Step step
    cdef int gained = play_step(s, c, &step), v
    if up:
        v = gained + solve_exact_up(s, lo - gained, hi - gained)
    else:
        v = gained + solve_exact(s, lo - gained, hi - gained)
    undo_step(s, &step)
    return v


cdef int all_card_values(Search* s, int* moves, int* values) noexcept nogil:
    """Exact Q after each legal card of the seat to move; returns the count.

    Fills *moves* with one card per class of equivalent cards (as
    order_moves() keeps them, best first) and *values* with each one's Q
    (the weight of a trick it completes included).  One search for all:
    every card keeps its own bounds [lo, hi] from every test it gets, and
    each bound passes to the cards it pairs with (root_pairs()).

    A maximiser's node: the first card's value by the descent, then each
    other card tested one point above the best value so far (aspiration
    from the best child); a card that passes is the new best, solved by
    galloping up from its lower bound; the others then descend from the
    upper bound their test left.  A minimiser's node: the node's own
    descent (t its best upper bound; every card tested at t until one
    fails), which leaves each card proven at least the node's value, then
    each card galloping up from there (solve_exact_up()).  State restored.
    """
    cdef int seat = MOD3[s.leader + s.trick_len]
    cdef bint maximising = s.maxer[seat]
    cdef uint32_t legal = legal_bits(&s.lay, s.hand[seat], s.trick_card[0] if s.trick_len > 0 else -1)
    cdef int n = order_moves(s, seat, legal, -1, moves)
    cdef int lo[MAX_MOVES]
    cdef int hi[MAX_MOVES]
    cdef int dist[MAX_MOVES * MAX_MOVES]
    cdef int i, t, v, gained, best = -1
    cdef bint done
    cdef Step step
    if n == 0:
        return 0
    for i in range(n):
        gained = play_step(s, moves[i], &step)
        lo[i] = gained
        hi[i] = gained + max_q(s)
        undo_step(s, &step)
    root_pairs(s, seat, moves, n, dist)
    if maximising:
        # Aspiration from the best child: against descending every card
        # from max_q in parallel until one passes, 1.1-1.8% fewer nodes on
        # the bench sets (docs/engine.md, fifth round).
        for i in range(n):
            if best >= 0:
                t = values[best] + 1
                if hi[i] < t:
                    continue                # no better than the best
                if lo[i] < t:
                    v = child_bound(s, moves[i], t)
                    if v < t:
                        hi[i] = v if v > lo[i] else lo[i]
                        pass_bounds(n, i, lo, hi, dist)
                        continue
                    lo[i] = v if v < hi[i] else hi[i]
            if lo[i] < hi[i]:
                lo[i] = hi[i] = card_exact(s, moves[i], lo[i], hi[i], best >= 0)
            values[i] = lo[i]
            best = i
            pass_bounds(n, i, lo, hi, dist)
    else:
        while True:
            # The node's descent: t is its best upper bound.
            t = hi[0]
            for i in range(1, n):
                if hi[i] < t:
                    t = hi[i]
            done = True
            for i in range(n):
                if lo[i] >= t:
                    continue                # proven already
                v = child_bound(s, moves[i], t)
                if v < t:
                    hi[i] = v if v > lo[i] else lo[i]
                    pass_bounds(n, i, lo, hi, dist)
                    done = False
                    break
                lo[i] = v if v < hi[i] else hi[i]
                pass_bounds(n, i, lo, hi, dist)
            if done:
                break
    for i in range(n):
        if lo[i] < hi[i]:
            lo[i] = hi[i] = card_exact(s, moves[i], lo[i], hi[i], not maximising)
            pass_bounds(n, i, lo, hi, dist)
        values[i] = lo[i]
    return n


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
