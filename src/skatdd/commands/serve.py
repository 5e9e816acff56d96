"""Deprecated: :mod:`skatdd.commands.serve` moved to :mod:`skatdd.cli.serve`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.serve as _moved
from skatdd.cli.serve import *  # noqa: F403

warnings.warn("skatdd.commands.serve is deprecated: import skatdd.cli.serve", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
