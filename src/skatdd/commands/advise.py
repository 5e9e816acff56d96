"""Deprecated: :mod:`skatdd.commands.advise` moved to :mod:`skatdd.cli.advise`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.advise as _moved
from skatdd.cli.advise import *  # noqa: F403

warnings.warn("skatdd.commands.advise is deprecated: import skatdd.cli.advise", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
