"""The version of skatdd: a module that imports nothing, so packaging tools can read it without building the engine."""

__version__ = "0.2.0"
