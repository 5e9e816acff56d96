"""The README stays true: its Python examples run, and every ``skatdd.…`` name it mentions exists.

* ```pycon blocks are doctests, run in order in one namespace (a later block
  may use an earlier block's names) from the repository's root, so every
  output shown is checked;
* ```python blocks are run as they stand (the plug-in player, ...);
* every dotted name ``skatdd.x.y`` in backticks, prose and code alike, must
  import without a DeprecationWarning: the README teaches the public names
  and the layer paths, never a removed module path.
"""
from __future__ import annotations

import doctest
import importlib
import re
import types
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

def blocks(language: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every fenced block of *language* in the README."""
    found = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```$", README, flags=re.M | re.S):
        found.append((README.count("\n", 0, match.start()) + 2, match.group(1)))
    return found


def test_the_readme_has_examples_to_check() -> None:
    assert len(blocks("pycon")) >= 3 and blocks("python")


def test_the_pycon_examples_give_the_outputs_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)                       # the examples read examples/game.iss
    parser, globs = doctest.DocTestParser(), {"__name__": "readme"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for line, text in blocks("pycon"):
        test = parser.get_doctest(text, globs, f"README.md:{line}", "README.md", line - 1)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.failures == 0 and runner.tries > 20, "README examples failed (see the output above)"


@pytest.mark.parametrize(("line", "code"), blocks("python"), ids=lambda value: str(value)[:20])
def test_the_python_examples_run(line: int, code: str) -> None:
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme"})


def resolve(name: str) -> object:
    """What *name* (``skatdd.x.y``) stands for, as Python finds it: attributes first, submodules when there is none.

    ``skatdd.advise`` is the package's function.  Raises AttributeError or
    ModuleNotFoundError when there is nothing.
    """
    parts = name.split(".")
    found: object = importlib.import_module(parts[0])
    for part in parts[1:]:
        if not hasattr(found, part) and isinstance(found, types.ModuleType):
            importlib.import_module(f"{found.__name__}.{part}")
        found = getattr(found, part)
    return found


NAMES = sorted(set(re.findall(r"\bskatdd(?:\.[A-Za-z_]\w*)+", README)))


@pytest.mark.parametrize("name", NAMES)
def test_every_name_the_readme_mentions_exists_at_its_path(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resolve(name)
    deprecated = [w for w in caught if issubclass(w.category, DeprecationWarning) and "skatdd" in str(w.message)]
    assert not deprecated, f"the README names {name}, which warns: {deprecated[0].message}"


#: The contract and design documents.
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOC_NAMES = sorted({(p.name, name) for p in DOCS
                    for name in re.findall(r"\bskatdd(?:\.[A-Za-z_]\w*)+", p.read_text(encoding="utf-8"))})


@pytest.mark.parametrize(("doc", "name"), DOC_NAMES)
def test_every_name_the_docs_mention_exists_at_its_path(doc: str, name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resolve(name)
    deprecated = [w for w in caught if issubclass(w.category, DeprecationWarning) and "skatdd" in str(w.message)]
    assert not deprecated, f"docs/{doc} names {name}, an old path: {deprecated[0].message}"
