"""End-to-end builds shared by the whole test session, one per configuration.

A build of Helsinki, Kotka or the FRIEDA fixture costs tens of seconds (PostgreSQL
import, road graph, Mapnik and Chromium renders); several test modules read the same
dataset. :class:`SharedBuilds` makes each configuration once, into pytest's temporary
folder, with one PostGIS cache for the session (the session's first build starts it
cold). Tests only read a shared dataset; one that changes it copies it first
(:meth:`SharedBuilds.copy`).

Under pytest-xdist (``pytest -n 2``) the workers share the cache and the builds: the
controller makes the cache folder and removes it at the end (``tests/conftest.py``), a
configuration's folder is named by a hash of its key, and the first worker to ask for it
builds it under a file lock while the others wait for it, then read it. The cache's
PostgreSQL server, started by the first build (or :meth:`SharedBuilds.env`), is held
until the session ends (:meth:`SharedBuilds.hold_server`).

Usage (the fixtures live in ``tests/conftest.py``)::

    def test_x(shared_builds: SharedBuilds, shared_env: dict[str, str]) -> None:
        ds = shared_builds.build("--extract", "kotka", "--tasks", "mml", "--per-task", "2")
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ENV_NAMES = ("CARTOQA_CACHE", "CARTOQA_WEB_ASSETS")

Patch = tuple[Any, str, Any]
"""``(module, attribute, value)`` set while the build runs (part of its configuration)."""


class SharedBuilds:
    """Builds made once per configuration and handed to every test that asks again.

    Parameters
    ----------
    cache : pathlib.Path
        The session's ``CARTOQA_CACHE`` (a folder the ``postgres`` user can reach).
    root : pathlib.Path
        Where the datasets are written (one sub-folder per configuration).
    """

    def __init__(self, cache: Path, root: Path) -> None:
        self.cache = cache
        self.root = root
        self._built: dict[tuple[object, ...], Path] = {}
        self.builds = 0
        """How many builds this process made (not found, nor made by another worker)."""
        self._held: Any = None

    def hold_server(self) -> None:
        """Start the cache's PostgreSQL server (once) and hold it until
        :meth:`release_server`, as a machine that builds often keeps it running.

        Without the hold, each build of the session starts the server and stops it
        again (a checkpoint each time); with it, a process's Mapnik maps, kept per
        server run (``renderers.tiles.MAPS_KEPT``), also serve its later builds and
        renders of the same extract. Under pytest-xdist each worker holds it; the last
        to release it stops it.
        """
        if self._held is None:
            from renderers.postgis import PostgisCluster  # imported here: keeps conftest light

            cluster = PostgisCluster(self.cache)
            cluster.start()
            self._held = cluster

    def release_server(self) -> None:
        """Leave the server :meth:`hold_server` held (stopped if no one else holds it)."""
        if self._held is not None:
            self._held.stop()
            self._held = None

    @contextmanager
    def env(self) -> Iterator[dict[str, str]]:
        """Point ``CARTOQA_CACHE`` and ``CARTOQA_WEB_ASSETS`` at the shared ones, then restore.

        Yields
        ------
        dict of str to str
            A copy of the environment inside (for subprocesses).
        """
        from cartoqa.settings import web_assets_dir  # imported here: only build tests need it

        self.hold_server()
        old = {k: os.environ.get(k) for k in ENV_NAMES}
        os.environ["CARTOQA_WEB_ASSETS"] = str(web_assets_dir())
        os.environ["CARTOQA_CACHE"] = str(self.cache)
        try:
            yield dict(os.environ)
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def build(self, *args: str, patches: Sequence[Patch] = ()) -> Path:
        """The dataset of ``cartoqa build ARGS`` (``--out`` and ``--no-progress`` added).

        Parameters
        ----------
        *args : str
            The build's options, without ``build``, ``--out`` or ``--no-progress``.
        patches : sequence of (module, attribute, value)
            Module attributes set for the build (the FRIEDA fixture's map counts).

        Returns
        -------
        pathlib.Path
            The dataset folder; read it, do not change it (see :meth:`copy`).
        """
        from cartoqa.cli import main  # imported here: keeps conftest light

        key = (tuple(args),
               tuple((getattr(m, "__name__", repr(m)), a, repr(v)) for m, a, v in patches))
        if key in self._built:
            return self._built[key]
        self.hold_server()
        # named by the key, so that every xdist worker finds the same folder
        name = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:16]
        folder = self.root / f"build-{name}"
        out = folder / "ds"
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / f"build-{name}.lock", "ab") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker building it: wait for it
            if not (folder / "done").exists():
                shutil.rmtree(folder, ignore_errors=True)  # a build that failed before
                folder.mkdir(parents=True)
                (folder / "args.txt").write_text(" ".join(args) + "\n", "utf-8")
                monkeypatch = pytest.MonkeyPatch()
                try:
                    for module, attribute, value in patches:
                        monkeypatch.setattr(module, attribute, value)
                    with self.env():
                        rc = main(["build", *args, "--out", str(out), "--no-progress"])
                finally:
                    monkeypatch.undo()
                if rc != 0:
                    raise AssertionError(f"shared build {' '.join(args)} exited {rc}")
                (folder / "done").write_text("", "utf-8")
                self.builds += 1
        self._built[key] = out
        return out

    @staticmethod
    def copy(dataset: Path, to: Path) -> Path:
        """A private copy of a shared dataset, for a test that changes it.

        Parameters
        ----------
        dataset : pathlib.Path
            A folder :meth:`build` returned.
        to : pathlib.Path
            The copy's folder (must not exist).

        Returns
        -------
        pathlib.Path
            ``to``.
        """
        shutil.copytree(dataset, to)
        return to
