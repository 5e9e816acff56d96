"""Deprecated: :mod:`skatdd.best` moved to :mod:`skatdd.analysis.best`; this module works for one release.

``skatdd.best`` was a module the README taught, while ``skatdd.best`` is now also a function of the
package. Importing a submodule sets the package attribute to the module, so this module is callable:
``skatdd.best(...)`` calls ``skatdd.best`` (the package function) or, until it exists,
:func:`skatdd.analysis.best.best_contracts`, and ``from skatdd.best import X`` still gives the moved
module's names. Importing it warns (DeprecationWarning); setting an attribute here sets it on the
moved module too, so monkeypatching works.
"""
import sys
import types
import warnings
from typing import Any

import skatdd.analysis.best as _moved
from skatdd.analysis.best import *  # noqa: F403

warnings.warn("skatdd.best is deprecated: import skatdd.analysis.best", DeprecationWarning, stacklevel=2)


class _CallableModule(types.ModuleType):
    """The old module path, callable as the package function of the same name."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the moved module's ``best`` (the package function) if it has one, else the old entry point."""
        function = getattr(_moved, "best", None) or _moved.best_contracts
        return function(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute here and on the moved module (monkeypatching the old path keeps working)."""
        super().__setattr__(name, value)
        if not name.startswith("__"):
            setattr(_moved, name, value)


globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
sys.modules[__name__].__class__ = _CallableModule
