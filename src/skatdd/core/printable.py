"""Results that print themselves: the extension point between the result classes and their text.

Every result of the API (an analysis, advice, an odds or bid report...) has a
``__str__`` that gives what its command prints.  The result classes live in
the lower layers (analysis, engine, play, formats) and the text renderers in
:mod:`skatdd.present`, a layer above them; tests/test_layout.py forbids an
upward import, a function-level one too.  So the link goes the other way:
a result class derives from :class:`Printable`, whose ``__str__`` looks its
class up here, and each :mod:`skatdd.present` module registers its renderers
with :func:`renders` when it is imported.  What imports :mod:`skatdd.present`
is the package root (outside the layers): ``skatdd/__init__.py`` installs
a loader with :func:`set_loader`, so the first ``str(result)`` of a class
loads its renderer (its own present module only: a command's start-up
does not pay for every other command's renderers) and ``import skatdd``
stays light.

Imports nothing of skatdd.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Printable", "render", "renders", "set_loader"]

T = TypeVar("T")

_RENDERERS: dict[type, Callable[[Any], str]] = {}
_loader: Callable[[type], object] | None = None


def renders(cls: type[T]) -> Callable[[Callable[[T], str]], Callable[[T], str]]:
    """Decorator: the decorated function is the text of *cls*'s instances (``str(obj)``)."""
    def register(func: Callable[[T], str]) -> Callable[[T], str]:
        _RENDERERS[cls] = func
        return func
    return register


def set_loader(loader: Callable[[type], object]) -> None:
    """*loader* imports the renderer of the class it is given (:mod:`skatdd.present`); called on an unregistered lookup."""
    global _loader
    _loader = loader


def _lookup(cls: type) -> Callable[[Any], str] | None:
    for klass in cls.__mro__:
        if klass in _RENDERERS:
            return _RENDERERS[klass]
    return None


def render(obj: object) -> str:
    """The text of *obj* from its class's renderer (loading it first if needed); else its repr."""
    func = _lookup(type(obj))
    if func is None and _loader is not None:
        _loader(type(obj))
        func = _lookup(type(obj))
    return func(obj) if func is not None else repr(obj)


class Printable:
    """Base of a result class whose ``str()`` is what its command prints (the renderer registered for it)."""

    __slots__ = ()

    def __str__(self) -> str:
        return render(self)
