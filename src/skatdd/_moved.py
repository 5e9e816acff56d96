"""What the deprecated old module paths share (issue #20): the callable old modules.

``skatdd.analyse``, ``skatdd.advise``, ``skatdd.odds``, ``skatdd.best`` and
``skatdd.bid`` were modules before the layers, while those names are now
functions of the package (``skatdd.advise(pos, declaration)``).  Importing a
submodule sets the package attribute to the module, so those old modules are
made callable: calling one calls the package function of that name
(``skatdd._entry_point``), and ``inspect.signature`` gives that function's
signature.  Not a layer: only the old-path aliases use it.
"""
from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Callable
from typing import Any


class CallableModule(types.ModuleType):
    """An old module path, callable as the package function of the same name."""

    _moved_to: types.ModuleType

    def _function(self) -> Callable[..., Any]:
        """The package function this module's name stands for (looked up at each call: monkeypatching works)."""
        package = sys.modules["skatdd"]
        function: Callable[..., Any] = package._entry_point(self.__name__.rpartition(".")[2])
        return function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the package function of this name."""
        return self._function()(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        """The package function's signature."""
        return inspect.signature(self._function())

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute here and on the moved module (monkeypatching the old path keeps working)."""
        super().__setattr__(name, value)
        if not name.startswith("__"):
            setattr(self._moved_to, name, value)


def make_callable(name: str, moved: types.ModuleType) -> None:
    """Turn the old module *name* into a :class:`CallableModule` carrying *moved*'s names.

    Calling it calls the package function ``skatdd.<last part of name>``.
    """
    module = sys.modules[name]
    module.__dict__.update({key: value for key, value in vars(moved).items() if not key.startswith("__")})
    module.__dict__["_moved_to"] = moved
    module.__class__ = CallableModule
