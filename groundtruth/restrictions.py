"""Turn restrictions compiled onto the edges of a road graph.

An OSM ``type=restriction`` relation names a ``from`` way, a ``via`` node or a chain of
``via`` ways, and a ``to`` way. On the graph it becomes a :class:`TurnRestriction`:
``prefix``, the edges a car drives from the last edge of the ``from`` way through the
``via`` ways (one edge for a node ``via``), and ``to``, the edges of the ``to`` way that
leave the end of that prefix. A ``no_*`` restriction forbids taking a ``to`` edge
right after the prefix; an ``only_*`` one forbids every other edge there.

Restrictions that cannot be placed (a member the extract lacks, as happens at the
border of a clipped extract; a ``via`` node on neither way; ``via`` ways that do not
join up) are dropped and counted by reason; restrictions that do not apply to cars, or
whose ``from`` way is not drivable, are left out silently, and so is a ``no_*`` turn
onto a road closed to cars. An ``only_*`` turn onto a road closed to cars stays: it
forbids every other way on (a car that came that way may go nowhere, as the sign
says).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from groundtruth._osm_reader import RawRestriction
from groundtruth.access import car_restriction

Edge = tuple[int, int, int]

#: Reasons a restriction relation is dropped, as counted in
#: ``graph.graph["restrictions_dropped_by_reason"]``.
DROP_REASONS: tuple[str, ...] = (
    "member missing from the extract", "malformed relation", "via not on the ways",
    "via ways do not join",
)


@dataclass(frozen=True)
class TurnRestriction:
    """One turn restriction on graph edges.

    Attributes
    ----------
    relation : int
        OSM relation id.
    kind : str
        ``"no"`` or ``"only"``.
    prefix : tuple of (u, v, key)
        Consecutive edges: the ``from`` edge, then the edges along the ``via`` ways.
    to : frozenset of (u, v, key)
        Edges of the ``to`` way leaving ``prefix[-1]``'s end node.
    """

    relation: int
    kind: str
    prefix: tuple[Edge, ...]
    to: frozenset[Edge]

    def forbids(self, edge: Edge) -> bool:
        """Whether taking ``edge`` right after the whole prefix breaks this restriction.

        Parameters
        ----------
        edge : tuple of (int, int, int)
            The ``(u, v, key)`` edge taken after the restriction's prefix.

        Returns
        -------
        bool
            True when a ``no_*`` restriction names ``edge``, or an ``only_*`` one names
            another edge.

        Examples
        --------
        >>> r = TurnRestriction(1, "only", ((1, 2, 0),), frozenset({(2, 3, 0)}))
        >>> r.forbids((2, 3, 0)), r.forbids((2, 4, 0))
        (False, True)
        """
        return (edge in self.to) == (self.kind == "no")


def _edges_by_way(graph: nx.MultiDiGraph) -> dict[int, list[Edge]]:
    out: dict[int, list[Edge]] = {}
    for u, v, k, way in graph.edges(keys=True, data="osmid"):
        out.setdefault(int(way), []).append((u, v, k))
    return out


def _way_path(graph: nx.MultiDiGraph, edges: list[Edge], start: int,
              ends: Iterable[int]) -> tuple[list[Edge], int] | None:
    """The edges of one way from ``start`` to the first reachable of ``ends``."""
    sub = nx.MultiDiGraph()
    for u, v, k in edges:
        sub.add_edge(u, v, k, length=graph.edges[u, v, k]["length"])
    targets = set(ends) - {start}
    if start not in sub:
        return None
    try:
        dist, paths = nx.single_source_dijkstra(sub, start, weight="length")
    except nx.NetworkXNoPath:  # pragma: no cover - single_source never raises it
        return None
    reachable = [t for t in targets if t in dist]
    if not reachable:
        return None
    end = min(reachable, key=lambda t: (dist[t], t))
    nodes = paths[end]
    path = []
    for u, v in pairwise(nodes):
        key = min(sub[u][v], key=lambda k: (sub[u][v][k]["length"], k))
        path.append((u, v, key))
    return path, end


def compile_restrictions(
    graph: nx.MultiDiGraph,
    relations: Iterable[RawRestriction],
    way_nodes: Mapping[int, set[int]],
    node_ids: set[int],
) -> tuple[list[TurnRestriction], Counter[str]]:
    """Place restriction relations on a road graph's edges.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The drivable graph (edges with ``osmid``).
    relations : iterable of RawRestriction
        The extract's ``type=restriction`` relations.
    way_nodes : mapping
        ``way id -> ids of its located nodes`` for every ``highway`` way of the extract.
    node_ids : set of int
        Ids of the located nodes of the extract's ``highway`` ways.

    Returns
    -------
    (list of TurnRestriction, collections.Counter)
        The restrictions that apply to cars, and the dropped ones counted by reason
        (:data:`DROP_REASONS`).
    """
    by_way = _edges_by_way(graph)
    out: list[TurnRestriction] = []
    dropped: Counter[str] = Counter()
    for rel in relations:
        value = car_restriction(rel.tags)
        if value is None:
            continue
        kind = "no" if value.startswith("no_") else "only"
        froms = [ref for t, ref, role in rel.members if role == "from" and t == "w"]
        tos = [ref for t, ref, role in rel.members if role == "to" and t == "w"]
        via_nodes = [ref for t, ref, role in rel.members if role == "via" and t == "n"]
        via_ways = [ref for t, ref, role in rel.members if role == "via" and t == "w"]
        if not froms or not tos or bool(via_nodes) == bool(via_ways) or len(via_nodes) > 1:
            dropped["malformed relation"] += 1
            continue
        if (any(w not in way_nodes for w in froms + tos + via_ways)
                or any(n not in node_ids for n in via_nodes)):
            dropped["member missing from the extract"] += 1
            continue
        if all(w not in by_way for w in froms):
            continue  # no from way a car may drive: nothing to restrict
        if kind == "no" and all(w not in by_way for w in tos):
            continue  # the forbidden turn leads onto a road closed to cars anyway
        froms = [w for w in froms if w in by_way]
        placed = _place(graph, rel.id, kind, froms, tos, via_nodes, via_ways, by_way,
                        way_nodes)
        if isinstance(placed, str):
            dropped[placed] += 1
        else:
            out.extend(placed)
    return out, dropped


def _place(graph: nx.MultiDiGraph, relation: int, kind: str, froms: list[int],
           tos: list[int], via_nodes: list[int], via_ways: list[int],
           by_way: dict[int, list[Edge]], way_nodes: Mapping[int, set[int]],
           ) -> list[TurnRestriction] | str:
    """The restrictions of one relation, or the reason it is dropped."""
    out: list[TurnRestriction] = []
    for f in froms:
        for t in tos:
            if via_nodes:
                via = via_nodes[0]
                if via not in way_nodes[f] or via not in way_nodes[t]:
                    return "via not on the ways"
                prefixes: list[tuple[tuple[Edge, ...], int]] = [
                    ((e,), via) for e in by_way[f] if e[1] == via]
            else:
                if any(w not in by_way for w in via_ways):
                    continue  # a via way closed to cars: the turn cannot be driven
                chain = _via_chain(graph, f, via_ways, t, by_way, way_nodes)
                if chain is None:
                    return "via ways do not join"
                prefixes = chain
            for prefix, end in prefixes:
                # an only_* turn onto a road closed to cars leaves a car no way on
                to = frozenset(e for e in by_way.get(t, ()) if e[0] == end)
                out.append(TurnRestriction(relation, kind, prefix, to))
    return out


def _via_chain(graph: nx.MultiDiGraph, f: int, via_ways: list[int], t: int,
               by_way: dict[int, list[Edge]], way_nodes: Mapping[int, set[int]],
               ) -> list[tuple[tuple[Edge, ...], int]] | None:
    """Edge prefixes ``from edge + via edges`` and the node where each ends."""
    first = via_ways[0]
    starts = way_nodes[f] & way_nodes[first]
    if not starts:
        return None
    out: list[tuple[tuple[Edge, ...], int]] = []
    for start in sorted(starts):
        from_edges = [e for e in by_way[f] if e[1] == start]
        edges: list[Edge] = []
        node = start
        ok = True
        for i, way in enumerate(via_ways):
            following = via_ways[i + 1] if i + 1 < len(via_ways) else t
            ends = way_nodes[way] & way_nodes[following]
            found = _way_path(graph, by_way[way], node, ends)
            if found is None:
                ok = False
                break
            path, node = found
            edges.extend(path)
        if not ok:
            continue
        out.extend(((fe, *edges), node) for fe in from_edges)
    if not out:
        return None
    return out
