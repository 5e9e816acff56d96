"""Deprecated: :mod:`skatdd.commands.odds` moved to :mod:`skatdd.cli.odds`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.odds as _moved
from skatdd.cli.odds import *  # noqa: F403

warnings.warn("skatdd.commands.odds is deprecated: import skatdd.cli.odds", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
