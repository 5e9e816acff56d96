"""Deprecated: :mod:`skatdd.odds` moved to :mod:`skatdd.analysis.odds`; this module works for one release.

``skatdd.odds`` was a module before the layers, while ``skatdd.odds`` is now a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable
(:mod:`skatdd._moved`): ``skatdd.odds(...)`` calls the package function :func:`skatdd.odds`, and
``from skatdd.odds import X`` still gives the moved module's names. Importing it warns
(DeprecationWarning); setting an attribute here sets it on the moved module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.odds as _moved
from skatdd._moved import make_callable
from skatdd.analysis.odds import *  # noqa: F403

warnings.warn("skatdd.odds is deprecated: import skatdd.analysis.odds", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved)
