# Every card's value in many worlds of one decision (included by _engine.pyx
# after position.pxi): the worlds share the contract, the leader and the
# trick on the table and differ in the hands; one call loads the context
# once and solves world after world without the GIL, writing each world's
# row of 32 values (by card int, -1 where the card is not legal).

from libc.stdint cimport int16_t

cdef enum:
    TABLES_CLEAR = 0          # both tables emptied before every world
    TABLES_KEEP = 1           # every entry kept (entries never go stale)
    TABLES_AUTO = 2           # both emptied only after a world that stored many entries


# TABLES_AUTO empties both tables before a world when the world before
# stored more than this many new entries (or grew the exact table).
# Measured with benchmarks/bench_worlds.py (CPU, medians over the fixture
# games): at the first lead, 200 worlds, clearing before every world beat
# keeping the entries by 10-30% in every game (0.63 vs 0.81 s at the
# median); at three cards a hand a world stores a handful of entries and
# emptying 1.5 MiB each time cost 3-4x the search (0.20 vs 0.06 ms a
# decision).  Thresholds of 0-1,024 entries were alike within the noise
# at the first lead and at three cards a hand.
cdef enum:
    AUTO_CLEAR_STORES = 64      # a compile-time int constant (see tt.pxi)


cdef void card_values_row(Search* s, bint exact, int target, bint declarer_maximises, int offset,
                          int16_t* row) noexcept nogil:
    """Fill row[card int] for every legal card of the seat to move; other entries are left alone.

    *exact*: offset + the card's exact Q (all_card_values()).  Otherwise 1
    when the declarer gets his way after the card, else 0: Q >= target when
    he maximises (points, declarer tricks), Q < target when the defenders do
    (null, defender tricks); a target <= 0 needs no search.  Equivalent
    cards are searched once, as order_moves() keeps them: each card takes
    the value of the highest card of its run.  State restored.
    """
    cdef int seat = MOD3[s.leader + s.trick_len]
    cdef int led = s.trick_card[0] if s.trick_len > 0 else -1
    cdef uint32_t legal = legal_bits(&s.lay, s.hand[seat], led)
    cdef uint32_t live = s.hand[0] | s.hand[1] | s.hand[2] | s.trick_bits
    cdef uint32_t rest, nxt
    cdef int moves[MAX_MOVES]
    cdef int values[MAX_MOVES]
    cdef int by_rep[32]
    cdef int n, i, c, rep, r
    if exact:
        n = all_card_values(s, moves, values)
        for i in range(n):
            by_rep[moves[i]] = offset + values[i]
    rest = legal
    while rest:
        c = high_bit(rest)            # from the top: a run's highest card comes first
        rest &= ~((<uint32_t>1) << c)
        rep = c
        nxt = next_live_above(rep, live)
        while nxt & s.hand[seat] & s.same_weight[rep]:
            rep = bit_index(nxt)
            nxt = next_live_above(rep, live)
        if not exact and rep == c:
            r = 1 if target <= 0 else child_at_least(s, c, target)
            by_rep[rep] = r if declarer_maximises else 1 - r
        row[s.lay.to_card[c]] = by_rep[rep]


cdef void card_values_worlds(Search* s, int declarer, Py_ssize_t n, const uint32_t* hands, const uint32_t* skats,
                             int leader, const int* trick, int ntrick, bint exact, int target, int base, int tables,
                             int16_t* out) noexcept nogil:
    """card_values_row() for world w = hands[3w..3w+2] (skat skats[w], or none) into out[32w..32w+31].

    The contract (of *declarer*) is loaded; every world must have passed check_deal().  Values are offset by *base*
    plus the skat's points, and *target* is lowered by as much, so both are
    the declarer's final card points in suit and grand.  *tables* is one of
    TABLES_CLEAR, TABLES_KEEP, TABLES_AUTO.
    """
    cdef Py_ssize_t w
    cdef int k, offset
    cdef bint declarer_maximises = s.maxer[declarer]
    for w in range(n):
        if tables == TABLES_CLEAR or (tables == TABLES_AUTO and (s.tt.current > AUTO_CLEAR_STORES
                                                                 or s.tt.used_buckets > tt_start_buckets(s.tt))):
            tt_clear(s.tt)
            qs_clear(s.qs)
        tt_new_generation(s.tt)
        load_deal(s, hands + 3 * w, leader, trick, ntrick)
        offset = base + (weight_of(s, to_internal_mask(&s.lay, skats[w])) if skats != NULL else 0)
        for k in range(32):
            out[32 * w + k] = -1
        card_values_row(s, exact, target - offset, declarer_maximises, offset, out + 32 * w)
