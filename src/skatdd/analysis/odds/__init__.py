"""A hand's chances (``skatdd odds``).

The entry point (:mod:`.api`), its results (:mod:`.results`), the input (:mod:`.input`), the worlds
drawn (:mod:`.draw`), the tasks (:mod:`.tasks`), the picked-up games (:mod:`.pickup`), ranking discards
by threshold questions (:mod:`.discard_ranking`) and the sampling statistics (:mod:`.stats`).

Imports the families worlds, inference and best.
"""
