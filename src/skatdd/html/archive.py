"""Deprecated: :mod:`skatdd.html.archive` moved to :mod:`skatdd.present.html.archive`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.present.html.archive as _moved
from skatdd.present.html.archive import *  # noqa: F403

warnings.warn("skatdd.html.archive is deprecated: import skatdd.present.html.archive", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
