"""Deprecated: :mod:`skatdd.best` moved to :mod:`skatdd.analysis.best`; this module works for one release.

``skatdd.best`` was a module before the layers, while ``skatdd.best`` is now a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable
(:mod:`skatdd._moved`): ``skatdd.best(...)`` calls the package function :func:`skatdd.best`, and
``from skatdd.best import X`` still gives the moved module's names. Importing it warns
(DeprecationWarning); setting an attribute here sets it on the moved module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.best as _moved
from skatdd._moved import make_callable
from skatdd.analysis.best import *  # noqa: F403

warnings.warn("skatdd.best is deprecated: import skatdd.analysis.best", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved)
