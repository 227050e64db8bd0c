"""Pure rejection rules shared by the samplers: what a reader could not answer.

All positions are view pixels (``x`` right, ``y`` down, origin at the top-left corner).
The boxes (a pin's box, their overlap, the map controls' zones) are
:mod:`cartoqa.visibility.screen`'s; these rules run before a view is rendered, so they
keep clear of the controls' zones known in advance (:data:`RESERVED_BOXES`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise

import networkx as nx
import numpy as np

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.visibility.screen import RESERVED_BOXES, Box, Point, boxes_overlap, marker_box
from groundtruth.bearings import (
    BEARING_SAMPLE_M,
    arriving_bearing,
    bearing_deg,
    leaving_bearing,
)
from groundtruth.distance import geodesic_m
from groundtruth.turns import normalize_label, turn_angle

#: Space kept free between a marker and the view's edge, in pixels.
EDGE_MARGIN_PX = 12.0
#: Minimum gap between two marker pins, in pixels.
MARKER_GAP_PX = 6.0
#: Space kept between a route or path and the view's edge, in pixels.
PATH_MARGIN_PX = 20.0


def marker_on_screen(px: Point, *, width: int = VIEW_WIDTH, height: int = VIEW_HEIGHT,
                     margin: float = EDGE_MARGIN_PX,
                     reserved: Sequence[Box] = RESERVED_BOXES) -> bool:
    """Whether a whole pin fits on screen, clear of the edges and of the controls.

    Parameters
    ----------
    px : tuple of float
        The pin's tip in view pixels.
    width, height : int
        View size.
    margin : float
        Free space kept to each edge.
    reserved : sequence of box
        Areas covered by map controls.

    Returns
    -------
    bool
        ``True`` when a reader sees the whole pin.

    Examples
    --------
    >>> marker_on_screen((683.0, 384.0))
    True
    >>> marker_on_screen((683.0, 30.0))  # the pin's head would be cut off at the top
    False
    >>> marker_on_screen((60.0, 760.0))  # under the scale bar
    False
    """
    x0, y0, x1, y1 = marker_box(px)
    if x0 < margin or y0 < margin or x1 > width - margin or y1 > height - margin:
        return False
    return not any(boxes_overlap((x0, y0, x1, y1), r) for r in reserved)


def markers_overlap(points: Sequence[Point], *, gap: float = MARKER_GAP_PX) -> bool:
    """Whether any two pins overlap (or come closer than ``gap`` pixels).

    Examples
    --------
    >>> markers_overlap([(100.0, 100.0), (110.0, 120.0)])
    True
    >>> markers_overlap([(100.0, 100.0), (140.0, 100.0)])
    False
    """
    boxes = [marker_box(p) for p in points]
    return any(boxes_overlap(boxes[i], boxes[j], gap=gap)
               for i in range(len(boxes)) for j in range(i + 1, len(boxes)))


def path_inside(points: Iterable[Point], *, width: int = VIEW_WIDTH,
                height: int = VIEW_HEIGHT, margin: float = PATH_MARGIN_PX,
                reserved: Sequence[Box] = RESERVED_BOXES) -> bool:
    """Whether every vertex of a path lies inside the view, clear of edges and controls.

    The segments between vertices are straight, so vertices inside a convex area
    keep the whole path inside it.

    Examples
    --------
    >>> path_inside([(100.0, 100.0), (500.0, 300.0)])
    True
    >>> path_inside([(100.0, 100.0), (1360.0, 300.0)])
    False
    """
    for x, y in points:
        if not (margin <= x <= width - margin and margin <= y <= height - margin):
            return False
        if any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in reserved):
            return False
    return True


def names_not_drawn(required: Iterable[str], drawn: Iterable[str]) -> list[str]:
    """The required road names that are not drawn anywhere in the view.

    Examples
    --------
    >>> names_not_drawn(["Iso Roobertinkatu", "Annankatu"], {"Annankatu"})
    ['Iso Roobertinkatu']
    """
    seen = set(drawn)
    return [name for name in required if name not in seen]


# -- SRN: a route a reader can derive and follow on the picture --------------------------

#: SRN: least on-screen length (pixels) of every leg, the stretch of one road between
#: two actions (or an end): shorter links (crossovers of dual carriageways, slip roads
#: MML: no other named road may pass within this distance of the marker (pixels), so
#: that a reader knows which two roads meet at the pin (a pin inside a big junction of
#: four roads names two of them only in the data). 60 px, not 50: at seed 20261130 two
#: junctions 54 px apart on Erottajankatu (Ludviginkatu's and the point where it becomes
#: Uudenmaankatu, mml-0010 and mml-0016) each passed, and a reader cannot tell which of
#: the two a pin marks; likewise Unioninkatu/Yliopistonkatu 57 px from Hallituskatu.
MML_OTHER_ROAD_CLEAR_PX = 60.0


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def other_road_near(marker: Point, other_lines: Iterable[Sequence[Point]], *,
                    clear: float = MML_OTHER_ROAD_CLEAR_PX) -> bool:
    """Whether a line of another named road passes within ``clear`` pixels of the marker.

    Examples
    --------
    >>> other_road_near((0.0, 0.0), [[(-100.0, 59.0), (100.0, 59.0)]])
    True
    >>> other_road_near((0.0, 0.0), [[(-100.0, 61.0), (100.0, 61.0)], [(70.0, -9.0)]])
    False
    """
    for line in other_lines:
        pts = list(line)
        if len(pts) == 1 and math.dist(marker, pts[0]) <= clear:
            return True
        if any(_segment_distance(marker, a, b) <= clear for a, b in pairwise(pts)):
            return True
    return False


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


# -- RLE: difficulty from the path's geometry --------------------------------------------

#: RLE: a bend of the path counts as a turn when its heading changes by at least this
#: many degrees, measured over :data:`~groundtruth.bearings.BEARING_SAMPLE_M` metres on
#: each side.
PATH_TURN_MIN_DEG = 40.0
#: RLE: bends closer than this (metres along the path) are one turn (a crossover of a
#: dual carriageway: two right angles, one U-turn).
PATH_TURN_MERGE_M = 30.0
#: RLE: a turn of at least this many degrees is a U-turn.
PATH_UTURN_MIN_DEG = 150.0
#: RLE: two parts of a path at least :data:`OVERLAP_ALONG_PX` apart along it must stay
#: at least this far apart on screen (pixels), or the path overlaps or doubles back.
OVERLAP_PX = 12.0
#: RLE: see :data:`OVERLAP_PX` (pixels along the path).
OVERLAP_ALONG_PX = 48.0


def path_turns(path: Sequence[tuple[float, float]]) -> tuple[int, int]:
    """Turns and U-turns along a path, from its geometry (not from road names).

    At each inner vertex the heading change is taken between the bearing over the last
    :data:`~groundtruth.bearings.BEARING_SAMPLE_M` metres before it and the first
    metres after it. Vertices where it reaches :data:`PATH_TURN_MIN_DEG` start or
    extend a bend; bends whose vertices lie within :data:`PATH_TURN_MERGE_M` of each
    other are one turn, whose angle is the heading change from before its first vertex
    to after its last one (a turn when that is at least :data:`PATH_TURN_MIN_DEG`: two
    opposite bends close together are a jog, not a turn). A turn of at least
    :data:`PATH_UTURN_MIN_DEG` is a U-turn (and also a turn).

    Parameters
    ----------
    path : sequence of (lat, lon)
        The path, in order.

    Returns
    -------
    (int, int)
        Number of turns (U-turns included) and of U-turns.

    Examples
    --------
    >>> path_turns([(60.0, 24.0), (60.001, 24.0), (60.001, 24.002)])  # north, then east
    (1, 0)
    >>> path_turns([(60.0, 24.0), (60.001, 24.0), (60.002, 24.0)])
    (0, 0)
    """
    coords = [(lon, lat) for lat, lon in path]
    n = len(coords)
    if n < 3:
        return 0, 0
    along = [0.0]
    for (lon0, lat0), (lon1, lat1) in pairwise(coords):
        along.append(along[-1] + geodesic_m(lat0, lon0, lat1, lon1))
    bends: list[tuple[int, int]] = []
    for i in range(1, n - 1):
        if along[i] - along[i - 1] == 0.0 and i > 1:
            continue
        before = arriving_bearing(coords[: i + 1], sample_m=BEARING_SAMPLE_M)
        after = leaving_bearing(coords[i:], sample_m=BEARING_SAMPLE_M)
        if abs(turn_angle(before, after)) < PATH_TURN_MIN_DEG:
            continue
        if bends and along[i] - along[bends[-1][1]] <= PATH_TURN_MERGE_M:
            bends[-1] = (bends[-1][0], i)
        else:
            bends.append((i, i))
    turns = u_turns = 0
    for first, last in bends:
        before = arriving_bearing(coords[: first + 1], sample_m=BEARING_SAMPLE_M)
        after = leaving_bearing(coords[last:], sample_m=BEARING_SAMPLE_M)
        angle = abs(turn_angle(before, after))
        if angle < PATH_TURN_MIN_DEG:
            continue  # a jog (two opposite bends close together) keeps the heading
        turns += 1
        if angle >= PATH_UTURN_MIN_DEG:
            u_turns += 1
    return turns, u_turns


def makes_u_turn(path: Sequence[tuple[float, float]]) -> bool:
    """Whether an RLE path turns back on itself somewhere (a U-turn of :func:`path_turns`).

    Such paths run up one carriageway and back down the other; where the two are 20-40
    m apart (30-60 px at zoom 17) :func:`path_doubles_back` does not see it, but a reader
    cannot be sure which way the path runs at the loop. RLE rejects them.
    """
    return path_turns(path)[1] > 0


def path_winding_deg(path: Sequence[tuple[float, float]]) -> float:
    """Total signed change of heading along a path (degrees, clockwise positive).

    The sum of the turn angles between consecutive segments: a loop that comes back
    heading the other way winds about 180 degrees, however gradually it bends, while
    zigzags cancel out.

    Examples
    --------
    >>> round(path_winding_deg([(60.0, 24.0), (60.001, 24.0), (60.001, 24.002)]))
    90
    >>> round(path_winding_deg([(60.0, 24.0), (60.001, 24.0), (60.001, 24.002),
    ...                         (60.0, 24.002)]))
    180
    """
    bearings = [bearing_deg(a[0], a[1], b[0], b[1]) for a, b in pairwise(path) if a != b]
    return float(sum(turn_angle(x, y) for x, y in pairwise(bearings)))


def path_doubles_back(points: Sequence[Point], *, gap_px: float = OVERLAP_PX,
                      along_px: float = OVERLAP_ALONG_PX, step_px: float = 3.0) -> bool:
    """Whether a drawn path overlaps itself or runs back alongside itself.

    The path (view pixels) is sampled every ``step_px``; it doubles back when two
    samples at least ``along_px`` apart along the path are closer than ``gap_px`` on
    screen (up one carriageway and back down the other, a loop, a crossing of itself).
    A right-angle corner never triggers it: its two sides ``along_px`` apart stay
    ``along_px / sqrt(2)`` apart.

    Examples
    --------
    >>> path_doubles_back([(100.0, 500.0), (100.0, 200.0), (400.0, 200.0)])
    False
    >>> path_doubles_back([(100.0, 500.0), (100.0, 200.0), (108.0, 200.0), (108.0, 520.0)])
    True
    """
    pts = np.asarray(points, dtype=float)
    if len(pts) < 2:
        return False
    seg = np.diff(pts, axis=0)
    seg_len = np.hypot(seg[:, 0], seg[:, 1])
    cum = np.concatenate([[0.0], np.cumsum(seg_len)])
    total = float(cum[-1])
    if total <= along_px:
        return False
    s = np.arange(0.0, total + step_px / 2, step_px)
    x = np.interp(s, cum, pts[:, 0])
    y = np.interp(s, cum, pts[:, 1])
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    close = (dx * dx + dy * dy) < gap_px * gap_px
    far_along = np.abs(s[:, None] - s[None, :]) >= along_px
    return bool(np.any(close & far_along))


#: RLE "simple": at most this many turns after the start...
SIMPLE_MAX_TURNS = 1
#: ... and a path at most this long on screen (pixels).
SIMPLE_MAX_PATH_PX = 900.0
#: RLE "complex": at least this many turns...
COMPLEX_MIN_TURNS = 2
#: ... and a path at least this long on screen (pixels).
COMPLEX_MIN_PATH_PX = 500.0


def rle_difficulty(turns: int, path_px: float) -> str | None:
    """Classify an RLE path, or ``None`` when it is neither simple nor complex.

    Lengths are on-screen pixels, so a class means the same effort at every zoom.

    Examples
    --------
    >>> rle_difficulty(0, 300.0)
    'simple'
    >>> rle_difficulty(3, 900.0)
    'complex'
    >>> rle_difficulty(1, 1000.0) is None
    True
    """
    if turns <= SIMPLE_MAX_TURNS and path_px <= SIMPLE_MAX_PATH_PX:
        return "simple"
    if turns >= COMPLEX_MIN_TURNS and path_px >= COMPLEX_MIN_PATH_PX:
        return "complex"
    return None


#: Two SRN or RLE scenarios are near-duplicates when their answers agree (see
#: :func:`srn_near_duplicate`, :func:`rle_near_duplicate`) and each end of one route
#: lies within this many metres of an end of the other: the same question about the
#: same stretch of streets, a junction or two along. 60 m is about a city block in
#: central Helsinki, 400 px at zoom 19 and 100 px at zoom 17.
NEAR_DUPLICATE_M = 60.0
#: RLE answers "agree" when the two lengths differ by at most this fraction of the
#: longer one.
NEAR_DUPLICATE_LENGTH_REL = 0.10


def ends_match(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]], *,
               within_m: float = NEAR_DUPLICATE_M, either_way: bool = False) -> bool:
    """Whether route ``a``'s first and last points lie within ``within_m`` of ``b``'s.

    Points are ``(lat, lon)``. With ``either_way`` the ends may also match crosswise
    (first to last), for paths whose two ends look alike (RLE's two blue markers).

    Examples
    --------
    >>> a = [(60.1700, 24.9400), (60.1710, 24.9400)]
    >>> ends_match(a, [(60.1703, 24.9400), (60.1712, 24.9400)])  # 33 m and 22 m
    True
    >>> ends_match(a, [(60.1710, 24.9400), (60.1700, 24.9400)])
    False
    >>> ends_match(a, [(60.1710, 24.9400), (60.1700, 24.9400)], either_way=True)
    True
    """
    if not a or not b:
        return False

    def near(p: tuple[float, float], q: tuple[float, float]) -> bool:
        return geodesic_m(p[0], p[1], q[0], q[1]) <= within_m

    if near(a[0], b[0]) and near(a[-1], b[-1]):
        return True
    return either_way and near(a[0], b[-1]) and near(a[-1], b[0])


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


def rle_near_duplicate(length_a: float, path_a: Sequence[tuple[float, float]],
                       length_b: float, path_b: Sequence[tuple[float, float]], *,
                       within_m: float = NEAR_DUPLICATE_M,
                       length_rel: float = NEAR_DUPLICATE_LENGTH_REL) -> bool:
    """Two RLE scenarios ask the same question: lengths within ``length_rel`` of each
    other and the two paths' ends (either way round: both markers are blue) each within
    ``within_m``.

    Examples
    --------
    >>> p = [(60.1700, 24.9400), (60.1720, 24.9400)]
    >>> q = [(60.1721, 24.9401), (60.1702, 24.9400)]
    >>> rle_near_duplicate(222.6, p, 210.0, q)
    True
    >>> rle_near_duplicate(222.6, p, 180.0, q)   # 19 % shorter: another way round
    False
    """
    longer = max(length_a, length_b)
    if longer <= 0 or abs(length_a - length_b) > length_rel * longer:
        return False
    return ends_match(path_a, path_b, within_m=within_m, either_way=True)
