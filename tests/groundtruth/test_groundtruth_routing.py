"""Shortest drivable routes and their lengths on the hand-made grid and roundabout."""

from __future__ import annotations

import networkx as nx
import pytest
from gt_handcalc import flat_m, meridian_m, parallel_m

from groundtruth.distance import meters_to_feet
from groundtruth.errors import GroundTruthError
from groundtruth.routing import (
    NoRouteError,
    close_alternatives,
    has_route,
    nearest_node,
    route_from_nodes,
    route_length_m,
    shortest_route,
)

# Hand computations of the grid's edges (see assets/osm/grid.osm).
LAT1, LAT2, LAT3 = 60.0, 60.001, 60.0025
COLUMN_GAP_SOUTH = parallel_m(LAT1, 24.000, 24.003)
ROW_GAP_EAST = meridian_m(LAT1, LAT2)


def test_one_way_street_forces_a_detour(grid: nx.MultiDiGraph) -> None:
    route = shortest_route(grid, 23, 21)
    # Middle Street runs only eastwards: go round by East Avenue, South Street, West Avenue
    assert route.nodes == (23, 13, 12, 11, 21)
    hand = ROW_GAP_EAST + 2 * COLUMN_GAP_SOUTH + meridian_m(LAT1, LAT2)
    assert route.length_m == pytest.approx(hand, abs=0.01)
    assert route.length_m == pytest.approx(557.625, abs=0.001)
    assert route.length_ft == pytest.approx(hand / 0.3048, abs=0.01 / 0.3048)
    assert route.length_ft == meters_to_feet(route.length_m)


def test_with_the_one_way_the_route_is_direct(grid: nx.MultiDiGraph) -> None:
    route = shortest_route(grid, 21, 23)
    assert route.nodes == (21, 22, 23)
    assert route.edges == ((21, 22, 0), (22, 23, 0))
    assert route.length_m == pytest.approx(2 * parallel_m(LAT2, 24.0, 24.003), abs=0.01)


def test_route_follows_the_road_geometry(grid: nx.MultiDiGraph) -> None:
    route = shortest_route(grid, 31, 42)
    assert route.nodes == (31, 32, 33, 42)
    assert route.coords == ((60.0025, 24.0), (60.0025, 24.003), (60.0025, 24.006),
                            (60.003, 24.006), (60.0032, 24.014))
    hand = (2 * parallel_m(LAT3, 24.0, 24.003) + meridian_m(LAT3, 60.003)
            + flat_m(60.003, 24.006, 60.0032, 24.014))
    assert route.length_m == pytest.approx(hand, abs=0.01)


def test_route_through_a_clipped_way_and_an_unnamed_road(grid: nx.MultiDiGraph) -> None:
    route = shortest_route(grid, 25, 11)
    assert route.nodes == (25, 24, 23, 13, 12, 11)
    hand = (2 * parallel_m(LAT2, 24.006, 24.009) + ROW_GAP_EAST + 2 * COLUMN_GAP_SOUTH)
    assert route.length_m == pytest.approx(hand, abs=0.01)


def test_roundabout_is_driven_anticlockwise(roundabout: nx.MultiDiGraph) -> None:
    assert shortest_route(roundabout, 13, 14).nodes == (13, 3, 4, 14)  # a quarter
    assert shortest_route(roundabout, 14, 13).nodes == (14, 4, 1, 2, 3, 13)  # three quarters


def test_no_route_from_a_one_way_exit(roundabout: nx.MultiDiGraph) -> None:
    assert not has_route(roundabout, 12, 11)
    assert has_route(roundabout, 11, 12)
    with pytest.raises(NoRouteError):
        shortest_route(roundabout, 12, 11)


def test_unknown_nodes_and_broken_paths_are_user_errors(grid: nx.MultiDiGraph) -> None:
    with pytest.raises(GroundTruthError, match="not a junction"):
        shortest_route(grid, 11, 41)  # 41 is a shape node, not a junction
    # the message says which end of the route is wrong
    with pytest.raises(GroundTruthError, match=r"^origin node 41 is not a junction"):
        shortest_route(grid, 41, 11)
    with pytest.raises(GroundTruthError, match=r"^destination node 41 is not a junction"):
        shortest_route(grid, 11, 41)
    with pytest.raises(GroundTruthError, match="no drivable edge"):
        route_from_nodes(grid, [22, 21])  # against the one-way
    with pytest.raises(GroundTruthError):
        route_from_nodes(grid, [])


def test_single_node_route(grid: nx.MultiDiGraph) -> None:
    route = shortest_route(grid, 22, 22)
    assert (route.nodes, route.edges, route.length_m) == ((22,), (), 0.0)
    assert route.coords == ((60.001, 24.003),)


def test_route_length_of_a_node_path(grid: nx.MultiDiGraph) -> None:
    hand = COLUMN_GAP_SOUTH + ROW_GAP_EAST
    assert route_length_m(grid, [11, 12, 22]) == pytest.approx(hand, abs=0.01)


def test_nearest_node(grid: nx.MultiDiGraph) -> None:
    assert nearest_node(grid, 60.0011, 24.0031) == 22
    assert nearest_node(grid, 60.003, 24.006) == 33  # at shape node 41, 55 m from 33
    assert nearest_node(grid, 60.0031, 24.0135) == 42


def test_close_alternatives(grid: nx.MultiDiGraph) -> None:
    # 11 -> 22: north then east, or east then north; the parallel at 60.001 is shorter
    route = shortest_route(grid, 11, 22)
    assert route.nodes == (11, 21, 22)
    alts = close_alternatives(grid, route, within=0.01)
    assert [a.nodes for a in alts] == [(11, 12, 22)]
    hand = parallel_m(LAT1, 24.0, 24.003) + meridian_m(60.0, 60.001)
    assert alts[0].length_m == pytest.approx(hand, abs=0.01)
    assert alts[0].length_m - route.length_m == pytest.approx(
        parallel_m(LAT1, 24.0, 24.003) - parallel_m(LAT2, 24.0, 24.003), abs=1e-6)
    # Centre Avenue from 12 to 32 has no rival within 5 %
    assert close_alternatives(grid, shortest_route(grid, 12, 32)) == []
    assert close_alternatives(grid, shortest_route(grid, 12, 32), within=1.3) != []
    assert close_alternatives(grid, shortest_route(grid, 12, 12)) == []


def test_random_route_draws_among_the_nodes_in_the_distance_window(
        grid: nx.MultiDiGraph) -> None:
    import random

    from groundtruth.routing import random_route

    # from 21, 150-200 road metres away lie only 22 (one block east, parallel_m of
    # 0.003 degrees at 60.001) and 31 (one row north, meridian_m of 0.0015 degrees);
    # 11 is 111 m south, everything else farther than 200 m
    assert 150 < parallel_m(LAT2, 24.0, 24.003) < 200 and 150 < meridian_m(LAT2, LAT3) < 200
    ends = {random_route(grid, 21, random.Random(s), cutoff_m=200.0, min_m=150.0,
                         round_=0, rounds=1).nodes for s in range(20)}  # type: ignore[union-attr]
    assert ends == {(21, 22), (21, 31)}
    # two passes over the origins split the sorted candidates [22, 31] between them
    for round_, node in ((0, 22), (1, 31)):
        route = random_route(grid, 21, random.Random(0), cutoff_m=200.0, min_m=150.0,
                             round_=round_, rounds=2)
        assert route is not None and route.nodes == (21, node)
    assert random_route(grid, 21, random.Random(0), cutoff_m=200.0, min_m=150.0,
                        round_=0, rounds=1, destinations={11}) is None


def test_a_node_missing_from_the_graph_has_no_route(grid: nx.MultiDiGraph) -> None:
    assert 11 in grid and 999 not in grid
    assert not has_route(grid, 999, 11)
    assert not has_route(grid, 11, 999)


def test_a_route_through_a_missing_node_names_it(grid: nx.MultiDiGraph) -> None:
    with pytest.raises(GroundTruthError, match="route node 999 is not a junction"):
        route_from_nodes(grid, [11, 999])
