"""Deprecated: :mod:`skatdd.ordered` moved to :mod:`skatdd.runner.ordered`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.ordered as _moved
from skatdd.runner.ordered import *  # noqa: F403

warnings.warn("skatdd.ordered is deprecated: import skatdd.runner.ordered", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
