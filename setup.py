"""Build the Cython extensions of skatdd; metadata lives in pyproject.toml.

The engine's extensions are each one ``.pyx`` in solver/ that ``include``s its parts, so the
hot code compiles as one C unit; two small kernels of the
analysis live beside their Python in src/.  Set ``SKATDD_EXTENSIONS=engine._engine`` (comma separated
module names) to build only some of them during development.
"""
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = {
    "engine._engine": "solver/_engine.pyx",
    "engine._nullouvert": "solver/_nullouvert.pyx",
    # Small kernels of the analysis, beside the Python they speed up (the same answers, bit for bit).
    "analysis.worlds._unrank": "src/skatdd/analysis/worlds/_unrank.pyx",
    "analysis.inference._weigh": "src/skatdd/analysis/inference/_weigh.pyx",
}


def target_architectures() -> list[str]:
    """The CPU architectures the extensions are compiled for.

    macOS cross builds (cibuildwheel's arm64 or universal2 wheels on an
    x86-64 runner) name their targets in ARCHFLAGS (``-arch arm64 -arch
    x86_64``); otherwise the target is the machine we run on.
    """
    words = os.environ.get("ARCHFLAGS", "").split()
    archs = [words[i + 1] for i, word in enumerate(words[:-1]) if word == "-arch"]
    return [arch.lower() for arch in archs] or [platform.machine().lower()]


# popcnt is on every x86-64 CPU of the last fifteen years; without the flag
# gcc calls a slow library routine for __builtin_popcount.  Other
# architectures (arm64) have no such flag and count bits natively.
compile_args = ["-O3"]
if all(arch in ("x86_64", "amd64") for arch in target_architectures()):
    compile_args.append("-mpopcnt")

selected = [name for name in os.environ.get("SKATDD_EXTENSIONS", "").split(",") if name]
extensions = [
    # The analysis kernels must give Python's floats bit for bit: no fused multiply-add (arm64 would contract).
    Extension(f"skatdd.{name}", sources=[source],
              extra_compile_args=compile_args + (["-ffp-contract=off"] if name.startswith("analysis.") else []))
    for name, source in EXTENSIONS.items()
    if not selected or name in selected
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
