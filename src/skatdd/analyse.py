"""Deprecated: :mod:`skatdd.analyse` moved to :mod:`skatdd.analysis.analyse`; this module works for one release.

``skatdd.analyse`` was a module before the layers, while ``skatdd.analyse`` is now a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable
(:mod:`skatdd._moved`): ``skatdd.analyse(...)`` calls the package function :func:`skatdd.analyse`, and
``from skatdd.analyse import X`` still gives the moved module's names. Importing it warns
(DeprecationWarning); setting an attribute here sets it on the moved module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.analyse as _moved
from skatdd._moved import make_callable
from skatdd.analysis.analyse import *  # noqa: F403

warnings.warn("skatdd.analyse is deprecated: import skatdd.analysis.analyse", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved)
