"""Deprecated: :mod:`skatdd.game_lines` moved to :mod:`skatdd.runner.game_lines`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.game_lines as _moved
from skatdd.runner.game_lines import *  # noqa: F403

warnings.warn("skatdd.game_lines is deprecated: import skatdd.runner.game_lines", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
