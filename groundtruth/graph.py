"""The directed drivable road graph of an extract.

:func:`load_road_graph` reads an extract with pyosmium and :func:`build_road_graph`
turns the ways into a :class:`networkx.MultiDiGraph` in the shape osmnx uses for a
simplified graph: nodes are OSM nodes where roads meet or end (attributes ``y`` = lat,
``x`` = lon, ``street_count`` as osmnx counts it: ends of physical streets at the node,
so two roads joining the same two nodes count twice), one edge per drivable direction
of each stretch of way between two such nodes, with attributes

``osmid`` (way id), ``name`` (str or None), ``highway``, ``ref`` (str or None),
``oneway`` (bool), ``reversed`` (bool: the edge runs against the way's node order),
``length`` (geodesic metres on WGS84 along the geometry), ``geometry`` (a shapely
``LineString`` of ``(lon, lat)`` vertices in the direction of travel), and
``start_bearing`` / ``end_bearing``: degrees clockwise from north of the road as the
edge leaves ``u`` and reaches ``v``, measured over
:data:`~groundtruth.bearings.BEARING_SAMPLE_M` metres of the way's geometry (running on
past the edge's end along the same way when the edge is shorter than that), and
``access``: ``"yes"``, or ``"destination"`` for a destination-only way (see
:mod:`groundtruth.access`); on a graph built with ``legal=False`` every edge is
``"yes"`` (the reader ignores access signs, ``destination`` ones too), and ``tunnel``
(bool: OSM-Carto draws the way as a tunnel,
:func:`groundtruth.tunnels.drawn_as_tunnel`).

The graph attributes hold ``crs`` (``"epsg:4326"``), ``name``, ``extract_sha256``,
``simplified`` (True: as osmnx marks a graph whose nodes are junctions and ends only),
``legal`` (whether access, barriers and turn restrictions were applied), and for a
legal graph ``restrictions`` (list of :class:`~groundtruth.restrictions.TurnRestriction`),
``restrictions_dropped`` (how many relations could not be placed, e.g. clipped at the
extract's border) with ``restrictions_dropped_by_reason``, ``barrier_nodes`` (junctions
a car may not pass through) and ``barrier_edges_dropped`` (stretches of road with a
blocking barrier inside, left out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

import networkx as nx
import numpy as np
import shapely

from groundtruth._osm_reader import RawWay, RoadData, read_highway_ways
from groundtruth.access import (
    OPEN,
    barrier_blocks,
    car_access,
    is_drivable,
)
from groundtruth.bearings import piece_bearings, run_profile
from groundtruth.extracts import Extract, resolve_extract
from groundtruth.osmnx_graph import ROAD_GRAPH_MARK
from groundtruth.restrictions import compile_restrictions
from groundtruth.tunnels import drawn_as_tunnel

#: ``oneway=*`` values meaning one-way in the way's node order.
ONEWAY_FORWARD: frozenset[str] = frozenset({"yes", "true", "1"})
#: ``oneway=*`` values meaning one-way against the way's node order.
ONEWAY_BACKWARD: frozenset[str] = frozenset({"-1", "reverse"})
#: ``junction=*`` values that imply one-way traffic unless ``oneway=no``.
ONEWAY_JUNCTIONS: frozenset[str] = frozenset({"roundabout", "circular"})

Edge = tuple[int, int, int]


def oneway_direction(tags: Mapping[str, str]) -> int:
    """Directions in which a drivable way may be travelled.

    Parameters
    ----------
    tags : mapping
        The way's OSM tags.

    Returns
    -------
    int
        ``1``: only in the way's node order; ``-1``: only against it; ``0``: both.
        ``oneway=yes`` and roundabouts (``junction=roundabout``/``circular``) and
        motorways are one-way forward unless ``oneway=no``; ``oneway=-1`` is backward.

    Examples
    --------
    >>> oneway_direction({"highway": "residential"})
    0
    >>> oneway_direction({"highway": "residential", "oneway": "-1"})
    -1
    >>> oneway_direction({"highway": "primary", "junction": "roundabout"})
    1
    >>> oneway_direction({"highway": "primary", "junction": "roundabout", "oneway": "no"})
    0
    """
    value = tags.get("oneway", "").strip().lower()
    if value in ONEWAY_FORWARD:
        return 1
    if value in ONEWAY_BACKWARD:
        return -1
    if value == "no":
        return 0
    if tags.get("junction") in ONEWAY_JUNCTIONS or tags.get("highway") in {
        "motorway", "motorway_link"
    }:
        return 1
    return 0


def _graph_nodes(runs: Iterable[tuple[int, ...]]) -> set[int]:
    """Nodes that end a run or are used more than once (junctions, loops)."""
    uses: Counter[int] = Counter()
    ends: set[int] = set()
    for run in runs:
        uses.update(run)
        ends.add(run[0])
        ends.add(run[-1])
    return ends | {n for n, c in uses.items() if c > 1}


def _pieces(run: tuple[int, ...], junctions: set[int]) -> list[tuple[int, int]]:
    """Cut a run at every junction node it passes through: ``(first, last)`` indices."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(run)):
        if run[i] in junctions:
            pieces.append((start, i))
            start = i
    return pieces


def _piece_lines(
    lons: list[float], lats: list[float], pieces: list[tuple[int, int]]
) -> tuple[list[shapely.LineString], list[shapely.LineString]]:
    """The ``(lon, lat)`` LineStrings of a run's pieces, forwards and backwards (vectorised)."""
    xy = np.column_stack((lons, lats))
    coords = np.concatenate([xy[i : j + 1] for i, j in pieces])
    index = np.repeat(np.arange(len(pieces)), [j - i + 1 for i, j in pieces])
    forwards = shapely.linestrings(coords, indices=index)
    return list(forwards), list(shapely.reverse(forwards))


def build_road_graph(
    data: RoadData, *, name: str = "", extract_sha256: str = "", legal: bool = True
) -> nx.MultiDiGraph:
    """Build the directed drivable graph from ways read off an extract (pure).

    Parameters
    ----------
    data : RoadData
        Ways with their located node runs and node coordinates (and, for a legal
        graph, the barrier nodes and restriction relations).
    name : str, optional
        Stored as the graph's ``name`` attribute.
    extract_sha256 : str, optional
        Stored as the graph's ``extract_sha256`` attribute.
    legal : bool, optional
        Apply access tags, barriers and turn restrictions (default). With False the
        graph is the network a reader who ignores them sees: every drivable class of
        road, one-way streets kept, no edge destination-only (``access`` is
        ``"yes"`` everywhere).

    Returns
    -------
    networkx.MultiDiGraph
        See the module docstring for node, edge and graph attributes.
    """
    ways: list[RawWay] = [w for w in data.ways if is_drivable(w.tags, access=legal)]
    junctions = _graph_nodes(run for w in ways for run in w.runs)
    blocking = ({n for n, tags in data.barriers.items() if barrier_blocks(tags)}
                if legal else set())
    graph = nx.MultiDiGraph(crs="epsg:4326", name=name, extract_sha256=extract_sha256,
                            simplified=True, legal=legal)
    barrier_edges = 0
    for way in ways:
        direction = oneway_direction(way.tags)
        attrs = {
            "osmid": way.id,
            "name": way.tags.get("name") or None,
            "highway": way.tags["highway"],
            "ref": way.tags.get("ref") or None,
            "oneway": direction != 0,
            # a reader who ignores access signs drives through destination-only roads
            "access": car_access(way.tags) if legal else OPEN,
            "tunnel": drawn_as_tunnel(way.tags),
        }
        for run in way.runs:
            lats = [data.coords[n][0] for n in run]
            lons = [data.coords[n][1] for n in run]
            cum = run_profile(lons, lats)
            pieces = _pieces(run, junctions)
            # bearings along the way's geometry, past a piece's end when it is short
            bearings = piece_bearings(lons, lats, cum, [p[0] for p in pieces],
                                      [p[1] for p in pieces])
            forwards, backwards = _piece_lines(lons, lats, pieces)
            for (i, j), out_deg, in_deg, back_out, back_in, forward, backward in zip(
                pieces, *(b.tolist() for b in bearings), forwards, backwards, strict=True
            ):
                u, v = run[i], run[j]
                if blocking and not blocking.isdisjoint(run[i + 1 : j]):
                    barrier_edges += 1  # a bollard (or the like) inside this stretch
                    continue
                length = float(cum[j] - cum[i])
                for n in (u, v):
                    if n not in graph:
                        lat, lon = data.coords[n]
                        graph.add_node(n, y=lat, x=lon)
                if direction in (0, 1):
                    graph.add_edge(u, v, **attrs, reversed=False, length=length,
                                   geometry=forward, start_bearing=out_deg,
                                   end_bearing=in_deg)
                if direction in (0, -1):
                    graph.add_edge(v, u, **attrs, reversed=True, length=length,
                                   geometry=backward,
                                   start_bearing=back_out, end_bearing=back_in)
    nx.set_node_attributes(graph, street_counts(graph), "street_count")
    graph.graph[ROAD_GRAPH_MARK] = True
    if legal:
        graph.graph["barrier_nodes"] = frozenset(n for n in blocking if n in graph)
        graph.graph["barrier_edges_dropped"] = barrier_edges
        way_nodes = {w.id: {n for run in w.runs for n in run} for w in data.ways}
        restrictions, dropped = compile_restrictions(graph, data.restrictions, way_nodes,
                                                     set(data.coords))
        graph.graph["restrictions"] = restrictions
        graph.graph["restrictions_dropped"] = sum(dropped.values())
        graph.graph["restrictions_dropped_by_reason"] = dict(sorted(dropped.items()))
    return graph


def street_counts(graph: nx.MultiDiGraph) -> dict[int, int]:
    """Ends of physical street segments at each node, as osmnx's street count has them.

    The directed edges are read as undirected segments: ``u -> v`` and ``v -> u`` with
    the same key are one two-way segment, while two roads joining the same two nodes
    (keys 0 and 1) are two segments, each counted at both of its nodes. The self-loops
    of a node, however many and in whichever direction, count once, as two ends. This
    is :func:`osmnx.stats.count_streets_per_node`'s count (the tests compare the two on
    every bundled extract) without importing osmnx, which pulls in scikit-learn and
    matplotlib: about 5 CPU seconds in each process that builds a graph.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.

    Returns
    -------
    dict
        Node id to its street count, for every node in the graph's order.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> _ = g.add_edge(1, 2); _ = g.add_edge(2, 1)  # one two-way road
    >>> _ = g.add_edge(2, 3); _ = g.add_edge(2, 3)  # two one-way roads, 2 to 3
    >>> _ = g.add_edge(3, 3); _ = g.add_edge(3, 3)  # loops at 3 count once, two ends
    >>> street_counts(g)
    {1: 1, 2: 3, 3: 4}
    """
    ends: Counter[int] = Counter()
    segments: set[tuple[frozenset[int], int]] = set()
    looped: set[int] = set()
    for u, v, key in graph.edges(keys=True):
        if u == v:
            looped.add(u)
            continue
        segment = (frozenset((u, v)), key)
        if segment not in segments:
            segments.add(segment)
            ends[u] += 1
            ends[v] += 1
    for node in looped:
        ends[node] += 2
    return {node: ends[node] for node in graph.nodes}


def load_road_graph(source: Extract | str | Path, *, legal: bool = True) -> nx.MultiDiGraph:
    """Load the directed drivable road graph of an extract.

    Parameters
    ----------
    source : Extract, str or pathlib.Path
        An :class:`~groundtruth.extracts.Extract`, a bundled name (``"helsinki"``)
        or the path of an ``.osm.pbf``, ``.osm`` or ``.osm.bz2`` file.
    legal : bool, optional
        Apply access tags, barriers and turn restrictions (default); see
        :func:`build_road_graph`.

    Returns
    -------
    networkx.MultiDiGraph
        Nodes with ``y``/``x``; edges with ``name``, ``highway``, ``oneway``,
        ``length`` (metres) and ``geometry`` (lon/lat), one per allowed direction.

    Raises
    ------
    GroundTruthError
        If the extract cannot be found or read.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> g.has_edge(21, 22), g.has_edge(22, 21)  # Middle Street is one-way eastwards
    (True, False)
    """
    extract = source if isinstance(source, Extract) else resolve_extract(source)
    data = read_highway_ways(extract.path)
    return build_road_graph(data, name=extract.name, extract_sha256=extract.sha256,
                            legal=legal)
