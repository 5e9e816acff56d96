"""The honest declarer.

The best strategy that plays one card in the worlds he cannot tell apart (:mod:`.api`), with its results (:mod:`.results`).

Imports the family worlds.
"""
