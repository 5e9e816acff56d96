# What the three searches (the engine, the null-ouvert double-dummy and
# honest searches) share: closing a full trick and reopening it on the way
# back (the next trick reuses the trick arrays, so closing saves what
# reopening restores), and the insertion of a move into a list sorted by
# its ordering score.

ctypedef struct ClosedTrick:
    int leader                # who led the closed trick
    int card[3]               # its cards in play order


cdef inline void close_trick(int* leader, int* trick_len, const int* trick_card, int winner,
                             ClosedTrick* saved) noexcept nogil:
    """Save the full trick (three cards) in *saved*; *winner* leads an empty next trick."""
    saved.leader = leader[0]
    saved.card[0] = trick_card[0]
    saved.card[1] = trick_card[1]
    saved.card[2] = trick_card[2]
    leader[0] = winner
    trick_len[0] = 0


cdef inline void reopen_trick(int* leader, int* trick_len, int* trick_card, const ClosedTrick* saved) noexcept nogil:
    """Undo close_trick(): the saved trick is on the table again, all three cards."""
    leader[0] = saved.leader
    trick_card[0] = saved.card[0]
    trick_card[1] = saved.card[1]
    trick_card[2] = saved.card[2]
    trick_len[0] = 3


cdef inline int insert_by_score(int* scores, int* moves, int n, int score, int move) noexcept nogil:
    """Insert *move* with *score* into the first *n* entries, sorted by descending score; returns its index.

    Among equal scores the earlier move stays first.
    """
    cdef int i = n
    while i > 0 and scores[i - 1] < score:
        scores[i] = scores[i - 1]
        moves[i] = moves[i - 1]
        i -= 1
    scores[i] = score
    moves[i] = move
    return i


cdef inline void shift_in(int* values, int n, int index, int value) noexcept nogil:
    """Insert *value* at *index* of the first *n* entries: a side array kept parallel to insert_by_score()."""
    cdef int i
    for i in range(n, index, -1):
        values[i] = values[i - 1]
    values[index] = value
