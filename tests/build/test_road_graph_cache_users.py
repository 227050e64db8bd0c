"""The road-graph cache when another local user can reach it (issue 31, point 2).

A pickle runs code when loaded. Before, the ``road-graphs`` folder was checked by name
and then read by name: a user who could write the cache root swapped the folder in
between, and their pickle ran as root in 3 of 500 loads. Now a cache another user can
write is refused as a whole, and a safe one is read through descriptors. The folders
of "another user" are made as root and given to ``nobody``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import pwd
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from cartoqa.road_graph_cache import (
    SUBDIR,
    UnsafeCacheError,
    cached_road_graph,
    graph_path,
    open_private_folder,
)
from groundtruth.assets import asset_path
from groundtruth.extracts import resolve_extract
from groundtruth.graph import load_road_graph

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as nobody")

GRID = asset_path("osm", "grid.osm")


class _Planted:
    loaded = 0

    def __reduce__(self) -> Any:
        return (_mark, ())


def _mark() -> None:
    _Planted.loaded += 1


def _nobody() -> tuple[int, int]:
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def _give(path: Path) -> None:
    uid, gid = _nobody()
    os.chown(path, uid, gid)


@pytest.fixture(scope="module")
def graph() -> Any:
    return load_road_graph(resolve_extract(GRID))


def _plant(root: Path) -> Path:
    path = graph_path(root, resolve_extract(GRID), legal=True)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(_Planted()))
    return path


def _built(graph: Any) -> Any:
    def build(extract: Any, legal: bool = True) -> Any:
        return graph
    return build


@pytest.mark.parametrize("case", [
    "cache root owned by nobody",
    "cache root writable by others",
    "road-graphs owned by nobody",
    "pickle owned by nobody",
    "pickle writable by others",
    "parent writable by others",
    "road-graphs is a link to nobody's folder",
    "pickle is a link",
    "cache root a link into a folder of nobody",
])
def test_a_pickle_another_user_could_write_is_never_loaded(tmp_path: Path, graph: Any,
                                                           case: str) -> None:
    parent = tmp_path / "parent"
    parent.mkdir()
    root = parent / "cache"
    root.mkdir()
    path = _plant(root)
    if case == "cache root owned by nobody":
        _give(root)
    elif case == "cache root writable by others":
        root.chmod(0o777)
    elif case == "road-graphs owned by nobody":
        _give(path.parent)
    elif case == "pickle owned by nobody":
        _give(path)
    elif case == "pickle writable by others":
        path.chmod(0o666)
    elif case == "parent writable by others":
        parent.chmod(0o777)
    elif case == "road-graphs is a link to nobody's folder":
        theirs = tmp_path / "theirs"
        shutil.move(path.parent, theirs)
        _give(theirs)
        (root / SUBDIR).symlink_to(theirs)
    elif case == "pickle is a link":
        theirs = tmp_path / "planted.pickle"
        shutil.move(path, theirs)
        path.symlink_to(theirs)
    elif case == "cache root a link into a folder of nobody":
        theirs = tmp_path / "theirs"
        theirs.mkdir()
        _give(theirs)
        shutil.move(root, theirs / "cache")
        root.symlink_to(theirs / "cache")
    _Planted.loaded = 0
    got = cached_road_graph(resolve_extract(GRID), root, build=_built(graph))
    assert _Planted.loaded == 0
    assert got is graph


def test_a_safe_cache_in_sticky_tmp_is_used(tmp_path: Path, graph: Any) -> None:
    # /tmp is root's, writable by all but sticky: nobody cannot rename our folders there
    root = Path(os.environ.get("TMPDIR", "/tmp")) / f"cartoqa-rg-{os.getpid()}"
    shutil.rmtree(root, ignore_errors=True)
    try:
        extract = resolve_extract(GRID)
        cached_road_graph(extract, root, build=_built(graph))
        path = graph_path(root, extract, legal=True)
        assert path is not None and path.is_file()
        assert path.parent.stat().st_mode & 0o777 == 0o700

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("built again")

        assert cached_road_graph(extract, root, build=refuse).number_of_edges() == \
            graph.number_of_edges()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_open_private_folder_names_what_is_wrong(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    root.mkdir()
    _give(root)
    with pytest.raises(UnsafeCacheError, match="belongs to user id 65534"):
        os.close(open_private_folder(root))


def test_swapping_the_folder_during_loads_never_runs_a_planted_pickle(
        tmp_path: Path, graph: Any) -> None:
    """The race of the issue, replayed: a writable cache root, 300 loads, a swapper.

    Before, the check and the read went by name; now the cache is refused as a whole
    while its root is writable by others, and a swap cannot redirect an open descriptor.
    """
    root = tmp_path / "cache"
    root.mkdir()
    extract = resolve_extract(GRID)
    cached_road_graph(extract, root, build=_built(graph))  # a good graph is kept
    good = root / SUBDIR
    evil = tmp_path / "evil"
    _plant(evil)
    _give(evil / SUBDIR)
    stop = threading.Event()

    def swapper() -> None:
        spare = tmp_path / "spare"
        while not stop.is_set():
            for src, dst in ((good, spare), (evil / SUBDIR, good), (good, evil / SUBDIR),
                             (spare, good)):
                with contextlib.suppress(OSError):
                    os.rename(src, dst)

    root.chmod(0o777)  # the shared cache the issue found
    thread = threading.Thread(target=swapper, daemon=True)
    _Planted.loaded = 0
    thread.start()
    try:
        for _ in range(300):
            cached_road_graph(extract, root, build=_built(graph))
    finally:
        stop.set()
        thread.join()
    assert _Planted.loaded == 0
    root.chmod(0o755)  # and once private again, swaps by root itself still load safely
    _Planted.loaded = 0
    for _ in range(50):
        cached_road_graph(extract, root, build=_built(graph))
    assert _Planted.loaded == 0
