"""The road-graph cache (:mod:`cartoqa.road_graph_cache`): the same graph, built once."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from cartoqa.road_graph_cache import cached_road_graph, graph_path
from cartoqa.tasks.common.base import BuildContext
from groundtruth.assets import asset_path
from groundtruth.extracts import resolve_extract
from groundtruth.graph import load_road_graph

GRID = asset_path("osm", "grid.osm")


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the graph was built again instead of read from the cache")


def _same(a: Any, b: Any) -> None:
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    edges_a = list(a.edges(keys=True, data=True))
    edges_b = list(b.edges(keys=True, data=True))
    assert [(u, v, k) for u, v, k, _ in edges_a] == [(u, v, k) for u, v, k, _ in edges_b]
    for (_, _, _, da), (_, _, _, db) in zip(edges_a, edges_b, strict=True):
        assert da.keys() == db.keys()
        for key in da:
            if key == "geometry":
                assert da[key].wkb == db[key].wkb
            else:
                assert da[key] == db[key]
    assert a.graph == b.graph


@pytest.mark.parametrize("legal", [True, False])
def test_a_cached_graph_is_the_built_graph_and_is_not_built_again(tmp_path: Path,
                                                                    legal: bool) -> None:
    extract = resolve_extract(GRID)
    first = cached_road_graph(extract, tmp_path, legal=legal)
    path = graph_path(tmp_path, extract, legal=legal)
    assert path is not None and path.is_file()
    again = cached_road_graph(extract, tmp_path, legal=legal, build=_refuse)
    _same(again, load_road_graph(extract, legal=legal))
    _same(first, again)
    assert again.graph["legal"] is legal


def test_the_legal_and_the_readers_graph_are_kept_apart(tmp_path: Path) -> None:
    extract = resolve_extract(GRID)
    legal = graph_path(tmp_path, extract, legal=True)
    naive = graph_path(tmp_path, extract, legal=False)
    assert legal != naive
    # Middle Street is one-way eastwards in both; the reader's graph is not "legal"
    assert cached_road_graph(extract, tmp_path, legal=True).graph["legal"] is True
    assert cached_road_graph(extract, tmp_path, legal=False).graph["legal"] is False


def test_a_broken_or_foreign_file_is_rebuilt(tmp_path: Path) -> None:
    extract = resolve_extract(GRID)
    path = graph_path(tmp_path, extract, legal=True)
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    graph = cached_road_graph(extract, tmp_path)
    _same(graph, load_road_graph(extract))
    _same(pickle.loads(path.read_bytes()), graph)  # replaced by the good one
    other = load_road_graph(extract)
    other.graph["extract_sha256"] = "0" * 64  # a graph of another extract under this name
    path.write_bytes(pickle.dumps(other))
    assert cached_road_graph(extract, tmp_path).graph["extract_sha256"] == extract.sha256


def test_the_build_context_reads_the_cache(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import groundtruth.graph as graph_module

    extract = resolve_extract(GRID)
    cached_road_graph(extract, tmp_path)
    cached_road_graph(extract, tmp_path, legal=False)
    ctx = BuildContext(extract, seed=0, per_task=1, cache_dir=tmp_path, assets_dir=tmp_path)
    edges = load_road_graph(extract).number_of_edges()
    monkeypatch.setattr(graph_module, "load_road_graph", _refuse)
    assert ctx.graph().number_of_edges() == edges
    assert ctx.naive_graph().graph["legal"] is False


def test_a_mutation_run_keeps_no_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mutmut keeps every mutant in one source: a mutant must build its own graph."""
    extract = resolve_extract(GRID)
    cached_road_graph(extract, tmp_path)
    monkeypatch.setenv("CARTOQA_MUTATION", "1")
    with pytest.raises(AssertionError, match="built again"):
        cached_road_graph(extract, tmp_path, build=_refuse)


class _Planted:
    """A pickle that records that it was loaded (as a hostile one would run code)."""

    loaded = False

    def __reduce__(self) -> Any:
        return (_mark_loaded, ())


def _mark_loaded() -> None:
    _Planted.loaded = True


def test_a_folder_others_may_write_is_neither_read_nor_written(tmp_path: Path) -> None:
    """A pickle runs code when loaded: one planted in a shared cache is never loaded."""
    extract = resolve_extract(GRID)
    path = graph_path(tmp_path, extract, legal=True)
    assert path is not None
    path.parent.mkdir()
    path.parent.chmod(0o777)
    path.write_bytes(pickle.dumps(_Planted()))
    _Planted.loaded = False
    graph = cached_road_graph(extract, tmp_path)
    assert not _Planted.loaded
    _same(graph, load_road_graph(extract))
    assert path.read_bytes() == pickle.dumps(_Planted())  # left as found, not replaced
    assert path.parent.stat().st_mode & 0o777 == 0o777


def test_a_missing_cache_root_is_created_private(tmp_path: Path) -> None:
    extract = resolve_extract(GRID)
    root = tmp_path / "new" / "cache"
    cached_road_graph(extract, root)
    path = graph_path(root, extract, legal=True)
    assert path is not None and path.is_file()
    assert path.parent.stat().st_mode & 0o777 == 0o700
