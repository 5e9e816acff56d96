"""The honest declarer.

The best strategy that plays one card in the worlds he cannot tell apart (:mod:`.api`), with its
results (:mod:`.results`) and its sets of worlds and fronts (:mod:`.fronts`).

Imports the family worlds.
"""
