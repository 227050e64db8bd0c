"""Web Mercator (EPSG:3857) projection for 256-pixel tiles, as Leaflet and OSM tiles use it.

Global pixel coordinates at zoom ``z`` run from ``(0, 0)`` at the north-west corner
of the world to ``(256 * 2**z, 256 * 2**z)``; ``x`` grows east and ``y`` grows south.
A :class:`View` is a screen-sized window onto that plane, placed exactly as Leaflet
places a map of that size at that centre (its pixel origin is rounded to integers).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Earth radius of the spherical Mercator projection (metres).
WEB_MERCATOR_RADIUS_M = 6378137.0
#: Tile edge in pixels.
TILE_SIZE = 256
#: Latitude limit of Web Mercator (degrees).
MAX_LATITUDE = 85.0511287798


def world_size_px(zoom: float) -> float:
    """Return the width of the world in pixels at a zoom.

    Parameters
    ----------
    zoom : float
        Zoom level.

    Returns
    -------
    float
        ``256 * 2**zoom``.

    Examples
    --------
    >>> world_size_px(0)
    256.0
    >>> world_size_px(2)
    1024.0
    """
    return float(TILE_SIZE * 2.0**zoom)


def latlon_to_global_px(lat: float, lon: float, zoom: float) -> tuple[float, float]:
    """Project WGS84 degrees to global pixel coordinates.

    Parameters
    ----------
    lat, lon : float
        Degrees; latitude is clamped to :data:`MAX_LATITUDE`.
    zoom : float
        Zoom level.

    Returns
    -------
    tuple of float
        ``(x, y)`` in pixels from the world's north-west corner.

    Examples
    --------
    >>> latlon_to_global_px(0.0, 0.0, 0)
    (128.0, 128.0)
    >>> x, y = latlon_to_global_px(0.0, 90.0, 1)
    >>> (x, round(y, 9))
    (384.0, 256.0)
    """
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))
    size = world_size_px(zoom)
    x = (lon + 180.0) / 360.0 * size
    siny = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + siny) / (1 - siny)) / (4 * math.pi)) * size
    return x, y


def global_px_to_latlon(x: float, y: float, zoom: float) -> tuple[float, float]:
    """Invert :func:`latlon_to_global_px`.

    Parameters
    ----------
    x, y : float
        Global pixel coordinates.
    zoom : float
        Zoom level.

    Returns
    -------
    tuple of float
        ``(lat, lon)`` in degrees.

    Examples
    --------
    >>> global_px_to_latlon(128.0, 128.0, 0)
    (0.0, 0.0)
    """
    size = world_size_px(zoom)
    lon = x / size * 360.0 - 180.0
    n = math.pi * (1 - 2 * y / size)
    lat = math.degrees(math.atan(math.sinh(n)))
    return lat, lon


def meters_per_pixel(lat: float, zoom: float) -> float:
    """Ground resolution of Web Mercator at a latitude and zoom.

    ``2 * pi * 6378137 * cos(lat) / (256 * 2**zoom)`` metres per pixel.

    Parameters
    ----------
    lat : float
        Latitude in degrees.
    zoom : float
        Zoom level.

    Returns
    -------
    float
        Metres on the ground per pixel.

    Examples
    --------
    >>> round(meters_per_pixel(0.0, 0), 3)
    156543.034
    >>> round(meters_per_pixel(60.0, 19), 6)
    0.149291
    """
    return 2 * math.pi * WEB_MERCATOR_RADIUS_M * math.cos(math.radians(lat)) / world_size_px(zoom)


def path_length_px(points: Sequence[tuple[float, float]], zoom: float) -> float:
    """Length in pixels of a polyline of ``(lat, lon)`` vertices at a zoom.

    The sum of straight segments between the vertices projected to global pixels.

    Parameters
    ----------
    points : sequence of (lat, lon)
        Vertices in degrees.
    zoom : float
        Zoom level.

    Returns
    -------
    float
        Pixels; 0 for fewer than two points.

    Examples
    --------
    >>> path_length_px([(0.0, 0.0), (0.0, 90.0)], 0)
    64.0
    >>> path_length_px([(10.0, 10.0)], 5)
    0.0
    """
    total = 0.0
    prev: tuple[float, float] | None = None
    for lat, lon in points:
        cur = latlon_to_global_px(lat, lon, zoom)
        if prev is not None:
            total += math.hypot(cur[0] - prev[0], cur[1] - prev[1])
        prev = cur
    return total


def _round_half_up(value: float) -> float:
    """Round as JavaScript's ``Math.round`` does (halves go up)."""
    return float(math.floor(value + 0.5))


@dataclass(frozen=True)
class View:
    """A screen-sized map view, placed the way Leaflet places it.

    Parameters
    ----------
    center : tuple of float
        ``(lat, lon)`` of the view centre.
    zoom : int
        Integer zoom level.
    width, height : int
        View size in CSS pixels.

    Examples
    --------
    >>> v = View(center=(0.0, 0.0), zoom=1, width=100, height=50)
    >>> v.origin_px
    (206.0, 231.0)
    >>> v.to_view_px(0.0, 0.0)
    (50.0, 25.0)
    """

    center: tuple[float, float]
    zoom: int
    width: int = 1366
    height: int = 768

    @property
    def origin_px(self) -> tuple[float, float]:
        """Global pixel of the view's top-left corner (rounded like Leaflet's pixel origin)."""
        cx, cy = latlon_to_global_px(self.center[0], self.center[1], self.zoom)
        return (_round_half_up(cx - self.width / 2), _round_half_up(cy - self.height / 2))

    def to_view_px(self, lat: float, lon: float) -> tuple[float, float]:
        """Project ``(lat, lon)`` to pixels from the view's top-left corner.

        Parameters
        ----------
        lat, lon : float
            Degrees.

        Returns
        -------
        tuple of float
            ``(x, y)`` in CSS pixels, ``x`` to the right and ``y`` down.
        """
        gx, gy = latlon_to_global_px(lat, lon, self.zoom)
        ox, oy = self.origin_px
        return gx - ox, gy - oy

    def to_latlon(self, x: float, y: float) -> tuple[float, float]:
        """Return the ``(lat, lon)`` at view pixel ``(x, y)``.

        Parameters
        ----------
        x, y : float
            Pixels from the view's top-left corner.

        Returns
        -------
        tuple of float
            ``(lat, lon)`` in degrees.
        """
        ox, oy = self.origin_px
        return global_px_to_latlon(ox + x, oy + y, self.zoom)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(south, west, north, east)`` of the view in degrees."""
        north, west = self.to_latlon(0.0, 0.0)
        south, east = self.to_latlon(float(self.width), float(self.height))
        return south, west, north, east

    def contains(self, lat: float, lon: float, *, margin_px: float = 0.0) -> bool:
        """Whether a point falls inside the view, at least ``margin_px`` from every edge.

        Parameters
        ----------
        lat, lon : float
            Degrees.
        margin_px : float, optional
            Distance the point must keep from every edge.

        Returns
        -------
        bool
        """
        x, y = self.to_view_px(lat, lon)
        return (margin_px <= x <= self.width - margin_px) and (
            margin_px <= y <= self.height - margin_px
        )

    def meters_per_pixel(self) -> float:
        """Ground resolution at the view centre.

        Returns
        -------
        float
            Metres per pixel (see :func:`meters_per_pixel`).
        """
        return meters_per_pixel(self.center[0], self.zoom)

    def tiles(self, *, margin_tiles: int = 0) -> list[tuple[int, int, int]]:
        """The ``(z, x, y)`` tiles that cover the view, optionally with a margin.

        Parameters
        ----------
        margin_tiles : int, optional
            Extra rings of tiles around the view.

        Returns
        -------
        list of tuple of int
            Tiles in row-major order, clipped to the world.
        """
        ox, oy = self.origin_px
        n = 2**self.zoom
        x0 = max(0, math.floor(ox / TILE_SIZE) - margin_tiles)
        y0 = max(0, math.floor(oy / TILE_SIZE) - margin_tiles)
        x1 = min(n - 1, math.floor((ox + self.width - 1) / TILE_SIZE) + margin_tiles)
        y1 = min(n - 1, math.floor((oy + self.height - 1) / TILE_SIZE) + margin_tiles)
        return [(self.zoom, x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def tile_bounds(z: int, x: int, y: int) -> tuple[float, float, float, float]:
    """``(south, west, north, east)`` of an XYZ tile in degrees.

    Parameters
    ----------
    z, x, y : int
        Tile address.

    Returns
    -------
    tuple of float

    Examples
    --------
    >>> tile_bounds(0, 0, 0)[1], tile_bounds(0, 0, 0)[3]
    (-180.0, 180.0)
    """
    north, west = global_px_to_latlon(x * TILE_SIZE, y * TILE_SIZE, z)
    south, east = global_px_to_latlon((x + 1) * TILE_SIZE, (y + 1) * TILE_SIZE, z)
    return south, west, north, east


def tiles_for_bounds(
    bounds: tuple[float, float, float, float], zooms: Iterable[int]
) -> list[tuple[int, int, int]]:
    """All ``(z, x, y)`` tiles touching ``(south, west, north, east)`` at each zoom.

    Parameters
    ----------
    bounds : tuple of float
        ``(south, west, north, east)`` in degrees.
    zooms : iterable of int
        Zoom levels.

    Returns
    -------
    list of tuple of int
        ``(z, x, y)`` per zoom, row by row.
    """
    south, west, north, east = bounds
    out: list[tuple[int, int, int]] = []
    for z in zooms:
        x0, y0 = latlon_to_global_px(north, west, z)
        x1, y1 = latlon_to_global_px(south, east, z)
        n = 2**z
        for ty in range(max(0, int(y0 // TILE_SIZE)), min(n - 1, int(y1 // TILE_SIZE)) + 1):
            for tx in range(max(0, int(x0 // TILE_SIZE)), min(n - 1, int(x1 // TILE_SIZE)) + 1):
                out.append((z, tx, ty))
    return out
