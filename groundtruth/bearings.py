"""Bearings of road geometry: which way a road heads as it leaves or reaches a point.

Turn directions come from the road geometry over :data:`BEARING_SAMPLE_M` metres on
each side of a junction: the bearing from the junction to the point that far along
the road (or from that point to the junction), not from straight lines between
junctions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from pyproj import Geod
from shapely.geometry import LineString

#: Metres of road geometry on each side of a junction whose bearing defines a turn.
BEARING_SAMPLE_M = 15.0

_GEOD = Geod(ellps="WGS84")
LonLat = tuple[float, float]


def bearing_deg(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial geodesic bearing from point 1 to point 2, degrees clockwise from north.

    Parameters
    ----------
    lat1, lon1 : float
        The first point, degrees.
    lat2, lon2 : float
        The second point, degrees.

    Returns
    -------
    float
        Forward azimuth on the WGS84 ellipsoid in ``[0, 360)``.

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


def run_profile(lons: Sequence[float], lats: Sequence[float]) -> NDArray[np.float64]:
    """Cumulative geodesic distance in metres at each vertex of a polyline.

    Parameters
    ----------
    lons, lats : sequence of float
        The vertices, degrees.

    Returns
    -------
    numpy.ndarray
        WGS84 metres from the first vertex to each vertex (``0.0`` first).

    Examples
    --------
    >>> [round(float(d), 3) for d in run_profile([0.0, 1.0, 2.0], [0.0, 0.0, 0.0])]
    [0.0, 111319.491, 222638.982]
    """
    lon = np.asarray(lons, dtype=float)
    lat = np.asarray(lats, dtype=float)
    if len(lon) < 2:
        return np.zeros(len(lon))
    seg = np.asarray(_GEOD.inv(lon[:-1], lat[:-1], lon[1:], lat[1:])[2], dtype=float)
    return np.concatenate(([0.0], np.cumsum(seg)))


def _points_at(lon: NDArray[np.float64], lat: NDArray[np.float64], cum: NDArray[np.float64],
               targets: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Points at cumulative distances ``targets`` (clamped to the line), interpolated."""
    t = np.clip(targets, 0.0, cum[-1])
    k = np.clip(np.searchsorted(cum, t, side="left"), 1, len(cum) - 1)
    seg = cum[k] - cum[k - 1]
    f = np.divide(t - cum[k - 1], seg, out=np.ones_like(t), where=seg > 0)
    return lon[k - 1] + f * (lon[k] - lon[k - 1]), lat[k - 1] + f * (lat[k] - lat[k - 1])


def piece_bearings(
    lons: Sequence[float], lats: Sequence[float], cum: NDArray[np.float64],
    starts: Sequence[int], ends: Sequence[int], *, sample_m: float = BEARING_SAMPLE_M,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
           NDArray[np.float64]]:
    """Leaving and arriving bearings of pieces of one polyline, both ways, all at once.

    For the piece from vertex ``starts[i]`` to vertex ``ends[i]``, the bearing from its
    first vertex to the point ``sample_m`` further along the whole polyline, and the
    bearing from the point ``sample_m`` before its last vertex to that vertex: the same
    values as :func:`leaving_bearing` of ``coords[start:]`` and
    :func:`arriving_bearing` of ``coords[:end + 1]``.

    Parameters
    ----------
    lons, lats : sequence of float
        The polyline's vertices.
    cum : numpy.ndarray
        :func:`run_profile` of the polyline.
    starts, ends : sequence of int
        Vertex indices of each piece's ends.
    sample_m : float, optional
        Metres of geometry to look along.

    Returns
    -------
    tuple of numpy.ndarray
        ``(leaving, arriving, back_leaving, back_arriving)`` in degrees ``[0, 360)``:
        the first two in the polyline's direction, the last two for travel against it
        (leaving the piece's last vertex, arriving at its first). A direction that is
        undefined (zero length) is the other one of its pair, or 0.

    Examples
    --------
    >>> lons, lats = [24.0, 24.0, 24.1], [60.0, 60.01, 60.01]
    >>> out, arr, back_out, back_arr = piece_bearings(lons, lats, run_profile(lons, lats),
    ...                                               [0], [2])
    >>> round(float(out[0]), 6), round(float(arr[0]), 1)
    (0.0, 90.0)
    >>> round(float(back_out[0]), 1), round(float(back_arr[0]), 6)
    (270.0, 180.0)
    """
    lon = np.asarray(lons, dtype=float)
    lat = np.asarray(lats, dtype=float)
    i = np.asarray(starts, dtype=int)
    j = np.asarray(ends, dtype=int)
    ahead_lon, ahead_lat = _points_at(lon, lat, cum, cum[i] + sample_m)
    behind_lon, behind_lat = _points_at(lon, lat, cum, cum[j] - sample_m)
    fwd_out, back_in = _GEOD.inv(lon[i], lat[i], ahead_lon, ahead_lat)[:2]
    back_out, fwd_in = _GEOD.inv(lon[j], lat[j], behind_lon, behind_lat)[:2]
    # pyproj's back azimuth is the bearing at the far point towards the first one:
    # the heading of a car arriving at the first point from the far one
    leaving = np.asarray(fwd_out, dtype=float) % 360
    arriving = np.asarray(fwd_in, dtype=float) % 360
    back_leaving = np.asarray(back_out, dtype=float) % 360
    back_arriving = np.asarray(back_in, dtype=float) % 360
    no_ahead = (ahead_lon == lon[i]) & (ahead_lat == lat[i])
    no_behind = (behind_lon == lon[j]) & (behind_lat == lat[j])
    leaving = np.where(no_ahead, np.where(no_behind, 0.0, arriving), leaving)
    arriving = np.where(no_behind, leaving, arriving)
    back_leaving = np.where(no_behind, np.where(no_ahead, 0.0, back_arriving), back_leaving)
    back_arriving = np.where(no_ahead, back_leaving, back_arriving)
    return leaving, arriving, back_leaving, back_arriving


#: Heading of the vehicle at the origin (degrees clockwise from north: the map's top).
INITIAL_HEADING_DEG = 0.0


def start_bearing(geometry: LineString, *, sample_m: float = BEARING_SAMPLE_M) -> float:
    """Bearing of a road leaving its first vertex, over its first ``sample_m`` metres.

    Parameters
    ----------
    geometry : shapely.geometry.LineString
        ``(lon, lat)`` vertices in the direction of travel.
    sample_m : float, optional
        Metres of geometry to look along (the whole line if it is shorter).

    Returns
    -------
    float
        Degrees clockwise from north in ``[0, 360)``.

    Examples
    --------
    >>> round(start_bearing(LineString([(24.0, 60.0), (24.0, 60.01), (24.1, 60.01)])), 6)
    0.0
    """
    return leaving_bearing(list(geometry.coords), sample_m=sample_m, default=INITIAL_HEADING_DEG)


def end_bearing(geometry: LineString, *, sample_m: float = BEARING_SAMPLE_M) -> float:
    """Bearing of a road arriving at its last vertex, over its last ``sample_m`` metres.

    Parameters
    ----------
    geometry : shapely.geometry.LineString
        ``(lon, lat)`` vertices in the direction of travel.
    sample_m : float, optional
        Metres of geometry to look along (the whole line if it is shorter).

    Returns
    -------
    float
        Degrees clockwise from north in ``[0, 360)``.

    Examples
    --------
    >>> round(end_bearing(LineString([(24.0, 60.0), (24.0, 60.01), (24.1, 60.01)])), 1)
    90.0
    """
    return arriving_bearing(list(geometry.coords), sample_m=sample_m,
                            default=INITIAL_HEADING_DEG)
