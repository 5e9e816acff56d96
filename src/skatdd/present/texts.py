"""Every renderer of a result's text, imported so that each registers (``str(result)``).

:mod:`skatdd.core.printable` calls the loader the package root installs,
which imports this module, on the first ``str()`` of a result whose
renderer is not registered yet.  One module per command family.
"""
from __future__ import annotations

from . import advise, analyse, best, bid, match, null_ouvert, odds, score, solve

__all__ = ["advise", "analyse", "best", "bid", "match", "null_ouvert", "odds", "score", "solve"]
