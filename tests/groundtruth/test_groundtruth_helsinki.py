"""Properties of routes, steps and features on the bundled Helsinki extract."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from groundtruth.distance import polyline_length_m
from groundtruth.features import features_in_view, load_features
from groundtruth.graph import load_road_graph
from groundtruth.junctions import road_names_at, two_road_junctions
from groundtruth.projection import View
from groundtruth.routing import (
    NoRouteError,
    close_alternatives,
    has_route,
    legal_edge_path,
    route_from_edges,
    route_from_nodes,
    shortest_route,
)
from groundtruth.turns import route_steps, steps_connect

N_ROUTES = 120


@pytest.fixture(scope="module")
def pairs(helsinki: nx.MultiDiGraph) -> list[tuple[int, int]]:
    """Random origin/destination pairs in the largest strongly connected part that a
    legal route joins (turn restrictions and destination-only roads can forbid one)."""
    largest: set[int] = set()
    for component in nx.strongly_connected_components(helsinki):
        if len(component) > len(largest):
            largest = set(component)
    part = sorted(largest)
    rng = random.Random(20261129)
    out = []
    for _ in range(N_ROUTES):
        origin, destination = rng.sample(part, 2)
        if has_route(helsinki, origin, destination):
            out.append((origin, destination))
    assert len(out) > 0.9 * N_ROUTES
    return out


def _unrestricted(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy without turn restrictions, barriers on junctions or destination-only
    edges: the legal search on it must find networkx's shortest path."""
    plain = graph.copy()
    plain.graph.update(restrictions=[], barrier_nodes=frozenset())
    for _, _, data in plain.edges(data=True):
        data["access"] = "yes"
    return plain


def test_route_length_is_the_sum_of_its_edges(helsinki: nx.MultiDiGraph,
                                              pairs: list[tuple[int, int]]) -> None:
    unrestricted = _unrestricted(helsinki)
    for origin, destination in pairs:
        route = shortest_route(helsinki, origin, destination)
        edges = sum(helsinki.edges[e]["length"] for e in route.edges)
        assert route.length_m == pytest.approx(edges, rel=1e-12, abs=1e-9)
        # and the length of its path coordinates, measured afresh
        assert route.length_m == pytest.approx(polyline_length_m(route.coords), abs=1e-6)
        assert route.nodes[0] == origin and route.nodes[-1] == destination
        # restrictions only lengthen routes, and without them networkx's own shortest
        # length agrees with the line-graph search
        plain = nx.dijkstra_path_length(helsinki, origin, destination, weight="length")
        assert route.length_m >= plain - 1e-6
        assert shortest_route(unrestricted, origin, destination).length_m == pytest.approx(
            plain, abs=1e-6)


def test_steps_of_every_route_connect(helsinki: nx.MultiDiGraph,
                                      pairs: list[tuple[int, int]]) -> None:
    checked = 0
    for origin, destination in pairs:
        route = shortest_route(helsinki, origin, destination)
        if len(set(route.nodes)) < len(route.nodes):
            # round a restriction by a U-turn at a dead end: steps cannot say that
            continue
        checked += 1
        steps = route_steps(helsinki, route)
        assert steps[0] == "blue" and steps[-1] == "red"
        assert steps_connect(helsinki, steps, origin, destination), steps
        # a list without its last leg can only connect if the road before it also
        # reaches the destination
        if len(steps) > 4 and steps_connect(helsinki, [*steps[:-3], "red"], origin,
                                            destination):
            assert steps[-4] in road_names_at(helsinki, destination)
    assert checked > 0.8 * len(pairs)


def test_reversed_two_way_routes_have_the_same_length(helsinki: nx.MultiDiGraph,
                                                      pairs: list[tuple[int, int]]) -> None:
    checked = 0
    helsinki = _unrestricted(helsinki)  # a reversed legal route may break a restriction
    for origin, destination in pairs:
        route = shortest_route(helsinki, origin, destination)
        if not all(helsinki.has_edge(v, u) for u, v, _ in route.edges):
            continue  # some stretch is one-way
        back = route_from_nodes(helsinki, route.nodes[::-1])
        assert back.length_m == pytest.approx(route.length_m, abs=1e-6)
        assert shortest_route(helsinki, destination, origin).length_m <= back.length_m + 1e-6
        checked += 1
    assert checked >= 10


def test_two_road_junctions_name_exactly_two_roads(helsinki: nx.MultiDiGraph) -> None:
    nodes = two_road_junctions(helsinki)
    assert len(nodes) > 50
    assert all(len(road_names_at(helsinki, n)) == 2 for n in nodes)


def test_features_in_a_view_of_central_helsinki() -> None:
    features = load_features("helsinki")
    view = View(center=(60.1675, 24.9425), zoom=17)
    result = features_in_view(features, view.bounds, "restaurant")
    assert result.count > 5
    named = [f.name for f in result.features if f.name]
    assert result.names == tuple(sorted(set(named)))
    assert result.unnamed == result.count - len(named)
    south, west, north, east = view.bounds
    assert all(south <= f.lat <= north and west <= f.lon <= east for f in result.features)
    assert all(f.feature_type == "restaurant" for f in result.features)


def test_kotka_routes_connect_and_add_up() -> None:
    """The other bundled extract (suburban Kotka) passes the same route checks."""
    graph = load_road_graph("kotka")
    largest: set[int] = set()
    for component in nx.strongly_connected_components(graph):
        if len(component) > len(largest):
            largest = set(component)
    nodes = sorted(largest)
    rng = random.Random(7)
    for _ in range(40):
        origin, destination = rng.sample(nodes, 2)
        route = shortest_route(graph, origin, destination)
        assert route.length_m == pytest.approx(
            sum(graph.edges[e]["length"] for e in route.edges), abs=1e-9)
        assert steps_connect(graph, route_steps(graph, route), origin, destination)


def test_a_length_bound_changes_no_route_and_no_close_alternative(
        helsinki: nx.MultiDiGraph) -> None:
    """``max_length_m`` only cuts the search short: on Helsinki's legal graph (turn
    restrictions, barriers, destination-only roads) a bound at the route's own length
    finds the same edges and one just below finds none; ``close_alternatives``, which
    bounds each search by its slack, equals the same loop run without the bound."""
    rng = random.Random(5)
    nodes = sorted(helsinki.nodes)
    checked = alternatives = 0
    while checked < 15:
        try:
            route = shortest_route(helsinki, rng.choice(nodes), rng.choice(nodes))
        except NoRouteError:
            continue
        if not 2 <= len(route.edges) <= 12:  # SRN-sized routes keep the test short
            continue
        a, b = route.origin, route.destination
        assert legal_edge_path(helsinki, a, b, max_length_m=route.length_m) == list(route.edges)
        assert legal_edge_path(helsinki, a, b, max_length_m=route.length_m - 0.01) is None
        within = 0.1
        limit = route.length_m * (1.0 + within) + 1e-9
        unbounded: dict[tuple[int, ...], object] = {}
        for banned in route.edges:
            edges = legal_edge_path(helsinki, a, b, banned={banned})
            if edges is None:
                continue
            alt = route_from_edges(helsinki, edges, a)
            if alt.nodes != route.nodes and alt.nodes not in unbounded and alt.length_m <= limit:
                unbounded[alt.nodes] = alt
        expected = sorted(unbounded.values(), key=lambda r: (r.length_m, r.nodes))  # type: ignore[attr-defined]
        assert close_alternatives(helsinki, route, within=within) == expected
        alternatives += len(expected)
        checked += 1
    assert alternatives > 0  # the comparison saw some alternatives
