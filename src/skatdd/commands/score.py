"""Deprecated: :mod:`skatdd.commands.score` moved to :mod:`skatdd.cli.score`; this alias works for one release.

Importing it warns (DeprecationWarning) and gives the moved module itself, so
every name, private ones and monkeypatching included, is the new module's.
"""
import sys
import warnings

import skatdd.cli.score as _moved
from skatdd.cli.score import *  # noqa: F403

warnings.warn("skatdd.commands.score is deprecated: import skatdd.cli.score", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
