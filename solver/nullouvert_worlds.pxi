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
    """Solve every class of worlds with the declarer to lose-test from the first trick (seat 0 leads).

    The root of a class is probed in the table, almost always a cache miss,
    so the next class's bucket is prefetched while this one is solved; but
    not after a class the static tests settled (hands of such classes come
    in runs, and the key would be wasted).
    """
    cdef int i0, i1, i2, i3, kr, lr, r, dseat = s.decl, lead_rel = (3 - s.decl) % 3, searched = 1
    cdef Pattern *p0
    cdef Pattern *p1
    cdef Pattern *p2
    cdef Pattern *p3
    cdef uint32_t d3, l3, r3
    cdef uint64_t k1, k2, nodes0, probes0
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
                # the hands in the first three suits
                d3 = p0.d | p1.d | p2.d
                l3 = p0.lm | p1.lm | p2.lm
                r3 = p0.rm | p1.rm | p2.rm
                for i3 in range(E.start3[kr][lr], E.end3[kr][lr]):
                    p3 = &E.pat[3][i3]
                    if searched and i3 + 1 < E.end3[kr][lr]:
                        key_of(d3 | p3[1].d, l3 | p3[1].lm, d3 | l3 | r3 | p3[1].d | p3[1].lm | p3[1].rm, lead_rel,
                               &k1, &k2)
                        table_prefetch(s.tt, k1, k2)
                    m = p0.mult * p1.mult * p2.mult * p3.mult
                    s.hand[dseat] = d3 | p3.d
                    s.hand[(dseat + 1) % 3] = l3 | p3.lm
                    s.hand[(dseat + 2) % 3] = r3 | p3.rm
                    s.leader = 0
                    s.tlen = 0
                    nodes0 = s.nodes
                    probes0 = s.tt.probes
                    r = dd_lose(s)
                    searched = s.nodes - nodes0 > 1 or s.tt.probes != probes0
                    E.classes += 1
                    E.worlds += m
                    if r:
                        E.lost += m
                        if E.first_lost[0] < 0:
                            E.first_lost[0] = i0
                            E.first_lost[1] = i1
                            E.first_lost[2] = i2
                            E.first_lost[3] = i3
