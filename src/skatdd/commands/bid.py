"""Deprecated: :mod:`skatdd.commands.bid` moved to :mod:`skatdd.cli.bid`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.bid as _moved
from skatdd.cli.bid import *  # noqa: F403

warnings.warn("skatdd.commands.bid is deprecated: import skatdd.cli.bid", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
