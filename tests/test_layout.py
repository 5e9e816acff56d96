"""The package's layers (issue #20): no import cycle, no upward import, old paths as deprecated aliases.

The imports are read from the source with :mod:`ast` (relative imports
resolved), counting function-level imports and skipping ``if TYPE_CHECKING:``
blocks, which never run.  Modules outside the layer subpackages (the old
top-level paths, ``skatdd.readers``, ``skatdd.html``, ``skatdd.commands``) are
the deprecated aliases and are left out of the graph.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: Bottom-up; a module may import its own layer and the layers below it.
#: tools may import anything but serve and cli.
RANK = {"core": 0, "formats": 1, "engine": 2, "analysis": 3, "play": 4, "runner": 5, "present": 6,
        "tools": 7, "serve": 8, "cli": 9}

#: Upward imports the code still has, each with why (to be removed by moving the piece down).
ALLOWED_UPWARD = {
    # Analysis hands its many-line jobs to the line runner (run_lines, worker_count) and uses its
    # outcome types (LineOutcome, BatchSummary, OK); the runner itself needs only core/formats/engine,
    # so moving the runner's leaf pieces below analysis (runner/outcome.py) removes these.
    ("skatdd.analysis.advise", "skatdd.runner.lines"),
    ("skatdd.analysis.analyse", "skatdd.runner.lines"),
    ("skatdd.analysis.analyse", "skatdd.runner.game_lines"),
    ("skatdd.analysis.bid", "skatdd.runner.lines"),
    ("skatdd.analysis.bid_tasks", "skatdd.runner.lines"),
    ("skatdd.analysis.odds", "skatdd.runner.lines"),
    ("skatdd.analysis.odds_tasks", "skatdd.runner.lines"),
    # A match runs its games as lines on the runner.
    ("skatdd.play.match", "skatdd.runner.lines"),
    ("skatdd.play.match", "skatdd.runner.game_lines"),
    # Generated deals come from the fixture generator, whose deal dealing belongs in core/formats.
    ("skatdd.play.deals", "skatdd.tools.generate"),
    # The bidding model reuses the generator's null-danger count of a hand (the hand evaluator belongs in
    # analysis, with generate importing it).
    ("skatdd.analysis.inference_bids", "skatdd.tools.generate"),
    # The server's API reuses the CLI's solve and advise helpers (advice_position, solve_position,
    # the advise command's option defaults); they belong in analysis.
    ("skatdd.serve.api", "skatdd.cli.advise"),
    ("skatdd.serve.api", "skatdd.cli.solve"),
}

#: Import cycles the code still has (module sets), each with why.
ALLOWED_CYCLES = {
    # run_lines(dask=...) imports the cluster lazily (dask is an optional extra), and the cluster uses
    # the line runner's outcome types (LineHandler, LineOutcome, INTERNAL_ERROR): the leaf outcome
    # module (runner/outcome.py) breaks it.
    frozenset({"skatdd.runner.lines", "skatdd.runner.cluster"}),
    # load_player names the advanced players (pimc:N+bids, alphamu:N:K) and imports them lazily; they
    # build on the plain players: a registry of names filled by each module breaks it.
    frozenset({"skatdd.play.players", "skatdd.play.advanced"}),
}


def module_name(path: Path) -> str:
    """The dotted module name of a source file under src/."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_layered(name: str) -> bool:
    """Whether *name* is a module of a layer (not the package root, ``__main__`` or a deprecated alias)."""
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


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Run *code* in a fresh interpreter (imports and their warnings start from nothing)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_the_package_imports_without_deprecation_warnings() -> None:
    names = sorted(name for name in LAYERED if name != "skatdd.serve.app")
    code = "import importlib, skatdd\n" + "".join(f"importlib.import_module({n!r})\n" for n in names)
    run = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr


OLD_PATHS = {
    "skatdd.cards": "skatdd.core.cards", "skatdd.rules": "skatdd.core.rules", "skatdd.solve": "skatdd.engine.solve",
    "skatdd.batch": "skatdd.runner.lines", "skatdd.generate": "skatdd.tools.generate",
    "skatdd.readers.text": "skatdd.formats.text", "skatdd.html.render": "skatdd.present.html.render",
    "skatdd.commands.common": "skatdd.cli.common", "skatdd._engine": "skatdd.engine._engine",
}


@pytest.mark.parametrize(("old", "new"), sorted(OLD_PATHS.items()))
def test_an_old_path_warns_and_is_the_moved_module(old: str, new: str) -> None:
    run = _python(f"""
import importlib, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = importlib.import_module({old!r})
assert any(issubclass(w.category, DeprecationWarning) and {new!r} in str(w.message) for w in caught), caught
assert old is importlib.import_module({new!r})
""")
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(("name", "new", "function"), [
    ("advise", "skatdd.analysis.advise", "advise"), ("odds", "skatdd.analysis.odds", "odds"),
    ("best", "skatdd.analysis.best", "best_contracts"), ("analyse", "skatdd.analysis.analyse", "analyse_text"),
])
def test_a_callable_old_module(name: str, new: str, function: str) -> None:
    run = _python(f"""
import importlib, warnings
import skatdd
moved = importlib.import_module({new!r})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from skatdd.{name} import {function} as imported
assert any(issubclass(w.category, DeprecationWarning) for w in caught)
assert imported is getattr(moved, {function!r})
setattr(moved, getattr(moved, {name!r}, None) and {name!r} or {function!r}, lambda *a, **k: ("called", a, k))
assert skatdd.{name}(1, x=2) == ("called", (1,), {{"x": 2}}), skatdd.{name}
old = importlib.import_module("skatdd.{name}")
old.marker = 5
assert moved.marker == 5
""")
    assert run.returncode == 0, run.stderr


def test_the_deal_shim_still_loads_a_deal() -> None:
    run = _python("""
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from skatdd.deal import load_deal
assert any(issubclass(w.category, DeprecationWarning) for w in caught)
from skatdd.core.rules import Game
spec = load_deal("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ",
                 game=Game.DIAMONDS, declarer=0)
assert spec.position().skat_points == 7
""")
    assert run.returncode == 0, run.stderr
