"""Distances on the Earth between WGS84 points."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pyproj import Geod

#: Mean Earth radius used by Leaflet's scale bar (``L.CRS.Earth.R``), metres.
LEAFLET_EARTH_RADIUS_M = 6371000.0
#: Metres in one international foot.
METERS_PER_FOOT = 0.3048

_WGS84 = Geod(ellps="WGS84")


def haversine_m(
    lat1: float, lon1: float, lat2: float, lon2: float, *, radius_m: float = LEAFLET_EARTH_RADIUS_M
) -> float:
    """Great-circle distance on a sphere (Leaflet's ``map.distance`` uses this).

    Parameters
    ----------
    lat1, lon1, lat2, lon2 : float
        The two points, degrees.
    radius_m : float, optional
        Sphere radius; Leaflet's 6,371,000 m by default.

    Returns
    -------
    float
        Metres.

    Examples
    --------
    >>> round(haversine_m(0.0, 0.0, 0.0, 1.0), 3)
    111194.927
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * radius_m * math.asin(min(1.0, math.sqrt(a)))


def geodesic_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Geodesic distance on the WGS84 ellipsoid in metres.

    Parameters
    ----------
    lat1, lon1, lat2, lon2 : float
        The two points, degrees.

    Returns
    -------
    float
        Metres along the geodesic (pyproj's Karney algorithm).

    Examples
    --------
    >>> round(geodesic_m(0.0, 0.0, 0.0, 1.0), 3)
    111319.491
    """
    return float(_WGS84.inv(lon1, lat1, lon2, lat2)[2])


def polyline_length_m(points: Sequence[tuple[float, float]]) -> float:
    """Geodesic length in metres of a polyline of ``(lat, lon)`` vertices (WGS84).

    Parameters
    ----------
    points : sequence of (lat, lon)
        Vertices in degrees.

    Returns
    -------
    float
        Sum of the geodesic lengths of the segments; 0 for fewer than two points.

    Examples
    --------
    >>> round(polyline_length_m([(0.0, 0.0), (0.0, 1.0), (0.0, 2.0)]), 3)
    222638.982
    """
    if len(points) < 2:
        return 0.0
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    return float(_WGS84.line_length(lons, lats))


def meters_to_feet(meters: float) -> float:
    """Convert metres to international feet.

    Parameters
    ----------
    meters : float
        A length in metres.

    Returns
    -------
    float
        The length in feet (``meters / 0.3048``).

    Examples
    --------
    >>> round(meters_to_feet(100.0), 4)
    328.084
    """
    return meters / METERS_PER_FOOT
