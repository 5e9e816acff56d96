"""Deprecated: :mod:`skatdd.readers.text` moved to :mod:`skatdd.formats.text`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.text as _moved
from skatdd.formats.text import *  # noqa: F403

warnings.warn("skatdd.readers.text is deprecated: import skatdd.formats.text", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
