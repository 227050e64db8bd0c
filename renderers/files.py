"""Atomic file writes: write beside the target, optionally flush to disk, rename over it.

One writer for the tile cache (:mod:`renderers.tiles`) and, through
:mod:`cartoqa.dataset.files`, for everything cartoqa writes. Imports nothing heavy.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes, *, durable: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one.

    The bytes go to a temporary file in the same folder (mode 0644), which is renamed
    over ``path``; on any failure the temporary file is removed.

    Parameters
    ----------
    path : pathlib.Path
        Target file; its folder is created if needed.
    data : bytes
        The new content.
    durable : bool, optional
        Flush the temporary file to disk (``fsync``) before the rename, so that the new
        content survives a crash (datasets, reports); a cache can skip it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
