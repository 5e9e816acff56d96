"""Deprecated: :mod:`skatdd.commands.common` moved to :mod:`skatdd.cli.common`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.common as _moved
from skatdd.cli.common import *  # noqa: F403

warnings.warn("skatdd.commands.common is deprecated: import skatdd.cli.common", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
