"""Deprecated: :mod:`skatdd.html.render` moved to :mod:`skatdd.present.html.render`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.present.html.render as _moved
from skatdd.present.html.render import *  # noqa: F403

warnings.warn("skatdd.html.render is deprecated: import skatdd.present.html.render", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
