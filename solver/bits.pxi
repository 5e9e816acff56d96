# Bit helpers shared by both extensions (included first by _engine.pyx and
# _nullouvert.pyx): the compiler built-ins, lowest and highest set bit, and
# the table that compresses one byte of held cards onto the ranks of the
# live ones.

from libc.stdint cimport uint32_t, uint64_t, uint8_t, int32_t, int64_t

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_popcount(unsigned int) nogil


cdef inline int bit_index(uint32_t m) noexcept nogil:
    """Index of the lowest set bit of a non-zero mask."""
    return __builtin_ctz(m)


cdef inline int high_bit(uint32_t m) noexcept nogil:
    """Index of the highest set bit of a non-zero mask."""
    return 31 - __builtin_clz(m)


# PEXT8[live][held]: the bits of *held* compressed onto the set bits of
# *live* (held's i-th live card becomes bit i), the software form of the
# BMI2 instruction on one byte.  Rank normalisation: two positions whose
# live cards of a block differ only in which ranks are gone compress alike.
cdef uint8_t PEXT8[256][256]


cdef void init_pext_table() noexcept nogil:
    cdef int live, held, bit, out, k
    for live in range(256):
        for held in range(256):
            out = 0
            k = 0
            for bit in range(8):
                if (live >> bit) & 1:
                    if (held >> bit) & 1:
                        out |= 1 << k
                    k += 1
            PEXT8[live][held] = out
