"""Deprecated: :mod:`skatdd.reference` moved to :mod:`skatdd.engine.reference`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.engine.reference as _moved
from skatdd.engine.reference import *  # noqa: F403

warnings.warn("skatdd.reference is deprecated: import skatdd.engine.reference", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
