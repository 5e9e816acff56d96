"""Deprecated: :mod:`skatdd.bid_tasks` moved to :mod:`skatdd.analysis.bid_tasks`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.bid_tasks as _moved
from skatdd.analysis.bid_tasks import *  # noqa: F403

warnings.warn("skatdd.bid_tasks is deprecated: import skatdd.analysis.bid_tasks", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
