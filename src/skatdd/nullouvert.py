"""Deprecated: :mod:`skatdd.nullouvert` moved to :mod:`skatdd.engine.nullouvert`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.engine.nullouvert as _moved
from skatdd.engine.nullouvert import *  # noqa: F403

warnings.warn("skatdd.nullouvert is deprecated: import skatdd.engine.nullouvert", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
