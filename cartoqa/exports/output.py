"""Write an export folder atomically: build it beside the target, then rename."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cartoqa.errors import CartoqaError


@contextmanager
def atomic_folder(out: Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield a temporary folder that becomes ``out`` when the block succeeds.

    On an error the temporary folder is removed and ``out`` is left as it was, so a
    failed export never leaves a half-written folder.

    Parameters
    ----------
    out : pathlib.Path
        The folder to create.
    overwrite : bool
        Replace an existing ``out``; otherwise an existing ``out`` is an error.

    Yields
    ------
    pathlib.Path
        The folder to write into.

    Raises
    ------
    CartoqaError
        ``out`` exists and ``overwrite`` is false, or it is a file.
    """
    if out.exists() and not overwrite:
        raise CartoqaError(f"{out} already exists",
                           fix="choose a new output path or pass --overwrite")
    if out.exists() and not out.is_dir():
        raise CartoqaError(f"{out} is a file, not a folder", fix="choose a folder path")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old: Path | None = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{tmp.name}")
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
