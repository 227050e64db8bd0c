"""Bearings of road geometry: which way a road heads as it leaves or reaches a point.

Turn directions come from the road geometry over :data:`BEARING_SAMPLE_M` metres on
each side of a junction: the bearing from the junction to the point that far along
the road (or from that point to the junction), not from straight lines between
junctions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyproj import Geod

#: Metres of road geometry on each side of a junction whose bearing defines a turn.
BEARING_SAMPLE_M = 15.0

_GEOD = Geod(ellps="WGS84")
LonLat = tuple[float, float]


def bearing_deg(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial geodesic bearing from point 1 to point 2, degrees clockwise from north.

    Examples
    --------
    >>> round(bearing_deg(60.0, 24.0, 60.001, 24.0), 6)
    0.0
    >>> round(bearing_deg(60.0, 24.0, 59.999, 24.0), 6)
    180.0
    """
    azimuth = float(_GEOD.inv(lon1, lat1, lon2, lat2)[0])
    return azimuth % 360.0


def point_along(coords: Sequence[LonLat], distance_m: float, *, reverse: bool = False) -> LonLat:
    """The point ``distance_m`` metres along a polyline (its far end if it is shorter).

    Parameters
    ----------
    coords : sequence of (lon, lat)
        Polyline vertices.
    distance_m : float
        Geodesic metres from the first vertex (from the last one if ``reverse``).
    reverse : bool, optional
        Walk from the last vertex backwards.

    Returns
    -------
    tuple of float
        ``(lon, lat)``, interpolated linearly within a segment.

    Examples
    --------
    >>> point_along([(24.0, 60.0), (24.0, 60.001)], 1e6)
    (24.0, 60.001)
    >>> point_along([(24.0, 60.0), (24.0, 60.001)], 1e6, reverse=True)
    (24.0, 60.0)
    """
    n = len(coords)
    order = range(n - 1, -1, -1) if reverse else range(n)
    remaining = distance_m
    prev: LonLat | None = None
    for i in order:
        cur = coords[i]
        if prev is not None:
            seg = float(_GEOD.inv(prev[0], prev[1], cur[0], cur[1])[2])
            if seg > 0.0:
                if remaining <= seg:
                    f = remaining / seg
                    return (prev[0] + f * (cur[0] - prev[0]), prev[1] + f * (cur[1] - prev[1]))
                remaining -= seg
        prev = cur
    return coords[0] if reverse else coords[-1]


def leaving_bearing(coords: Sequence[LonLat], *, sample_m: float = BEARING_SAMPLE_M,
                    default: float = 0.0) -> float:
    """Bearing of a polyline leaving its first vertex, over its first ``sample_m`` metres.

    Parameters
    ----------
    coords : sequence of (lon, lat)
        Vertices in the direction of travel.
    sample_m : float, optional
        Metres to look along (the whole line if it is shorter).
    default : float, optional
        Returned for a line of zero length.

    Returns
    -------
    float
        Degrees clockwise from north in ``[0, 360)``.

    Examples
    --------
    >>> round(leaving_bearing([(24.0, 60.0), (24.0, 60.01), (24.1, 60.01)]), 6)
    0.0
    """
    lon1, lat1 = point_along(coords, sample_m)
    lon0, lat0 = coords[0]
    if (lon1, lat1) == (lon0, lat0):
        return default
    return bearing_deg(lat0, lon0, lat1, lon1)


def arriving_bearing(coords: Sequence[LonLat], *, sample_m: float = BEARING_SAMPLE_M,
                     default: float = 0.0) -> float:
    """Bearing of a polyline arriving at its last vertex, over its last ``sample_m`` metres.

    Parameters
    ----------
    coords : sequence of (lon, lat)
        Vertices in the direction of travel.
    sample_m : float, optional
        Metres to look back along (the whole line if it is shorter).
    default : float, optional
        Returned for a line of zero length.

    Returns
    -------
    float
        Degrees clockwise from north in ``[0, 360)``.

    Examples
    --------
    >>> round(arriving_bearing([(24.0, 60.0), (24.0, 60.01), (24.1, 60.01)]), 1)
    90.0
    """
    lon0, lat0 = point_along(coords, sample_m, reverse=True)
    lon1, lat1 = coords[-1]
    if (lon1, lat1) == (lon0, lat0):
        return default
    return bearing_deg(lat0, lon0, lat1, lon1)
