"""The game itself: cards and card sets, the rules, a position, ISkO scoring, dealing, the error types.

Holds :mod:`.cards`, :mod:`.rules`, :mod:`.position`, :mod:`.declaration`, :mod:`.scoring`,
:mod:`.dealing` (random deals), :mod:`.equivalence` (which cards of a hand play alike),
:mod:`.seeds` and :mod:`.errors`.  The bottom layer: it imports nothing else of skatdd.
"""
