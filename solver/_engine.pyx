# cython: language_level=3
"""skatdd's double-dummy engine.

The engine works on 32-bit masks in a per-contract internal layout
(layout.pxi).  Python code sees card ints and card masks in the public
encoding of ``skatdd.cards``; conversion happens once at this boundary.
"""

include "layout.pxi"


def _check_game(int game):
    if not 0 <= game <= 5:
        raise ValueError(f"game {game} is not 0..5")


def layout(int game):
    """``(to_internal, group_of, group_masks, trump_mask)`` of *game*'s internal layout (for tests)."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    return ([lay.to_internal[c] for c in range(32)], [lay.group_of[b] for b in range(32)],
            [lay.group_mask[g] for g in range(5)], lay.trump_mask)


def legal_cards(int game, unsigned int hand, int led_card=-1):
    """Mask of the legal cards of *hand* (card mask) when *led_card* was led (-1: leading)."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    cdef int led = lay.to_internal[led_card] if led_card >= 0 else -1
    return to_card_mask(&lay, legal_bits(&lay, to_internal_mask(&lay, hand), led))


def trick_winner(int game, cards):
    """Index (0 = lead) of the winning card of a trick given as card ints."""
    _check_game(game)
    cdef Layout lay
    build_layout(&lay, game)
    cdef uint32_t bits = 0
    for c in cards:
        bits |= (<uint32_t>1) << lay.to_internal[c]
    cdef int win = lay.to_card[winner_bit(&lay, bits, lay.to_internal[cards[0]])]
    return list(cards).index(win)
