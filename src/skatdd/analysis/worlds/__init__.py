"""Worlds.

What one seat knows (:mod:`.space`: the view, counting and ranking the worlds consistent with it;
:mod:`.draw`: drawing them) and one world's double-dummy results for a decision (:mod:`.values`).

The bottom family: imports no other family.
"""
