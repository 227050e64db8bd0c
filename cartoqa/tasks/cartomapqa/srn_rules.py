"""SRN's own rejection rules: a route a reader can derive and follow on the picture.

Pure, in view pixels or metres like the shared rules of :mod:`cartoqa.tasks.common.rules`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import networkx as nx

from cartoqa.tasks.common.rules import (
    NEAR_DUPLICATE_M,
    ends_match,
)
from cartoqa.visibility.screen import Point, marker_box
from groundtruth.distance import geodesic_m
from groundtruth.turns import normalize_label, turn_angle

# -- SRN: a route a reader can derive and follow on the picture --------------------------

#: SRN: least on-screen length (pixels) of every leg, the stretch of one road between
#: two actions (or an end): shorter links (crossovers of dual carriageways, slip roads
#: of a few metres) are not seen as a step of their own.
MIN_LEG_PX = 60.0
#: SRN: a junction where an action happens must be more than this far (pixels) outside
#: both marker pins' boxes, or the pin hides the step.
STEP_CLEAR_PX = 6.0
#: SRN: a marker junction on a one-way carriageway with a one-way carriageway of the
#: same name running the other way within this many metres (a dual carriageway) is
#: ambiguous: a reader cannot tell which carriageway the pin stands on.
DUAL_CARRIAGEWAY_M = 45.0
#: SRN: the legal route and the route a reader derives without turn restrictions,
#: access signs and barriers (which OSM-Carto does not draw as such) must not differ
#: by more than this (metres).
READER_ROUTE_TOL_M = 0.5


def reader_route_differs(legal_steps: Sequence[str], legal_m: float,
                         naive_steps: Sequence[str] | None, naive_m: float | None, *,
                         tol_m: float = READER_ROUTE_TOL_M) -> bool:
    """Whether the answer would change for a reader who ignores turn restrictions,
    access signs and barriers (one-way arrows are drawn, so one-way streets count).

    Parameters
    ----------
    legal_steps, legal_m : list of str, float
        The legal shortest route's steps and length.
    naive_steps, naive_m : list of str or None, float or None
        The same for the shortest route on the graph without those rules (None when
        there is none).
    tol_m : float
        Largest length difference still taken as the same route.

    Examples
    --------
    >>> steps = ["blue", "turn left", "A", "red"]
    >>> reader_route_differs(steps, 300.0, steps, 300.2)
    False
    >>> reader_route_differs(steps, 420.0, ["blue", "turn right", "B", "red"], 300.0)
    True
    >>> reader_route_differs(steps, 420.0, steps, 300.0)  # same names, shorter path
    True
    """
    if naive_steps is None or naive_m is None:
        return True
    return list(legal_steps) != list(naive_steps) or abs(legal_m - naive_m) > tol_m


def short_legs(leg_lengths_px: Sequence[float], *, minimum: float = MIN_LEG_PX) -> list[int]:
    """Indices of the legs shorter on screen than ``minimum`` pixels.

    Examples
    --------
    >>> short_legs([250.0, 12.0, 80.0, 59.9])
    [1, 3]
    """
    return [i for i, length in enumerate(leg_lengths_px) if length < minimum]


def steps_under_markers(step_points: Sequence[Point], marker_points: Sequence[Point], *,
                        clear: float = STEP_CLEAR_PX) -> list[int]:
    """Indices of the action junctions that a marker pin covers (or nearly).

    Parameters
    ----------
    step_points : sequence of (x, y)
        View pixels of the junctions where an action happens, the origin excluded
        (the blue pin marks the start; its first action is the heading convention).
    marker_points : sequence of (x, y)
        Pin tips.
    clear : float
        Margin around each pin's box, pixels.

    Examples
    --------
    >>> steps_under_markers([(100.0, 90.0), (300.0, 300.0)], [(100.0, 100.0)])
    [0]
    >>> steps_under_markers([(100.0, 104.0)], [(100.0, 100.0)])  # just below the tip
    [0]
    >>> steps_under_markers([(100.0, 120.0)], [(100.0, 100.0)])
    []
    """
    boxes = [marker_box(p) for p in marker_points]
    out = []
    for i, (x, y) in enumerate(step_points):
        if any(b[0] - clear <= x <= b[2] + clear and b[1] - clear <= y <= b[3] + clear
               for b in boxes):
            out.append(i)
    return out


def on_dual_carriageway(graph: nx.MultiDiGraph, node: int, *,
                        within_m: float = DUAL_CARRIAGEWAY_M) -> bool:
    """Whether a junction lies on one carriageway of a dual carriageway.

    True when a one-way edge at ``node`` belongs to a named road and a one-way edge of
    the same name, heading the opposite way (more than 135 degrees apart), starts or
    ends within ``within_m`` metres of ``node`` without touching it.

    Examples
    --------
    >>> import networkx as nx
    >>> from shapely.geometry import LineString
    >>> g = nx.MultiDiGraph()
    >>> def road(u, v, lat_u, lat_v, lon, b):
    ...     g.add_node(u, y=lat_u, x=lon); g.add_node(v, y=lat_v, x=lon)
    ...     g.add_edge(u, v, name="A", oneway=True, start_bearing=b, end_bearing=b,
    ...                geometry=LineString([(lon, lat_u), (lon, lat_v)]))
    >>> road(1, 2, 60.0, 60.001, 24.0, 0.0)          # northbound carriageway
    >>> road(3, 4, 60.001, 60.0, 24.0004, 180.0)     # southbound, 22 m east
    >>> on_dual_carriageway(g, 1), on_dual_carriageway(g, 1, within_m=10.0)
    (True, False)
    """
    here = graph.nodes[node]
    mine = [(d["name"], d.get("start_bearing", 0.0))
            for _, _, d in graph.out_edges(node, data=True) if d.get("oneway") and d.get("name")]
    mine += [(d["name"], d.get("end_bearing", 0.0))
             for _, _, d in graph.in_edges(node, data=True) if d.get("oneway") and d.get("name")]
    if not mine:
        return False
    names = {normalize_label(n) for n, _ in mine}
    lat_pad = within_m / 111_000.0
    lon_pad = lat_pad / max(math.cos(math.radians(here["y"])), 0.1)
    for u, v, d in graph.edges(data=True):
        if not d.get("oneway") or not d.get("name") or node in (u, v):
            continue
        if normalize_label(d["name"]) not in names:
            continue
        for end, bearing in ((u, d.get("start_bearing", 0.0)), (v, d.get("end_bearing", 0.0))):
            there = graph.nodes[end]
            if abs(there["y"] - here["y"]) > lat_pad or abs(there["x"] - here["x"]) > lon_pad:
                continue
            if geodesic_m(here["y"], here["x"], there["y"], there["x"]) > within_m:
                continue
            if any(normalize_label(n) == normalize_label(d["name"])
                   and abs(turn_angle(b, bearing)) > 135.0 for n, b in mine):
                return True
    return False


def srn_near_duplicate(steps_a: Sequence[str], ends_a: Sequence[tuple[float, float]],
                       steps_b: Sequence[str], ends_b: Sequence[tuple[float, float]], *,
                       within_m: float = NEAR_DUPLICATE_M) -> bool:
    """Two SRN scenarios ask the same question: the same steps, origins and
    destinations each within ``within_m``.

    Examples
    --------
    >>> s = ["blue", "turn left", "A", "turn right", "B", "red"]
    >>> o, d = (60.1700, 24.9400), (60.1720, 24.9430)
    >>> srn_near_duplicate(s, [o, d], s, [(60.1704, 24.9400), d])   # 45 m apart
    True
    >>> srn_near_duplicate(s, [o, d], s, [(60.1710, 24.9400), d])   # 111 m apart
    False
    >>> srn_near_duplicate(s, [o, d], s[:1] + ["turn right"] + s[2:], [o, d])
    False
    """
    return list(steps_a) == list(steps_b) and ends_match(ends_a, ends_b, within_m=within_m)


# -- SRN: the one-way streets a reader sees -----------------------------------------------

#: SRN: graph nodes this far (pixels) outside the view still belong to the reader's
#: graph (a road leaving the view and coming back is half-seen; farther ones are not).
READER_VIEW_MARGIN_PX = 20.0


def one_way_stretches(graph: nx.MultiDiGraph, edges: Sequence[tuple[int, int, int]],
                      ) -> list[list[tuple[int, int, int]]]:
    """Group one-way edges into stretches: runs joined end to end at nodes where only
    the run's two pieces meet (``street_count == 2``, an OSM way split without a
    junction), so the eight short ways of one block are one stretch.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_nodes_from([(1, {"street_count": 3}), (2, {"street_count": 2}),
    ...                   (3, {"street_count": 3}), (4, {"street_count": 3})])
    >>> g.add_edge(1, 2, oneway=True); g.add_edge(2, 3, oneway=True)
    0
    0
    >>> g.add_edge(3, 4, oneway=True)
    0
    >>> one_way_stretches(g, [(1, 2, 0), (2, 3, 0), (3, 4, 0)])
    [[(1, 2, 0), (2, 3, 0)], [(3, 4, 0)]]
    """
    parent = {e: e for e in edges}

    def find(e: tuple[int, int, int]) -> tuple[int, int, int]:
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    by_start: dict[int, list[tuple[int, int, int]]] = {}
    for e in edges:
        by_start.setdefault(e[0], []).append(e)
    for e in edges:
        v = e[1]
        if (graph.nodes[v].get("street_count") or 0) != 2:
            continue
        for f in by_start.get(v, []):
            if f[1] != e[0]:
                parent[find(f)] = find(e)
    groups: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for e in edges:
        groups.setdefault(find(e), []).append(e)
    return list(groups.values())


def reader_graph(naive: nx.MultiDiGraph, nodes: Sequence[int],
                 undrawn: Sequence[tuple[int, int, int]]) -> nx.MultiDiGraph:
    """The road graph a reader of one picture sees: ``naive`` (no turn restrictions,
    access signs or barriers) cut to ``nodes`` (those in the view), with the one-way
    edges in ``undrawn`` (no arrow visible on their stretch) open both ways.

    Examples
    --------
    >>> import networkx as nx
    >>> from shapely.geometry import LineString
    >>> g = nx.MultiDiGraph(restrictions=[])
    >>> g.add_node(1, y=60.0, x=24.0); g.add_node(2, y=60.001, x=24.0)
    >>> g.add_edge(1, 2, oneway=True, length=111.0, start_bearing=0.0, end_bearing=10.0,
    ...            geometry=LineString([(24.0, 60.0), (24.0, 60.001)]), name="A")
    0
    >>> r = reader_graph(g, [1, 2], [(1, 2, 0)])
    >>> sorted(r.edges()), r.edges[2, 1, 0]["start_bearing"], r.edges[2, 1, 0]["oneway"]
    ([(1, 2), (2, 1)], 190.0, False)
    >>> g.has_edge(2, 1)   # the naive graph is left alone
    False
    """
    sub = nx.MultiDiGraph(naive.subgraph(nodes))
    sub.graph = dict(naive.graph)
    for u, v, k in undrawn:
        if not sub.has_edge(u, v, k):
            continue
        data = dict(sub.edges[u, v, k])
        data["oneway"] = False
        sub.edges[u, v, k]["oneway"] = False
        back = dict(data)
        back["start_bearing"] = (float(data.get("end_bearing", 0.0)) + 180.0) % 360.0
        back["end_bearing"] = (float(data.get("start_bearing", 0.0)) + 180.0) % 360.0
        if data.get("geometry") is not None:
            back["geometry"] = data["geometry"].reverse()
        back["reversed"] = not data.get("reversed", False)
        sub.add_edge(v, u, **back)
    return sub


def tag_only_access(graph: nx.MultiDiGraph, edges: Sequence[tuple[int, int, int]]) -> bool:
    """Whether a route drives on a road open to it only by a tag the map does not
    draw: a destination-only way (``motor_vehicle=destination``, ``access=destination``;
    legal at a route's ends, invisible to a reader and refused by other routers).
    Closed ways (private, no) are not in the legal graph at all.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_edge(1, 2, access="yes"), g.add_edge(2, 3, access="destination")
    (0, 0)
    >>> tag_only_access(g, [(1, 2, 0)]), tag_only_access(g, [(1, 2, 0), (2, 3, 0)])
    (False, True)
    """
    return any(graph.edges[e].get("access", "yes") != "yes" for e in edges)


# -- SRN: near-duplicates by content -------------------------------------------------------

#: SRN: a junction (a marker or the junction of an action) may be in at most this many
#: items of a build ... (seed 4242 had one in 4 of 12 items: the build was about one
#: crossing)
MAX_JUNCTION_USES = 2
#: ... or, in a larger build, in at most this share of its items (rounded up): central
#: Helsinki has 61 junctions where only named roads meet, and an item uses about four
#: (two markers, one or more actions), so 40 items cannot keep every junction to two
#: (the demo's SRN stopped at 14 of 40). 40 items allow 4 uses; 15 items still 2.
MAX_JUNCTION_SHARE = 0.1


def junction_use_limit(n_items: int, *, most: int = MAX_JUNCTION_USES,
                       share: float = MAX_JUNCTION_SHARE) -> int:
    """How many of ``n_items`` items may use one junction.

    Examples
    --------
    >>> [junction_use_limit(n) for n in (1, 12, 15, 20, 21, 40)]
    [2, 2, 2, 2, 3, 4]
    """
    return max(most, math.ceil(share * n_items - 1e-9))


#: SRN: a marker stands on a junction and starts (blue) or ends (red) on one road; the
#: same junction with the same road as a marker of another item repeats that item's
#: start or end (srn-0008 of seed 5353 began where srn-0002 began, with the same "turn
#: right, Yliopistonkatu"; srn-0007 ended with srn-0005's first two legs driven back).
#: A (junction, road) may be a marker in one item of a build, or in this share of a
#: larger build's items (rounded up: 40 items allow 2).
MAX_MARKER_ROAD_SHARE = 0.05


def marker_roads(steps: Sequence[str], origin: int, destination: int,
                 ) -> list[tuple[int, str]]:
    """The (junction, road) of each marker: the origin with the first road driven, the
    destination with the last.

    Examples
    --------
    >>> marker_roads(["blue", "turn left", "A", "turn right", "B", "red"], 1, 2)
    [(1, 'A'), (2, 'B')]
    """
    return [(origin, steps[2]), (destination, steps[-2])]


def marker_road_use_limit(n_items: int, *, share: float = MAX_MARKER_ROAD_SHARE) -> int:
    """How many of ``n_items`` items may have a marker on one (junction, road).

    Examples
    --------
    >>> [marker_road_use_limit(n) for n in (1, 16, 20, 21, 40)]
    [1, 1, 1, 2, 2]
    """
    return max(1, math.ceil(share * n_items - 1e-9))


def reused_marker_roads(markers: Sequence[tuple[int, str]],
                        earlier: Sequence[Sequence[tuple[int, str]]], *,
                        most: int = 1) -> list[tuple[int, str]]:
    """The marker (junction, road) pairs of a new item that ``most`` accepted items
    already have as a marker (either colour: an item's end is another's start when
    driven back).

    Examples
    --------
    >>> reused_marker_roads([(7, "A"), (9, "C")], [[(1, "B"), (7, "A")]])
    [(7, 'A')]
    >>> reused_marker_roads([(7, "B"), (9, "C")], [[(1, "B"), (7, "A")]])   # other road
    []
    >>> reused_marker_roads([(7, "A")], [[(1, "B"), (7, "A")]], most=2)
    []
    """
    counts: dict[tuple[int, str], int] = {}
    for item in earlier:
        for m in set(item):
            counts[m] = counts.get(m, 0) + 1
    return [m for m in dict.fromkeys(markers) if counts.get(m, 0) >= most]


def srn_same_content(steps_a: Sequence[str], pair_a: tuple[int, int],
                     steps_b: Sequence[str], pair_b: tuple[int, int]) -> bool:
    """Two SRN items ask the same question by content, wherever they stand: the same
    step sequence, or the same pair of marker junctions in either direction.

    Examples
    --------
    >>> s = ["blue", "turn left", "A", "turn right", "B", "red"]
    >>> srn_same_content(s, (1, 2), s, (7, 8))
    True
    >>> srn_same_content(s, (1, 2), ["blue", "turn left", "C", "red"], (2, 1))
    True
    >>> srn_same_content(s, (1, 2), ["blue", "turn left", "C", "red"], (1, 3))
    False
    """
    return list(steps_a) == list(steps_b) or set(pair_a) == set(pair_b)


def overused_junctions(junctions: Sequence[int], earlier: Sequence[Sequence[int]], *,
                       most: int | None = None) -> list[int]:
    """The junctions of a new item that ``most`` accepted items already use (by default
    :func:`junction_use_limit` of the build so far with the new item; the builder
    passes the limit of the planned build, :func:`cartoqa.tasks.cartomapqa.srn.overused`).

    Examples
    --------
    >>> overused_junctions([1, 5, 9], [[1, 2], [1, 3], [5, 6]])
    [1]
    >>> overused_junctions([1, 5, 9], [[1, 2], [1, 3], [5, 6]], most=3)
    []
    >>> overused_junctions([1], [[1, 2], [1, 3]] + [[4]] * 18)   # the 21st item: 3 uses
    []
    """
    if most is None:
        most = junction_use_limit(len(earlier) + 1)
    counts: dict[int, int] = {}
    for item in earlier:
        for j in set(item):
            counts[j] = counts.get(j, 0) + 1
    return [j for j in dict.fromkeys(junctions) if counts.get(j, 0) >= most]


def in_pedestrian_area(edges: Sequence[tuple[int, int, int]],
                       inside: Collection[tuple[int, int, int]]) -> bool:
    """Whether a route drives on a road drawn inside a pedestrian area (``inside``:
    :func:`groundtruth.pedestrian_areas.edges_inside`). OSM-Carto fills pedestrian
    squares in lilac grey; a road across one (Aleksanterinkatu, ``highway=service``,
    across Senaatintori: srn-0006 of seed 5151, srn-0003 of seed 0) reads as part of
    the square, and a reader does not drive it.

    Examples
    --------
    >>> in_pedestrian_area([(1, 2, 0), (2, 3, 0)], {(2, 3, 0)})
    True
    >>> in_pedestrian_area([(1, 2, 0)], {(2, 3, 0)})
    False
    """
    return any(e in inside for e in edges)
