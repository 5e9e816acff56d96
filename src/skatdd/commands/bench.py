"""Deprecated: :mod:`skatdd.commands.bench` moved to :mod:`skatdd.cli.bench`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.bench as _moved
from skatdd.cli.bench import *  # noqa: F403

warnings.warn("skatdd.commands.bench is deprecated: import skatdd.cli.bench", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
