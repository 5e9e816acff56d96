"""How high to bid (``skatdd bid``).

The entry point (:mod:`.api`), its results (:mod:`.results`), the tasks (:mod:`.tasks`), one skat's
results (:mod:`.skat`), the Stegen count (:mod:`.stegen`) and the skat rule (:mod:`.skat_rule`).

Imports the families worlds, best and odds.
"""
