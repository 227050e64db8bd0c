"""The road-graph cache (:mod:`cartoqa.road_graph_cache`): the same graph, built once."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from cartoqa.road_graph_cache import cached_road_graph, graph_path
from cartoqa.tasks.base import BuildContext
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
