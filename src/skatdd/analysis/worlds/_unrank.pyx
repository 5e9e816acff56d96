# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Many worlds of a :class:`~skatdd.analysis.worlds.space.WorldSpace` unranked at once, in C.

:func:`unrank_many` gives exactly what ``space[i]`` gives for each index
(:meth:`WorldSpace.__getitem__` is the reference; tests/test_worlds.py
compares them): the class's split holding the index, the placement of its
cards (each place's cards a lexicographic combination of what the places
before it left), then the later classes.  The indices are walked class by
class in groups that share the needs left, so the split options (Python
lists, cached by the space) are looked up once per group, and the rest is
64-bit arithmetic on a binomial table.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t

#: C(n, k) for n, k <= 32 (0 for k > n): a class holds at most the 30 cards a seat cannot see.
cdef uint64_t BINOM[33][33]


cdef void _init_binomials() noexcept:
    cdef int n, k
    for n in range(33):
        BINOM[n][0] = 1
        for k in range(1, 33):
            BINOM[n][k] = 0 if n == 0 else BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_init_binomials()


def unrank_many(list classes, object split_options, object count, tuple needs, tuple known, list indices):
    """The four place masks of the world at each of *indices*, flat: ``[h0, h1, h2, skat, h0, ...]``.

    *classes* are the space's ``(places, cards)`` classes, *split_options*
    and *count* its ``_split_options(i, needs)`` and ``_count(i, needs)``,
    *needs* and *known* the view's; every index lies in ``0 <= i < len(space)
    < 2**63`` (the caller checks).
    """
    cdef Py_ssize_t n = len(indices), slot, w
    cdef Py_ssize_t i, j, k, t, nopt, np, m, left_cards, kept
    cdef uint64_t idx, r, inner, pick, block, chosen
    cdef int kk, c, card
    cdef uint64_t *rem = <uint64_t *> PyMem_Malloc(max(n, 1) * sizeof(uint64_t))
    cdef uint64_t *masks = <uint64_t *> PyMem_Malloc(max(4 * n, 1) * sizeof(uint64_t))
    cdef uint64_t *cum = NULL
    cdef uint64_t *sub = NULL
    cdef int *splits = NULL      # nopt x 3 counts
    cdef uint64_t *suffix = NULL  # nopt x 3: multinomial of the counts after place j
    cdef int cards[32]
    cdef int left[32]
    cdef int spare[32]
    cdef int places[3]
    cdef int total
    if rem is NULL or masks is NULL:
        PyMem_Free(rem)
        PyMem_Free(masks)
        raise MemoryError()
    try:
        for w in range(n):
            rem[w] = <uint64_t> indices[w]
            for j in range(4):
                masks[4 * w + j] = <uint64_t> known[j]
        groups = {needs: list(range(n))}
        for i in range(len(classes)):
            cls = classes[i]
            cls_places, cls_cards = cls[0], cls[1]
            np = len(cls_places)
            m = len(cls_cards)
            for j in range(np):
                places[j] = cls_places[j]
            for t in range(m):
                cards[t] = cls_cards[t]
            following = {}
            for group_needs, slots in groups.items():
                options = split_options(i, group_needs)
                nopt = len(options)
                PyMem_Free(cum)
                PyMem_Free(sub)
                PyMem_Free(splits)
                PyMem_Free(suffix)
                cum = <uint64_t *> PyMem_Malloc(nopt * sizeof(uint64_t))
                sub = <uint64_t *> PyMem_Malloc(nopt * sizeof(uint64_t))
                splits = <int *> PyMem_Malloc(3 * nopt * sizeof(int))
                suffix = <uint64_t *> PyMem_Malloc(3 * nopt * sizeof(uint64_t))
                if cum is NULL or sub is NULL or splits is NULL or suffix is NULL:
                    raise MemoryError()
                lefts = []
                for k in range(nopt):
                    option = options[k]
                    cum[k] = <uint64_t> option[0]
                    split = option[1]
                    sub[k] = <uint64_t> count(i + 1, option[2])
                    lefts.append(option[2])
                    for j in range(np):
                        splits[3 * k + j] = split[j]
                    # suffix[j]: the multinomial of the counts after place j, C(S, s[j+1]) * suffix[j+1] (S their sum).
                    suffix[3 * k + np - 1] = 1
                    total = 0
                    for j in range(np - 2, -1, -1):
                        total += splits[3 * k + j + 1]
                        suffix[3 * k + j] = suffix[3 * k + j + 1] * BINOM[total][splits[3 * k + j + 1]]
                chosen_slots = [None] * nopt
                for slot in slots:
                    idx = rem[slot]
                    k = 0
                    while idx >= cum[k]:
                        k += 1
                    r = idx - (cum[k - 1] if k else 0)
                    inner = r // sub[k]
                    rem[slot] = r % sub[k]
                    # The class's cards into its places, the *inner*-th way (WorldSpace._place).
                    for t in range(m):
                        left[t] = cards[t]
                    left_cards = m
                    for j in range(np):
                        if j == np - 1:  # the last place takes every card left
                            for t in range(left_cards):
                                masks[4 * slot + places[j]] |= (<uint64_t> 1) << left[t]
                            break
                        c = splits[3 * k + j]
                        if not c:
                            continue
                        pick = inner // suffix[3 * k + j]
                        inner = inner % suffix[3 * k + j]
                        # The pick-th (lexicographic) c-subset of the cards left; the others stay, in order.
                        chosen = 0
                        kk = c
                        kept = 0
                        for t in range(left_cards):
                            card = left[t]
                            if kk:
                                block = BINOM[left_cards - t - 1][kk - 1]
                                if pick < block:
                                    chosen |= (<uint64_t> 1) << card
                                    kk -= 1
                                    continue
                                pick -= block
                            spare[kept] = card
                            kept += 1
                        masks[4 * slot + places[j]] |= chosen
                        for t in range(kept):
                            left[t] = spare[t]
                        left_cards = kept
                    bucket = chosen_slots[k]
                    if bucket is None:
                        chosen_slots[k] = [slot]
                    else:
                        bucket.append(slot)
                for k in range(nopt):
                    if chosen_slots[k] is not None:
                        following.setdefault(lefts[k], []).extend(chosen_slots[k])
            groups = following
        return [masks[w] for w in range(4 * n)]
    finally:
        PyMem_Free(rem)
        PyMem_Free(masks)
        PyMem_Free(cum)
        PyMem_Free(sub)
        PyMem_Free(splits)
        PyMem_Free(suffix)
