"""Pure rejection rules that several tasks share: what a reader could not answer.

A task's own rules live beside it (:mod:`cartoqa.tasks.cartomapqa.mml_rules`,
:mod:`~cartoqa.tasks.cartomapqa.rle_rules`, :mod:`~cartoqa.tasks.cartomapqa.srn_rules`).

All positions are view pixels (``x`` right, ``y`` down, origin at the top-left corner).
The boxes (a pin's box, their overlap, the map controls' zones) are
:mod:`cartoqa.visibility.screen`'s; these rules run before a view is rendered, so they
keep clear of the controls' zones known in advance (:data:`RESERVED_BOXES`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

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
from groundtruth.turns import turn_angle

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


# -- A path's geometry: its turns, winding and doubling back (RLE, SRN) ----------------

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
        if along[i] - along[i - 1] == 0.0:
            continue  # a repeated point adds no bend (at i = 1 it has no arriving bearing)
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



#: Two SRN or RLE scenarios are near-duplicates when their answers agree (see
#: :func:`~cartoqa.tasks.cartomapqa.srn_rules.srn_near_duplicate`,
#: :func:`~cartoqa.tasks.cartomapqa.rle_rules.rle_near_duplicate`) and each end of one route
#: lies within this many metres of an end of the other: the same question about the
#: same stretch of streets, a junction or two along. 60 m is about a city block in
#: central Helsinki, 400 px at zoom 19 and 100 px at zoom 17.
NEAR_DUPLICATE_M = 60.0
#: RLE answers "agree" when the two lengths differ by at most this fraction of the

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
