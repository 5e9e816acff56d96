"""The examples in docstrings are run, so they cannot drift from the code.

Every module of the package is searched; the modules of
:data:`MUST_HAVE_EXAMPLES` (the ones whose docstrings teach the API) also
fail when they hold no example at all, so an example cannot vanish unnoticed.
"""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

MUST_HAVE_EXAMPLES = {
    "skatdd.core.cards", "skatdd.engine.solve", "skatdd.core.scoring", "skatdd.core.rules", "skatdd.formats.readers",
    "skatdd.core.position", "skatdd.play.full.players",
}
#: ``python -m skatdd`` runs the CLI when imported.
NOT_IMPORTABLE = {"skatdd.__main__"}
#: The layer subpackages: every module below ``skatdd`` but ``__main__`` and ``version`` is in one.
LAYERS = {"core", "formats", "engine", "analysis", "play", "runner", "present", "serve", "cli", "tools"}
#: skatdd.rl imports only with the rl extra (pettingzoo, gymnasium, numpy), which the test extra installs.
if importlib.util.find_spec("pettingzoo") is not None:
    LAYERS.add("rl")
MODULES = sorted(
    {"skatdd"} | {f"skatdd.{layer}" for layer in LAYERS}
    | {m.name for layer in LAYERS
       for m in pkgutil.walk_packages(importlib.import_module(f"skatdd.{layer}").__path__, f"skatdd.{layer}.")}
    - NOT_IMPORTABLE
)


def test_the_walk_finds_every_named_module() -> None:
    assert MUST_HAVE_EXAMPLES <= set(MODULES)
    assert {"skatdd.cli.solve", "skatdd.engine._engine"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    examples = sum(len(test.examples) for test in tests)
    if name in MUST_HAVE_EXAMPLES:
        assert examples > 0, f"{name} has no docstring example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
