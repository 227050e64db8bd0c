"""Road names at junctions, and junctions of exactly two named roads (MML/SRN markers)."""

from __future__ import annotations

import networkx as nx

from groundtruth.errors import GroundTruthError
from groundtruth.osmnx_graph import ensure_road_graph
from groundtruth.turns import normalize_label


def _incident_names(graph: nx.MultiDiGraph, node: int) -> tuple[set[str], bool]:
    """Distinct road names of edges touching a node, and whether an unnamed one does."""
    names: set[str] = set()
    unnamed = False
    for edges in (graph.out_edges(node, data="name"), graph.in_edges(node, data="name")):
        for _, _, name in edges:
            if name:
                names.add(name)
            else:
                unnamed = True
    return names, unnamed


def road_names_at(graph: nx.MultiDiGraph, node: int) -> list[str]:
    """Names of the drivable roads meeting at a node.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph from :func:`groundtruth.graph.load_road_graph`.
    node : int
        A graph node.

    Returns
    -------
    list of str
        Distinct names of the edges entering or leaving the node, sorted; unnamed
        roads are left out.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> road_names_at(g, 22)
    ['Centre Avenue', 'Middle Street']
    """
    graph = ensure_road_graph(graph)
    if node not in graph:
        return []
    return sorted(_incident_names(graph, node)[0])


def two_road_junctions(
    graph: nx.MultiDiGraph, *, min_street_count: int = 3, allow_unnamed: bool = False
) -> list[int]:
    """Nodes where exactly two distinct named roads meet.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    min_street_count : int, optional
        Keep only nodes with at least this many streets (``street_count`` as osmnx
        counts it: street ends at the node, two roads joining the same two nodes
        count twice); the default 3 leaves out points where a road merely changes
        name.
    allow_unnamed : bool, optional
        Whether an unnamed road may also touch the node.

    Returns
    -------
    list of int
        Node ids, sorted.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> two_road_junctions(g)
    [12, 21, 22]
    """
    graph = ensure_road_graph(graph)
    out: list[int] = []
    for node, count in graph.nodes(data="street_count"):
        if count is None or count < min_street_count:
            continue
        names, unnamed = _incident_names(graph, node)
        if len(names) == 2 and (allow_unnamed or not unnamed):
            out.append(node)
    return sorted(out)


def junctions_of(graph: nx.MultiDiGraph, road_a: str, road_b: str) -> list[int]:
    """Nodes where two named roads meet (both touch the node).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    road_a, road_b : str
        Road names, compared ignoring case and repeated spaces.

    Returns
    -------
    list of int
        Node ids, sorted; empty when the roads do not meet.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> junctions_of(g, "north street", "West Avenue")
    [31]
    """
    graph = ensure_road_graph(graph)
    a, b = normalize_label(road_a), normalize_label(road_b)
    out = []
    for node in graph.nodes:
        names = {normalize_label(n) for n in _incident_names(graph, node)[0]}
        if a in names and b in names and a != b:
            out.append(node)
    return sorted(out)


def junction(graph: nx.MultiDiGraph, road_a: str, road_b: str) -> int:
    """The node where two named roads meet (the lowest id if they meet more than once).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A road graph.
    road_a, road_b : str
        Road names, compared ignoring case and repeated spaces.

    Returns
    -------
    int
        A node id.

    Raises
    ------
    GroundTruthError
        If the two roads do not meet in the graph.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> junction(load_road_graph(asset_path("osm", "grid.osm")), "Middle Street", "East Avenue")
    23
    """
    graph = ensure_road_graph(graph)
    nodes = junctions_of(graph, road_a, road_b)
    if not nodes:
        raise GroundTruthError(
            f"the roads {road_a!r} and {road_b!r} do not meet in this extract",
            "check the spelling of both names (as on the map), or choose roads that cross",
        )
    return nodes[0]
