"""Write an export folder atomically: build it beside the target, then rename."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cartoqa.errors import CartoqaError
from cartoqa.staging import sweep_stale

#: File that marks a folder as a cartoqa export, so that ``--overwrite`` may replace it.
EXPORT_MARKER = ".cartoqa-export"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def is_export_folder(path: Path) -> bool:
    """Whether ``path`` is a folder an earlier ``cartoqa export`` wrote.

    Parameters
    ----------
    path : pathlib.Path
        A folder.

    Returns
    -------
    bool
        True when it holds the :data:`EXPORT_MARKER` file.
    """
    return path.is_dir() and not path.is_symlink() and (path / EXPORT_MARKER).is_file()


@contextmanager
def atomic_folder(out: Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield a temporary folder that becomes ``out`` when the block succeeds.

    On an error the temporary folder is removed and ``out`` is left as it was, so a
    failed export never leaves a half-written folder. The finished folder gets the
    usual permissions (``0777`` less the umask) and an :data:`EXPORT_MARKER` file.

    Parameters
    ----------
    out : pathlib.Path
        The folder to create.
    overwrite : bool
        Replace an existing ``out``, which must be an earlier export (it holds
        :data:`EXPORT_MARKER`) or an empty folder; otherwise an existing ``out`` is
        an error.

    Yields
    ------
    pathlib.Path
        The folder to write into.

    Raises
    ------
    CartoqaError
        ``out`` exists and ``overwrite`` is false, or it is a file, or it is not an
        earlier export.
    """
    out = Path(os.path.abspath(out))
    if out.parent == out:
        raise CartoqaError(f"cannot export into {out}", fix="choose a new folder for OUT")
    if out.exists() or out.is_symlink():
        if not overwrite:
            raise CartoqaError(f"{out} already exists",
                               fix="choose a new output path or pass --overwrite")
        if out.is_symlink() or not out.is_dir():
            raise CartoqaError(f"{out} is not a folder", fix="choose a folder path")
        if not is_export_folder(out) and any(out.iterdir()):
            raise CartoqaError(
                f"{out} is not an earlier cartoqa export (it has no {EXPORT_MARKER} file), "
                "so --overwrite will not replace it",
                fix="choose a new output path, or empty that folder yourself",
            )
    out.parent.mkdir(parents=True, exist_ok=True)
    # an export killed with SIGKILL left its staging folder: remove those of dead writers
    name = re.escape(out.name)
    sweep_stale(out.parent, rf"(?:\.{name}\.old-)?\.{name}\.(?P<pid>\d+)\.[^/]*\.partial")
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.{os.getpid()}.", suffix=".partial",
                                dir=out.parent))
    try:
        yield tmp
        (tmp / EXPORT_MARKER).write_text("written by cartoqa export; --overwrite may "
                                         "replace this folder\n", encoding="utf-8")
        tmp.chmod(0o777 & ~_umask())
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
