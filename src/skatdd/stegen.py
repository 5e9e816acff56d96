"""Deprecated: :mod:`skatdd.stegen` moved to :mod:`skatdd.analysis.stegen`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.stegen as _moved
from skatdd.analysis.stegen import *  # noqa: F403

warnings.warn("skatdd.stegen is deprecated: import skatdd.analysis.stegen", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
