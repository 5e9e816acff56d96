# Counting lost worlds by classes (included by _nullouvert.pyx).
#
# A world is a split of the unseen cards into the skat (K cards, 0 when the
# skat is known) and the two defenders' hands.  Per suit, Python lists the
# distinct rank-normalised patterns of that suit (how many cards go to the
# skat, how many to the left defender, and the compressed declarer / left /
# right masks placed in the suit's byte) with the number of real choices
# that give each.  Every combination of one pattern per suit whose counts
# add up is one class of worlds that play identically (a relabelling of
# ranks, the skat's cards being out of play); its size is the product of
# the four multiplicities.  Each class is solved once.

ctypedef struct Pattern:
    int k                  # skat cards of the suit
    int l                  # left defender's cards of the suit
    uint32_t d, lm, rm     # normalised masks (declarer, left, right) in the suit's byte
    int64_t mult           # real choices giving this pattern


ctypedef struct Enum:
    Pattern* pat[4]
    int npat[4]
    int start3[3][9]       # suit 3 patterns sorted by (k, l): bucket [start, end)
    int end3[3][9]
    int K                  # skat cards among the unseen (0 or 2)
    int n                  # cards per hand
    int64_t worlds
    int64_t lost
    int64_t classes
    int first_lost[4]      # pattern indices of the first lost class, -1 if none


cdef void enum_run(Enum* E, DD* s) noexcept nogil:
    """Solve every class of worlds with the declarer to lose-test from the first trick (seat 0 leads)."""
    cdef int i0, i1, i2, i3, kr, lr, r, dseat = s.decl
    cdef Pattern *p0
    cdef Pattern *p1
    cdef Pattern *p2
    cdef Pattern *p3
    cdef int64_t m
    E.worlds = 0
    E.lost = 0
    E.classes = 0
    E.first_lost[0] = -1
    for i0 in range(E.npat[0]):
        p0 = &E.pat[0][i0]
        if p0.k > E.K or p0.l > E.n:
            continue
        for i1 in range(E.npat[1]):
            p1 = &E.pat[1][i1]
            if p0.k + p1.k > E.K or p0.l + p1.l > E.n:
                continue
            for i2 in range(E.npat[2]):
                p2 = &E.pat[2][i2]
                kr = E.K - p0.k - p1.k - p2.k
                lr = E.n - p0.l - p1.l - p2.l
                if kr < 0 or kr > 2 or lr < 0 or lr > 8:
                    continue
                for i3 in range(E.start3[kr][lr], E.end3[kr][lr]):
                    p3 = &E.pat[3][i3]
                    m = p0.mult * p1.mult * p2.mult * p3.mult
                    s.hand[dseat] = p0.d | p1.d | p2.d | p3.d
                    s.hand[(dseat + 1) % 3] = p0.lm | p1.lm | p2.lm | p3.lm
                    s.hand[(dseat + 2) % 3] = p0.rm | p1.rm | p2.rm | p3.rm
                    s.leader = 0
                    s.tlen = 0
                    r = dd_lose(s)
                    E.classes += 1
                    E.worlds += m
                    if r:
                        E.lost += m
                        if E.first_lost[0] < 0:
                            E.first_lost[0] = i0
                            E.first_lost[1] = i1
                            E.first_lost[2] = i2
                            E.first_lost[3] = i3
