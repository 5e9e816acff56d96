"""Deprecated: :mod:`skatdd.best_games` moved to :mod:`skatdd.runner.best_games`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.best_games as _moved
from skatdd.runner.best_games import *  # noqa: F403

warnings.warn("skatdd.best_games is deprecated: import skatdd.runner.best_games", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
