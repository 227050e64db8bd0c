"""Features drawn over the base map (FRIEDA maps): outlines, lines and dots with a legend.

An :class:`Overlay` is one named feature in one colour: a polygon (outlined, lightly
filled), a line or a point (a dot). :func:`overlay_from_geometry` makes one from a
``(lon, lat)`` shapely geometry. :func:`screen_geometry` gives where an overlay lands
on the image (view pixels, optionally rotated with :func:`rotate_px`), so that a task
can check it is on the image and clear of the legend and controls
(:func:`visible_share`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import GeometryCollection, LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from groundtruth.projection import View
from renderers.errors import RenderError

LatLon = tuple[float, float]
Box = tuple[float, float, float, float]

#: Overlay colours, in the order questions use them: strong hues that OSM-Carto's base
#: map does not use for areas (no greens, greys or pale fills).
OVERLAY_COLORS: dict[str, str] = {
    "red": "#e41a1c",
    "blue": "#1f4fd1",
    "purple": "#8e24aa",
    "orange": "#ff7f00",
    "cyan": "#00acc1",
}
#: Outline and line width, CSS pixels.
OVERLAY_WEIGHT = 4
#: Fill opacity of polygons (the base map stays readable underneath).
OVERLAY_FILL_OPACITY = 0.18
#: Radius of a point's dot, CSS pixels.
POINT_RADIUS = 8


@dataclass(frozen=True)
class Overlay:
    """One named feature drawn over the map.

    Attributes
    ----------
    label : str
        The legend's text (the feature's name).
    color : str
        A key of :data:`OVERLAY_COLORS`.
    kind : str
        ``"polygon"``, ``"line"`` or ``"point"``.
    parts : tuple of tuple of (lat, lon)
        Polygon rings (exteriors and holes, each closed), line pieces, or one point.
    """

    label: str
    color: str
    kind: str
    parts: tuple[tuple[LatLon, ...], ...]

    def __post_init__(self) -> None:
        if self.color not in OVERLAY_COLORS:
            raise RenderError(f"unknown overlay colour {self.color!r}",
                              "use one of " + ", ".join(OVERLAY_COLORS))
        if self.kind not in ("polygon", "line", "point"):
            raise RenderError(f"unknown overlay kind {self.kind!r}")

    @property
    def hex(self) -> str:
        """The colour as ``#rrggbb``."""
        return OVERLAY_COLORS[self.color]


def _latlon(coords: Sequence[Sequence[float]]) -> tuple[LatLon, ...]:
    return tuple((float(c[1]), float(c[0])) for c in coords)


def overlay_from_geometry(label: str, color: str, geometry: BaseGeometry) -> Overlay:
    """Make an overlay from a ``(lon, lat)`` shapely geometry.

    Parameters
    ----------
    label : str
        Legend text.
    color : str
        A key of :data:`OVERLAY_COLORS`.
    geometry : shapely geometry
        (Multi)Polygon, (Multi)LineString or Point.

    Returns
    -------
    Overlay

    Examples
    --------
    >>> o = overlay_from_geometry("P", "red", Point(24.0, 60.0))
    >>> o.kind, o.parts
    ('point', (((60.0, 24.0),),))
    """
    parts: list[tuple[LatLon, ...]] = []
    kind = geometry.geom_type
    if kind in ("Polygon", "MultiPolygon"):
        polys = [geometry] if isinstance(geometry, Polygon) else list(geometry.geoms)
        for poly in polys:
            parts.append(_latlon(poly.exterior.coords))
            parts.extend(_latlon(r.coords) for r in poly.interiors)
        return Overlay(label, color, "polygon", tuple(parts))
    if kind in ("LineString", "MultiLineString"):
        lines = [geometry] if isinstance(geometry, LineString) else list(geometry.geoms)
        return Overlay(label, color, "line", tuple(_latlon(g.coords) for g in lines))
    if kind == "Point":
        return Overlay(label, color, "point", ((_latlon(geometry.coords)[0],),))
    raise RenderError(f"cannot draw a {kind} as an overlay")


def rotate_px(x: float, y: float, *, angle_deg: float, width: int, height: int
              ) -> tuple[float, float]:
    """Where a view pixel goes when the map is turned ``angle_deg`` clockwise about its centre.

    Parameters
    ----------
    x, y : float
        View pixel (``y`` down).
    angle_deg : float
        Clockwise turn; north then points ``angle_deg`` clockwise from the top.
    width, height : int
        Image size.

    Returns
    -------
    tuple of float

    Examples
    --------
    >>> [round(v, 6) for v in rotate_px(150.0, 50.0, angle_deg=90.0, width=200, height=100)]
    [100.0, 100.0]
    """
    cx, cy = width / 2, height / 2
    a = math.radians(angle_deg)
    dx, dy = x - cx, y - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)


def screen_geometry(view: View, overlay: Overlay, *, angle_deg: float = 0.0) -> BaseGeometry:
    """The overlay in image pixels (after turning the map ``angle_deg`` clockwise).

    Parameters
    ----------
    view : View
        The view drawn.
    overlay : Overlay
        The overlay.
    angle_deg : float, optional
        Map rotation.

    Returns
    -------
    shapely geometry
        Polygon(s), line(s) or a point in image pixels (``y`` down).
    """
    def px(lat: float, lon: float) -> tuple[float, float]:
        x, y = view.to_view_px(lat, lon)
        return rotate_px(x, y, angle_deg=angle_deg, width=view.width, height=view.height)

    pieces = [[px(lat, lon) for lat, lon in part] for part in overlay.parts]
    if overlay.kind == "point":
        return Point(pieces[0][0])
    if overlay.kind == "line":
        return shapely.union_all([LineString(p) for p in pieces if len(p) >= 2])
    polys = [Polygon(p).buffer(0) for p in pieces if len(p) >= 4]
    # holes are listed after their exterior: xor gives exteriors minus holes
    out: BaseGeometry = GeometryCollection()
    for poly in polys:
        out = out.symmetric_difference(poly)
    return out


def visible_share(geometry: BaseGeometry, *, width: int, height: int,
                  blocked: Sequence[Box] = ()) -> float:
    """The share of an on-screen geometry that is on the image and not under a box.

    Parameters
    ----------
    geometry : shapely geometry
        From :func:`screen_geometry`.
    width, height : int
        Image size.
    blocked : sequence of (x0, y0, x1, y1)
        Legend, controls, compass.

    Returns
    -------
    float
        By area for polygons, length for lines; 1 or 0 for a point (its dot's
        :data:`POINT_RADIUS` must be clear too).

    Examples
    --------
    >>> visible_share(box(-10, 0, 10, 10), width=100, height=100)
    0.5
    """
    frame: BaseGeometry = box(0, 0, width, height)
    if blocked:
        frame = frame.difference(shapely.union_all([box(*b) for b in blocked]))
    if geometry.is_empty:
        return 0.0
    if geometry.geom_type == "Point":
        return 1.0 if frame.contains(geometry.buffer(POINT_RADIUS + 2)) else 0.0
    if geometry.area > 0:
        return float(geometry.intersection(frame).area / geometry.area)
    return float(geometry.intersection(frame).length / geometry.length) if geometry.length else 0.0
