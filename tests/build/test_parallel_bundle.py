"""The prepared state the builder hands its worker processes (:mod:`cartoqa.parallel`)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from cartoqa import parallel
from cartoqa.parallel import prepared_bundle
from cartoqa.tasks.common.base import BuildContext
from groundtruth.assets import asset_path
from groundtruth.extracts import resolve_extract


def _ctx(tmp_path: Path) -> BuildContext:
    return BuildContext(resolve_extract(asset_path("osm", "grid.osm")), seed=0, per_task=1,
                        cache_dir=tmp_path, assets_dir=tmp_path)


def test_bundle_carries_graph_and_picklable_states(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    graph = ctx.graph()
    states = {"mml": {"graph": graph, "junctions": [21, 22]},
              "odd": {"handle": lambda: 0}}  # a state that does not pickle
    prepared = pickle.loads(prepared_bundle(ctx, states))
    assert set(prepared["states"]) == {"mml"}  # the worker prepares "odd" itself
    assert prepared["states"]["mml"]["junctions"] == [21, 22]
    # one pickle: the state's graph is the bundle's graph, sent once
    assert prepared["states"]["mml"]["graph"] is prepared["graph"]
    assert sorted(prepared["graph"].edges) == sorted(graph.edges)
    assert prepared["naive_graph"] is None and prepared["features"] is None


def test_a_state_too_large_is_left_to_the_workers(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MAX_STATE_BYTES", 1000)
    ctx = _ctx(tmp_path)
    states = {"small": [1, 2, 3], "large": list(range(10_000))}
    assert set(pickle.loads(prepared_bundle(ctx, states))["states"]) == {"small"}
