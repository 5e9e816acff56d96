"""Deprecated: :mod:`skatdd.analyse` moved to :mod:`skatdd.analysis.analyse`; this module works for one release.

``skatdd.analyse`` was a module the README taught, while ``skatdd.analyse`` is now also a function
of the package. Importing a submodule sets the package attribute to the module, so this module is
callable: ``skatdd.analyse(...)`` calls ``skatdd.analyse`` (the package function) or, until it
exists, :func:`skatdd.analysis.analyse.analyse_text`, and ``from skatdd.analyse import X`` still
gives the moved module's names. Importing it warns (DeprecationWarning); setting an attribute here
sets it on the moved module too, so monkeypatching works.
"""
import sys
import types
import warnings
from typing import Any

import skatdd.analysis.analyse as _moved
from skatdd.analysis.analyse import *  # noqa: F403

warnings.warn("skatdd.analyse is deprecated: import skatdd.analysis.analyse", DeprecationWarning, stacklevel=2)


class _CallableModule(types.ModuleType):
    """The old module path, callable as the package function of the same name."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the moved module's ``analyse`` (the package function) if it has one, else the old entry point."""
        function = getattr(_moved, "analyse", None) or _moved.analyse_text
        return function(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute here and on the moved module (monkeypatching the old path keeps working)."""
        super().__setattr__(name, value)
        if not name.startswith("__"):
            setattr(_moved, name, value)


globals().update({name: value for name, value in vars(_moved).items() if not name.startswith("__")})
sys.modules[__name__].__class__ = _CallableModule
