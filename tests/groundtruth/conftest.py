"""Fixtures for the groundtruth tests: graphs and features of the hand-made extracts."""

from __future__ import annotations

import networkx as nx
import pytest
from gt_scope import session_scope

from groundtruth.assets import asset_path
from groundtruth.features import Feature, load_features
from groundtruth.graph import load_road_graph


@pytest.fixture(scope=session_scope)
def grid() -> nx.MultiDiGraph:
    """The road graph of assets/osm/grid.osm."""
    return load_road_graph(asset_path("osm", "grid.osm"))


@pytest.fixture(scope=session_scope)
def roundabout() -> nx.MultiDiGraph:
    """The road graph of assets/osm/roundabout.osm."""
    return load_road_graph(asset_path("osm", "roundabout.osm"))


@pytest.fixture(scope=session_scope)
def fixture_features() -> list[Feature]:
    """The features of assets/osm/features.osm."""
    return load_features(asset_path("osm", "features.osm"))


@pytest.fixture(scope="session")
def helsinki() -> nx.MultiDiGraph:
    """The road graph of the bundled Helsinki extract."""
    return load_road_graph("helsinki")
