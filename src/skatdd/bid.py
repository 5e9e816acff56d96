"""Deprecated: :mod:`skatdd.bid` moved to :mod:`skatdd.analysis.bid`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.bid as _moved
from skatdd.analysis.bid import *  # noqa: F403

warnings.warn("skatdd.bid is deprecated: import skatdd.analysis.bid", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
