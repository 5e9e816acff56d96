"""Deprecated: :mod:`skatdd.generate` moved to :mod:`skatdd.tools.generate`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.tools.generate as _moved
from skatdd.tools.generate import *  # noqa: F403

warnings.warn("skatdd.generate is deprecated: import skatdd.tools.generate", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
