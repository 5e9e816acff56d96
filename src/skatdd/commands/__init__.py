"""Deprecated: the package :mod:`skatdd.commands` moved to :mod:`skatdd.cli`; this package works for one release.

Importing it warns (DeprecationWarning); its names are the new module's, and
its submodules are aliases of the moved ones.
"""
import warnings

import skatdd.cli as _moved
from skatdd.cli import *  # noqa: F403

warnings.warn("skatdd.commands is deprecated: import skatdd.cli", DeprecationWarning, stacklevel=2)
globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
