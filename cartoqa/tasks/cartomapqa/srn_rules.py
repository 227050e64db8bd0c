"""SRN's own rejection rules: a route a reader can derive and follow on the picture.

Pure, in view pixels or metres like the shared rules of :mod:`cartoqa.tasks.common.rules`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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
