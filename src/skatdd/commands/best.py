"""Deprecated: :mod:`skatdd.commands.best` moved to :mod:`skatdd.cli.best`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.best as _moved
from skatdd.cli.best import *  # noqa: F403

warnings.warn("skatdd.commands.best is deprecated: import skatdd.cli.best", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
