"""Development tools: the fixture and random deal generator, the benchmark.

Holds :mod:`.generate` and :mod:`.bench`.  May import any layer except
:mod:`skatdd.cli` and :mod:`skatdd.serve`.
"""
