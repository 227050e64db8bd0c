"""Waiting on events between processes without fixed sleeps: file locks and process exits.

Both helpers block on the event itself (the kernel wakes the waiter when a lock is
released or a process exits), with an optional bound on the wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path


def _open_lock_file(path: Path) -> int:
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)


def wait_for_lock(path: Path, timeout_s: float | None) -> int | None:
    """Open ``path`` and take an exclusive ``flock``, blocking up to ``timeout_s``.

    Returns the locked file descriptor, or ``None`` when the wait timed out. The
    blocking ``flock`` runs in a helper thread so that the wait can be bounded; a
    thread that gets the lock after the caller gave up releases it at once.
    """
    if timeout_s is None:
        fd = _open_lock_file(path)
        fcntl.flock(fd, fcntl.LOCK_EX)
        return fd
    got = threading.Event()
    gave_up = False
    guard = threading.Lock()
    result: list[int] = []

    def waiter() -> None:
        fd = _open_lock_file(path)
        fcntl.flock(fd, fcntl.LOCK_EX)
        with guard:
            if gave_up:
                os.close(fd)  # closing the descriptor releases the lock
                return
            result.append(fd)
            got.set()

    threading.Thread(target=waiter, name=f"lock {path.name}", daemon=True).start()
    got.wait(timeout_s)
    with guard:
        if got.is_set():
            return result[0]
        gave_up = True
    return None


@contextlib.contextmanager
def exclusive_lock(
    path: Path, *, timeout_s: float | None = None, on_wait: Callable[[], None] | None = None,
    on_wait_after_s: float = 0.0, remove: bool = False,
) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing) for a ``with`` block.

    Parameters
    ----------
    path : pathlib.Path
        The lock file.
    timeout_s : float, optional
        Longest wait for another holder to release it; no bound when omitted.
    on_wait : callable, optional
        Called once when another process holds the lock: before waiting, or once the
        wait has lasted ``on_wait_after_s``.
    on_wait_after_s : float, optional
        Wait this long without calling ``on_wait`` first (a lock held a moment by a
        sibling process, e.g. a build's own worker starting the same server, goes
        unsaid); 0 calls it before any wait.
    remove : bool, optional
        Delete the lock file when releasing it. A process that was waiting on the
        deleted file notices (its descriptor no longer names ``path``) and locks the
        new file instead, so two holders never overlap.

    Raises
    ------
    TimeoutError
        When the lock was not released within ``timeout_s``.

    Examples
    --------
    >>> import shutil, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> lock = folder / "demo.lock"
    >>> with exclusive_lock(lock, timeout_s=1.0):
    ...     with exclusive_lock(lock, timeout_s=0.05):
    ...         pass
    Traceback (most recent call last):
    TimeoutError: ...demo.lock is still locked after 0.05 s
    >>> shutil.rmtree(folder)
    """
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    warned = False
    while True:
        fd = _open_lock_file(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            waited = None
            if on_wait is not None and not warned and on_wait_after_s > 0:
                waited = wait_for_lock(path, on_wait_after_s if deadline is None else
                                       max(0.0, min(on_wait_after_s,
                                                    deadline - time.monotonic())))
            if waited is None:
                if on_wait is not None and not warned:
                    on_wait()
                warned = True
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                waited = wait_for_lock(path, left)
            if waited is None:
                raise TimeoutError(f"{path} is still locked after {timeout_s} s") from None
            fd = waited
        if _names(fd, path):
            break
        os.close(fd)  # the holder removed this file while we waited: lock the new one
    try:
        yield
    finally:
        if remove:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _names(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is still the file at ``path``."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def wait_for_exit(pids: Iterable[int], timeout_s: float) -> bool:
    """Block until every process in ``pids`` has exited, at most ``timeout_s`` seconds.

    Uses Linux process file descriptors (``pidfd_open``), which become readable when
    the process exits; it works for processes that are not our children.

    Parameters
    ----------
    pids : iterable of int
        Process ids; ids of processes that no longer exist are skipped.
    timeout_s : float
        Longest wait.

    Returns
    -------
    bool
        ``True`` when all of them have exited.

    Examples
    --------
    >>> wait_for_exit([], 1.0)
    True
    """
    fds: list[int] = []
    try:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                fds.append(os.pidfd_open(pid))
        deadline = time.monotonic() + timeout_s
        pending = list(fds)
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select(pending, [], [], left)
            pending = [fd for fd in pending if fd not in ready]
        return True
    finally:
        for fd in fds:
            os.close(fd)


def processes_in(folder: Path) -> list[int]:
    """Ids of the processes whose working folder is ``folder`` (from ``/proc``).

    PostgreSQL's server processes all work in their data folder, so this finds what is
    left of a killed server.

    Parameters
    ----------
    folder : pathlib.Path
        The folder.

    Returns
    -------
    list of int
        Process ids, in increasing order; processes this user may not inspect are left out.
    """
    target = os.path.realpath(folder)
    found: list[int] = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{entry.name}/cwd") == target:
                found.append(int(entry.name))
    return sorted(found)
