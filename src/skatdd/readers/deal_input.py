"""Deprecated: :mod:`skatdd.readers.deal_input` moved to :mod:`skatdd.formats.deal_input`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.formats.deal_input as _moved
from skatdd.formats.deal_input import *  # noqa: F403

warnings.warn("skatdd.readers.deal_input is deprecated: import skatdd.formats.deal_input", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
