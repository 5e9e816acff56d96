"""Deprecated: :mod:`skatdd.batch` moved to :mod:`skatdd.runner.lines`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.runner.lines as _moved
from skatdd.runner.lines import *  # noqa: F403

warnings.warn("skatdd.batch is deprecated: import skatdd.runner.lines", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
