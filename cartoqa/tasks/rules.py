"""Pure rejection rules shared by the samplers: what a reader could not answer.

All positions are view pixels (``x`` right, ``y`` down, origin at the top-left corner).
The boxes (a pin's box, their overlap, the map controls' zones) are
:mod:`cartoqa.visibility.screen`'s; these rules run before a view is rendered, so they
keep clear of the controls' zones known in advance (:data:`RESERVED_BOXES`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.visibility.screen import RESERVED_BOXES, Box, Point, boxes_overlap, marker_box

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


#: Actions that count as a turn for RLE difficulty.
TURN_ACTIONS = frozenset({"turn left", "turn right", "make a U-turn and continue straight"})
#: RLE "simple": at most this many turns after the start...
SIMPLE_MAX_TURNS = 1
#: ... and a path at most this long on screen (pixels).
SIMPLE_MAX_PATH_PX = 900.0
#: RLE "complex": at least this many turns...
COMPLEX_MIN_TURNS = 2
#: ... and a path at least this long on screen (pixels).
COMPLEX_MIN_PATH_PX = 500.0


def count_turns(steps: Sequence[str]) -> int:
    """Turns along a route's steps, not counting the first action (taken at the start,
    where the vehicle's heading is a convention).

    Examples
    --------
    >>> count_turns(["blue", "turn left", "A", "turn right", "B", "continue straight", "C", "red"])
    1
    """
    actions = list(steps[1:-1:2])
    return sum(1 for a in actions[1:] if a in TURN_ACTIONS)


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
