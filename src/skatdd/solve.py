"""Deprecated: :mod:`skatdd.solve` moved to :mod:`skatdd.engine.solve`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.engine.solve as _moved
from skatdd.engine.solve import *  # noqa: F403

warnings.warn("skatdd.solve is deprecated: import skatdd.engine.solve", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
