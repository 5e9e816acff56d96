"""Deprecated: :mod:`skatdd.bid` moved to :mod:`skatdd.analysis.bid`; this module works for one release.

``skatdd.bid`` was a module before the layers, while ``skatdd.bid`` is now a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable
(:mod:`skatdd._moved`): ``skatdd.bid(...)`` calls the package function :func:`skatdd.bid`, and
``from skatdd.bid import X`` still gives the moved module's names. Importing it warns
(DeprecationWarning); setting an attribute here sets it on the moved module too, so monkeypatching works.
"""
import warnings

import skatdd.analysis.bid as _moved
from skatdd._moved import make_callable
from skatdd.analysis.bid import *  # noqa: F403

warnings.warn("skatdd.bid is deprecated: import skatdd.analysis.bid", DeprecationWarning, stacklevel=2)
make_callable(__name__, _moved)
