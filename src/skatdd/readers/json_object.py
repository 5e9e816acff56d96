"""Deprecated: :mod:`skatdd.readers.json_object` moved to :mod:`skatdd.formats.json_object`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.json_object as _moved
from skatdd.formats.json_object import *  # noqa: F403

warnings.warn("skatdd.readers.json_object is deprecated: import skatdd.formats.json_object", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
