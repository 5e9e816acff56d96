"""Deprecated: :mod:`skatdd.advise` moved to :mod:`skatdd.analysis.advise`; this module works for one release.

``skatdd.advise`` was a module the README taught, while ``skatdd.advise`` is now also a function of
the package. Importing a submodule sets the package attribute to the module, so this module is
callable: ``skatdd.advise(...)`` calls ``skatdd.advise`` (the package function) or, until it exists,
:func:`skatdd.analysis.advise.advise`, and ``from skatdd.advise import X`` still gives the moved
module's names. Importing it warns (DeprecationWarning); setting an attribute here sets it on the
moved module too, so monkeypatching works.
"""
import sys
import types
import warnings
from typing import Any

import skatdd.analysis.advise as _moved
from skatdd.analysis.advise import *  # noqa: F403

warnings.warn("skatdd.advise is deprecated: import skatdd.analysis.advise", DeprecationWarning, stacklevel=2)


class _CallableModule(types.ModuleType):
    """The old module path, callable as the package function of the same name."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the moved module's ``advise`` (the package function) if it has one, else the old entry point."""
        function = getattr(_moved, "advise", None) or _moved.advise
        return function(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute here and on the moved module (monkeypatching the old path keeps working)."""
        super().__setattr__(name, value)
        if not name.startswith("__"):
            setattr(_moved, name, value)


globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
sys.modules[__name__].__class__ = _CallableModule
