"""Feature geometry in view pixels: projected lines, rings, anchors and samples."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from shapely.geometry import LineString, MultiLineString, MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from groundtruth.features import Feature
from groundtruth.projection import View


def project(view: View, coords: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """``(lon, lat)`` vertices to view pixels."""
    return [view.to_view_px(lat, lon) for lon, lat in coords]


def lines_px(view: View, geom: BaseGeometry) -> list[list[tuple[float, float]]]:
    """A geometry's lines in view pixels (a polygon gives its outer rings)."""
    if isinstance(geom, LineString):
        return [project(view, geom.coords)]
    if isinstance(geom, MultiLineString):
        return [project(view, g.coords) for g in geom.geoms]
    if isinstance(geom, (Polygon, MultiPolygon)):
        polys = [geom] if isinstance(geom, Polygon) else list(geom.geoms)
        return [project(view, p.exterior.coords) for p in polys]
    return []


def rings_px(view: View, geom: BaseGeometry
             ) -> tuple[list[list[tuple[float, float]]], list[list[tuple[float, float]]]]:
    """A polygon's outer rings and holes in view pixels (none for other geometries)."""
    polys = [geom] if isinstance(geom, Polygon) else (
        list(geom.geoms) if isinstance(geom, MultiPolygon) else [])
    outer = [project(view, p.exterior.coords) for p in polys]
    inner = [project(view, r.coords) for p in polys for r in p.interiors]
    return outer, inner


def view_box_lonlat(view: View, margin_px: float) -> BaseGeometry:
    """The view grown by ``margin_px`` on every side, as a lon/lat box."""
    north, west = view.to_latlon(-margin_px, -margin_px)
    south, east = view.to_latlon(view.width + margin_px, view.height + margin_px)
    return box(west, south, east, north)


def anchor_px(view: View, f: Feature) -> tuple[float, float]:
    """A feature's anchor (its point, or point on surface) in view pixels."""
    return view.to_view_px(f.lat, f.lon)


def sample_line(line: Sequence[tuple[float, float]], step: float) -> list[tuple[float, float]]:
    """Points along a polyline about ``step`` apart, its vertices and last point included.

    Examples
    --------
    >>> sample_line([(0.0, 0.0), (6.0, 0.0)], 3.0)
    [(0.0, 0.0), (3.0, 0.0), (6.0, 0.0)]
    """
    out: list[tuple[float, float]] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) // step))
        out.extend((x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(n))
    if line:
        out.append(line[-1])
    return out
