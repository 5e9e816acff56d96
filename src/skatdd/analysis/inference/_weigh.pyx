# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The bidding model's weights of many worlds at once, in C: :class:`PoolWeigher`.

The same floats as :func:`skatdd.analysis.inference.bids.auction_weigher`
(the reference; tests/test_inference.py compares them bit for bit): the
same table sums in the same order, the same ``exp`` (the C library's, which
``math.exp`` calls), and no fused multiply-add (setup.py builds this module
with ``-ffp-contract=off``).  A contract's bidding value counts the
matadors as ``bids.game_value`` does: the run of trumps from the top that
the hand holds, or misses, all alike.
"""
from libc.math cimport exp
from libc.stdint cimport uint64_t

cdef enum:
    GAMES = 6  # ALL_GAMES: grand, the four suits, null


cdef class PoolTables:
    """The model's tables as C arrays, built once (``bids._POOL_TABLES``): per contract in ALL_GAMES order,
    the logit's constant (per forehand), its terms per jacks' pattern and per suit byte, its voids term,
    the trumps from the top and the base value; null's values; the play chance's clip, threshold and sharpness.
    """

    cdef double const_[2][GAMES]
    cdef double jacks[GAMES][16]
    cdef double suits[GAMES][4][256]
    cdef double voidc[GAMES]
    cdef double clip, threshold, sharpness
    cdef long null_value, null_hand_value
    cdef int norder[GAMES]
    cdef int order[GAMES][11]
    cdef long base[GAMES]

    def __init__(self, tuple flat, list orders, list bases, tuple null_values, double clip, double threshold,
                 double sharpness):
        cdef int fh, g, s, b
        for fh in range(2):
            for g in range(GAMES):
                self.const_[fh][g] = flat[fh][g][0]
        for g in range(GAMES):
            row = flat[0][g]
            for b in range(16):
                self.jacks[g][b] = row[1][b]
            for s in range(4):
                for b in range(256):
                    self.suits[g][s][b] = row[2 + s][b]
            self.voidc[g] = row[6]
            self.norder[g] = len(orders[g])
            for b in range(self.norder[g]):
                self.order[g][b] = orders[g][b]
            self.base[g] = bases[g]
        self.null_value, self.null_hand_value = null_values
        self.clip, self.threshold, self.sharpness = clip, threshold, sharpness

    def game_value(self, hand, int g, bint hand_game):
        """The bidding value of contract *g* (its index in ALL_GAMES) for the cards *hand* (tests)."""
        return self._value(hand, g, hand_game)

    cdef long _value(self, uint64_t hand, int g, int hand_game) noexcept:
        """``bids.game_value(hand, ALL_GAMES[g], hand_game=hand_game)``: (matadors + 1 [+ 1]) x base; null's value."""
        cdef int run = 0, i
        cdef uint64_t top
        if not self.norder[g]:
            return self.null_hand_value if hand_game else self.null_value
        top = hand >> self.order[g][0] & 1
        for i in range(self.norder[g]):
            if (hand >> self.order[g][i] & 1) != top:
                break
            run += 1
        return (run + 1 + hand_game) * self.base[g]

    cdef void _games(self, uint64_t hand, int fh, double *plays, long *values) noexcept:
        """``bids._games(hand, fh)``: each contract's play chance and bidding value."""
        cdef int b0 = hand & 0xFF, b1 = hand >> 8 & 0xFF, b2 = hand >> 16 & 0xFF, b3 = hand >> 24 & 0xFF
        cdef int nib = (hand >> 4 & 1) | (hand >> 11 & 2) | (hand >> 18 & 4) | (hand >> 25 & 8)
        cdef int voids = (b0 == 0) + (b1 == 0) + (b2 == 0) + (b3 == 0)
        cdef double x
        cdef int g
        if voids > 2:
            voids = 2
        for g in range(GAMES):
            x = (self.const_[fh][g] + self.jacks[g][nib] + self.suits[g][0][b0] + self.suits[g][1][b1]
                 + self.suits[g][2][b2] + self.suits[g][3][b3] + self.voidc[g] * <double> voids)
            x = -self.clip if x < -self.clip else self.clip if x > self.clip else x
            plays[g] = 1.0 / (1.0 + exp(-self.sharpness * (x - self.threshold)))
            values[g] = self._value(hand, g, 0)


cdef class PoolWeigher:
    """``weigh(worlds, played)``: each world's auction likelihood over the seats of *specs*.

    Built by :func:`skatdd.analysis.inference.bids.auction_pool_weigher`: the tables, and per seat that bid
    ``(seat, forehand, lo, hi or None, declared contract's index or -1)``.
    """

    cdef PoolTables t
    cdef double floor
    cdef int nspecs
    cdef int seat[3]
    cdef int forehand[3]
    cdef long lo[3]
    cdef long hi[3]
    cdef int has_hi[3]
    cdef int declared[3]
    cdef bint hand_game

    def __init__(self, PoolTables tables, list specs, bint hand_game, double floor):
        cdef int s
        self.t = tables
        self.nspecs = len(specs)
        for s in range(self.nspecs):
            seat, forehand, lo, hi, declared = specs[s]
            self.seat[s] = seat
            self.forehand[s] = forehand
            self.lo[s] = lo
            self.has_hi[s] = hi is not None
            self.hi[s] = 0 if hi is None else hi
            self.declared[s] = declared
        self.hand_game = hand_game
        self.floor = floor

    cdef inline double _at_least(self, long value, double *plays, long *values) noexcept:
        cdef double none = 1.0
        cdef int g
        if value <= 0:
            return 1.0
        for g in range(GAMES):
            if values[g] >= value:
                none *= 1.0 - plays[g]
        return 1.0 - none

    def weigh(self, list worlds, tuple played):
        """Each world's likelihood: ``world[0]`` its three hands now, *played* what each seat played."""
        cdef double plays[GAMES]
        cdef long values[GAMES]
        cdef double weight, model, above, below
        cdef long value
        cdef int s, seat
        cdef uint64_t hand
        cdef uint64_t p0 = played[0], p1 = played[1], p2 = played[2]
        cdef list out = []
        for world in worlds:
            hands = world[0]
            weight = 1.0
            for s in range(self.nspecs):
                seat = self.seat[s]
                hand = <uint64_t> hands[seat] | (p0 if seat == 0 else p1 if seat == 1 else p2)
                self.t._games(hand, self.forehand[s], plays, values)
                if self.declared[s] < 0:
                    above = self._at_least(self.lo[s], plays, values)
                    below = self._at_least(self.hi[s], plays, values) if self.has_hi[s] else 0.0
                    model = above - below
                    if not model > 0.0:  # max(0.0, model)
                        model = 0.0
                else:
                    value = self.t._value(hand, self.declared[s], 1) if self.hand_game else values[self.declared[s]]
                    model = plays[self.declared[s]] * (
                        1.0 if value >= self.lo[s] else self._at_least(self.lo[s], plays, values))
                weight *= (1.0 - self.floor) * model + self.floor
            out.append(weight)
        return out
