"""Deprecated: :mod:`skatdd.odds` moved to :mod:`skatdd.analysis.odds`; this module works for one release.

``skatdd.odds`` was a module the README taught, while ``skatdd.odds`` is now also a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable:
``skatdd.odds(...)`` calls ``skatdd.odds`` (the package function) or, until it exists,
:func:`skatdd.analysis.odds.odds`, and ``from skatdd.odds import X`` still gives the moved module's
names. Importing it warns (DeprecationWarning); setting an attribute here sets it on the moved
module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.odds as _moved
from skatdd._moved import make_callable
from skatdd.analysis.odds import *  # noqa: F403

warnings.warn("skatdd.odds is deprecated: import skatdd.analysis.odds", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved, 'odds')
