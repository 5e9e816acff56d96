"""The examples in module docstrings are run, so they cannot drift from the code."""
import doctest
import importlib

import pytest

MODULES = ["skatdd.cards", "skatdd.solve", "skatdd.scoring", "skatdd.rules", "skatdd.deal", "skatdd.position"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
