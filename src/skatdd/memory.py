"""Deprecated: :mod:`skatdd.memory` moved to :mod:`skatdd.runner.memory`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.memory as _moved
from skatdd.runner.memory import *  # noqa: F403

warnings.warn("skatdd.memory is deprecated: import skatdd.runner.memory", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
