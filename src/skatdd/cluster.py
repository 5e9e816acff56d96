"""Deprecated: :mod:`skatdd.cluster` moved to :mod:`skatdd.runner.cluster`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.cluster as _moved
from skatdd.runner.cluster import *  # noqa: F403

warnings.warn("skatdd.cluster is deprecated: import skatdd.runner.cluster", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
