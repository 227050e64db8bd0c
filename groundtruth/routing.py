"""Shortest legal drivable routes by length, route lengths along the road geometry,
and routes picked at random (:func:`random_route`).

:func:`shortest_route` searches over edges, not nodes (a line-graph Dijkstra), so that
it can obey what a node-based search cannot: turn restrictions (a turn forbidden after
one edge but not after another, ``only_*`` turns, restrictions through ``via`` ways),
barriers on junctions, destination-only roads (used only at the start or the end of
a route), and no U-turn straight back along the road just driven. On a graph without
those attributes (built elsewhere, or with
``load_road_graph(..., legal=False)``) it is the plain shortest path.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Container, Sequence
from dataclasses import dataclass
from itertools import count, pairwise
from typing import Any

import networkx as nx

from groundtruth.distance import meters_to_feet
from groundtruth.errors import GroundTruthError
from groundtruth.osmnx_graph import ensure_road_graph

Edge = tuple[int, int, int]
LatLon = tuple[float, float]
#: A search state: the edge just driven, the destination-only phase, and the
#: ``(restriction, position)`` pairs of the turn restrictions under way.
State = tuple[Edge, int, tuple[tuple[int, int], ...]]


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
    graph = ensure_road_graph(graph)
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
    graph = ensure_road_graph(graph)
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


def route_from_edges(graph: nx.MultiDiGraph, edges: Sequence[Edge],
                     origin: int | None = None) -> Route:
    """Build a :class:`Route` from consecutive edges (exactly those edges).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    edges : sequence of (u, v, key)
        Consecutive edges; may be empty when ``origin`` is given.
    origin : int, optional
        The start node, needed only for an empty route.

    Returns
    -------
    Route

    Raises
    ------
    GroundTruthError
        If an edge is missing or two edges do not follow each other.
    """
    graph = ensure_road_graph(graph)
    if not edges:
        if origin is None:
            raise GroundTruthError("a route needs at least one node")
        return route_from_nodes(graph, [origin])
    nodes = [edges[0][0]]
    first = graph.nodes[nodes[0]]
    coords: list[LatLon] = [(first["y"], first["x"])]
    length = 0.0
    for u, v, k in edges:
        if u != nodes[-1] or not graph.has_edge(u, v, k):
            raise GroundTruthError(f"edge {(u, v, k)} does not continue the route")
        data = graph.edges[u, v, k]
        length += data["length"]
        coords.extend((lat, lon) for lon, lat in list(data["geometry"].coords)[1:])
        nodes.append(v)
    return Route(nodes=tuple(nodes), edges=tuple(edges), length_m=length,
                 coords=tuple(coords))


#: Phases of a route with respect to destination-only roads: still on the roads
#: around the origin, on through roads, on the roads around the destination.
_START_ZONE, _THROUGH, _END_ZONE = 0, 1, 2


def _next_phase(phase: int, destination_only: bool) -> int | None:
    """The phase after taking an edge, or None when the edge would be through traffic
    on a destination-only road."""
    if phase == _START_ZONE:
        return _START_ZONE if destination_only else _THROUGH
    if phase == _THROUGH:
        return _END_ZONE if destination_only else _THROUGH
    return _END_ZONE if destination_only else None


def legal_edge_path(graph: nx.MultiDiGraph, origin: int, destination: int, *,
                    banned: Collection[Edge] = (),
                    max_length_m: float | None = None) -> list[Edge] | None:
    """The edges of the shortest legal route, or None when there is none.

    A line-graph Dijkstra over states ``(edge, phase, restrictions in progress)``.
    A transition from edge ``(u, v)`` to edge ``(v, w)`` is refused when ``v`` is in
    ``graph.graph["barrier_nodes"]``; when it breaks a turn restriction of
    ``graph.graph["restrictions"]`` (``no_*``: the edge is a ``to`` edge right after
    the restriction's whole prefix; ``only_*``: it is not); when ``w == u`` along the
    same way (a U-turn on the spot, not even at a dead end: at the border of a
    clipped extract a dead end is often none, and Routino makes none either); and when
    it would
    use a destination-only edge (``access == "destination"``) between two open ones.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    origin, destination : int
        Graph nodes.
    banned : collection of (u, v, key), optional
        Edges not to use.
    max_length_m : float, optional
        Explore no further than this (the sum of the edges' ``length``): the route
        found is the same when the shortest one is no longer, and None when it is
        (:func:`close_alternatives` wants no longer ones).

    Returns
    -------
    list of (u, v, key) or None
        Empty when ``origin == destination``.
    """
    return _LegalSearch(ensure_road_graph(graph)).path(
        origin, destination, banned=banned, max_length_m=max_length_m)


class _LegalSearch:
    """:func:`legal_edge_path`'s search on one graph, which it reads as it goes and
    keeps for the next search: :func:`close_alternatives` runs one per edge of a route.

    Each node's out-edges, in sorted order, with what the search reads of them
    (``(edge, length, way, destination-only)``), are made once, at the node's first
    visit, from networkx's own dict of dicts behind ``graph.succ`` (read only): its
    views cost more than the search itself on a graph of a few thousand edges. The
    graph must not change while the object is used.
    """

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.restrictions: list[Any] = graph.graph.get("restrictions") or []
        self.barriers: Collection[int] = graph.graph.get("barrier_nodes") or frozenset()
        #: restriction indices by the first edge of their prefix
        self.starts: dict[Edge, list[int]] = {}
        for i, r in enumerate(self.restrictions):
            self.starts.setdefault(r.prefix[0], []).append(i)
        self._succ = getattr(graph, "_succ", None) or graph.succ
        self.outs: dict[int, list[tuple[Edge, float, Any, bool]]] = {}
        self.way_of: dict[Edge, Any] = {}

    def out_of(self, node: int) -> list[tuple[Edge, float, Any, bool]]:
        """``(edge, length, way, destination-only)`` of each edge out of ``node``."""
        got = self.outs.get(node)
        if got is None:
            got = []
            for (w, k), data in sorted(((w, k), data) for w, keyed in self._succ[node].items()
                                       for k, data in keyed.items()):
                edge = (node, w, k)
                way = data.get("osmid")
                self.way_of[edge] = way
                got.append((edge, data["length"], way, data.get("access") == "destination"))
            self.outs[node] = got
        return got

    def _enter(self, edge: Edge, dest_only: bool, phase: int | None,
               track: tuple[tuple[int, int], ...]) -> State | None:
        """The state after taking ``edge`` from one of ``phase`` and ``track`` (None for
        the first edge), or None when the edge may not be taken."""
        new_phase = (_START_ZONE if dest_only else _THROUGH) if phase is None else \
            _next_phase(phase, dest_only)
        if new_phase is None:
            return None
        moved: set[tuple[int, int]] = set()
        restrictions = self.restrictions
        for r, pos in track:
            prefix = restrictions[r].prefix
            if pos == len(prefix) - 1:
                if restrictions[r].forbids(edge):
                    return None
            elif prefix[pos + 1] == edge:
                moved.add((r, pos + 1))
        moved.update((r, 0) for r in self.starts.get(edge, ()))
        return (edge, new_phase, tuple(sorted(moved)))

    def path(self, origin: int, destination: int, *, banned: Collection[Edge] = (),
             max_length_m: float | None = None) -> list[Edge] | None:
        """:func:`legal_edge_path` of this object's graph."""
        if origin == destination:
            return []
        # The common transition (no restriction under way or begun, through traffic
        # staying through) is made here without a call; _enter makes the others.
        starts, barriers, way_of, outs = self.starts, self.barriers, self.way_of, self.outs
        enter, out_of = self._enter, self.out_of
        best: dict[State, float] = {}
        previous: dict[State, State | None] = {}
        heap: list[tuple[float, int, State, State | None]] = []
        tie = count()
        push, pop = heapq.heappush, heapq.heappop
        inf = float("inf")
        bound = inf if max_length_m is None else max_length_m
        for edge, length, _way, dest_only in out_of(origin):
            state = None if edge in banned else enter(edge, dest_only, None, ())
            if state is not None and length <= bound:
                push(heap, (length, next(tie), state, None))
        while heap:
            dist, _, state, prev = pop(heap)
            if state in previous:
                continue
            previous[state] = prev
            edge0, phase, track = state
            u, v, _k = edge0
            if v == destination:
                path = [edge0]
                back = prev
                while back is not None:
                    path.append(back[0])
                    back = previous[back]
                return path[::-1]
            if v in barriers:
                continue
            way = way_of[edge0]
            nexts = outs.get(v)
            if nexts is None:
                nexts = out_of(v)
            for nxt, length, nxt_way, dest_only in nexts:
                if nxt[1] == u and nxt_way == way:
                    continue  # no U-turn on the spot
                if nxt in banned:
                    continue
                new: State
                if not track and phase == _THROUGH and not dest_only and nxt not in starts:
                    new = (nxt, _THROUGH, ())
                else:
                    entered = enter(nxt, dest_only, phase, track)
                    if entered is None:
                        continue
                    new = entered
                if new in previous:
                    continue
                nd = dist + length
                if nd <= bound and nd < best.get(new, inf):
                    best[new] = nd
                    push(heap, (nd, next(tie), new, state))
        return None


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
    graph = ensure_road_graph(graph)
    return route_from_nodes(graph, nodes).length_m


def shortest_route(graph: nx.MultiDiGraph, origin: int, destination: int) -> Route:
    """The shortest legal drivable route by length.

    One-way streets, and on a legal graph (:func:`groundtruth.graph.load_road_graph`)
    turn restrictions, barriers and destination-only roads are obeyed; see
    :func:`legal_edge_path`.

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
    graph = ensure_road_graph(graph)
    _check_node(graph, origin, "origin")
    _check_node(graph, destination, "destination")
    edges = legal_edge_path(graph, origin, destination)
    if edges is None:
        raise NoRouteError(
            f"no legal drivable route from node {origin} to node {destination}",
            "choose nodes in the same strongly connected part of the road graph",
        )
    return route_from_edges(graph, edges, origin)


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
        True when a legal route exists (see :func:`legal_edge_path`).
    """
    graph = ensure_road_graph(graph)
    if origin not in graph or destination not in graph:
        return False
    if not nx.has_path(graph, origin, destination):
        return False
    return legal_edge_path(graph, origin, destination) is not None


def nearest_node(graph: nx.MultiDiGraph, lat: float, lon: float) -> int:
    """The graph node nearest to a point, by great-circle distance.

    Uses :func:`osmnx.distance.nearest_nodes` (a haversine ball tree on an unprojected
    graph, plain Euclidean distance on a projected one).

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
    graph = ensure_road_graph(graph)
    if graph.number_of_nodes() == 0:
        raise GroundTruthError("the road graph is empty", "use an extract that has roads")
    from osmnx.distance import nearest_nodes

    return int(nearest_nodes(graph, lon, lat))


def close_alternatives(graph: nx.MultiDiGraph, route: Route, *,
                       within: float = 0.05) -> list[Route]:
    """Other drivable routes between the same nodes at most ``within`` longer.

    For each edge of ``route``, the shortest legal route that avoids that edge (any
    other route must avoid at least one of them, so the second-shortest route is
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
    graph = ensure_road_graph(graph)
    if len(route.nodes) < 2:
        return []
    limit = route.length_m * (1.0 + within) + 1e-9
    found: dict[tuple[int, ...], Route] = {}
    search = _LegalSearch(graph)  # one search object: it reads each node once for all
    for banned in route.edges:
        edges = search.path(route.origin, route.destination, banned={banned},
                            max_length_m=limit)
        if edges is None:
            continue
        alt = route_from_edges(graph, edges, route.origin)
        if alt.nodes == route.nodes or alt.nodes in found:
            continue
        if alt.length_m <= limit:
            found[alt.nodes] = alt
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
    graph = ensure_road_graph(graph)
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
