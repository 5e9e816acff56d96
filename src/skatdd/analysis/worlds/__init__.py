"""Worlds.

What one seat knows (:mod:`.draw`: the view, counting, ranking and drawing the worlds consistent with
it) and one world's double-dummy results for a decision (:mod:`.values`).

The bottom family: imports no other family.
"""
