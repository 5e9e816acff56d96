"""Deprecated: the package :mod:`skatdd.html` moved to :mod:`skatdd.present.html`; this package works for one release.

Importing it warns (DeprecationWarning); its names are the new module's, and
its submodules are aliases of the moved ones.
"""
import warnings

import skatdd.present.html as _moved
from skatdd.present.html import *  # noqa: F403

warnings.warn("skatdd.html is deprecated: import skatdd.present.html", DeprecationWarning, stacklevel=2)
globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
