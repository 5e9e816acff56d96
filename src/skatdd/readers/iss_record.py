"""Deprecated: :mod:`skatdd.readers.iss_record` moved to :mod:`skatdd.formats.iss_record`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.iss_record as _moved
from skatdd.formats.iss_record import *  # noqa: F403

warnings.warn("skatdd.readers.iss_record is deprecated: import skatdd.formats.iss_record", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
