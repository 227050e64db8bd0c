"""Shortest drivable routes by length, route lengths along the road geometry, and
routes picked at random (:func:`random_route`)."""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from groundtruth.distance import meters_to_feet
from groundtruth.errors import GroundTruthError

Edge = tuple[int, int, int]
LatLon = tuple[float, float]


class NoRouteError(GroundTruthError):
    """No drivable route exists between the two nodes (one-way streets, islands)."""


@dataclass(frozen=True)
class Route:
    """A drivable route through a road graph.

    Attributes
    ----------
    nodes : tuple of int
        Graph nodes from origin to destination.
    edges : tuple of (u, v, key)
        The edge taken between each pair of consecutive nodes.
    length_m : float
        Sum of the edges' ``length``: geodesic metres along the road geometry.
    coords : tuple of (lat, lon)
        The route's path along the road geometry, origin first, without repeats at
        the junctions.
    """

    nodes: tuple[int, ...]
    edges: tuple[Edge, ...]
    length_m: float
    coords: tuple[LatLon, ...]

    @property
    def length_ft(self) -> float:
        """Route length in international feet."""
        return meters_to_feet(self.length_m)

    @property
    def origin(self) -> int:
        """First node."""
        return self.nodes[0]

    @property
    def destination(self) -> int:
        """Last node."""
        return self.nodes[-1]


def _check_node(graph: nx.MultiDiGraph, node: int, role: str) -> None:
    if node not in graph:
        raise GroundTruthError(
            f"{role} node {node} is not a junction of the road graph",
            "pick a node of the graph, e.g. with groundtruth.routing.nearest_node",
        )


def shortest_edge(graph: nx.MultiDiGraph, u: int, v: int) -> Edge:
    """The shortest of the parallel edges from ``u`` to ``v``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    u, v : int
        Consecutive route nodes.

    Returns
    -------
    tuple of (u, v, key)

    Raises
    ------
    GroundTruthError
        If there is no edge from ``u`` to ``v``.
    """
    data = graph.get_edge_data(u, v)
    if not data:
        raise GroundTruthError(f"no drivable edge from node {u} to node {v}")
    key = min(data, key=lambda k: (data[k]["length"], k))
    return (u, v, key)


def route_from_nodes(graph: nx.MultiDiGraph, nodes: Sequence[int]) -> Route:
    """Build a :class:`Route` from a node path, taking the shortest parallel edges.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph from :func:`groundtruth.graph.load_road_graph`.
    nodes : sequence of int
        Consecutive nodes joined by drivable edges.

    Returns
    -------
    Route

    Raises
    ------
    GroundTruthError
        If a node is missing or two consecutive nodes are not joined.
    """
    if not nodes:
        raise GroundTruthError("a route needs at least one node")
    for n in nodes:
        _check_node(graph, n, "route")
    edges = tuple(shortest_edge(graph, u, v) for u, v in pairwise(nodes))
    length = 0.0
    first = graph.nodes[nodes[0]]
    coords: list[LatLon] = [(first["y"], first["x"])]
    for u, v, k in edges:
        data = graph.edges[u, v, k]
        length += data["length"]
        coords.extend((lat, lon) for lon, lat in list(data["geometry"].coords)[1:])
    return Route(nodes=tuple(nodes), edges=edges, length_m=length, coords=tuple(coords))


def route_length_m(graph: nx.MultiDiGraph, nodes: Sequence[int]) -> float:
    """Length in metres of a node path along the road geometry.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    nodes : sequence of int
        Consecutive nodes joined by drivable edges.

    Returns
    -------
    float
        Geodesic metres (WGS84), shortest parallel edges.
    """
    return route_from_nodes(graph, nodes).length_m


def shortest_route(graph: nx.MultiDiGraph, origin: int, destination: int) -> Route:
    """The shortest drivable route by length, respecting one-way streets.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph from :func:`groundtruth.graph.load_road_graph`.
    origin, destination : int
        Graph nodes (OSM node ids).

    Returns
    -------
    Route
        Nodes, edges, length in metres (``length_ft`` for feet) and path coordinates.

    Raises
    ------
    NoRouteError
        If the destination cannot be reached from the origin.
    GroundTruthError
        If either node is not in the graph.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> shortest_route(g, 23, 21).nodes  # Middle Street is one-way eastwards
    (23, 13, 12, 11, 21)
    """
    _check_node(graph, origin, "origin")
    _check_node(graph, destination, "destination")
    try:
        _, nodes = nx.bidirectional_dijkstra(graph, origin, destination, weight="length")
    except nx.NetworkXNoPath as exc:
        raise NoRouteError(
            f"no drivable route from node {origin} to node {destination}",
            "choose nodes in the same strongly connected part of the road graph",
        ) from exc
    return route_from_nodes(graph, nodes)


def has_route(graph: nx.MultiDiGraph, origin: int, destination: int) -> bool:
    """Whether a drivable route leads from ``origin`` to ``destination``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    origin, destination : int
        Graph nodes.

    Returns
    -------
    bool
    """
    return origin in graph and destination in graph and nx.has_path(graph, origin, destination)


def nearest_node(graph: nx.MultiDiGraph, lat: float, lon: float) -> int:
    """The graph node nearest to a point (equirectangular distance; fine within a city).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph with node attributes ``y`` and ``x``.
    lat, lon : float
        Degrees.

    Returns
    -------
    int
        The node id.

    Raises
    ------
    GroundTruthError
        If the graph has no nodes.
    """
    import math

    if graph.number_of_nodes() == 0:
        raise GroundTruthError("the road graph is empty", "use an extract that has roads")
    k = math.cos(math.radians(lat))

    def dist2(n: int) -> float:
        d = graph.nodes[n]
        return (d["y"] - lat) ** 2 + ((d["x"] - lon) * k) ** 2

    return min(graph.nodes, key=lambda n: (dist2(n), n))


def close_alternatives(graph: nx.MultiDiGraph, route: Route, *,
                       within: float = 0.05) -> list[Route]:
    """Other drivable routes between the same nodes at most ``within`` longer.

    For each edge of ``route``, the shortest route that avoids that edge (any other
    simple route must avoid at least one of them, so the second-shortest route is
    always among these). Use it to skip scenarios whose answer is nearly a tie.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph.
    route : Route
        Usually a shortest route.
    within : float, optional
        Relative slack: keep routes no longer than ``(1 + within) * route.length_m``.

    Returns
    -------
    list of Route
        Distinct node paths other than ``route.nodes``, shortest first.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> [r.nodes for r in close_alternatives(g, shortest_route(g, 12, 32))]
    []
    >>> [r.nodes for r in close_alternatives(g, shortest_route(g, 11, 22), within=0.01)]
    [(11, 12, 22)]
    """
    if len(route.nodes) < 2:
        return []
    limit = route.length_m * (1.0 + within) + 1e-9
    found: dict[tuple[int, ...], Route] = {}
    for banned in route.edges:

        def weight(u: int, v: int, data: dict[int, dict[str, object]],
                   banned: Edge = banned) -> float | None:
            lengths = [float(d["length"]) for k, d in data.items()  # type: ignore[arg-type]
                       if (u, v, k) != banned]
            return min(lengths) if lengths else None

        try:
            _, nodes = nx.bidirectional_dijkstra(graph, route.origin, route.destination,
                                                 weight=weight)
        except nx.NetworkXNoPath:
            continue
        key = tuple(nodes)
        if key == route.nodes or key in found:
            continue
        alt = route_from_nodes(graph, nodes)
        if alt.length_m <= limit:
            found[key] = alt
    return sorted(found.values(), key=lambda r: (r.length_m, r.nodes))


def random_route(graph: nx.MultiDiGraph, origin: int, rng: random.Random, *,
                 cutoff_m: float, min_m: float, round_: int, rounds: int,
                 destinations: Container[int] | None = None) -> Route | None:
    """The shortest route from ``origin`` to a destination drawn with ``rng``.

    The candidates are the nodes (other than ``origin``, and in ``destinations`` when
    given) at least ``min_m`` and at most ``cutoff_m`` road metres away, sorted; of
    those, an origin used again (in pass ``round_`` of ``rounds`` over the origins,
    as the samplers' ``pick_round`` tells) takes only every ``rounds``-th from
    ``round_``, so that it gets other destinations.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph (edge attribute ``length`` in metres).
    origin : int
        Start node.
    rng : random.Random
        Draws the destination (one ``randrange`` call, only when there is a candidate).
    cutoff_m : float
        Farthest destination, metres along the roads.
    min_m : float
        Nearest destination, metres along the roads.
    round_, rounds : int
        This pass over the origins and how many passes there are.
    destinations : container of int, optional
        The only nodes allowed as destination.

    Returns
    -------
    Route or None
        ``None`` when no node qualifies or the drawn one cannot be reached.
    """
    reach = nx.single_source_dijkstra_path_length(graph, origin, cutoff=cutoff_m,
                                                  weight="length")
    targets = sorted(n for n, d in reach.items()
                     if n != origin and d >= min_m
                     and (destinations is None or n in destinations))
    targets = targets[round_::rounds]
    if not targets:
        return None
    dest = targets[rng.randrange(len(targets))]
    try:
        return shortest_route(graph, origin, dest)
    except NoRouteError:
        return None
