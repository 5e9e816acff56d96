"""Deprecated: :mod:`skatdd.iss` moved to :mod:`skatdd.formats.iss`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.iss as _moved
from skatdd.formats.iss import *  # noqa: F403

warnings.warn("skatdd.iss is deprecated: import skatdd.formats.iss", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
