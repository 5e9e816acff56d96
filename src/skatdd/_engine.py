"""Deprecated: :mod:`skatdd._engine` moved to :mod:`skatdd.engine._engine`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.engine._engine as _moved
from skatdd.engine._engine import *  # noqa: F403

warnings.warn("skatdd._engine is deprecated: import skatdd.engine._engine", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
