"""What the deprecated old module paths share (issue #20): the callable old modules.

``skatdd.analyse``, ``skatdd.advise``, ``skatdd.odds`` and ``skatdd.best`` were
modules the README taught, while those names are now also functions of the
package.  Importing a submodule sets the package attribute to the module, so
those old modules are made callable: calling one calls the moved module's
function of that name (the package function) if it has one, else the old
entry point.  Not a layer: only the old-path aliases use it.
"""
import sys
import types
from typing import Any


class CallableModule(types.ModuleType):
    """An old module path, callable as the package function of the same name."""

    _moved_to: tuple[types.ModuleType, str, str]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the moved module's function of this name if it has one, else the old entry point."""
        moved, function, fallback = self._moved_to
        target = getattr(moved, function, None) or getattr(moved, fallback)
        return target(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute here and on the moved module (monkeypatching the old path keeps working)."""
        super().__setattr__(name, value)
        if not name.startswith("__"):
            setattr(self._moved_to[0], name, value)


def make_callable(name: str, moved: types.ModuleType, fallback: str) -> None:
    """Turn the old module *name* into a :class:`CallableModule` carrying *moved*'s names.

    Calling it calls ``moved.<last part of name>`` if that exists, else ``moved.<fallback>``.
    """
    module = sys.modules[name]
    module.__dict__.update({key: value for key, value in vars(moved).items() if not key.startswith("__")})
    module.__dict__["_moved_to"] = (moved, name.rsplit(".", 1)[1], fallback)
    module.__class__ = CallableModule
