"""The honest declarer.

The best strategy that plays one card in the worlds he cannot tell apart (:mod:`.api`).

Imports the family worlds.
"""
