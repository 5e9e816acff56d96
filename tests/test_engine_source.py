"""The Cython sources in solver/ use no compile-time statement (issue #31).

Cython 3 deprecates ``DEF`` and ``IF``; the engine's constants are ``cdef
enum`` members or C macros in ``cdef extern from *`` blocks instead (see
docs/engine.md, Source).  The check reads the sources, so it needs no build.
"""
from __future__ import annotations

import re
from pathlib import Path

SOLVER = Path(__file__).resolve().parent.parent / "solver"

#: A statement line opening with one of Cython's compile-time keywords (they are upper case; C and
#: Python keywords are not, and comment lines open with ``#``).
COMPILE_TIME = re.compile(r"^\s*(?:DEF\s+\w+\s*=|IF\s|ELIF\s|ELSE\s*:)")


def compile_time_statements(text: str) -> list[int]:
    """The 1-based numbers of the lines of *text* that are a Cython DEF, IF, ELIF or ELSE statement."""
    return [number for number, line in enumerate(text.splitlines(), 1) if COMPILE_TIME.match(line)]


def test_pattern_finds_each_compile_time_statement() -> None:
    source = "DEF TT_WAYS = 4\nIF UNAME_SYSNAME == 'Linux':\n    x = 1\nELIF X:\n    pass\nELSE:\n    pass\n"
    assert compile_time_statements(source) == [1, 2, 4, 6]


def test_pattern_passes_enums_comments_and_c_blocks() -> None:
    source = ("cdef enum:\n    TT_WAYS = 4   # DEF before\n# DEF X = 1 was here\n"
              '    """\n    #define SKATDD_STATS 1\n    """\nif x:\n    pass\nelse:\n    pass\n')
    assert compile_time_statements(source) == []


def test_solver_sources_have_no_compile_time_statement() -> None:
    sources = sorted(p for pattern in ("*.pyx", "*.pxi", "*.pxd") for p in SOLVER.glob(pattern))
    assert len(sources) >= 2  # the two extensions at least: the glob looked in the right place
    kernels = sorted((SOLVER.parent / "src" / "skatdd").rglob("*.pyx"))  # the analysis kernels beside their Python
    assert len(kernels) >= 2
    sources += kernels
    found = [f"{path.name}:{number}: {path.read_text().splitlines()[number - 1].strip()}"
             for path in sources for number in compile_time_statements(path.read_text())]
    assert found == [], "use cdef enum or a C macro instead:\n" + "\n".join(found)
