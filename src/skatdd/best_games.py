"""Deprecated: :mod:`skatdd.best_games` moved to :mod:`skatdd.analysis.best_games`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.best_games as _moved
from skatdd.analysis.best_games import *  # noqa: F403

warnings.warn("skatdd.best_games is deprecated: import skatdd.analysis.best_games", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
