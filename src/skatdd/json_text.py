"""Deprecated: :mod:`skatdd.json_text` moved to :mod:`skatdd.formats.json_text`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.json_text as _moved
from skatdd.formats.json_text import *  # noqa: F403

warnings.warn("skatdd.json_text is deprecated: import skatdd.formats.json_text", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
