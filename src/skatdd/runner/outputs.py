"""Checking an output path before any work: can the file (or folder) asked for be written there?

Every command option that writes (``-o``, ``--table``, ``--html``) passes
its path through :func:`check_output` while the command line is read, so a
path that cannot be written is refused in one line before a game is
analysed, instead of failing with a traceback at the end or leaving a
half-written file.  The check asks the file system itself: it creates the
file (and any missing folder) and removes it again, so every reason the
system has (a missing folder, no permission, a name too long, a read-only
or virtual file system such as ``/proc``) is found and named as the system
names it.  An existing file is opened for appending and closed, which
changes nothing in it.

A path ending in ``/`` is a folder; an empty path is refused.

:func:`lock_output` opens a result file for a run and holds an exclusive
lock on it for as long as the run writes it, so that two runs on one ``-o``
file cannot mix their lines (the second is refused at once).
"""
from __future__ import annotations

import errno
import os
from collections.abc import Sequence

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: runs there are not locked
    fcntl = None  # type: ignore[assignment]

from skatdd.core.errors import OutputError, quote

__all__ = ["FILE", "FILE_OR_FOLDER", "FOLDER", "PARTIAL", "check_not_input", "check_output", "lock_output",
           "names_a_folder"]

#: What an output option writes: one file, a folder of files, or either (a folder when the path says so).
FILE, FOLDER, FILE_OR_FOLDER = "file", "folder", "file or folder"

#: Suffix of the temporary file beside an output that replaces it once complete (a table, a report page).
PARTIAL = ".partial"

#: A file written inside a folder output to check that it can be (a report's index page, as it is written).
_FOLDER_PROBE = "index.html" + PARTIAL


def names_a_folder(path: str) -> bool:
    """Whether *path* names a folder: it ends in ``/`` (or the system's separator) or is an existing folder."""
    return path.endswith(("/", os.sep)) or os.path.isdir(path)


def check_output(path: str, option: str, kind: str = FILE, *, beside: Sequence[str] = (),
                 replaced: bool = False) -> str:
    """Check that *option*'s output *path* can be written; return *path* unchanged.

    Messages start with *option* and the quoted path (only the path when
    *option* is empty: Click names the option itself).
    *kind* is :data:`FILE`, :data:`FOLDER` or :data:`FILE_OR_FOLDER` (a
    folder when :func:`names_a_folder`, else a file).  *beside* lists the
    suffixes of further files written next to a file output that is (or
    will be) a regular file (``.partial``, a resume record): their names
    are checked too, since they are longer.  A *replaced* file is written
    to such a file and renamed over *path* at the end, so an existing
    *path* must then be a regular file, never a device (``/dev/null``).

    Raises :class:`~skatdd.core.errors.OutputError` naming *option*, the path and
    the reason; nothing is left behind.
    """
    where = f"{option} {quote(path)}" if option else quote(path)
    if not path.strip():
        raise OutputError(f"{where}: an empty path: expected a {kind} name")
    if path == "-":
        # Elsewhere '-' is standard output; here it would be a file of that name in the current folder.
        raise OutputError(f"{where}: standard output is where the results go without this option: leave it out "
                          "(or give ./- for a file named '-')")
    folder = kind == FOLDER or (kind == FILE_OR_FOLDER and names_a_folder(path))
    if folder:
        if os.path.exists(path) and not os.path.isdir(path):
            raise OutputError(f"{where}: not a folder: expected a folder (or a new folder's name)")
        _probe_folder(path, where)
        return path
    if path.endswith(("/", os.sep)):
        raise OutputError(f"{where}: a folder name (it ends in '/'): expected a file name")
    if os.path.isdir(path):
        raise OutputError(f"{where}: a folder: expected a file name")
    special = os.path.exists(path) and not os.path.isfile(path)
    if replaced and special:
        raise OutputError(f"{where}: not a regular file: expected a file name")
    parent = os.path.dirname(path) or os.curdir
    if not os.path.isdir(parent):
        missing = "is not a folder" if os.path.exists(parent) else "does not exist"
        raise OutputError(f"{where}: the folder {quote(parent)} {missing}: expected a file in an existing folder")
    try:
        for name in (path, *(() if special else (path + suffix for suffix in beside))):
            _probe_file(name)
    except OSError as exc:
        raise OutputError(f"{where}: cannot write it: {_reason(exc)}") from None
    return path


def check_not_input(path: str | None, option: str, source: str | None) -> None:
    """Refuse an output *path* that is the input file *source* itself: writing it would destroy the input.

    Either may be ``None`` (no output file; standard input).  Raises
    :class:`~skatdd.core.errors.OutputError`.
    """
    if path is None or source is None or source == "-":
        return
    try:
        same = os.path.samefile(path, source)
    except OSError:  # one of them does not exist (yet): not the same file
        return
    if same:
        raise OutputError(f"{option} {quote(path)} is the input file: writing it would destroy the input; "
                          "expected another file")


def lock_output(path: str, option: str = "-o") -> int | None:
    """Open the result file *path* for reading and writing and lock it for this process; the descriptor.

    The file is created when missing and never emptied here: its content
    is the caller's to keep (``--resume``) or cut, once the lock is held.
    The lock (``flock``, exclusive) lasts until the descriptor, and every
    copy of it, is closed: for the whole run.  Returns ``None`` for a path
    that is no regular file (``/dev/null``, a pipe), which is not locked.
    Raises :class:`~skatdd.core.errors.OutputError` naming *option* and the
    path when another process holds the lock (another run writes the file),
    at once, without waiting; ``OSError`` when the file cannot be opened.
    """
    if os.path.exists(path) and not os.path.isfile(path):
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    if fcntl is None:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise OutputError(f"{option} {quote(path)}: another run is writing this file (it is locked); wait for "
                          "that run to end, or choose another file") from None
    except OSError:  # a file system without locks (some network ones): the run goes on unlocked
        pass
    return fd


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _probe_file(path: str) -> None:
    """Open *path* for appending when it exists (a regular file), else create and remove it; ``OSError`` if not."""
    if os.path.exists(path):
        if os.path.isfile(path):
            with open(path, "ab"):
                pass
        elif not os.access(path, os.W_OK):  # a device or pipe: opening it could block
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    os.close(fd)
    os.unlink(path)


def _probe_folder(path: str, where: str) -> None:
    """Create the missing folders of *path*, write a file in it, then remove what was created."""
    made: list[str] = []  # removed again, deepest first
    target = os.path.normpath(path)
    missing: list[str] = []  # the folders of *target* that do not exist yet, deepest first
    probe = target
    while not os.path.exists(probe):
        missing.append(probe)
        parent = os.path.dirname(probe)
        if parent == probe or not parent:
            break
        probe = parent
    try:
        try:
            for folder in reversed(missing):
                os.mkdir(folder)
                made.append(folder)
        except OSError as exc:
            raise OutputError(f"{where}: cannot create the folder: {_reason(exc)}") from None
        try:
            _probe_file(os.path.join(target, _FOLDER_PROBE))
        except OSError as exc:
            raise OutputError(f"{where}: cannot write in the folder: {_reason(exc)}") from None
    finally:
        for folder in reversed(made):
            try:
                os.rmdir(folder)
            except OSError:
                pass
