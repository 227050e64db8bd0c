"""Private temporary folders that a killed process's successor removes.

Every temporary folder cartoqa's renderers make is named
``cartoqa-<kind>-<pid>.<start>-<random>`` in the system's temporary folder, created
mode 0700 by :func:`tempfile.mkdtemp`. ``<pid>`` and ``<start>`` (the process's start
time in clock ticks since boot, from ``/proc/<pid>/stat``) name the process that owns
it. A process that exits cleanly removes its own folders; a process killed with
``SIGKILL`` cannot, so the next one that makes a folder of the same kind removes every
folder of that kind whose owner no longer runs (:func:`reap_stale`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

_NAME = re.compile(r"^cartoqa-(?P<kind>[a-z]+)-(?P<pid>\d+)\.(?P<start>\d+)-")


def process_start_ticks(pid: int) -> int | None:
    """Return a process's start time in clock ticks since boot, or ``None`` if gone.

    Parameters
    ----------
    pid : int
        The process id.

    Returns
    -------
    int or None
        Field 22 of ``/proc/<pid>/stat``; ``None`` when the process does not exist.

    Examples
    --------
    >>> process_start_ticks(os.getpid()) is not None
    True
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[19]) if len(fields) > 19 else None


def _owner_alive(pid: int, start: int) -> bool:
    return process_start_ticks(pid) == start


def reap_stale(kind: str, *, folder: Path | None = None,
               owner: int | None = None) -> list[Path]:
    """Remove the ``cartoqa-<kind>-*`` folders of processes that no longer run.

    Only real folders (not symbolic links) owned by this user, or by ``owner`` (the
    unprivileged user a root process handed its folders to, see
    :func:`private_tempdir`), are removed.

    Parameters
    ----------
    kind : str
        The kind of folder (``"browser"``, ``"page"``).
    folder : pathlib.Path, optional
        Where to look; the system's temporary folder by default.
    owner : int, optional
        Another user id whose folders of that kind are also this process's to reap.

    Returns
    -------
    list of pathlib.Path
        The folders removed.
    """
    base = Path(folder) if folder is not None else Path(tempfile.gettempdir())
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            match = _NAME.match(entry.name)
            if match is None or match["kind"] != kind:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISDIR(info.st_mode):
                continue
            if info.st_uid not in (os.geteuid(), owner):
                continue
            if _owner_alive(int(match["pid"]), int(match["start"])):
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed


def private_tempdir(kind: str, *, folder: Path | None = None,
                    owner: int | None = None) -> Path:
    """Create a mode-0700 temporary folder owned by this process (reaping stale ones).

    Parameters
    ----------
    kind : str
        The kind of folder, lower-case letters (``"browser"``, ``"page"``).
    folder : pathlib.Path, optional
        Where to create it; the system's temporary folder by default.
    owner : int, optional
        As root: hand the folder (still mode 0700) to this user id, e.g. the
        unprivileged user a child process runs as. Its name still names this process.

    Returns
    -------
    pathlib.Path
        The new folder; the caller removes it when done.

    Examples
    --------
    >>> d = private_tempdir("doctest")
    >>> d.name.startswith(f"cartoqa-doctest-{os.getpid()}.") and oct(d.stat().st_mode & 0o777)
    '0o700'
    >>> d.rmdir()
    """
    if not kind.isalpha() or not kind.islower():
        raise ValueError(f"kind must be lower-case letters, not {kind!r}")
    reap_stale(kind, folder=folder, owner=owner)
    start = process_start_ticks(os.getpid()) or 0
    made = Path(tempfile.mkdtemp(prefix=f"cartoqa-{kind}-{os.getpid()}.{start}-",
                                 dir=folder))
    if owner is not None and owner != os.geteuid():
        # Through the opened folder, never the name: nobody else can swap it meanwhile.
        fd = os.open(made, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            os.fchown(fd, owner, -1)
        finally:
            os.close(fd)
    return made


def ensure_private_folder(path: Path, *, mode: int = 0o700) -> Path:
    """Create ``path`` (one level) or accept it only if it is safely ours.

    Safe in a world-writable folder such as ``/tmp``: a symbolic link, a file, or a
    folder owned by another user or writable by others is refused, never followed or
    repaired. The mode is set through the opened folder, not through the name.

    Parameters
    ----------
    path : pathlib.Path
        The folder.
    mode : int, optional
        Its permission bits (no group or other write bit allowed).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    PermissionError
        If ``path`` is a link, not a folder, owned by another user or writable by
        others; the message names what is wrong.
    """
    if mode & 0o022:
        raise ValueError(f"mode {oct(mode)} lets others write")
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        raise PermissionError(f"{path} is a symbolic link or not a folder ({exc.strerror})"
                              ) from None
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise PermissionError(f"{path} belongs to user id {info.st_uid}, "
                                  f"not to this user ({os.geteuid()})")
        if info.st_mode & 0o022:
            raise PermissionError(f"{path} is writable by other users "
                                  f"(mode {oct(info.st_mode & 0o777)})")
        if info.st_mode & 0o777 != mode:
            os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return path
