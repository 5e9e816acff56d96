"""Deprecated: :mod:`skatdd.scoring` moved to :mod:`skatdd.core.scoring`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.core.scoring as _moved
from skatdd.core.scoring import *  # noqa: F403

warnings.warn("skatdd.scoring is deprecated: import skatdd.core.scoring", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
