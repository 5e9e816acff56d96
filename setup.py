"""Build the Cython engine ``skatdd._engine`` from solver/; metadata lives in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import Extension, setup

engine = Extension(
    "skatdd._engine",
    sources=["solver/_engine.pyx"],
    extra_compile_args=["-O3"],
)

setup(
    ext_modules=cythonize(
        [engine],
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
