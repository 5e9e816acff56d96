"""Deprecated: :mod:`skatdd.table` moved to :mod:`skatdd.present.table`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.present.table as _moved
from skatdd.present.table import *  # noqa: F403

warnings.warn("skatdd.table is deprecated: import skatdd.present.table", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
