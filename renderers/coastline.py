"""Sea polygons from ``natural=coastline`` ways, clipped to an extract's bounds.

OpenStreetMap coastlines are directed: land lies on the left of the way, water on the
right. A full OSM-Carto setup draws the sea from pre-built ocean polygons that cannot be
downloaded here, so the sea of a coastal extract is rebuilt from its own coastline ways:
the ways (extended straight to the edge of the extract where they stop short of it) cut
the extract's box into faces, and each face is water or land by which side of the
coastline it lies on. Pure functions over shapely geometries (any projected CRS).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import shapely
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree


def _directed_lines(lines: Iterable[BaseGeometry]) -> list[LineString]:
    """Split multi-part lines and join ways end to start, keeping their direction."""
    parts: list[LineString] = []
    for geom in lines:
        if isinstance(geom, LineString):
            if len(geom.coords) >= 2:
                parts.append(geom)
        elif isinstance(geom, MultiLineString):
            parts.extend(g for g in geom.geoms if len(g.coords) >= 2)
    if not parts:
        return []
    merged = shapely.line_merge(MultiLineString(parts), directed=True)
    if isinstance(merged, LineString):
        return [merged] if not merged.is_empty else []
    if isinstance(merged, MultiLineString):
        return list(merged.geoms)
    return [g for g in getattr(merged, "geoms", []) if isinstance(g, LineString)]


def extend_to_box(line: LineString, clip: Polygon) -> LineString:
    """Prolong an open line's ends straight on until they leave ``clip``.

    An end already on or outside the box edge is left alone; closed rings too.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> line = extend_to_box(LineString([(2, 5), (4, 5)]), box(0, 0, 10, 10))
    >>> line.coords[1:3], line.coords[0][0] < 0, line.coords[-1][0] > 10
    ([(2.0, 5.0), (4.0, 5.0)], True, True)
    """
    coords = list(line.coords)
    if line.is_ring or len(coords) < 2:
        return line
    minx, miny, maxx, maxy = clip.bounds
    reach = 2.0 * math.hypot(maxx - minx, maxy - miny)
    inner = clip.buffer(-1e-9 * reach) if reach > 0 else clip

    def prolonged(end: tuple[float, ...], before: tuple[float, ...]) -> tuple[float, float] | None:
        if not inner.contains(Point(end)):
            return None
        dx, dy = end[0] - before[0], end[1] - before[1]
        norm = math.hypot(dx, dy)
        if norm == 0:
            return None
        return (end[0] + dx / norm * reach, end[1] + dy / norm * reach)

    head = prolonged(coords[0], coords[1])
    tail = prolonged(coords[-1], coords[-2])
    out = [(c[0], c[1]) for c in coords]
    if head is not None:
        out.insert(0, head)
    if tail is not None:
        out.append(tail)
    return LineString(out)


def _side_samples(
    line: LineString, clip: Polygon, offset: float
) -> list[tuple[Point, Point, float]]:
    """For each segment inside ``clip``: points just right and left of its middle, its length."""
    samples = []
    coords = list(line.coords)
    for (x0, y0, *_), (x1, y1, *_) in itertools.pairwise(coords):
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length == 0:
            continue
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if not clip.contains(Point(mx, my)):
            continue
        eps = min(offset, length / 10)
        nx, ny = dy / length * eps, -dx / length * eps  # the right-hand normal (y up)
        samples.append((Point(mx + nx, my + ny), Point(mx - nx, my - ny), length))
    return samples


def sea_polygons(lines: Sequence[BaseGeometry], clip: Polygon) -> list[Polygon]:
    """Return the parts of ``clip`` that are sea according to directed coastline ways.

    Parameters
    ----------
    lines : sequence of shapely LineString or MultiLineString
        ``natural=coastline`` ways in their OSM direction (land on the left).
    clip : shapely Polygon
        The extract's box, in the same projected CRS (y grows north).

    Returns
    -------
    list of shapely Polygon
        The sea faces; empty when no coastline crosses the box.

    Examples
    --------
    A coastline running east along y = 4 has land to the north, sea to the south:

    >>> from shapely.geometry import box
    >>> [p.bounds for p in sea_polygons([LineString([(0, 4), (10, 4)])], box(0, 0, 10, 10))]
    [(0.0, 0.0, 10.0, 4.0)]
    """
    directed = [extend_to_box(line, clip) for line in _directed_lines(lines)]
    directed = [line for line in directed if line.intersects(clip)]
    if not directed:
        return []
    cut = shapely.unary_union([line.intersection(clip) for line in directed] + [clip.exterior])
    faces = [f for f in shapely.get_parts(shapely.polygonize([cut])) if f.area > 0]
    if not faces:
        return []
    minx, miny, maxx, maxy = clip.bounds
    offset = 1e-4 * math.hypot(maxx - minx, maxy - miny)
    tree = STRtree(faces)
    water = [0.0] * len(faces)
    land = [0.0] * len(faces)
    for line in directed:
        for right, left, weight in _side_samples(line, clip, offset):
            for idx in tree.query(right, predicate="within"):
                water[int(idx)] += weight
            for idx in tree.query(left, predicate="within"):
                land[int(idx)] += weight
    sea = [face for face, w, g in zip(faces, water, land, strict=True) if w > g]
    if not sea:
        return []
    merged = shapely.unary_union(sea)
    return [p for p in shapely.get_parts(merged) if isinstance(p, Polygon) and p.area > 0]
