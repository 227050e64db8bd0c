"""The hand-made hexbin tile layout (``assets/thematic/us_hexgrid.csv``).

Pointy-top hexagons in offset rows: row 0 at the top, odd rows shifted right by half a
tile. The layout keeps 91 of the 109 queen-neighbour pairs of the contiguous states as
touching tiles.
"""

from __future__ import annotations

import math
from functools import lru_cache

from groundtruth.assets import asset_path


@lru_cache(maxsize=1)
def us_hex_layout() -> dict[str, tuple[int, int]]:
    """State code -> ``(col, row)`` of its tile."""
    out: dict[str, tuple[int, int]] = {}
    for line in asset_path("thematic", "us_hexgrid.csv").read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("code,"):
            continue
        code, col, row = line.split(",")
        out[code] = (int(col), int(row))
    return out


def tile_centre(col: int, row: int) -> tuple[float, float]:
    """Centre of a tile in tile units (x to the right, y up; unit = tile width).

    Examples
    --------
    >>> tile_centre(2, 0)[0], tile_centre(0, 1)[0], round(tile_centre(0, 2)[1], 3)
    (2.0, 0.5, -1.732)
    """
    return col + 0.5 * (row % 2), -row * math.sqrt(3) / 2


def hex_adjacency(layout: dict[str, tuple[int, int]]) -> dict[str, frozenset[str]]:
    """Tiles that share an edge.

    Examples
    --------
    >>> adj = hex_adjacency({"a": (0, 0), "b": (1, 0), "c": (0, 1), "d": (3, 3)})
    >>> sorted(adj["a"]), sorted(adj["c"]), sorted(adj["d"])
    (['b', 'c'], ['a', 'b'], [])
    """
    centres = {k: tile_centre(*v) for k, v in layout.items()}
    out: dict[str, set[str]] = {k: set() for k in layout}
    for a, pa in centres.items():
        for b, pb in centres.items():
            if a < b and abs(math.dist(pa, pb) - 1.0) < 1e-6:
                out[a].add(b)
                out[b].add(a)
    return {k: frozenset(v) for k, v in out.items()}
