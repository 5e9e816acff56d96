"""The game itself: cards and card sets, the rules, a position, ISkO scoring, the error types.

Holds :mod:`.cards`, :mod:`.rules`, :mod:`.position`, :mod:`.scoring` and
:mod:`.errors`.  The bottom layer: it imports nothing else of skatdd.
"""
