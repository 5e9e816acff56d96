"""The game itself: cards and card sets, the rules, a position, ISkO scoring, the error types.

Holds :mod:`.cards`, :mod:`.rules`, :mod:`.position`, :mod:`.scoring`,
:mod:`.errors` and :mod:`.equivalence` (which cards of a hand play alike).  The bottom layer: it imports nothing else of skatdd.
"""
