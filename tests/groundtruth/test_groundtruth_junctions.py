"""Road names at junctions and junctions of exactly two named roads."""

from __future__ import annotations

import networkx as nx
import pytest

from groundtruth.errors import GroundTruthError
from groundtruth.junctions import junction, junctions_of, road_names_at, two_road_junctions


def test_road_names_at(grid: nx.MultiDiGraph) -> None:
    assert road_names_at(grid, 11) == ["South Street", "West Avenue"]
    # Middle Street only leaves 21 (one-way): incoming and outgoing edges both count
    assert road_names_at(grid, 23) == ["East Avenue", "Middle Street"]  # unnamed left out
    assert road_names_at(grid, 32) == ["Centre Avenue", "Dead End Lane", "North Street"]
    assert road_names_at(grid, 40) == ["Dead End Lane"]
    assert road_names_at(grid, 41) == []  # a shape node is no junction


def test_two_road_junctions(grid: nx.MultiDiGraph) -> None:
    # 11, 13, 31: corners with two streets only; 23: an unnamed road also meets there;
    # 32, 33: three names
    assert two_road_junctions(grid) == [12, 21, 22]
    assert two_road_junctions(grid, allow_unnamed=True) == [12, 21, 22, 23]
    assert two_road_junctions(grid, min_street_count=2) == [11, 12, 13, 21, 22, 31]


def test_two_road_junctions_at_the_roundabout(roundabout: nx.MultiDiGraph) -> None:
    assert two_road_junctions(roundabout) == [1, 2, 3, 4]
    assert road_names_at(roundabout, 2) == ["Market Circle", "West Road"]


def test_junctions_of(grid: nx.MultiDiGraph) -> None:
    assert junctions_of(grid, "Middle Street", "Centre Avenue") == [22]
    assert junctions_of(grid, "EAST AVENUE", "north street") == [33]
    assert junctions_of(grid, "South Street", "North Street") == []
    assert junctions_of(grid, "South Street", "South Street") == []


def test_junction_lookup(grid: nx.MultiDiGraph) -> None:
    assert junction(grid, "Middle Street", "East Avenue") == 23
    assert junction(grid, "centre avenue", "SOUTH STREET") == 12
    with pytest.raises(GroundTruthError, match="do not meet") as info:
        junction(grid, "South Street", "North Street")
    assert info.value.fix
