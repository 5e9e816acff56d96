"""The child process of a plug-in's import check (:func:`skatdd.play.loading._probe_plugin`), run as a script.

``python import_probe.py PATHS TARGET PARENT_PID``: with *PATHS* (JSON) as
its import path, import *TARGET* (a ``.py`` file or a dotted module) as the
referee will (:func:`import_target`), with what the module prints sent to the
standard error, and write one answer to the standard output: ``ok``, or
``raised:TYPE: MESSAGE``.  A module that ends the process first leaves no
answer, which is the point: the referee then knows.

Run by path, not with ``-m``: it imports nothing of skatdd (a fresh
interpreter costs a few milliseconds; importing skatdd would cost a tenth of
a second), only the standard library.  Ctrl-C never reaches it (the referee
starts it in a session of its own), and it ends with the referee.
"""
from __future__ import annotations

import ctypes
import importlib
import importlib.util
import json
import os
import signal
import sys
from types import ModuleType

#: The longest answer written (a message of a few hundred bytes is the rule).
ANSWER_BYTES = 4096

#: This file, which the referee runs as a script.
SCRIPT = __file__

_PR_SET_PDEATHSIG = 1


def _end_with_parent(parent: int) -> None:
    """Killed when *parent* ends (Linux's parent-death signal); gone at once if it already has."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


class CannotLoad(ImportError):
    """A ``.py`` file the import system has no loader for."""


def module_name(target: str) -> str:
    """The name a plug-in file (``....py``) is loaded under: ``skatdd_plugin_`` and its base name."""
    return "skatdd_plugin_" + os.path.splitext(os.path.basename(target))[0].replace("-", "_")


def import_target(target: str) -> ModuleType:
    """Run a plug-in's module: a ``.py`` file as :func:`module_name`, or a dotted module.

    The one way both the check and the referee (:mod:`skatdd.play.loading`)
    bring a plug-in in.  A file's module is kept in ``sys.modules`` (so that
    pickling its objects finds it) and taken out again when its code raises;
    raises :class:`CannotLoad` for a file without a loader.  A dotted module
    is looked for on ``sys.path`` and then in the working folder, as ``python
    -m`` would, but behind every installed module.
    """
    if target.endswith(".py"):
        name = module_name(target)
        spec = importlib.util.spec_from_file_location(name, target)
        if spec is None or spec.loader is None:
            raise CannotLoad(f"cannot load {target!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit):
            del sys.modules[name]
            raise
        return module
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    return importlib.import_module(target)


def main(argv: list[str]) -> None:
    """Answer for ``PATHS TARGET PARENT_PID`` (module docstring); never returns."""
    paths, target, parent = argv
    _end_with_parent(int(parent))
    sys.path[:] = json.loads(paths)
    answer_fd = os.dup(1)
    os.dup2(2, 1)
    try:
        import_target(target)
        answer = "ok"
    except BaseException as exc:  # the module's own KeyboardInterrupt and SystemExit too
        answer = f"raised:{type(exc).__name__}: {exc}"
    try:
        sys.stdout.flush()
        os.write(answer_fd, answer.encode("utf-8", "replace")[:ANSWER_BYTES])
    except OSError:
        pass
    os._exit(0)  # no exit handler a module registered runs


if __name__ == "__main__":
    main(sys.argv[1:])
