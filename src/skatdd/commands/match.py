"""Deprecated: :mod:`skatdd.commands.match` moved to :mod:`skatdd.cli.match`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.match as _moved
from skatdd.cli.match import *  # noqa: F403

warnings.warn("skatdd.commands.match is deprecated: import skatdd.cli.match", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
