"""Deprecated: :mod:`skatdd.commands.solve` moved to :mod:`skatdd.cli.solve`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.solve as _moved
from skatdd.cli.solve import *  # noqa: F403

warnings.warn("skatdd.commands.solve is deprecated: import skatdd.cli.solve", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
