# Double-dummy null search (included by _nullouvert.pyx).
#
# A DD holds one full-information null position: three hands as card masks
# (public encoding, card = suit * 8 + rank, so within a suit the bit order IS
# the null strength order 7 8 9 T J Q K A), the declarer's seat, the trick in
# progress.  dd_lose() answers one question: can the two defenders, who see
# everything and cooperate, force the declarer to win a trick?
#
# Exactness of the shared table.  At a trick boundary the value depends only
# on the relative order of the live cards of each suit and on who holds each
# (a relabelling of ranks that keeps every live card's order against every
# other preserves every legal move and every trick winner), and suits are
# interchangeable (null has no trumps).  The key is therefore, per suit, the
# number of live cards and the declarer's and left defender's cards
# compressed onto the live cards, the four suits sorted, plus the leader
# relative to the declarer.  With a defender on lead, a suit the declarer
# is safe in is keyed in a canonical form that plays alike (suit_sig()), so
# worlds differing only in how such a suit lies share entries.  Entries are
# exact (win or loss), so they stay valid across worlds, skats, seats and
# calls.


cdef enum:
    MAXM = 12
    REC_MAX = 16


cdef uint32_t ALL_CARDS = 0xFFFFFFFFu


ctypedef struct DD:
    uint32_t hand[3]       # card masks by seat
    int decl               # declarer's seat
    int leader             # seat leading the current trick
    int tlen               # cards on the table
    int tcard[3]           # cards on the table, in play order
    uint32_t lead_mask     # the declarer's first leads searched (ALL_CARDS but in a class split by suits: worlds.pxi)
    int at_root            # set by the caller: the next dd_lose() is a class's root (killer, below)
    int killer             # the root move that settled the last root searched, tried first at the next (-1: none)
    uint64_t nodes
    DView* tt              # this thread's view of the (maybe shared) table
    int rec_on             # set by the count of worlds: note this class's bucket misses (see enum_run)
    uint32_t rec3          # the class's root in its last suit: live | declarer << 8 | left << 16 (bytes)
    int nrec
    uint64_t rec[REC_MAX]  # noted misses: their first three suits' codes and the leader (14 bits each, leader << 56)


cdef inline uint32_t legal_of(uint32_t hand, int led) noexcept nogil:
    """Legal cards of *hand* when *led* was led (-1: leading)."""
    cdef uint32_t f
    if led < 0:
        return hand
    f = hand & suit_bits(led >> 3)
    return f if f else hand


cdef inline int is_redundant(uint32_t mover, uint32_t live, int c) noexcept nogil:
    """True when the next live card above c in its suit is also the mover's: c plays as that card."""
    cdef uint32_t up = live & above(c)
    return up != 0 and (mover >> bit_index(up)) & 1


cdef inline void sort4(uint64_t* a) noexcept nogil:
    """Sort four values descending (a sorting network)."""
    cdef uint64_t t
    if a[0] < a[1]:
        t = a[0]; a[0] = a[1]; a[1] = t
    if a[2] < a[3]:
        t = a[2]; a[2] = a[3]; a[3] = t
    if a[0] < a[2]:
        t = a[0]; a[0] = a[2]; a[2] = t
    if a[1] < a[3]:
        t = a[1]; a[1] = a[3]; a[3] = t
    if a[1] < a[2]:
        t = a[1]; a[1] = a[2]; a[2] = t


cdef inline int safe_all(uint32_t decl_hand, uint32_t others) noexcept nogil:
    """Static win: in every suit the declarer's i-th lowest card (i = 0, 1, ...) has at most i of *others* below it.

    Sound whenever the declarer does not lead (a defender leads every trick
    until he wins one): following the led suit he always holds a card below
    the lead (his lowest is below every other live card of the suit), plays
    the highest card under the trick's current best, and the condition
    survives every trick; when void he discards the top card of any suit,
    which keeps the condition too.  So he never wins a trick.
    """
    cdef int su
    for su in range(4):
        if not suit_safe(decl_hand & suit_bits(su), others & suit_bits(su)):
            return 0
    return 1


cdef inline uint32_t declarer_choices(uint32_t hand, int tlen, int led, int win) noexcept nogil:
    """The declarer's legal cards minus dominated ones (*win*: the best card on the table, -1 if none).

    Monotonicity: holding a lower card of a suit instead of a higher one
    never hurts the null declarer (play the lower one wherever a strategy
    plays the higher: every trick it did not win it still does not win, and
    nobody's legal moves change).  Hence, following, among the cards below
    the trick's best he only needs the highest (and as the last player
    nothing else: any other card wins the trick); discarding, only the top
    card of each suit.
    """
    cdef uint32_t f, under, out
    cdef int su
    if tlen == 0:
        return hand
    f = hand & suit_bits(led >> 3)
    if f:
        under = f & below(win)
        if under == 0:
            return f
        if tlen == 2:
            return (<uint32_t>1) << high_bit(under)
        return ((<uint32_t>1) << high_bit(under)) | (f & ~below(win))
    out = 0
    for su in range(4):
        f = hand & suit_bits(su)
        if f:
            out |= (<uint32_t>1) << high_bit(f)
    return out


cdef inline int suit_loss(uint32_t ds, uint32_t ps, uint32_t qs) noexcept nogil:
    """Static loss in one suit at a trick boundary: the declarer's cards *ds* of it, the leader's *ps*, his partner's *qs*.

    The leader holds a card x of the suit below the declarer's lowest card m
    of it, and the partner is void in the suit or also holds a card below m:
    lead x; whether the partner plays before or after the declarer, he
    plays his card below m (or discards), and the declarer, whose every
    card of the suit is at least m, takes the trick.
    Or the partner is void in the suit and the leader holds at least as
    many cards of it as the declarer, the declarer's top card above all of
    them.
    """
    cdef int m
    if ds == 0 or ps == 0:
        return 0
    if qs == 0 and __builtin_popcount(ps) >= __builtin_popcount(ds) and high_bit(ds) > high_bit(ps):
        # the leader leads the suit as often as the declarer holds it, and the declarer's top card wins one
        return 1
    m = bit_index(ds)
    if bit_index(ps) > m:
        return 0
    if qs != 0 and bit_index(qs) > m:
        return 0
    return 1


cdef inline int loses_on_lead(uint32_t d, uint32_t p, uint32_t q) noexcept nogil:
    """Static loss at a trick boundary (suit_loss() in some suit): the declarer holds *d*, the leader *p*, his partner *q*."""
    cdef int su
    cdef uint32_t sb
    for su in range(4):
        sb = suit_bits(su)
        if suit_loss(d & sb, p & sb, q & sb):
            return 1
    return 0


cdef inline int quick_loss(const DD* s) noexcept nogil:
    """loses_on_lead() at a trick boundary with a defender on lead."""
    return loses_on_lead(s.hand[s.decl], s.hand[s.leader], s.hand[3 - s.leader - s.decl])


cdef inline int loss_suits(uint32_t d, uint32_t p, uint32_t q) noexcept nogil:
    """The suits (bit su) in which suit_loss() holds with *p* on lead: declarer *d*, partner *q*."""
    cdef int su, out = 0
    cdef uint32_t sb
    for su in range(4):
        sb = suit_bits(su)
        out |= suit_loss(d & sb, p & sb, q & sb) << su
    return out


cdef inline int wins_into_loss(uint32_t ds2, uint32_t ps, uint32_t qs, int c, int elsewhere) noexcept nogil:
    """Defender p (cards *ps* of the led suit) can win the first trick over the lead *c* and his partner's card
    (*qs*: the partner's cards of the suit) and then lead into a static loss: in a suit of *elsewhere* (not
    the led one, untouched by the trick), or in the led suit after the trick (the declarer's cards of it
    left: *ds2*), tried with p's highest and lowest cards above c against the partner's lowest card of the
    suit and his highest one below p's (a discard when void, see lead_refuted)."""
    cdef uint32_t win = ps & above(c), under, pc
    cdef int i, j, pcard
    if win == 0 or (qs != 0 and bit_index(qs) > high_bit(win)):
        return 0        # p cannot win the trick
    if elsewhere:
        return 1
    for i in range(2):
        pcard = high_bit(win) if i == 0 else bit_index(win)
        pc = (<uint32_t>1) << pcard
        if qs == 0:
            if suit_loss(ds2, ps & ~pc, 0):
                return 1
            continue
        under = qs & below(pcard)
        if under == 0:
            continue
        for j in range(2):
            if suit_loss(ds2, ps & ~pc, qs & ~((<uint32_t>1) << (bit_index(under) if j == 0 else high_bit(under)))):
                return 1
    return 0


cdef inline int lead_refuted(uint32_t d, uint32_t l, uint32_t r, int c, int loss_l, int loss_r) noexcept nogil:
    """Static loss of the declarer's lead *c* to the first trick (he holds *d*; *l* plays second, *r* third).

    Either both defenders can stay under c (a lower card of its suit, or a
    discard when void): he takes the trick.  Or one of them wins it and then
    leads into a static loss (wins_into_loss(); *loss_l*, *loss_r*: the
    suits loss_suits() finds with l, r on lead before the trick).  A
    discarder's card is left in his hand for that test: the loss it finds
    rests on at most one of his cards (his lowest of a suit) or on a void,
    so with two or more cards he can discard another.
    """
    cdef int su = c >> 3, others = ~(1 << (c >> 3))
    cdef uint32_t sb = suit_bits(su), ls = l & sb, rs = r & sb, ds2 = d & sb & ~((<uint32_t>1) << c)
    if (ls == 0 or bit_index(ls) < c) and (rs == 0 or bit_index(rs) < c):
        return 1
    return wins_into_loss(ds2, ls, rs, c, loss_l & others) or wins_into_loss(ds2, rs, ls, c, loss_r & others)


cdef int first_lead_refuted(const DD* s, int c, int* loss) noexcept nogil:
    """lead_refuted() for the declarer's first lead *c*; *loss*: the two defenders' loss_suits(), filled at the
    first call of a node (loss[0] < 0 until then).  Out of line: the root-only test stays out of dd_lose()."""
    cdef uint32_t d = s.hand[s.decl], l = s.hand[(s.decl + 1) % 3], r = s.hand[(s.decl + 2) % 3]
    if loss[0] < 0:
        loss[0] = loss_suits(d, l, r)
        loss[1] = loss_suits(d, r, l)
    return lead_refuted(d, l, r, c, loss[0], loss[1])


cdef inline int lead_holds(uint32_t d, uint32_t l, uint32_t r, uint32_t leads) noexcept nogil:
    """Static win with the declarer on lead (declarer d, defenders l and r), leading a card of *leads*.

    Every suit but at most one, s, holds (HOLDS; a safe suit holds), and he
    can lead his lowest card x of s (of any suit when all hold; s among the
    suits of *leads*) such that,
    whatever each defender plays to it (a card of s, or a discard when void),
    a defender wins the trick and what is left of s holds.  Then a defender
    leads trick 2 with every suit holding: the other suits still hold after
    the defenders' discards (throws, which the suit's game grants them).
    """
    cdef int su, bad = -1, nbad = 0, x, a, b, ok
    cdef uint32_t sb, ds, ls, rs, la, rb, played
    for su in range(4):
        if not holds_in(d, l, r, su):
            bad = su
            nbad += 1
    if nbad > 1:
        return 0
    for su in range(4):
        sb = suit_bits(su)
        if (nbad == 1 and su != bad) or (leads & sb) == 0:
            continue
        ds = d & sb
        if ds == 0:
            continue
        x = bit_index(ds)
        ls = l & sb
        rs = r & sb
        ok = 1
        la = ls if ls else 1       # bit 0 stands for a discard (never a card of s when s is not suit 0)
        while la and ok:
            a = bit_index(la) if ls else -1
            la &= la - 1
            rb = rs if rs else 1
            while rb and ok:
                b = bit_index(rb) if rs else -1
                rb &= rb - 1
                if a < x and b < x:
                    ok = 0      # the defenders duck: he takes the trick
                    break
                played = (<uint32_t>1) << x
                if a >= 0:
                    played |= (<uint32_t>1) << a
                if b >= 0:
                    played |= (<uint32_t>1) << b
                ok = holds_in(d & ~played, l & ~played, r & ~played, su)
        if ok:
            return 1
    return 0


cdef inline uint64_t suit_sig(uint32_t lv, uint32_t db, uint32_t lb, int defender_leads, int* unsafe) noexcept nogil:
    """One suit's part of dd_key(): its code (above), live count and the declarer's and left defender's cards.

    With a defender on lead, a suit that is safe for the declarer (suit_safe)
    is written as its canonical form: the declarer's cards as the lowest
    ranks, the defenders' above them in their own order.  Both play alike:
    the declarer never wins a trick of the suit in either (safe_all()'s
    strategy keeps the suit safe, and he never leads before he has lost),
    so only his count of the suit matters, and a trick of the suit goes to
    the defender with the higher card in both.  Otherwise *unsafe* counts
    the suit, unless it holds (HOLDS).
    """
    cdef int code = suit_code(lv, db, lb), v
    if defender_leads:
        v = CODE3[code]
        unsafe[0] += (v & CODE3_OPEN) != 0
        return <uint64_t>(v & CODE3_MASK)
    return <uint64_t>code


cdef inline int key_of(uint32_t d, uint32_t l, uint32_t live, int lead_rel, uint64_t* key) noexcept nogil:
    """dd_key() from the declarer's and left defender's cards, the live cards and the leader's seat relative to the declarer.

    With a defender on lead and every suit safe or holding (returns 0), *key* is not written.
    """
    cdef uint64_t sig[4]
    cdef int su, defender_leads = lead_rel != 0, unsafe = 0
    for su in range(4):
        sig[su] = suit_sig((live >> (8 * su)) & 0xFF, (d >> (8 * su)) & 0xFF, (l >> (8 * su)) & 0xFF, defender_leads,
                           &unsafe)
    if defender_leads and unsafe == 0:
        return 0        # a static win (dd_key()): the key is not needed
    sort4(sig)
    key[0] = sig[0] | (sig[1] << 14) | (sig[2] << 28) | (sig[3] << 42) | ((<uint64_t>lead_rel) << 56)
    return unsafe


cdef inline int dd_key(const DD* s, uint64_t* key) noexcept nogil:
    """Rank-normalised, suit-sorted key (58 bits) of a trick-boundary position (safe suits canonical: suit_sig()).

    Returns the number of suits that neither are safe for the declarer nor
    hold (HOLDS) when a defender leads (0: he has won, and *key* is not
    written), else 0.
    """
    return key_of(s.hand[s.decl], s.hand[(s.decl + 1) % 3], s.hand[0] | s.hand[1] | s.hand[2],
                  (s.leader - s.decl + 3) % 3, key)


cdef inline void note_miss(DD* s) noexcept nogil:
    """Note a boundary position (a defender on lead) whose bucket is being loaded, when its last suit is as at the class's root.

    The next class of the count differs from this one only in the last
    suit, so the same position with that suit as in the next class is
    likely to be probed there too: enum_run() prefetches its bucket when
    the next class starts.  Work in the bucket's shadow.
    """
    cdef uint32_t d = s.hand[s.decl], l = s.hand[(s.decl + 1) % 3], live = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint64_t r
    cdef int su
    if s.nrec >= REC_MAX or ((live >> 24) | ((d >> 24) << 8) | ((l >> 24) << 16)) != s.rec3:
        return
    r = (<uint64_t>((s.leader - s.decl + 3) % 3)) << 56
    for su in range(3):
        r |= (<uint64_t>(CODE3[suit_code((live >> (8 * su)) & 0xFF, (d >> (8 * su)) & 0xFF, (l >> (8 * su)) & 0xFF)]
                          & CODE3_MASK)) << (14 * su)
    s.rec[s.nrec] = r
    s.nrec += 1


cdef inline void prefetch_noted(DD* s) noexcept nogil:
    """Prefetch the buckets of the positions note_miss() noted in the last class, with the last suit as now at the root."""
    cdef uint32_t d = s.hand[s.decl], l = s.hand[(s.decl + 1) % 3], live = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint64_t sig[4]
    cdef uint64_t code3 = CODE3[suit_code(live >> 24, d >> 24, l >> 24)] & CODE3_MASK, r
    cdef int i
    for i in range(s.nrec):
        r = s.rec[i]
        sig[0] = r & 0x3FFF
        sig[1] = (r >> 14) & 0x3FFF
        sig[2] = (r >> 28) & 0x3FFF
        sig[3] = code3
        sort4(sig)
        dtable_prefetch(s.tt, sig[0] | (sig[1] << 14) | (sig[2] << 28) | (sig[3] << 42) | (r & ((<uint64_t>3) << 56)))
    s.nrec = 0
    s.rec3 = (live >> 24) | ((d >> 24) << 8) | ((l >> 24) << 16)


cdef inline int trick_winner(const int* tcard, int leader) noexcept nogil:
    """Seat winning the three cards *tcard* of a trick *leader* led: the highest card of the led suit.

    Every null search plays tricks so (double dummy here, the honest search, a block's relaxed game).
    """
    cdef int best = 0, i
    cdef uint32_t sb = suit_bits(tcard[0] >> 3)
    for i in range(1, 3):
        if (sb >> tcard[i]) & 1 and tcard[i] > tcard[best]:
            best = i
    return (leader + best) % 3


cdef inline int add_to_trick(int* tcard, int* tlen, int* leader, int decl, int c, ClosedTrick* saved) noexcept nogil:
    """Put *c* on the trick; returns 0 while it stays open, -1 when it is full and the declarer wins it (the
    searches end there), 1 when a defender wins it: closed into *saved*, the winner leads the next.

    The honest search and a block's relaxed game walk a child so: add_to_trick(), their own search unless
    -1, then take_from_trick() with the same answer (dd_child() writes the same steps out).
    """
    cdef int w
    tcard[tlen[0]] = c
    tlen[0] += 1
    if tlen[0] < 3:
        return 0
    w = trick_winner(tcard, leader[0])
    if w == decl:
        return -1
    close_trick(leader, tlen, tcard, w, saved)
    return 1


cdef inline void take_from_trick(int* tcard, int* tlen, int* leader, int added, const ClosedTrick* saved) noexcept nogil:
    """Undo add_to_trick(), whose answer was *added*: the closed trick reopened, its last card taken off."""
    if added > 0:
        reopen_trick(leader, tlen, tcard, saved)
    tlen[0] -= 1


cdef int dd_order(const DD* s, int seat, int* out) noexcept nogil:
    """One card per class of equivalent legal cards of *seat*, most promising first; returns the count."""
    cdef uint32_t table = 0
    cdef int i, n = 0, c, sc, led = s.tcard[0] if s.tlen > 0 else -1
    cdef int scores[MAXM]
    cdef uint32_t live, legal, dh = s.hand[s.decl], oth, ledbits = 0
    cdef int win = -1, decl_played = -1
    for i in range(s.tlen):
        table |= (<uint32_t>1) << s.tcard[i]
        if (s.leader + i) % 3 == s.decl:
            decl_played = s.tcard[i]
    if s.tlen > 0:
        ledbits = table & suit_bits(led >> 3)
        win = high_bit(ledbits)
    live = s.hand[0] | s.hand[1] | s.hand[2] | table
    oth = (s.hand[0] | s.hand[1] | s.hand[2]) & ~dh
    legal = declarer_choices(s.hand[seat], s.tlen, led, win) if seat == s.decl else legal_of(s.hand[seat], led)
    while legal:
        c = bit_index(legal)
        legal &= legal - 1
        if is_redundant(s.hand[seat], live, c):
            continue
        if seat == s.decl:
            if s.tlen == 0:
                sc = 100 - __builtin_popcount(live & below(c))
            elif (c >> 3) == (led >> 3):
                sc = 1000 + c if c < win else -c
            else:
                # discard: the card with most other cards below it, relative to its rank among ours
                sc = 8 * (__builtin_popcount(oth & below(c)) - __builtin_popcount(dh & below(c))) + (c & 7)
        else:
            if s.tlen == 0:
                if dh & suit_bits(c >> 3):
                    sc = 500 - 50 * __builtin_popcount(dh & below(c)) - (c & 7)
                else:
                    sc = 50 - (c & 7)
            elif decl_played >= 0 and decl_played == win:
                sc = 10000 if ((c >> 3) != (led >> 3) or c < win) else -c
            elif (c >> 3) == (led >> 3):
                sc = -(c & 7)
            else:
                sc = c & 7
        insert_by_score(scores, out, n, sc, c)
        n += 1
    return n


cdef inline int last_hand(DD* s, int seat) noexcept nogil:
    """The value of a node where *seat* plays the trick's last card, when settled without a move list; else -1.

    The declarer who must follow either holds a card below the trick's best
    (declarer_choices() leaves only the highest of them: its value is the
    child's) or takes the trick with any card (1).  A defender, with the
    declarer's card best so far, gives him the trick with a card below it
    or a discard (1).  The same moves dd_order() would list first, searched
    the same way: the answer and the node count do not change, only the
    ordering's work is saved (a child that closes the trick to the declarer
    is no node).
    """
    cdef uint32_t sb = suit_bits(s.tcard[0] >> 3), f = s.hand[seat] & sb, under
    cdef int win = s.tcard[0], dpos
    if (s.tcard[1] >> 3) == (s.tcard[0] >> 3) and s.tcard[1] > win:
        win = s.tcard[1]
    if seat == s.decl:
        if f == 0:
            return -1
        under = f & below(win)
        if under == 0:
            return 1
        return dd_child(s, seat, high_bit(under))
    dpos = (s.decl - s.leader + 3) % 3
    if s.tcard[dpos] == win and (f == 0 or (f & below(win)) != 0):
        return 1
    return -1


cdef int dd_lose(DD* s) noexcept nogil:
    """1 when the defenders can force the declarer to win a trick from here, else 0.

    Boolean minimax: the declarer needs one card that keeps 0, a defender one
    card that gives 1.  Trick boundaries use the static tests and the shared
    table (header).  With the declarer on lead (only ever the first trick:
    a trick he wins ends the search) he leads only cards of ``s.lead_mask``;
    when that is not every card, the answer is not the position's value, so
    the table is neither probed nor stored there.  His leads the static
    tests refute (first_lead_refuted()) are not searched.  At a class's root
    (``s.at_root``, set by the count of worlds) the move that settled the
    last root is tried first: the classes of a count come in order of their
    patterns, and the lead that won (or beat) one mostly does the next
    (forehand's hardest hand game 313M -> 223M nodes; the same for the
    first three plies: 226M, and rearhand gains 6% either way).
    """
    cdef int seat = (s.leader + s.tlen) % 3
    cdef int moves[MAXM]
    cdef int n, i, res, c, restricted = 0, root = s.at_root
    cdef uint64_t key = 0, h
    cdef int found, ordered = 0, loss_test = 0, decl_leads = 0
    cdef int loss[2]
    s.at_root = 0
    s.nodes += 1
    if s.tlen == 2:
        found = last_hand(s, seat)
        if found >= 0:
            return found
    elif s.tlen == 0:
        if s.hand[s.decl] == 0:
            return 0
        if s.leader != s.decl:
            # quick_loss() settles about 1% of these nodes and the key's pass
            # (below: every suit safe or holding) 22%: the key comes first,
            # quick_loss() after the near cache, in the bucket's shadow.
            if dd_key(s, &key) == 0:
                return 0        # the key found every suit safe or holding (HOLDS)
            loss_test = 1
        elif lead_holds(s.hand[s.decl], s.hand[(s.decl + 1) % 3], s.hand[(s.decl + 2) % 3], s.lead_mask):
            return 0
        else:
            decl_leads = 1
            loss[0] = -1
            if s.lead_mask != ALL_CARDS:
                restricted = 1
            else:
                dd_key(s, &key)
        if not restricted:
            # The shared bucket is a memory load (perf: the largest single
            # cost of the search; 250-300 ns on the 2-core machine), so it is
            # requested at once, and the near cache is looked at and the
            # moves ordered while it comes in (the ordering is wasted when
            # the bucket hits).
            h = mix64(key)
            __builtin_prefetch(dtable_bucket(s.tt, h))
            found = dtable_near(s.tt, key, h)
            if found >= 0:
                return found
            if loss_test and quick_loss(s):
                return 1
            n = dd_order(s, seat, moves)
            if s.rec_on and not root:
                note_miss(s)
            found = dtable_far(s.tt, key, h)
            if found >= 0:
                return found
            ordered = 1
    if not ordered:
        n = dd_order(s, seat, moves)
    if root:
        for i in range(1, n):
            if moves[i] == s.killer:
                moves[i] = moves[0]
                moves[0] = s.killer
                break
    res = 1 if seat == s.decl else 0
    for i in range(n):
        c = moves[i]
        if decl_leads and (not (s.lead_mask >> c) & 1 or first_lead_refuted(s, c, loss)):
            continue        # a lead outside lead_mask, or one the static tests refute
        if dd_child(s, seat, c) != res:
            res = 1 - res
            if root:
                s.killer = c
            break
    if s.tlen == 0 and not restricted:
        dtable_put(s.tt, key, res, __builtin_popcount(s.hand[s.decl]))
    return res


cdef int dd_child(DD* s, int seat, int c) noexcept nogil:
    """dd_lose() after *seat* plays *c*; the position is restored."""
    cdef int res, w
    cdef ClosedTrick saved
    # The trick written out here, not through add_to_trick(): with the helper GCC inlines differently and
    # the double-dummy search took 4% more instructions (two-gaps-R with its skat, callgrind).
    s.hand[seat] &= ~((<uint32_t>1) << c)
    s.tcard[s.tlen] = c
    s.tlen += 1
    if s.tlen == 3:
        w = trick_winner(s.tcard, s.leader)
        if w == s.decl:
            res = 1
        else:
            close_trick(&s.leader, &s.tlen, s.tcard, w, &saved)
            res = dd_lose(s)
            reopen_trick(&s.leader, &s.tlen, s.tcard, &saved)
    else:
        res = dd_lose(s)
    s.tlen -= 1
    s.hand[seat] |= (<uint32_t>1) << c
    return res


cdef int dd_play(DD* s, int c) noexcept nogil:
    """Play *c* for the seat to move, closing the trick when full; returns the winner's seat or -1."""
    cdef int seat = (s.leader + s.tlen) % 3, w
    s.hand[seat] &= ~((<uint32_t>1) << c)
    s.tcard[s.tlen] = c
    s.tlen += 1
    if s.tlen < 3:
        return -1
    w = trick_winner(s.tcard, s.leader)
    s.leader = w
    s.tlen = 0
    return w


cdef int dd_line(DD* s, int* out) noexcept nogil:
    """A line in a lost position: the defenders keep the win, the declarer plays his first-ordered card.

    Ends with the trick the declarer takes; returns its length.  Changes *s*.
    """
    cdef int n = 0, seat, m, i, c, chosen, w
    cdef int moves[MAXM]
    while s.hand[0] | s.hand[1] | s.hand[2]:
        seat = (s.leader + s.tlen) % 3
        m = dd_order(s, seat, moves)
        chosen = moves[0]
        if seat != s.decl:
            for i in range(m):
                if dd_child(s, seat, moves[i]):
                    chosen = moves[i]
                    break
        else:
            # resist: prefer a card after which the defenders' win takes longest is costly; take the first ordered
            chosen = moves[0]
        out[n] = chosen
        n += 1
        w = dd_play(s, chosen)
        if w == s.decl:
            break
    return n
