"""Legal routing on assets/osm/legal.osm: every rule pinned by a hand-computed route.

Each block of the fixture is the same ladder (see the file's header): South Street
b11-b12-b13 at lat 60.000, North Street b21-b22-b23 at lat 60.001, Centre Avenue
b12-b22 and East Avenue b13-b23. Without its rule, each route below would be the
direct one, b11 -> b12 -> b22 (two edges); with it, the car goes round by East Avenue.
"""

from __future__ import annotations

import networkx as nx
import pytest
from gt_handcalc import flat_m, meridian_m, parallel_m
from gt_scope import module_scope

from groundtruth._osm_reader import RawRestriction, RawWay, RoadData
from groundtruth.access import car_access
from groundtruth.assets import asset_path
from groundtruth.graph import build_road_graph, load_road_graph
from groundtruth.routing import (
    NoRouteError,
    has_route,
    route_from_nodes,
    route_length_m,
    shortest_route,
)


def x0(block: int) -> float:
    return 24.0 + 0.01 * block


def south(block: int) -> float:
    """One half of South Street (0.002 degrees of longitude at lat 60.000)."""
    return parallel_m(60.0, x0(block), x0(block) + 0.002)


def north(block: int) -> float:
    return parallel_m(60.001, x0(block), x0(block) + 0.002)


AVENUE = meridian_m(60.0, 60.001)


def direct(block: int) -> float:
    """b11 -> b12 -> b22."""
    return south(block) + AVENUE


def around(block: int) -> float:
    """b11 -> b12 -> b13 -> b23 -> b22."""
    return 2 * south(block) + AVENUE + north(block)


def nodes(block: int, *cells: int) -> tuple[int, ...]:
    return tuple(block * 100 + c for c in cells)


@pytest.fixture(scope=module_scope)
def legal() -> nx.MultiDiGraph:
    return load_road_graph(asset_path("osm", "legal.osm"))


@pytest.fixture(scope=module_scope)
def naive() -> nx.MultiDiGraph:
    return load_road_graph(asset_path("osm", "legal.osm"), legal=False)


def test_hand_lengths_are_what_the_fixture_says() -> None:
    assert direct(1) == pytest.approx(223.01, abs=0.01)
    assert around(1) == pytest.approx(446.21, abs=0.01)


@pytest.mark.parametrize("block", [1, 9, 10])
def test_no_left_turn_at_a_via_node(legal: nx.MultiDiGraph, block: int) -> None:
    # 1: restriction=no_left_turn; 9: restriction:conditional (always in force);
    # 10: restriction:motorcar
    route = shortest_route(legal, *nodes(block, 11, 22))
    assert route.nodes == nodes(block, 11, 12, 13, 23, 22)
    assert route.length_m == pytest.approx(around(block), abs=0.01)
    # the restriction binds only the turn from South Street: from North Street's end the
    # same junction is passed freely
    assert shortest_route(legal, *nodes(block, 22, 11)).nodes == nodes(block, 22, 12, 11)


def test_only_straight_on(legal: nx.MultiDiGraph) -> None:
    route = shortest_route(legal, 211, 222)
    assert route.nodes == (211, 212, 213, 223, 222)
    assert route.length_m == pytest.approx(around(2), abs=0.01)
    # coming down Centre Avenue, the restriction (from South Street) does not apply
    assert shortest_route(legal, 222, 211).nodes == (222, 212, 211)


def test_via_way_restriction_is_a_sequence(legal: nx.MultiDiGraph) -> None:
    # South Street 3 -> Centre Avenue 3 -> west half of North Street 3 is forbidden...
    route = shortest_route(legal, 311, 321)
    assert route.nodes == (311, 312, 313, 323, 322, 321)
    assert route.length_m == pytest.approx(around(3) + north(3), abs=0.01)
    # ... but Centre Avenue -> North Street is allowed when the car did not come from
    # South Street's west half, and South Street -> Centre Avenue -> east is allowed
    assert shortest_route(legal, 312, 321).nodes == (312, 322, 321)
    assert shortest_route(legal, 311, 322).nodes == (311, 312, 322)


def test_except_motorcar_and_other_modes_do_not_bind_cars(legal: nx.MultiDiGraph) -> None:
    route = shortest_route(legal, 411, 422)
    assert route.nodes == (411, 412, 422)
    assert route.length_m == pytest.approx(direct(4), abs=0.01)
    assert {r.relation for r in legal.graph["restrictions"]} == {1, 2, 3, 9, 10}


def test_bus_only_way_is_closed_to_cars(legal: nx.MultiDiGraph,
                                        naive: nx.MultiDiGraph) -> None:
    assert not legal.has_edge(512, 522) and not legal.has_edge(522, 512)
    route = shortest_route(legal, 511, 522)
    assert route.nodes == (511, 512, 513, 523, 522)
    assert route.length_m == pytest.approx(around(5), abs=0.01)
    # a reader who ignores the access signs takes Centre Avenue
    assert shortest_route(naive, 511, 522).nodes == (511, 512, 522)


def test_destination_only_road_only_at_the_ends(legal: nx.MultiDiGraph) -> None:
    assert legal.edges[612, 622, 0]["access"] == "destination"
    # through traffic (South Street -> Centre Avenue -> North Street) is not allowed
    route = shortest_route(legal, 611, 621)
    assert route.nodes == (611, 612, 613, 623, 622, 621)
    assert route.length_m == pytest.approx(around(6) + north(6), abs=0.01)
    # as the last or the first part of a route it is
    assert shortest_route(legal, 611, 622).nodes == (611, 612, 622)
    assert shortest_route(legal, 622, 611).nodes == (622, 612, 611)
    assert shortest_route(legal, 622, 612).length_m == pytest.approx(AVENUE, abs=0.01)


def test_destination_only_road_is_open_to_a_reader(naive: nx.MultiDiGraph) -> None:
    # the reader ignores access signs: no edge of the naive graph is destination-only,
    # and through traffic takes Centre Avenue 6 (b11 -> b12 -> b22 -> b21)
    assert {access for _, _, access in naive.edges(data="access")} == {"yes"}
    route = shortest_route(naive, 611, 621)
    assert route.nodes == (611, 612, 622, 621)
    assert route.length_m == pytest.approx(direct(6) + north(6), abs=0.01)


def test_bollard_blocks_and_a_gate_opens(legal: nx.MultiDiGraph,
                                         naive: nx.MultiDiGraph) -> None:
    assert legal.graph["barrier_edges_dropped"] == 1
    assert not legal.has_edge(712, 722)
    # round by East Avenue, through the (opened) gate at 713
    route = shortest_route(legal, 711, 722)
    assert route.nodes == (711, 712, 713, 723, 722)
    assert route.length_m == pytest.approx(around(7), abs=0.01)
    assert shortest_route(naive, 711, 722).nodes == (711, 712, 722)


def test_parallel_ways_take_the_shorter(legal: nx.MultiDiGraph) -> None:
    bent = 2 * flat_m(60.0, x0(8) + 0.002, 60.0005, x0(8) + 0.003)
    assert legal.edges[812, 822, 0]["osmid"] == 8003  # the long one has the lower key
    assert legal.edges[812, 822, 0]["length"] == pytest.approx(bent, abs=0.01)
    route = shortest_route(legal, 811, 822)
    assert route.edges == ((811, 812, 0), (812, 822, 1))
    assert route.length_m == pytest.approx(direct(8), abs=0.01)
    back = shortest_route(legal, 822, 811)
    assert back.edges[0] == (822, 812, 1)
    # a route given by its nodes takes the shorter parallel edge too
    by_nodes = route_from_nodes(legal, [811, 812, 822])
    assert by_nodes.edges[1] == (812, 822, 1)
    assert route_length_m(legal, [811, 812, 822]) == pytest.approx(direct(8), abs=0.01)


def test_broken_restrictions_are_dropped_and_counted(legal: nx.MultiDiGraph) -> None:
    assert legal.graph["restrictions_dropped"] == 3
    assert legal.graph["restrictions_dropped_by_reason"] == {
        "member missing from the extract": 2, "via not on the ways": 1}


def test_the_naive_graph_has_no_rules(naive: nx.MultiDiGraph) -> None:
    assert naive.graph["legal"] is False
    assert "restrictions" not in naive.graph
    for block in (1, 2, 3, 6, 9, 10):
        assert shortest_route(naive, *nodes(block, 11, 22)).nodes == nodes(block, 11, 12, 22)


def _cross(barrier: dict[str, str] | None) -> nx.MultiDiGraph:
    """A cross: way 1 runs 1-5-2 (west to east), way 2 runs 3-5-4 (south to north)."""
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 2: (60.0, 24.002),
              3: (59.9995, 24.001), 4: (60.0005, 24.001)}
    tags = {"highway": "residential", "name": "A"}
    data = RoadData(ways=[RawWay(1, tags, ((1, 5, 2),)), RawWay(2, tags, ((3, 5, 4),))],
                    coords=coords, barriers={5: barrier} if barrier else {})
    return build_road_graph(data)


def test_a_barrier_on_a_junction_stops_passing_through() -> None:
    assert shortest_route(_cross(None), 1, 2).nodes == (1, 5, 2)
    blocked = _cross({"barrier": "bollard"})
    assert blocked.graph["barrier_nodes"] == frozenset({5})
    assert not has_route(blocked, 1, 2)
    with pytest.raises(NoRouteError):
        shortest_route(blocked, 1, 4)
    # a route may still start or end at the barrier
    assert shortest_route(blocked, 1, 5).nodes == (1, 5)
    assert shortest_route(blocked, 5, 4).nodes == (5, 4)
    opened = _cross({"barrier": "bollard", "motor_vehicle": "yes"})
    assert shortest_route(opened, 1, 2).nodes == (1, 5, 2)
    private_gate = _cross({"barrier": "gate", "access": "private"})
    assert not has_route(private_gate, 1, 2)


def test_a_clipped_restriction_never_raises() -> None:
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 2: (60.0, 24.002)}
    data = RoadData(ways=[RawWay(1, {"highway": "residential"}, ((1, 5, 2),))],
                    coords=coords,
                    restrictions=[RawRestriction(7, {"type": "restriction",
                                                     "restriction": "no_u_turn"},
                                                 (("w", 1, "from"), ("n", 5, "via"),
                                                  ("w", 8, "to"))),
                                  RawRestriction(8, {"type": "restriction",
                                                     "restriction": "no_u_turn"},
                                                 (("w", 1, "from"), ("w", 1, "to")))])
    graph = build_road_graph(data)
    assert graph.graph["restrictions_dropped_by_reason"] == {
        "malformed relation": 1, "member missing from the extract": 1}
    assert shortest_route(graph, 1, 2).nodes == (1, 2)  # one way, no junction at 5


def test_only_turn_onto_a_road_closed_to_cars_leaves_no_way_on() -> None:
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 2: (60.0, 24.002), 4: (60.0005, 24.001)}
    road = {"highway": "residential"}
    ways = [RawWay(1, road, ((1, 5),)), RawWay(2, road, ((5, 2),)),
            RawWay(3, {**road, "vehicle": "no", "bus": "yes"}, ((5, 4),))]

    def graph(value: str) -> nx.MultiDiGraph:
        rel = RawRestriction(9, {"type": "restriction", "restriction": value},
                             (("w", 1, "from"), ("n", 5, "via"), ("w", 3, "to")))
        return build_road_graph(RoadData(ways=ways, coords=coords, restrictions=[rel]))

    # only_straight_on onto the bus road: a car from way 1 may not go on along way 2
    assert not has_route(graph("only_straight_on"), 1, 2)
    assert has_route(graph("only_straight_on"), 2, 1)
    # no_left_turn onto the bus road restricts nothing a car could do anyway
    assert shortest_route(graph("no_left_turn"), 1, 2).nodes == (1, 5, 2)
    assert graph("no_left_turn").graph["restrictions"] == []


def test_a_route_goes_round_a_barrier_on_the_nearest_junction() -> None:
    # the cross of _cross with a bollard on 5, and a third way from 1 round by 6 to 2
    # (6 is no junction, so the way is one edge 1-2): the search reaches the barrier
    # first (1-5 is the shortest first edge) and must go on searching past it
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 2: (60.0, 24.002),
              3: (59.9995, 24.001), 4: (60.0005, 24.001), 6: (60.001, 24.001)}
    tags = {"highway": "residential", "name": "A"}
    data = RoadData(ways=[RawWay(1, tags, ((1, 5, 2),)), RawWay(2, tags, ((3, 5, 4),)),
                          RawWay(3, tags, ((1, 6, 2),))],
                    coords=coords, barriers={5: {"barrier": "bollard"}})
    graph = build_road_graph(data)
    route = shortest_route(graph, 1, 2)
    assert route.nodes == (1, 2)
    assert graph.edges[route.edges[0]]["osmid"] == 3
    assert route.coords == ((60.0, 24.0), (60.001, 24.001), (60.0, 24.002))
    hand = flat_m(60.0, 24.0, 60.001, 24.001) + flat_m(60.001, 24.001, 60.0, 24.002)
    assert route.length_m == pytest.approx(hand, abs=0.01)


def test_the_first_of_several_conditional_values_is_read() -> None:
    # "destination on weekdays; no on Saturdays": the first value decides, as the
    # docstring of car_access says, whatever follows it
    tags = {"highway": "residential",
            "motor_vehicle:conditional": "destination @ (Mo-Fr 07:00-09:00); no @ (Sa)"}
    assert car_access(tags) == "destination"


def test_a_restriction_without_a_from_way_is_malformed() -> None:
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 2: (60.0, 24.002)}
    data = RoadData(ways=[RawWay(1, {"highway": "residential"}, ((1, 5, 2),))],
                    coords=coords,
                    restrictions=[RawRestriction(9, {"type": "restriction",
                                                     "restriction": "no_u_turn"},
                                                 (("n", 5, "via"), ("w", 1, "to")))])
    graph = build_road_graph(data)
    assert graph.graph["restrictions_dropped_by_reason"] == {"malformed relation": 1}
    assert graph.graph["restrictions"] == []


def test_a_restriction_through_two_via_nodes_is_malformed() -> None:
    # OSM: a restriction has one via node (or via ways); two via nodes say nothing clear
    coords = {1: (60.0, 24.0), 5: (60.0, 24.001), 6: (60.0, 24.0015), 2: (60.0, 24.002)}
    data = RoadData(ways=[RawWay(1, {"highway": "residential"}, ((1, 5, 6, 2),))],
                    coords=coords,
                    restrictions=[RawRestriction(9, {"type": "restriction",
                                                     "restriction": "no_u_turn"},
                                                 (("w", 1, "from"), ("n", 5, "via"),
                                                  ("n", 6, "via"), ("w", 1, "to")))])
    graph = build_road_graph(data)
    assert graph.graph["restrictions_dropped_by_reason"] == {"malformed relation": 1}
    # each malformed relation is counted
    twice = RoadData(ways=data.ways, coords=coords,
                     restrictions=[*data.restrictions,
                                   RawRestriction(10, {"type": "restriction",
                                                       "restriction": "no_u_turn"},
                                                  (("n", 5, "via"), ("w", 1, "to")))])
    assert build_road_graph(twice).graph["restrictions_dropped_by_reason"] == {
        "malformed relation": 2}


def test_a_long_first_road_entered_again_after_a_loop_still_leads_on() -> None:
    """From 1, a 1 km road east to 2 then 100 m on to 3; a small triangle 1-4-5 brings
    the search back to 1, which enters the long road a second time, longer: that second
    entry is already settled when it comes up, and the search must go on past it."""
    tags = {"highway": "residential"}
    coords = {1: (60.0, 24.0), 2: (60.0, 24.018), 3: (60.0, 24.0198),
              4: (60.0001, 24.0), 5: (60.0001, 24.0002)}
    data = RoadData(ways=[RawWay(1, tags, ((1, 2),)), RawWay(2, tags, ((2, 3),)),
                          RawWay(3, tags, ((1, 4),)), RawWay(4, tags, ((4, 5),)),
                          RawWay(5, tags, ((5, 1),))],
                    coords=coords)
    graph = build_road_graph(data)
    assert has_route(graph, 1, 3)
    assert shortest_route(graph, 1, 3).nodes == (1, 2, 3)
