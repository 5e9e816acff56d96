"""Deprecated: the package :mod:`skatdd.readers` moved to :mod:`skatdd.formats.readers`; this package works for one release.

Importing it warns (DeprecationWarning); its names are the new module's, and
its submodules are aliases of the moved ones.
"""
import warnings

import skatdd.formats.readers as _moved
from skatdd.formats.readers import *  # noqa: F403

warnings.warn("skatdd.readers is deprecated: import skatdd.formats.readers", DeprecationWarning, stacklevel=2)
globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
