"""The processes a killed build leaves: listed and checked without racing their exits."""

from __future__ import annotations

import contextlib

import psutil


def descendants_but(pid: int, name_part: str) -> list[psutil.Process]:
    """Every living descendant of ``pid`` whose name does not contain ``name_part``.

    A descendant that exits while it is being looked at (a browser helper, a Dask
    nanny's child) is left out rather than raising :class:`psutil.NoSuchProcess`.
    """
    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if name_part not in child.name():
                out.append(child)
        except psutil.NoSuchProcess:
            pass
    return out


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those of ``processes`` still running (zombies count as gone)."""
    out = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def kill_all(processes: list[psutil.Process]) -> None:
    """SIGKILL each of ``processes`` that is still there (never leave them behind)."""
    for p in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()
