"""Run the numpydoc examples of the groundtruth modules as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "groundtruth._osm_reader", "groundtruth.bearings", "groundtruth.catalogue",
    "groundtruth.distance",
    "groundtruth.extracts", "groundtruth.features", "groundtruth.graph",
    "groundtruth.junctions", "groundtruth.projection", "groundtruth.routing",
    "groundtruth.turns", "groundtruth.assets", "groundtruth.osmnx_graph", "groundtruth",
    "groundtruth.named_features", "groundtruth.relations", "groundtruth.pedestrian_areas",
    "groundtruth.tunnels",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
