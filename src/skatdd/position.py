"""Deprecated: :mod:`skatdd.position` moved to :mod:`skatdd.core.position`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.core.position as _moved
from skatdd.core.position import *  # noqa: F403

warnings.warn("skatdd.position is deprecated: import skatdd.core.position", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
