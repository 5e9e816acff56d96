"""Deprecated: :mod:`skatdd.bench` moved to :mod:`skatdd.tools.bench`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.tools.bench as _moved
from skatdd.tools.bench import *  # noqa: F403

warnings.warn("skatdd.bench is deprecated: import skatdd.tools.bench", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
