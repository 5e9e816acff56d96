"""Collect the ``bench_*.py`` modules of this directory, so ``python -m pytest benchmarks/ --benchmark-only`` runs them.

pytest only collects ``test_*.py`` by default (and ``testpaths`` is
``tests``, so the normal test run never comes here).  Files that the
configured ``python_files`` patterns already match (for instance with
``-o python_files='bench_*.py'``) or named on the command line are left
to pytest's own collector, so nothing is collected twice.
"""
from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if file_path.suffix != ".py" or not fnmatch.fnmatch(file_path.name, "bench_*.py"):
        return None
    if parent.session.isinitpath(file_path):
        return None  # named on the command line: pytest collects it itself
    if any(fnmatch.fnmatch(file_path.name, pattern) for pattern in parent.config.getini("python_files")):
        return None
    return pytest.Module.from_parent(parent, path=file_path)
