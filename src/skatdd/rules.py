"""Deprecated: :mod:`skatdd.rules` moved to :mod:`skatdd.core.rules`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.core.rules as _moved
from skatdd.core.rules import *  # noqa: F403

warnings.warn("skatdd.rules is deprecated: import skatdd.core.rules", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
