"""RLE's own rules: the path's difficulty from its geometry, its near-duplicates, and
the roads a reader can follow it along (no tunnels).

Pure, like the shared rules of :mod:`cartoqa.tasks.common.rules` (the path's turns).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from cartoqa.tasks.common.rules import (
    NEAR_DUPLICATE_M,
    ends_match,
)

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

#: Two RLE paths are near-duplicates when their lengths differ by at most this share of
#: the longer one.
NEAR_DUPLICATE_LENGTH_REL = 0.10


def through_tunnel(graph: nx.MultiDiGraph, edges: Sequence[tuple[int, int, int]]) -> bool:
    """Whether a path runs along a road OSM-Carto draws as a tunnel (edge attribute
    ``tunnel``, :func:`groundtruth.tunnels.drawn_as_tunnel`).

    The blue path is drawn over the road it follows; over a tunnel it hides the pale,
    dashed tunnel drawing, and the reader sees a path across buildings or under a
    street, not along a road (rle-0007 of seed 2718 through the Kluuvi parking
    tunnel). Such a path is rejected, not routed around: every other path keeps its
    draw.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> _ = g.add_edge(1, 2, tunnel=False); _ = g.add_edge(2, 3, tunnel=True)
    >>> through_tunnel(g, [(1, 2, 0)]), through_tunnel(g, [(1, 2, 0), (2, 3, 0)])
    (False, True)
    """
    return any(graph.edges[u, v, k].get("tunnel", False) for u, v, k in edges)



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
