"""Deprecated: :mod:`skatdd.worlds` moved to :mod:`skatdd.analysis.worlds`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.worlds as _moved
from skatdd.analysis.worlds import *  # noqa: F403

warnings.warn("skatdd.worlds is deprecated: import skatdd.analysis.worlds", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
