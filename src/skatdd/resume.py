"""Deprecated: :mod:`skatdd.resume` moved to :mod:`skatdd.runner.resume`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.resume as _moved
from skatdd.runner.resume import *  # noqa: F403

warnings.warn("skatdd.resume is deprecated: import skatdd.runner.resume", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
