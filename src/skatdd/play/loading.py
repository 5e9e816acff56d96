"""Naming players: :func:`load_player` turns a name from the command line into a :class:`PlayerSpec`.

The names (the players are described in :mod:`skatdd.play.players` and
:mod:`skatdd.play.advanced`): ``random``, ``heuristic``, ``pimc[:N[,full]]`` and ``dd``
(:mod:`.players`); ``pimc:N+bids|+play|+all`` and ``alphamu:N:K[+...]``
(:mod:`.advanced`); a plug-in ``module.path:factory`` or
``path/to/file.py:factory``.  This module sits above both player modules, so
that neither has to know the other's names.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator

from skatdd.core.errors import SkatddError, quote
from skatdd.formats.json_text import json_text
from skatdd.runner.workers import process_end

from .advanced import advanced_player
from .heuristic import HeuristicPlayer
from .import_probe import ANSWER_BYTES, SCRIPT, CannotLoad, import_target
from .players import DEFAULT_PIMC_WORLDS, DDPlayer, PimcPlayer, PlayerFactory, PlayerSpec, RandomPlayer

__all__ = ["BUILT_IN", "load_player"]


def _pimc_factory(worlds: int, full: bool = False) -> PlayerFactory:
    """The factory of ``pimc:N`` (``pimc:N,full`` with *full*): :class:`PimcPlayer` with *worlds* worlds."""
    return functools.partial(PimcPlayer, worlds=worlds, full=full)


BUILT_IN = ("random", "heuristic", "pimc[:N[,full]]", "dd")


def _unknown(name: str, why: str) -> SkatddError:
    """The error for a player name that names no player, saying *why* and what is expected."""
    return SkatddError(f"player {quote(name)}: {why}: expected {', '.join(BUILT_IN)} or module.path:factory "
                       "(or path/to/file.py:factory)")


@contextlib.contextmanager
def _stdout_at_stderr() -> Iterator[None]:
    """Within the block ``sys.stdout`` and descriptor 1 point at stderr; both are restored after it.

    A plug-in's module runs in this process when it is imported; what it
    prints then (``print``, ``os.write(1, ...)``) must not land among the
    results a command writes on standard output.
    """
    saved_stream = sys.stdout
    saved_fd = None
    try:
        saved_stream.flush()
        if saved_stream.fileno() == 1:
            saved_fd = os.dup(1)
            os.dup2(sys.stderr.fileno(), 1)
    except (AttributeError, OSError, ValueError):  # no descriptor (an in-process caller's stdout)
        pass
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        sys.stdout = saved_stream
        if saved_fd is not None:
            os.dup2(saved_fd, 1)
            os.close(saved_fd)


def _import_plugin(target: str, name: str) -> object:
    """The module of a plug-in: a file path (``....py``) or a dotted module on ``sys.path`` or in the current directory.

    The module runs with its standard output at stderr (:func:`_stdout_at_stderr`); one that raises
    anything but ``KeyboardInterrupt`` (``sys.exit`` included) is an unknown player.
    """
    with _stdout_at_stderr():
        return _import_module(target, name)


def _import_module(target: str, name: str) -> object:
    """:func:`_import_plugin` without the redirection."""
    if target.endswith(".py"):
        if not os.path.isfile(target):
            raise _unknown(name, f"no file {quote(target)}")
        try:
            return import_target(target)
        except CannotLoad:
            raise _unknown(name, f"cannot load {quote(target)}") from None
        except (Exception, SystemExit) as exc:
            raise _unknown(name, f"loading {quote(target)} raised {type(exc).__name__}: {exc}") from None
    try:
        return import_target(target)
    except ImportError as exc:
        raise _unknown(name, f"cannot import {quote(target)} ({exc})") from None
    except (Exception, SystemExit) as exc:
        raise _unknown(name, f"importing {quote(target)} raised {type(exc).__name__}: {exc}") from None


#: The first word of every built-in player's name (``pimc:50+bids`` starts with ``pimc``).
_BUILT_IN_HEADS = frozenset({"random", "heuristic", "dd", "pimc", "alphamu"})


def _names_plugin(text: str) -> bool:
    """Whether *text* names a plug-in rather than a built-in player.

    A name ``target:factory`` whose target is a ``.py`` file is one (no
    built-in name has such a target), whatever the path holds
    (``alphamu_bot.py:f``, ``my+bot.py:f``, ``c++/bot.py:f``).  Otherwise a
    name whose first word (up to the first ``:`` or ``+``) is a built-in one
    follows the built-in grammar, and any other is a plug-in when its target
    names an importable module; the rest keep the built-in grammar's messages.
    """
    target, colon, _ = text.rpartition(":")
    if not colon or not target:
        return False
    if target.endswith(".py"):
        return True
    if re.split(r"[:+]", text, maxsplit=1)[0] in _BUILT_IN_HEADS:
        return False
    if "+" not in target:
        return True  # a module path: _plugin imports it and says why when it cannot
    try:
        return importlib.util.find_spec(target) is not None
    except (ImportError, ValueError):
        return False


#: How long a plug-in's module may take to import in the check (a machine-learning library takes seconds; an
#: import that never ends would hang the referee's own import after it).
IMPORT_SECONDS = 120.0


def _probe_plugin(name: str, target: str) -> None:
    """Import *target* once in a short-lived child process; raise as :func:`_plugin` would if that ends the process.

    A module's code runs when it is imported, and it may end its process
    (``os._exit``, a crash): imported first in the referee, that ended the
    whole run without a word.  The child (:mod:`skatdd.play.import_probe`, a
    fresh interpreter with this process's import path and working folder,
    importing nothing of skatdd; in a session of its own, so Ctrl-C at the
    terminal does not reach it; ending with this process) imports the module
    and answers ``ok`` or what it raised.  No answer: *name* is an unknown
    player saying how the child ended.  A ``KeyboardInterrupt`` the module
    raises is an unknown player too (here it would be taken for a Ctrl-C);
    anything else it raises is left to the import here, which names it.
    Not a fork: forking a process with threads (a caller's, pytest's) can
    leave the child waiting for ever on a lock another thread held.  When the
    child has ended, or on Ctrl-C (anything raised) while waiting, its whole
    process group is killed: nothing the module started at import outlives
    the check.  An import still running after :data:`IMPORT_SECONDS` makes
    *name* an unknown player too.
    """
    if not sys.executable:  # an embedded interpreter that cannot start another: imported here alone, as before
        return
    proc = subprocess.Popen([sys.executable, SCRIPT, json_text(sys.path, compact=True), target, str(os.getpid())],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, start_new_session=True)
    assert proc.stdout is not None
    try:
        try:
            status = proc.wait(timeout=IMPORT_SECONDS)
        except subprocess.TimeoutExpired:
            raise _unknown(name, f"{_verb(target)} {quote(target)} took over {IMPORT_SECONDS:g} s") from None
        finally:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        # A process the module started in a session of its own may still hold the pipe: read what is there.
        os.set_blocking(proc.stdout.fileno(), False)
        answer = (proc.stdout.read(ANSWER_BYTES + 16) or b"").decode("utf-8", "replace")
    finally:
        proc.stdout.close()
    if answer == "ok" or (answer.startswith("raised:") and not answer.startswith("raised:KeyboardInterrupt")):
        return
    if answer.startswith("raised:"):
        raise _unknown(name, f"{_verb(target)} {quote(target)} {answer.replace(':', ' ', 1)}")
    raise _unknown(name, f"{_verb(target)} {quote(target)} ended its process ({process_end(status)})")


def _verb(target: str) -> str:
    """How an error names bringing in *target*: ``loading`` a file, ``importing`` a module."""
    return "loading" if target.endswith(".py") else "importing"


@functools.lru_cache(maxsize=64)
def _plugin(name: str) -> PlayerSpec:
    """The plug-in named ``target:factory`` (loaded once per process); raises naming *name* when it cannot be.

    The module is loaded in a child process first (:func:`_probe_plugin`), so
    that one which ends its process at import fails the name, not this process.
    """
    target, _, attribute = name.rpartition(":")
    if not target or not attribute:
        raise _unknown(name, "not a built-in player")
    if not target.endswith(".py") or os.path.isfile(target):  # (a missing file: the import below says so)
        _probe_plugin(name, target)
    module = _import_plugin(target, name)
    factory = getattr(module, attribute, None)
    if factory is None or not callable(factory):
        raise _unknown(name, f"{quote(target)} has no callable {quote(attribute)}")
    return PlayerSpec(name, factory, bool(getattr(factory, "cheats", False)), hosted=True)


def load_player(name: str | PlayerSpec | PlayerFactory) -> PlayerSpec:
    """The player named *name* (module docstring), or a factory passed as it is.

    Raises :class:`~skatdd.core.errors.SkatddError` naming the token for an
    unknown name, a bad ``pimc:N``, or a plug-in that cannot be imported or
    has no such factory.
    """
    if isinstance(name, PlayerSpec):
        return name
    if not isinstance(name, str):
        label = getattr(name, "__qualname__", None) or type(name).__name__
        return PlayerSpec(f"{getattr(name, '__module__', '?')}:{label}", name, bool(getattr(name, "cheats", False)))
    text = name.strip()
    if _names_plugin(text):
        return _plugin(text)
    if text == "random":
        return PlayerSpec(text, RandomPlayer, False)
    if text == "heuristic":
        return PlayerSpec(text, HeuristicPlayer, False)
    if text == "dd":
        return PlayerSpec(text, DDPlayer, True)
    if "+" in text or text.startswith("alphamu"):
        return advanced_player(text)  # weighted worlds and honest endgames (skatdd.play.advanced)
    if text == "pimc" or text.startswith("pimc:"):
        count = text.partition(":")[2] if ":" in text else str(DEFAULT_PIMC_WORLDS)
        count, comma, option = count.partition(",")
        if comma and option != "full":
            raise _unknown(name, f"pimc:N takes the option ',full' only, not {quote(',' + option)}")
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= 100_000:
            raise _unknown(name, "pimc:N needs a number of worlds N from 1 to 100000")
        return PlayerSpec(f"pimc:{int(count)}{',full' if comma else ''}", _pimc_factory(int(count), bool(comma)),
                          False)
    return _plugin(text)
