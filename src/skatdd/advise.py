"""Deprecated: :mod:`skatdd.advise` moved to :mod:`skatdd.analysis.advise`; this module works for one release.

``skatdd.advise`` was a module before the layers, while ``skatdd.advise`` is now a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable
(:mod:`skatdd._moved`): ``skatdd.advise(...)`` calls the package function :func:`skatdd.advise`, and
``from skatdd.advise import X`` still gives the moved module's names. Importing it warns
(DeprecationWarning); setting an attribute here sets it on the moved module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.advise as _moved
from skatdd._moved import make_callable
from skatdd.analysis.advise import *  # noqa: F403

warnings.warn("skatdd.advise is deprecated: import skatdd.analysis.advise", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved)
