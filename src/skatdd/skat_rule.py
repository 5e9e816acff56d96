"""Deprecated: :mod:`skatdd.skat_rule` moved to :mod:`skatdd.analysis.skat_rule`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.analysis.skat_rule as _moved
from skatdd.analysis.skat_rule import *  # noqa: F403

warnings.warn("skatdd.skat_rule is deprecated: import skatdd.analysis.skat_rule", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
