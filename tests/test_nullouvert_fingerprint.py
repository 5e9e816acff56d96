"""The null-ouvert analyser's fingerprint: exact node and class counts on the benchmark's hands.

The hands are those of benchmarks/bench_nullouvert.py (read from there, so
the two cannot drift apart), analysed as the benchmark does: from scratch,
tables of the default size (32 MiB with a known skat, 128 MiB without),
on one thread (``jobs=1``, the default of the Python API: with more the
node count depends on how the threads share the classes).
Asserted: every hand with a known skat (about 1.5 s in all), and without
the skat the quick hands and the hardest one, ``two-gaps-R``: 43,064,451
nodes, 2,771,340 classes, the figure docs/engine.md's Speed table quotes
(about 3 s).  ``gaps-F`` and ``ace-C-M`` without the skat (about 2 s each)
are not run here.

**An engine change that alters the search** (of the double-dummy null
solver or of the honest search over the classes of worlds) changes these
counts: it updates :data:`KNOWN_SKAT` / :data:`UNKNOWN_SKAT`, re-quotes the
new counts where the old ones are quoted (README "Speed", the engine's
experiment log, its commit message) and regenerates the golden CLI outputs
(``python tests/regen_golden.py``).  A change that should not alter the
search must leave every count as it is.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from skatdd.engine.nullouvert import analyse

#: Benchmark hand name -> (nodes, classes solved), skat known.
KNOWN_SKAT = {
    "low-safe-M": (1, 0), "low-safe-F": (64, 0), "gaps-F": (419_015, 184_756), "gaps-R": (1, 0),
    "gaps-lead-F": (88, 0), "long-clubs-M": (1, 0), "ace-C-M": (1_522_293, 184_756),
    "two-gaps-R": (14_569_497, 184_756), "guess-F": (629_997, 184_756),
}
#: The same without the skat (hand games), for the hands asserted here.
UNKNOWN_SKAT = {
    "low-safe-M": (1, 0), "long-clubs-M": (1, 0), "gaps-R": (1, 0), "gaps-lead-F": (100, 0),
    "two-gaps-R": (43_064_451, 2_771_340),
}


def _benchmark_module() -> ModuleType:
    """benchmarks/bench_nullouvert.py, imported from its path (benchmarks/ is not a package)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_nullouvert.py"
    spec = importlib.util.spec_from_file_location("bench_nullouvert", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _benchmark_module()
KNOWN_HANDS = {name: (hand, skat, seat) for name, hand, skat, seat in BENCH.KNOWN}
UNKNOWN_HANDS = {name: (hand, seat) for name, hand, _, seat in BENCH.UNKNOWN}


def test_every_benchmark_hand_is_fingerprinted() -> None:
    assert set(KNOWN_SKAT) == set(KNOWN_HANDS)
    assert set(UNKNOWN_SKAT) <= set(UNKNOWN_HANDS)


@pytest.mark.parametrize("name", list(KNOWN_SKAT))
def test_known_skat(name: str) -> None:
    hand, skat, seat = KNOWN_HANDS[name]
    result = analyse(hand, skat=skat, declarer=seat)
    assert (result.nodes, result.classes) == KNOWN_SKAT[name]


@pytest.mark.parametrize("name", list(UNKNOWN_SKAT))
def test_unknown_skat(name: str) -> None:
    hand, seat = UNKNOWN_HANDS[name]
    result = analyse(hand, declarer=seat)
    assert (result.nodes, result.classes) == UNKNOWN_SKAT[name]
