"""Deprecated: :mod:`skatdd.readers.files` moved to :mod:`skatdd.formats.files`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.files as _moved
from skatdd.formats.files import *  # noqa: F403

warnings.warn("skatdd.readers.files is deprecated: import skatdd.formats.files", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
