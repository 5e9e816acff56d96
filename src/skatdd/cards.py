"""Deprecated: :mod:`skatdd.cards` moved to :mod:`skatdd.core.cards`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.core.cards as _moved
from skatdd.core.cards import *  # noqa: F403

warnings.warn("skatdd.cards is deprecated: import skatdd.core.cards", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
