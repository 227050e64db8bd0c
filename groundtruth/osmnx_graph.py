"""Road graphs built by osmnx, made usable by every :mod:`groundtruth` function.

osmnx (``ox.graph_from_xml``, ``ox.graph_from_place``, ``ox.graph_from_bbox``, ...)
builds a :class:`networkx.MultiDiGraph` of the same shape as
:func:`groundtruth.graph.load_road_graph`: nodes with ``y``/``x``/``street_count``,
one edge per drivable direction with ``osmid``, ``name``, ``highway``, ``oneway``,
``reversed``, ``length`` and (for curved edges) ``geometry``. The public functions of
:mod:`groundtruth.routing`, :mod:`groundtruth.turns` and :mod:`groundtruth.junctions`
pass any graph they are given through :func:`ensure_road_graph`, which leaves a
groundtruth graph alone and completes an osmnx graph once, in place (as osmnx's own
``add_edge_bearings`` and ``add_edge_speeds`` do):

* ``geometry``: the straight line ``u -> v`` where osmnx left it out (straight edges);
* ``length``: geodesic metres on WGS84 along the geometry, the measure every
  groundtruth length uses; osmnx's own great-circle length is kept as
  ``length_osmnx`` (the two differ by well under 0.5 %);
* ``start_bearing`` / ``end_bearing``: over the first and last
  :data:`~groundtruth.bearings.BEARING_SAMPLE_M` metres of the edge's geometry (not
  osmnx's ``bearing``, the straight line from ``u`` to ``v``, which points the wrong
  way on a road that curves away from the junction);
* attributes that osmnx merged into lists when it simplified several ways into one
  edge: ``name`` and ``ref`` become the distinct values joined with ``;`` (the OSM
  convention for several values), ``osmid``/``highway``/``reversed`` the first value;
* ``access``: ``"yes"`` or ``"destination"`` from the way's ``access`` tag when osmnx
  kept it (it does by default), see :func:`groundtruth.access.car_access`;
* ``street_count``: :func:`osmnx.stats.count_streets_per_node` where osmnx did not
  set it (``graph_from_xml`` does not).

What an osmnx graph supports
----------------------------
Routing on an osmnx graph is the plain shortest path by length with the no-U-turn
rule: osmnx reads no turn-restriction relations and no barrier nodes, so the graph is
marked ``legal=False`` with empty ``restrictions`` and ``barrier_nodes`` unless the
caller put them there (they are then obeyed, as on a groundtruth graph). Which roads
the graph holds is the caller's choice (``network_type="drive"`` filters them;
``graph_from_xml`` keeps every way with a ``highway`` tag, footways included):
:func:`drivable_subgraph` keeps only the roads :func:`groundtruth.access.is_drivable`
accepts. osmnx treats ``junction=roundabout`` and ``oneway=*`` as one-way, but not
a motorway without an ``oneway`` tag, which groundtruth does. osmnx cannot read PBF
files nor a clipped extract whose ways run past the file's nodes
(``ValueError: Some edges missing nodes``): :func:`groundtruth.graph.load_road_graph`
(pyosmium) reads both.

Examples
--------
>>> import osmnx as ox
>>> from groundtruth.assets import asset_path
>>> from groundtruth.routing import shortest_route
>>> g = ox.graph_from_xml(asset_path("osm", "roundabout.osm"))
>>> shortest_route(g, 11, 13).nodes  # North Road, round the ring anticlockwise, South Road
(11, 1, 2, 3, 13)
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import shapely

from groundtruth.access import car_access, is_drivable
from groundtruth.bearings import end_bearing, start_bearing
from groundtruth.distance import polyline_length_m
from groundtruth.tunnels import drawn_as_tunnel

#: Graph attribute set once a graph has been completed (or built by groundtruth).
ROAD_GRAPH_MARK = "groundtruth_road_graph"


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) else value


def _joined(value: Any) -> str | None:
    if isinstance(value, list):
        parts = list(dict.fromkeys(str(v) for v in value if v))
        return ";".join(parts) or None
    return str(value) if value else None


def ensure_road_graph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph itself, completed in place if it came from osmnx (once).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A graph from :func:`groundtruth.graph.load_road_graph` (returned untouched) or
        from osmnx (completed as the module docstring says, then marked so that the
        next call returns at once).

    Returns
    -------
    networkx.MultiDiGraph
        The same object.

    Examples
    --------
    >>> import osmnx as ox
    >>> from groundtruth.assets import asset_path
    >>> g = ensure_road_graph(ox.graph_from_xml(asset_path("osm", "roundabout.osm")))
    >>> g.nodes[1]["street_count"], g.graph["legal"], g.graph["restrictions"]
    (3, False, [])
    """
    if graph.graph.get(ROAD_GRAPH_MARK):
        return graph

    nodes = graph.nodes
    for u, v, data in graph.edges(data=True):
        geometry = data.get("geometry")
        if geometry is None:
            geometry = shapely.LineString([(nodes[u]["x"], nodes[u]["y"]),
                                           (nodes[v]["x"], nodes[v]["y"])])
            data["geometry"] = geometry
        if "length" in data and "length_osmnx" not in data:
            data["length_osmnx"] = float(data["length"])
        data["length"] = polyline_length_m([(lat, lon) for lon, lat in geometry.coords])
        if "start_bearing" not in data or "end_bearing" not in data:
            data["start_bearing"] = start_bearing(geometry)
            data["end_bearing"] = end_bearing(geometry)
        data["name"] = _joined(data.get("name"))
        data["ref"] = _joined(data.get("ref"))
        for key in ("osmid", "highway", "reversed"):
            if key in data:
                data[key] = _first(data[key])
        data["oneway"] = bool(_first(data.get("oneway", False)))
        data["tunnel"] = drawn_as_tunnel({key: str(_first(data[key]))
                                          for key in ("tunnel", "covered") if data.get(key)})
        raw_access = data.get("access")
        if raw_access not in ("yes", "destination"):
            data["access"] = car_access({"access": _first(raw_access)} if raw_access else {})
    if any(c is None for _, c in graph.nodes(data="street_count")):
        import osmnx as ox

        counts = ox.stats.count_streets_per_node(graph)
        nx.set_node_attributes(graph, counts, "street_count")
    graph.graph.setdefault("crs", "epsg:4326")
    graph.graph.setdefault("name", "")
    graph.graph.setdefault("legal", bool(graph.graph.get("restrictions")))
    graph.graph.setdefault("restrictions", [])
    graph.graph.setdefault("barrier_nodes", frozenset())
    graph.graph[ROAD_GRAPH_MARK] = True
    return graph


def drivable_subgraph(graph: nx.MultiDiGraph, *, access: bool = True) -> nx.MultiDiGraph:
    """A copy of an osmnx graph with only the roads a car may drive on.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        An osmnx graph that keeps the ways' tags (``highway``, ``service``, ``access``,
        ``area``, ``oneway``: osmnx's default ``useful_tags_way``).
    access : bool, optional
        Apply the ``access`` tag (the only access key osmnx keeps by default); with
        False only the road class decides and no edge is destination-only (``access``
        set to ``"yes"``), as ``load_road_graph(..., legal=False)``.

    Returns
    -------
    networkx.MultiDiGraph
        The edges :func:`groundtruth.access.is_drivable` accepts and the nodes they
        touch, without ``street_count`` (recounted when a groundtruth function first
        completes the graph), so that ``ox.simplify_graph`` may still be applied.

    Examples
    --------
    >>> import osmnx as ox
    >>> from groundtruth.assets import asset_path
    >>> g = ox.graph_from_xml(asset_path("osm", "legal.osm"), retain_all=True)
    >>> d = drivable_subgraph(g)
    >>> any(h == "footway" for _, _, h in d.edges(data="highway"))
    False
    """

    keep = []
    for u, v, k, data in graph.edges(keys=True, data=True):
        tags = {key: str(_first(data[key])) for key in ("highway", "service", "access", "area")
                if data.get(key) is not None}
        if is_drivable(tags, access=access):
            keep.append((u, v, k))
    sub = nx.MultiDiGraph(graph.edge_subgraph(keep))  # copies of the attribute dicts
    sub.graph = {k: v for k, v in graph.graph.items() if k != ROAD_GRAPH_MARK}
    if not access:  # the reader ignores access signs, "destination" ones too
        for _, _, data in sub.edges(data=True):
            data["access"] = "yes"
    for n in sub.nodes:
        sub.nodes[n].pop("street_count", None)
    return sub
