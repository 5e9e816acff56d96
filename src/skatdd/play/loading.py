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
import sys
from collections.abc import Iterator

from skatdd.core.errors import SkatddError, quote
from skatdd.runner.workers import init_worker

from .advanced import advanced_player
from .heuristic import HeuristicPlayer
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
        module_name = "skatdd_plugin_" + os.path.splitext(os.path.basename(target))[0].replace("-", "_")
        spec = importlib.util.spec_from_file_location(module_name, target)
        if spec is None or spec.loader is None:
            raise _unknown(name, f"cannot load {quote(target)}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # so that pickling the module's objects finds it
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:
            del sys.modules[module_name]
            raise _unknown(name, f"loading {quote(target)} raised {type(exc).__name__}: {exc}") from None
        return module
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would, but behind every installed module
    try:
        return importlib.import_module(target)
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


#: The most of a probe's error message that comes back (its message is one line of a few hundred bytes).
_PROBE_REPLY_BYTES = 4096


def _probe_plugin(name: str, target: str) -> None:
    """Load the plug-in *name* once in a short-lived child process; raise as :func:`_plugin` would if it fails there.

    A module's code runs when it is imported, and it may end its process
    (``os._exit``, a crash): imported first in the referee, that ended the
    whole run without a word.  The child (forked, so it sees what this
    process sees; its Ctrl-C ignored, dying with this process, descriptor 1
    at stderr) imports the module and checks the factory, then sends back
    ``ok`` or the error's message (a ``KeyboardInterrupt`` the module raises
    is such an error: it is not a Ctrl-C).  A child that ends before it answers
    makes *name* an unknown player saying how it ended.  Only then does the
    caller import the module here.  Ctrl-C (anything raised) while waiting
    kills the child and propagates.
    """
    read_fd, write_fd = os.pipe()
    parent = os.getpid()
    for stream in (sys.stdout, sys.stderr):  # what is buffered would be written twice, once by the child
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        status = 0
        try:
            os.close(read_fd)
            init_worker(parent)
            os.dup2(2, 1)
            try:
                _load_plugin(name)
                message = None
            except SkatddError as exc:
                message = str(exc)
            except BaseException as exc:  # the module's own KeyboardInterrupt: Ctrl-C is ignored here
                message = str(_unknown(name, f"{_verb(target)} {quote(target)} raised {type(exc).__name__}: {exc}"))
            reply = b"ok" if message is None else ("error:" + message).encode("utf-8", "replace")[:_PROBE_REPLY_BYTES]
            os.write(write_fd, reply)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write_fd)
    try:
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            raise
        # The child has ended; a process its module started may still hold the pipe open, so read without waiting.
        os.set_blocking(read_fd, False)
        try:
            reply = os.read(read_fd, _PROBE_REPLY_BYTES + 16)
        except BlockingIOError:
            reply = b""
    finally:
        os.close(read_fd)
    if reply == b"ok":
        return
    if reply.startswith(b"error:"):
        raise SkatddError(reply[len(b"error:"):].decode("utf-8", "replace"))
    if os.WIFSIGNALED(status):
        how = f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    else:
        how = f"exit status {os.waitstatus_to_exitcode(status)}"
    raise _unknown(name, f"{_verb(target)} {quote(target)} ended its process ({how})")


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
    _probe_plugin(name, target)
    return _load_plugin(name)


def _load_plugin(name: str) -> PlayerSpec:
    """:func:`_plugin` in this process, without the probe."""
    target, _, attribute = name.rpartition(":")
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
