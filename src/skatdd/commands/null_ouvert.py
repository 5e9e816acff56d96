"""Deprecated: :mod:`skatdd.commands.null_ouvert` moved to :mod:`skatdd.cli.null_ouvert`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.null_ouvert as _moved
from skatdd.cli.null_ouvert import *  # noqa: F403

warnings.warn("skatdd.commands.null_ouvert is deprecated: import skatdd.cli.null_ouvert", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
