"""The package's layers (issue #20): no import cycle, no upward import, no old path left anywhere.

The imports are read from the source with :mod:`ast` (relative imports
resolved), counting function-level imports and skipping ``if TYPE_CHECKING:``
blocks, which never run.  The package root and ``__main__`` are outside the
layers; every other module belongs to one.  The module paths removed in 0.2.0
must not be named anywhere in the repository (CHANGELOG.md lists them).
"""
from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import run_python

SRC = Path(__file__).resolve().parent.parent / "src"

#: Bottom-up; a module may import its own layer and the layers below it.
#: tools may import anything but serve and cli.  rl (the PettingZoo environment) adapts the play layer and
#: needs nothing above it, so it sits right above play: the layers above may use it, though none does
#: (test_nothing_imports_the_rl_layer: skatdd must run without the rl extra).
RANK = {"core": 0, "formats": 1, "engine": 2, "runner": 3, "analysis": 4, "play": 5, "rl": 6, "present": 7,
        "tools": 8, "serve": 9, "cli": 10}

#: Upward imports the code still has, each with why (to be removed by moving the piece down).
ALLOWED_UPWARD: set[tuple[str, str]] = set()

#: Import cycles the code still has (module sets), each with why.
ALLOWED_CYCLES: set[frozenset[str]] = set()


def module_name(path: Path) -> str:
    """The dotted module name of a source file under src/."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_layered(name: str) -> bool:
    """Whether *name* is a module of a layer (not the package root, ``__main__`` or ``version``)."""
    parts = name.split(".")
    return len(parts) > 1 and parts[1] in RANK


def layer(name: str) -> str:
    """The layer a layered module belongs to."""
    return name.split(".")[1]


MODULES = {module_name(p): p for p in sorted((SRC / "skatdd").rglob("*.py"))}
MODULES.update({module_name(p).removesuffix(".pyi"): p for p in (SRC / "skatdd").rglob("*.pyi")})
LAYERED = {name: path for name, path in MODULES.items() if is_layered(name)}


def _type_checking_only(node: ast.If) -> bool:
    """Whether *node* is ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (outside ``if TYPE_CHECKING:`` bodies)."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if isinstance(node, ast.If) and _type_checking_only(node):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str) -> set[str]:
    """The skatdd modules *name* imports at run time (a package counts as its ``__init__``)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            bases = [alias.name for alias in node.names]
            subs: list[str] = []
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            bases = [base]
            subs = [f"{base}.{alias.name}" for alias in node.names]
        for target in bases + subs:
            if target in MODULES and target != name:
                targets.add(target)
    return {t for t in targets if is_layered(t)}


GRAPH = {name: imports_of(name) for name in LAYERED}


def test_the_graph_sees_every_layer() -> None:
    assert {layer(name) for name in LAYERED} == set(RANK)
    assert "skatdd.engine._engine" in LAYERED
    assert "skatdd.core.cards" in GRAPH["skatdd.engine.solve"]
    assert "skatdd.engine._engine" in GRAPH["skatdd.engine.solve"]


def test_no_upward_import() -> None:
    upward = {(name, target) for name, targets in GRAPH.items() for target in targets
              if RANK[layer(target)] > RANK[layer(name)]}
    assert upward - ALLOWED_UPWARD == set(), "upward imports"
    assert ALLOWED_UPWARD - upward == set(), "ALLOWED_UPWARD lists imports that are gone: remove them"


def test_nothing_imports_the_rl_layer() -> None:
    # skatdd.rl needs the optional rl extra (pettingzoo, gymnasium, numpy); no other module may need it.
    users = {name for name, targets in GRAPH.items() if layer(name) != "rl" and any(layer(t) == "rl" for t in targets)}
    assert users == set()


def _cycles() -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in GRAPH[node]:
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    cycles = _cycles()
    assert cycles - ALLOWED_CYCLES == set()
    assert ALLOWED_CYCLES - cycles == set(), "ALLOWED_CYCLES lists cycles that are gone: remove them"


def test_the_cycle_finder_finds_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GRAPH, "skatdd.core.cards", GRAPH["skatdd.core.cards"] | {"skatdd.core.rules"})
    assert frozenset({"skatdd.core.cards", "skatdd.core.rules"}) in _cycles()


def test_no_layer_imports_the_package_root() -> None:
    """The package root re-exports the layers' names (and loads some lazily): a layer importing it would run upward."""
    wrong = []
    for name in LAYERED:
        path = MODULES[name]
        for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "skatdd" and not node.level:
                wrong.append(name)
            if isinstance(node, ast.Import) and any(alias.name == "skatdd" for alias in node.names):
                wrong.append(name)
    assert wrong == [], "import skatdd.version (which imports nothing) or the layer module instead"


#: The families of skatdd.analysis, bottom-up: a family imports only the families before it.
FAMILIES = ["worlds", "deals", "inference", "honest", "best", "advise", "odds", "bid", "analyse", "review"]
#: The families a command answers from: their entry points in ``api`` and their results in ``results``.
COMMAND_FAMILIES = ["advise", "analyse", "best", "bid", "odds"]
ANALYSIS = SRC / "skatdd" / "analysis"


def family(name: str) -> str | None:
    """The analysis family of module *name*, or None outside analysis (or for the analysis package itself)."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "analysis" else None


def test_analysis_holds_only_families() -> None:
    flat = sorted(p.name for p in ANALYSIS.glob("*.py") if p.name != "__init__.py")
    assert flat == [], f"modules outside a family: {flat}"
    found = sorted(p.name for p in ANALYSIS.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert found == sorted(FAMILIES)
    for name in FAMILIES:
        assert ast.get_docstring(ast.parse((ANALYSIS / name / "__init__.py").read_text())), f"{name} has no docstring"
    for name in COMMAND_FAMILIES:
        assert (ANALYSIS / name / "api.py").exists() and (ANALYSIS / name / "results.py").exists(), name


def family_violations() -> list[tuple[str, str]]:
    """The imports of a family from a family after it in :data:`FAMILIES`."""
    return sorted((name, target) for name, targets in GRAPH.items() for target in targets
                  if family(name) and family(target) and family(name) != family(target)
                  and FAMILIES.index(str(family(target))) > FAMILIES.index(str(family(name))))


def test_the_families_form_the_stated_dag(monkeypatch: pytest.MonkeyPatch) -> None:
    assert family_violations() == [], "a family imports a family above it (analysis/__init__.py gives the order)"
    monkeypatch.setitem(GRAPH, "skatdd.analysis.worlds.draw", GRAPH["skatdd.analysis.worlds.draw"] | {"skatdd.analysis.bid.api"})
    assert family_violations() == [("skatdd.analysis.worlds.draw", "skatdd.analysis.bid.api")]


def test_no_family_imports_another_familys_private_names() -> None:
    wrong = []
    for name in LAYERED:
        if not family(name):
            continue
        path = MODULES[name]
        for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            target = node.module
            if family(target) and family(target) != family(name):
                private = [a.name for a in node.names if a.name.startswith("_")]
                if private or any(part.startswith("_") for part in target.split(".")):
                    wrong.append((name, target, private))
    assert wrong == []


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Run *code* in a fresh interpreter (imports and their warnings start from nothing)."""
    return run_python(code)


def test_the_package_imports_without_deprecation_warnings() -> None:
    # skatdd.rl needs the rl extra: without it, its import fails on purpose (tests/test_rl_env.py).
    rl_extra = importlib.util.find_spec("pettingzoo") is not None
    names = sorted(name for name in LAYERED if name != "skatdd.serve.app" and (rl_extra or layer(name) != "rl"))
    code = "import importlib, skatdd\n" + "".join(f"importlib.import_module({n!r})\n" for n in names)
    run = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr


#: The module paths removed in 0.2.0 (CHANGELOG.md lists each with its new home).  Names that are also
#: functions of the package (``skatdd.odds(...)``) are stale only as modules: ``skatdd.odds.X``,
#: ``from skatdd.odds import``, ``import skatdd.odds``.
REMOVED_MODULES = (
    "_engine _moved _nullouvert batch bench best_games bid_skat bid_tasks cards cluster commands deal errors "
    "game_lines generate html iss json_text memory nullouvert ordered outputs position readers reference report "
    "resume rules scoring skat_rule solve spec stegen table worlds").split()
REMOVED_FUNCTION_MODULES = ["advise", "analyse", "best", "bid", "odds"]
#: Files that name removed paths on purpose: the changelog lists them, and this test.
STALE_ALLOWED = {"CHANGELOG.md", "tests/test_layout.py"}


def stale_path_pattern() -> re.Pattern[str]:
    """A regex matching a use of a removed module path in code or prose."""
    plain = "|".join(re.escape(name) for name in REMOVED_MODULES)
    function = "|".join(re.escape(name) for name in REMOVED_FUNCTION_MODULES)
    return re.compile(rf"\bskatdd\.(?:{plain})\b(?!\()|\bskatdd\.(?:{function})\.\w"
                      rf"|(?:from|import) skatdd\.(?:{function})\b")


def test_no_stale_module_path_anywhere() -> None:
    root = SRC.parent
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    pattern = stale_path_pattern()
    found = []
    for name in listed:
        if name in STALE_ALLOWED or not name.endswith((".py", ".pyx", ".pxi", ".pyi", ".md", ".toml", ".yml", ".html",
                                                       ".js", ".txt", ".cfg", ".in")):
            continue
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        found += [f"{name}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("old", ["skatdd.cards", "skatdd.commands", "skatdd.readers", "skatdd.html", "skatdd._moved"])
def test_a_removed_path_is_gone(old: str) -> None:
    run = _python(f"import importlib\ntry:\n    importlib.import_module({old!r})\nexcept ModuleNotFoundError:\n"
                  f"    raise SystemExit(0)\nraise SystemExit('still imports')")
    assert run.returncode == 0, run.stderr


def test_the_stale_path_pattern() -> None:
    pattern = stale_path_pattern()
    assert pattern.search("from skatdd.cards import Card") and pattern.search("skatdd.odds.odds_report")
    assert pattern.search("import skatdd.advise") and pattern.search("``skatdd.solve`` is the API")
    assert not pattern.search("skatdd.odds(hand, seat=0)") and not pattern.search("skatdd.core.cards")
    assert not pattern.search("skatdd.analyse(game)") and not pattern.search("skatdd.analysis.odds.api")
