"""The report's output folder: never delete what the user did not ask to delete.

A report is written into a staging folder beside ``--out`` and moved into place when
it is complete, so a failed run leaves no half-written report. The finished folder
holds :data:`MARKER` listing every file the report wrote. An existing ``--out`` is
used only when it is empty, or when it is an earlier report (it has the marker and
nothing the marker does not list) and ``overwrite`` is set; then only that earlier
report is replaced. Anything else is refused with one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from cartoqa.errors import CartoqaError
from cartoqa.staging import sweep_stale

#: The file that marks a folder as a cartoqa report and lists the files it wrote.
MARKER = ".cartoqa-report.json"


def _files_under(folder: Path) -> list[str]:
    """Every file and link under ``folder`` (relative POSIX paths, sorted)."""
    out = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        base = Path(root)
        for name in files + [d for d in dirs if (base / d).is_symlink()]:
            out.append((base / name).relative_to(folder).as_posix())
    return sorted(out)


def earlier_report_files(out: Path) -> list[str] | None:
    """The files an earlier report in ``out`` wrote, per its marker.

    Parameters
    ----------
    out : pathlib.Path
        A folder.

    Returns
    -------
    list of str or None
        The listed files, or ``None`` when ``out`` has no readable marker.
    """
    marker = out / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return files


def check_out_folder(out: Path, *, overwrite: bool) -> None:
    """Refuse an output folder the report must not write into.

    Parameters
    ----------
    out : pathlib.Path
        The ``--out`` folder.
    overwrite : bool
        Whether an earlier report there may be replaced.

    Raises
    ------
    CartoqaError
        ``out`` is a file; or it is a non-empty folder that is not an earlier report;
        or it is an earlier report and ``overwrite`` is false; or it is an earlier
        report that now also holds files the report did not write.
    """
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise CartoqaError(f"--out {out} exists and is not a folder",
                           fix="choose a new or empty folder")
    if not out.exists():
        return
    present = _files_under(out)
    if not present and not any(out.iterdir()):
        return
    listed = earlier_report_files(out)
    if listed is None:
        raise CartoqaError(
            f"--out {out} is not empty and is not a cartoqa report; nothing was written",
            fix="choose a new or empty folder (--overwrite only replaces an earlier report)",
        )
    if not overwrite:
        raise CartoqaError(f"--out {out} holds an earlier report",
                           fix="pass --overwrite to replace it, or choose another folder")
    foreign = sorted(set(present) - set(listed) - {MARKER})
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3
                                          else "")
        raise CartoqaError(
            f"--out {out} holds an earlier report plus files it did not write ({shown}); "
            "nothing was replaced",
            fix="move those files away, or choose another folder",
        )


def staging_folder(out: Path) -> Path:
    """Create and return an empty staging folder beside ``out`` (same file system).

    Parameters
    ----------
    out : pathlib.Path
        The ``--out`` folder.

    Returns
    -------
    pathlib.Path
        ``<parent>/.<name>.report-<pid>``, empty.
    """
    parent = out.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    # a report killed with SIGKILL left its staging folder: remove those of dead writers
    sweep_stale(parent, re.escape(f".{out.name}.report-") + r"(?P<pid>\d+)(-old)?")
    stage = parent / f".{out.name}.report-{os.getpid()}"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    return stage


def finish(stage: Path, out: Path, meta: dict[str, Any], *, overwrite: bool) -> list[str]:
    """Write the marker into ``stage`` and move it to ``out``.

    The output folder is checked again (it may have changed while the report was
    written); an earlier report is moved aside, the new one moved in, then the earlier
    one deleted.

    Parameters
    ----------
    stage : pathlib.Path
        The complete report.
    out : pathlib.Path
        Where it goes.
    meta : dict
        Extra keys for the marker.
    overwrite : bool
        Whether an earlier report may be replaced.

    Returns
    -------
    list of str
        The files of the report (relative paths).
    """
    files = _files_under(stage)
    marker = {"cartoqa_report": 1, **meta, "files": files}
    (stage / MARKER).write_text(json.dumps(marker, ensure_ascii=False, indent=1) + "\n",
                                encoding="utf-8")
    check_out_folder(out, overwrite=overwrite)
    old: Path | None = None
    if out.exists():
        old = stage.with_name(stage.name + "-old")
        out.rename(old)
    try:
        stage.rename(out)
    except OSError:
        if old is not None:
            old.rename(out)
        raise
    if old is not None:
        shutil.rmtree(old)
    return files


def discard(stage: Path) -> None:
    """Remove a staging folder after a failure (ignoring errors)."""
    with contextlib.suppress(OSError):
        shutil.rmtree(stage)
