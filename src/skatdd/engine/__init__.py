"""Exact solving: the double-dummy solver, the null ouvert solver, the reference solver.

Holds :mod:`.solve` (:class:`Solver` over the compiled :mod:`._engine`),
:mod:`.nullouvert` (over the compiled :mod:`._nullouvert`, with its results in
:mod:`.nullouvert_results` and its threads in :mod:`.threads`),
:mod:`.reference` (the slow pure-Python solver the tests check the engine
against) and the stubs of the compiled modules.  May import
:mod:`skatdd.core` and :mod:`skatdd.formats`.
"""
