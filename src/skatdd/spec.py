"""Deprecated: :mod:`skatdd.spec` moved to :mod:`skatdd.formats.spec`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.spec as _moved
from skatdd.formats.spec import *  # noqa: F403

warnings.warn("skatdd.spec is deprecated: import skatdd.formats.spec", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
