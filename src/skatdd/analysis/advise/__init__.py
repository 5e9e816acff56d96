"""Single-dummy advice (``skatdd advise``).

The entry point (:mod:`.api`), its results (:mod:`.results`) and the runner that solves a decision's
worlds here or on worker processes (:mod:`.runner`).

Imports the families worlds, inference and honest.
"""
