"""Deprecated: :mod:`skatdd.report` moved to :mod:`skatdd.present.report`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.present.report as _moved
from skatdd.present.report import *  # noqa: F403

warnings.warn("skatdd.report is deprecated: import skatdd.present.report", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
