"""Deprecated: :mod:`skatdd.commands.analyse` moved to :mod:`skatdd.cli.analyse`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.analyse as _moved
from skatdd.cli.analyse import *  # noqa: F403

warnings.warn("skatdd.commands.analyse is deprecated: import skatdd.cli.analyse", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
