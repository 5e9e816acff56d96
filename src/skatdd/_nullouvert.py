"""Deprecated: :mod:`skatdd._nullouvert` moved to :mod:`skatdd.engine._nullouvert`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.engine._nullouvert as _moved
from skatdd.engine._nullouvert import *  # noqa: F403

warnings.warn("skatdd._nullouvert is deprecated: import skatdd.engine._nullouvert", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
