"""Deprecated: :mod:`skatdd.bid_skat` moved to :mod:`skatdd.analysis.bid_skat`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.bid_skat as _moved
from skatdd.analysis.bid_skat import *  # noqa: F403

warnings.warn("skatdd.bid_skat is deprecated: import skatdd.analysis.bid_skat", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
