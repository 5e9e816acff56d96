"""Deprecated: :mod:`skatdd.commands.batch` moved to :mod:`skatdd.cli.batch`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.batch as _moved
from skatdd.cli.batch import *  # noqa: F403

warnings.warn("skatdd.commands.batch is deprecated: import skatdd.cli.batch", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
