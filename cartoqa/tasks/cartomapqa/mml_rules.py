"""MML's own rejection rule: no other named road passes close to the marker.

Pure, in view pixels like the shared rules of :mod:`cartoqa.tasks.common.rules`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise

from cartoqa.visibility.screen import Point

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
