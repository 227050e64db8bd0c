"""Turn-by-turn steps from road geometry, and the SRN connectivity check."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from shapely.geometry import LineString

from groundtruth.graph import load_road_graph
from groundtruth.routing import shortest_route
from groundtruth.turns import (
    ACTIONS,
    BEARING_SAMPLE_M,
    CONTINUE_STRAIGHT,
    STRAIGHT_MAX_DEG,
    TURN_LEFT,
    TURN_RIGHT,
    U_TURN,
    UNNAMED_ROAD,
    UTURN_MIN_DEG,
    bearing_deg,
    classify_turn,
    end_bearing,
    route_legs,
    route_steps,
    start_bearing,
    steps_are_unambiguous,
    steps_connect,
    turn_angle,
)

UT = "make a U-turn and continue straight"

GRID_CASES = [
    # the one-way detour; starting northwards, East Avenue heads south: a U-turn
    (23, 21, ["blue", UT, "East Avenue", "turn right", "South Street", "turn right",
              "West Avenue", "red"]),
    (21, 23, ["blue", "turn right", "Middle Street", "red"]),
    # Curve Road leaves 33 northwards although 42 lies almost due east: turn left
    (31, 42, ["blue", "turn right", "North Street", "turn left", "Curve Road", "red"]),
    # out of a dead end
    (40, 31, ["blue", UT, "Dead End Lane", "turn right", "North Street", "red"]),
    # two edges of East Avenue merge into one step
    (33, 13, ["blue", UT, "East Avenue", "red"]),
    # unnamed road, and a road that is clipped at the extract border
    (11, 25, ["blue", "continue straight", "West Avenue", "turn right", "Middle Street",
              "continue straight", UNNAMED_ROAD, "continue straight", "Border Road", "red"]),
    (25, 11, ["blue", "turn left", "Border Road", "continue straight", UNNAMED_ROAD,
              "turn left", "East Avenue", "turn right", "South Street", "red"]),
]

ROUNDABOUT_CASES = [
    (13, 14, ["blue", "continue straight", "South Road", "turn right", "Market Circle",
              "turn right", "East Road", "red"]),
    (14, 13, ["blue", "turn left", "East Road", "turn right", "Market Circle",
              "turn right", "South Road", "red"]),
    (11, 12, ["blue", UT, "North Road", "turn right", "Market Circle", "turn right",
              "West Road", "red"]),
]


def test_actions_are_spelled_as_in_cartomapqa() -> None:
    assert set(ACTIONS) == {"continue straight", "turn left", "turn right", UT}
    assert U_TURN == UT


@pytest.mark.parametrize(("origin", "destination", "steps"), GRID_CASES)
def test_grid_steps(grid: nx.MultiDiGraph, origin: int, destination: int,
                    steps: list[str]) -> None:
    route = shortest_route(grid, origin, destination)
    assert route_steps(grid, route) == steps
    assert route_steps(grid, route.nodes) == steps
    assert steps_connect(grid, steps, origin, destination)


@pytest.mark.parametrize(("origin", "destination", "steps"), ROUNDABOUT_CASES)
def test_roundabout_steps(roundabout: nx.MultiDiGraph, origin: int, destination: int,
                          steps: list[str]) -> None:
    route = shortest_route(roundabout, origin, destination)
    assert route_steps(roundabout, route) == steps
    assert steps_connect(roundabout, steps, origin, destination)


def test_geometry_bearing_and_straight_line_bearing_disagree(grid: nx.MultiDiGraph) -> None:
    # arriving at 33 eastwards along North Street
    heading = end_bearing(grid.edges[32, 33, 0]["geometry"])
    assert heading == pytest.approx(90.0, abs=0.01)
    straight_line = bearing_deg(60.0025, 24.006, 60.0032, 24.014)  # 33 -> 42
    assert classify_turn(turn_angle(heading, straight_line)) == CONTINUE_STRAIGHT
    along_road = start_bearing(grid.edges[33, 42, 0]["geometry"])
    assert along_road == pytest.approx(0.0, abs=1e-9)
    assert classify_turn(turn_angle(heading, along_road)) == TURN_LEFT
    legs = route_legs(grid, shortest_route(grid, 31, 42))
    assert [leg.action for leg in legs] == [TURN_RIGHT, TURN_LEFT]
    assert legs[1].turn_deg == pytest.approx(-90.0, abs=0.01)
    assert (legs[1].start_node, legs[1].end_node) == (33, 42)
    assert legs[0].edges == ((31, 32, 0), (32, 33, 0))


def test_bearings_use_only_the_geometry_near_the_junction() -> None:
    # 10 m north then 1 km east: over the first 15 m the road still heads mostly north
    line = LineString([(24.0, 60.0), (24.0, 60.00009), (24.018, 60.00009)])
    assert BEARING_SAMPLE_M == 15.0
    assert start_bearing(line, sample_m=5.0) == pytest.approx(0.0, abs=1e-6)
    assert 0.0 < start_bearing(line) < STRAIGHT_MAX_DEG + 30.0
    assert end_bearing(line) == pytest.approx(90.0, abs=0.01)
    assert start_bearing(line, sample_m=5000.0) == pytest.approx(
        bearing_deg(60.0, 24.0, 60.00009, 24.018), abs=1e-9)


_JOG = """<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="hand">
  <bounds minlat="60.1680" minlon="24.9390" maxlat="60.1720" maxlon="24.9420"/>
  <node id="1" version="1" lat="60.1690" lon="24.9400"/>
  <node id="2" version="1" lat="60.1700" lon="24.9400"/>
  <node id="3" version="1" lat="60.1700" lon="24.94004"/>
  <node id="4" version="1" lat="60.1710" lon="24.94004"/>
  <node id="5" version="1" lat="60.1700" lon="24.9410"/>
  <way id="10" version="1"><nd ref="1"/><nd ref="2"/>
    <tag k="highway" v="residential"/><tag k="name" v="Alpha Street"/></way>
  <way id="20" version="1"><nd ref="2"/><nd ref="3"/><nd ref="4"/>
    <tag k="highway" v="residential"/><tag k="name" v="Beta Street"/></way>
  <way id="30" version="1"><nd ref="3"/><nd ref="5"/>
    <tag k="highway" v="residential"/><tag k="name" v="Gamma Street"/></way>
</osm>
"""


def test_a_short_edge_takes_its_direction_from_the_way_past_it(tmp_path: Path) -> None:
    """Beta Street jogs 2.2 m east at its start, where Gamma Street leaves, then runs
    north: its 2.2 m first edge points east, but over 15 m the street heads north
    (atan(2.2 / 12.8) = 9.8 deg), so coming north along Alpha Street one continues
    straight onto it, as a driver sees it (not "turn right")."""
    (tmp_path / "jog.osm").write_text(_JOG, encoding="utf-8")
    graph = load_road_graph(tmp_path / "jog.osm")
    assert start_bearing(graph.edges[2, 3, 0]["geometry"]) == pytest.approx(90.0, abs=0.1)
    assert route_steps(graph, [1, 2, 3, 4]) == [
        "blue", CONTINUE_STRAIGHT, "Alpha Street", CONTINUE_STRAIGHT, "Beta Street", "red"]
    legs = route_legs(graph, [1, 2, 3, 4])
    assert legs[1].turn_deg == pytest.approx(9.8, abs=0.2)


@pytest.mark.parametrize(
    ("delta", "action"),
    [
        (0.0, CONTINUE_STRAIGHT), (STRAIGHT_MAX_DEG, CONTINUE_STRAIGHT),
        (-STRAIGHT_MAX_DEG, CONTINUE_STRAIGHT), (STRAIGHT_MAX_DEG + 0.1, TURN_RIGHT),
        (-(STRAIGHT_MAX_DEG + 0.1), TURN_LEFT), (90.0, TURN_RIGHT), (-90.0, TURN_LEFT),
        (UTURN_MIN_DEG - 0.1, TURN_RIGHT), (-(UTURN_MIN_DEG - 0.1), TURN_LEFT),
        (UTURN_MIN_DEG, U_TURN), (-UTURN_MIN_DEG, U_TURN), (180.0, U_TURN),
    ],
)
def test_classify_turn_thresholds(delta: float, action: str) -> None:
    assert classify_turn(delta) == action


@pytest.mark.parametrize(
    ("heading_in", "heading_out", "delta"),
    [(0, 90, 90), (90, 0, -90), (350, 10, 20), (10, 350, -20), (0, 180, 180),
     (270, 90, 180), (45, 45, 0)],
)
def test_turn_angle(heading_in: float, heading_out: float, delta: float) -> None:
    assert turn_angle(heading_in, heading_out) == pytest.approx(delta)


DETOUR = GRID_CASES[0][2]


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (DETOUR, True),
        ([s.upper() for s in DETOUR], True),  # case does not matter
        (["blue", UT, "east  avenue", "turn right", "South Street", "turn right",
          "West Avenue", "red"], True),
        # wrong first action: East Avenue leaves 23 southwards
        (["blue", "continue straight", "East Avenue", "turn right", "South Street",
          "turn right", "West Avenue", "red"], False),
        # wrong turn direction at 13
        (["blue", UT, "East Avenue", "turn left", "South Street", "turn right",
          "West Avenue", "red"], False),
        # truncated: the last leg is missing, so the path stops short of 21
        (["blue", UT, "East Avenue", "turn right", "South Street", "red"], False),
        # the forbidden shortcut against the one-way Middle Street
        (["blue", "turn left", "Middle Street", "red"], False),
        # a road that does not meet the previous one
        (["blue", UT, "East Avenue", "turn right", "North Street", "red"], False),
        # malformed lists
        (DETOUR[1:], False),
        (DETOUR[:-1], False),
        (["blue", UT, "East Avenue", "South Street", "red"], False),
        (["blue", "go left", "East Avenue", "red"], False),
        (["blue", "red"], False),
        ([], False),
    ],
)
def test_steps_connect_on_the_detour(grid: nx.MultiDiGraph, steps: list[str],
                                     expected: bool) -> None:
    assert steps_connect(grid, steps, 23, 21) is expected


def test_steps_connect_accepts_a_longer_but_connected_path(grid: nx.MultiDiGraph) -> None:
    # from 12 to 32 round three sides of a block instead of up Centre Avenue
    steps = ["blue", "turn left", "South Street", "turn right", "West Avenue", "turn right",
             "North Street", "red"]
    assert steps_connect(grid, steps, 12, 32)
    assert route_steps(grid, shortest_route(grid, 12, 32)) == [
        "blue", "continue straight", "Centre Avenue", "red"]


def test_steps_connect_follows_a_road_through_junctions(grid: nx.MultiDiGraph) -> None:
    # East Avenue from 13 to 33 passes the junction at 23 without a step
    assert steps_connect(grid, ["blue", "continue straight", "East Avenue", "red"], 13, 33)
    # but it cannot turn back along the stretch it just drove
    assert not steps_connect(grid, ["blue", "continue straight", "East Avenue", "red"], 23, 13)


def test_steps_connect_trivial_and_unknown_nodes(grid: nx.MultiDiGraph) -> None:
    assert steps_connect(grid, ["blue", "red"], 22, 22)
    assert not steps_connect(grid, ["blue", "turn right", "Middle Street", "red"], 21, 999)
    assert route_steps(grid, [22]) == ["blue", "red"]


def test_roundabout_steps_connect_only_anticlockwise(roundabout: nx.MultiDiGraph) -> None:
    # South Road, then a left turn into the ring is against its one-way direction
    steps = ["blue", "continue straight", "South Road", "turn left", "Market Circle",
             "turn left", "West Road", "red"]
    assert not steps_connect(roundabout, steps, 13, 12)
    # round the ring the legal way and leave west
    steps = ["blue", "continue straight", "South Road", "turn right", "Market Circle",
             "turn right", "West Road", "red"]
    assert steps_connect(roundabout, steps, 13, 12)
    assert route_steps(roundabout, shortest_route(roundabout, 13, 12)) == steps


def test_steps_are_unambiguous(grid: nx.MultiDiGraph) -> None:
    assert steps_are_unambiguous(grid, shortest_route(grid, 12, 32))
    # round either side of a block: the two routes differ by 1.5 cm and in their steps
    assert not steps_are_unambiguous(grid, shortest_route(grid, 11, 22))
    assert steps_are_unambiguous(grid, shortest_route(grid, 11, 22), within=0.0)  # no tie
    # the one-way detour's rival via North Street is 20 % longer
    assert steps_are_unambiguous(grid, shortest_route(grid, 23, 21), within=0.19)
    assert not steps_are_unambiguous(grid, shortest_route(grid, 23, 21), within=0.21)


@pytest.mark.parametrize(("origin", "destination", "expected"), GRID_CASES)
def test_steps_from_the_geometry_alone_when_a_graph_has_no_bearings(
        grid: nx.MultiDiGraph, origin: int, destination: int, expected: list[str]) -> None:
    """issue 33 (mutation seed 3305): a graph built elsewhere has no ``start_bearing``
    or ``end_bearing`` on its edges; the turns come from each edge's geometry, the same."""
    bare = grid.copy()
    for _, _, data in bare.edges(data=True):
        del data["start_bearing"], data["end_bearing"]
    assert route_steps(bare, shortest_route(bare, origin, destination)) == expected
