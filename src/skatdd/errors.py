"""Deprecated: :mod:`skatdd.errors` moved to :mod:`skatdd.core.errors`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.core.errors as _moved
from skatdd.core.errors import *  # noqa: F403

warnings.warn("skatdd.errors is deprecated: import skatdd.core.errors", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
