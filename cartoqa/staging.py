"""Hidden staging folders of ``report`` and ``export``, and the sweep of stale ones.

Both commands write into a hidden folder beside the output and rename it into place,
so a reader never sees half an output. A run killed with ``SIGKILL`` cannot remove
its staging folder; the folder's name carries the writer's process id, and the next
run into the same output removes every such folder whose writer is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
from pathlib import Path


def pid_alive(pid: int) -> bool:
    """Tell whether a process with this id exists.

    Examples
    --------
    >>> pid_alive(os.getpid())
    True
    """
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_stale(parent: Path, pattern: str) -> list[Path]:
    """Remove stale staging folders in ``parent`` whose names match ``pattern``.

    Parameters
    ----------
    parent : pathlib.Path
        The folder that holds the output.
    pattern : str
        A regular expression for the full name, with a group ``pid``.

    Returns
    -------
    list of pathlib.Path
        The folders removed: those of this user (never a link) whose process is gone.
    """
    removed: list[Path] = []
    regex = re.compile(pattern)
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for name in names:
        match = regex.fullmatch(name)
        if match is None or pid_alive(int(match.group("pid"))):
            continue
        path = parent / name
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            continue
        with contextlib.suppress(OSError):
            shutil.rmtree(path)
            removed.append(path)
    return removed
