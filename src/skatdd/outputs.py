"""Deprecated: :mod:`skatdd.outputs` moved to :mod:`skatdd.runner.outputs`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.outputs as _moved
from skatdd.runner.outputs import *  # noqa: F403

warnings.warn("skatdd.outputs is deprecated: import skatdd.runner.outputs", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
