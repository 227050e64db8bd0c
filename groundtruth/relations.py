"""Spatial relations between map features, measured on the ground (FRIEDA's six).

Topological (``border``, ``equal``, ``intersect``, ``within``), metric (``distance``)
and directional (``orientation``, eight compass directions). Geometries are
projected to a local azimuthal equidistant frame (:class:`LocalFrame`, metres on the
WGS84 ellipsoid around the features; never Web Mercator, whose lengths and areas grow
with ``1/cos(lat)``); distances and bearings between points are geodesic.

Every relation comes with **margins**: a relation is only stated when it holds
clearly, and the functions return ``None`` in the band between a clear *yes* and a
clear *no*, where a reader (or OSM's mapping precision) could argue either way. Each
margin is a named constant below; ``docs/frieda.md`` explains them.

The topological functions take geometries already in metres
(:meth:`LocalFrame.to_metric`); :func:`ground_distance` and :func:`orientation` take
``(lon, lat)`` geometries and do their own projection.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from pyproj import CRS, Geod, Transformer
from shapely.geometry.base import BaseGeometry

# --- topological margins (areas) --------------------------------------------------
#: ``equal`` when the intersection over union of two areas is at least this.
EQUAL_MIN_IOU = 0.99
#: Two areas are clearly *not* equal when their intersection over union is at most this.
NOT_EQUAL_MAX_IOU = 0.5
#: ``within`` (a inside b) when at least this share of a's area lies in b.
WITHIN_MIN_FRACTION = 0.99
#: Areas whose overlap is at most this share of the smaller one do not overlap
#: (they may border or be disjoint).
NO_OVERLAP_MAX_FRACTION = 0.01
#: ``intersect`` (partial overlap) when the overlap is between these shares of the
#: smaller area: clearly more than touching, clearly less than containment.
INTERSECT_MIN_FRACTION = 0.10
INTERSECT_MAX_FRACTION = 0.90
#: Boundaries closer than this count as shared (OSM neighbours that do not share
#: nodes are often a metre or two apart), metres.
BORDER_SNAP_M = 2.0
#: ``border`` needs a shared boundary at least this long (about 65 px at zoom 17 in
#: Helsinki: plainly visible), metres.
BORDER_MIN_SHARED_M = 40.0
#: Two features are clearly apart (neither bordering nor touching) when the gap
#: between them is at least this wide, metres.
DISJOINT_MIN_GAP_M = 20.0

# --- topological margins (a line and an area) --------------------------------------
#: Roads are drawn several metres wide and mapped along an area's edge: a line is
#: *inside* an area only where it is this far inside its boundary, *outside* only this
#: far outside, metres.
LINE_AREA_TOLERANCE_M = 5.0
#: A line ``intersect``-s (crosses into) an area when at least this much of it runs
#: inside, metres.
LINE_CROSS_MIN_M = 30.0
#: A line runs along (``border``-s) an area where it is within this distance of the
#: area's boundary, metres.
LINE_BORDER_DISTANCE_M = 15.0

# --- metric and directional margins ------------------------------------------------
#: Distances are asked only when both objects are small against the distance: the
#: sum of their radii (centroid to farthest point) is at most this share of it, so
#: measuring edge to edge or centre to centre differs by far less than the 20%
#: scoring tolerance.
DISTANCE_MAX_EXTENT_FRACTION = 0.05
#: Distances are asked only when at least this many scale-bar lengths long.
DISTANCE_MIN_SCALE_BARS = 3.0
#: Orientation is asked only when the bearing, widened by the objects' angular size
#: seen from each other, keeps this many degrees from the edges of its 45-degree
#: sector.
ORIENTATION_MARGIN_DEG = 7.5

#: The eight compass directions, clockwise from north (sector centres 0, 45, ...).
DIRECTIONS: tuple[str, ...] = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
)

_WGS84 = Geod(ellps="WGS84")

#: The start of the pipeline PROJ writes for a conversion from ``(lon, lat)`` degrees.
_FROM_DEGREES = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step "
#: The step that ends the inverse pipeline (radians back to degrees).
_TO_DEGREES = " +step +proj=unitconvert +xy_in=rad +xy_out=deg"


def aeqd_pipelines(lat: float, lon: float) -> tuple[str, str]:
    """The PROJ pipelines between ``(lon, lat)`` and an azimuthal equidistant frame.

    They are the pipelines ``Transformer.from_crs`` picks between ``EPSG:4326``
    (``always_xy``) and the frame's CRS, both ways, as PROJ itself writes them (its
    centre rounded to 15 digits, which the numbers follow), so
    ``Transformer.from_pipeline`` of them projects to the same numbers, bit for bit,
    without ``from_crs``'s search of PROJ's database (about 10 ms a transformer
    against 0.3 ms; tests/groundtruth/test_groundtruth_relations.py compares both).

    Parameters
    ----------
    lat, lon : float
        The centre, degrees.

    Returns
    -------
    tuple of str
        The forward (degrees to metres) and the inverse pipeline.

    Examples
    --------
    >>> fwd, inv = aeqd_pipelines(60.0, 24.0)
    >>> fwd.split(" +step ")[-1]
    '+proj=aeqd +lat_0=60 +lon_0=24 +x_0=0 +y_0=0 +ellps=WGS84'
    >>> inv.split(" +step ")[1]
    '+inv +proj=aeqd +lat_0=60 +lon_0=24 +x_0=0 +y_0=0 +ellps=WGS84'
    """
    crs = CRS.from_proj4(f"+proj=aeqd +lat_0={lat} +lon_0={lon} +datum=WGS84 +units=m +no_defs")
    conversion = crs.coordinate_operation
    fwd = conversion.to_proj4() if conversion is not None else ""
    if not fwd.startswith(_FROM_DEGREES):  # pragma: no cover - another PROJ's wording
        raise ValueError(f"unexpected PROJ pipeline for {crs.srs}: {fwd!r}")
    return fwd, "+proj=pipeline +step +inv " + fwd[len(_FROM_DEGREES):] + _TO_DEGREES


class LocalFrame:
    """A local azimuthal equidistant projection (metres) around a point.

    Within a few kilometres of its centre, lengths and areas are those on the WGS84
    ellipsoid to better than one part in a million.

    Parameters
    ----------
    lat, lon : float
        The centre, degrees.

    Examples
    --------
    >>> from shapely.geometry import Point
    >>> frame = LocalFrame(60.0, 24.0)
    >>> p = frame.to_metric(Point(24.0, 60.0))
    >>> round(p.x, 6), round(p.y, 6)
    (0.0, 0.0)
    """

    def __init__(self, lat: float, lon: float) -> None:
        self.lat = lat
        self.lon = lon
        fwd, self._inv_pipeline = aeqd_pipelines(lat, lon)
        self._fwd = Transformer.from_pipeline(fwd)
        # made on first use: most frames only ever project to metres
        self._inv_made: Transformer | None = None

    @property
    def _inv(self) -> Transformer:
        if self._inv_made is None:
            self._inv_made = Transformer.from_pipeline(self._inv_pipeline)
        return self._inv_made

    @classmethod
    def around(cls, geometries: Sequence[BaseGeometry]) -> LocalFrame:
        """The frame centred on the bounding box of ``(lon, lat)`` geometries.

        Parameters
        ----------
        geometries : sequence of shapely geometry
            In ``(lon, lat)``.

        Returns
        -------
        LocalFrame
        """
        west, south, east, north = shapely.total_bounds(list(geometries))
        return cls((south + north) / 2, (west + east) / 2)

    def to_metric(self, geometry: BaseGeometry) -> BaseGeometry:
        """Project a ``(lon, lat)`` geometry to metres in this frame.

        Parameters
        ----------
        geometry : shapely geometry
            In ``(lon, lat)`` degrees.

        Returns
        -------
        shapely geometry
            The same geometry in this frame's metres.
        """
        return shapely.transform(geometry, self._fwd.transform, interleaved=False)

    def to_lonlat(self, geometry: BaseGeometry) -> BaseGeometry:
        """Project a geometry in this frame's metres back to ``(lon, lat)``.

        Parameters
        ----------
        geometry : shapely geometry
            In this frame's metres.

        Returns
        -------
        shapely geometry
            The same geometry in ``(lon, lat)`` degrees.
        """
        return shapely.transform(geometry, self._inv.transform, interleaved=False)


@dataclass(frozen=True)
class Overlap:
    """How two areas overlap, measured in metres.

    Attributes
    ----------
    area_a, area_b, overlap : float
        Square metres.
    iou : float
        Overlap over union.
    fraction_a, fraction_b : float
        Overlap as a share of a, and of b.
    shared_boundary_m : float
        Length of a's boundary within :data:`BORDER_SNAP_M` of b's boundary.
    gap_m : float
        Shortest distance between the two (0 when they touch or overlap).
    """

    area_a: float
    area_b: float
    overlap: float
    iou: float
    fraction_a: float
    fraction_b: float
    shared_boundary_m: float
    gap_m: float


def measure_overlap(a: BaseGeometry, b: BaseGeometry) -> Overlap:
    """Measure the overlap of two areas given in metres.

    Parameters
    ----------
    a, b : shapely (Multi)Polygon
        In a metric frame.

    Returns
    -------
    Overlap

    Examples
    --------
    >>> from shapely.geometry import box
    >>> o = measure_overlap(box(0, 0, 100, 100), box(50, 0, 150, 100))
    >>> o.overlap, round(o.iou, 4), o.fraction_a
    (5000.0, 0.3333, 0.5)
    """
    inter = a.intersection(b).area
    union = a.area + b.area - inter
    shared = a.boundary.intersection(b.boundary.buffer(BORDER_SNAP_M)).length
    return Overlap(
        area_a=a.area,
        area_b=b.area,
        overlap=inter,
        iou=inter / union if union > 0 else 0.0,
        fraction_a=inter / a.area if a.area > 0 else 0.0,
        fraction_b=inter / b.area if b.area > 0 else 0.0,
        shared_boundary_m=shared,
        gap_m=a.distance(b),
    )


def area_relation(a: BaseGeometry, b: BaseGeometry) -> str | None:
    """The topological relation of area ``a`` to area ``b``, or ``None`` when unclear.

    Parameters
    ----------
    a, b : shapely (Multi)Polygon
        In a metric frame (:meth:`LocalFrame.to_metric`).

    Returns
    -------
    str or None
        ``"equal"`` (IoU >= :data:`EQUAL_MIN_IOU`), ``"within"`` (a in b) or
        ``"contains"`` (b in a) at :data:`WITHIN_MIN_FRACTION`, ``"intersect"`` (the
        overlap between :data:`INTERSECT_MIN_FRACTION` and
        :data:`INTERSECT_MAX_FRACTION` of the smaller area), ``"border"`` (overlap at
        most :data:`NO_OVERLAP_MAX_FRACTION` of the smaller and a shared boundary of
        at least :data:`BORDER_MIN_SHARED_M`), ``"disjoint"`` (at least
        :data:`DISJOINT_MIN_GAP_M` apart); ``None`` in between.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> area_relation(box(0, 0, 100, 100), box(100, 0, 200, 100))
    'border'
    >>> area_relation(box(0, 0, 100, 100), box(110, 0, 200, 100)) is None
    True
    """
    o = measure_overlap(a, b)
    if o.iou >= EQUAL_MIN_IOU:
        return "equal"
    if o.fraction_a >= WITHIN_MIN_FRACTION:
        return "within"
    if o.fraction_b >= WITHIN_MIN_FRACTION:
        return "contains"
    smaller = max(o.fraction_a, o.fraction_b)
    if INTERSECT_MIN_FRACTION <= smaller <= INTERSECT_MAX_FRACTION:
        return "intersect"
    if smaller <= NO_OVERLAP_MAX_FRACTION:
        if o.shared_boundary_m >= BORDER_MIN_SHARED_M:
            return "border"
        if o.gap_m >= DISJOINT_MIN_GAP_M:
            return "disjoint"
    return None


def areas_clearly_unequal(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether two areas (metres) are plainly different shapes (IoU <= 0.5).

    Parameters
    ----------
    a, b : shapely (Multi)Polygon
        In a metric frame.

    Returns
    -------
    bool
        ``True`` when the IoU is at most :data:`NOT_EQUAL_MAX_IOU`.
    """
    return measure_overlap(a, b).iou <= NOT_EQUAL_MAX_IOU


def line_area_relation(line: BaseGeometry, area: BaseGeometry) -> str | None:
    """The relation of a line (road, railway, waterway) to an area, or ``None``.

    Parameters
    ----------
    line : shapely (Multi)LineString
        In a metric frame.
    area : shapely (Multi)Polygon
        In the same frame.

    Returns
    -------
    str or None
        ``"within"``: at least :data:`WITHIN_MIN_FRACTION` of the line lies inside the
        area grown by :data:`LINE_AREA_TOLERANCE_M` and at least
        :data:`LINE_CROSS_MIN_M` inside the area shrunk by it; ``"intersect"``: at least
        :data:`LINE_CROSS_MIN_M` runs inside the area shrunk by the tolerance and at
        least :data:`INTERSECT_MIN_FRACTION` of the line lies outside the grown area;
        ``"border"``: nothing runs inside the shrunk area, and at least
        :data:`BORDER_MIN_SHARED_M` runs within :data:`LINE_BORDER_DISTANCE_M` of the
        boundary; ``"disjoint"``: at least :data:`DISJOINT_MIN_GAP_M` apart;
        ``None`` otherwise.

    Examples
    --------
    >>> from shapely.geometry import LineString, box
    >>> line_area_relation(LineString([(-50, 50), (150, 50)]), box(0, 0, 100, 100))
    'intersect'
    >>> line_area_relation(LineString([(0, -8), (100, -8)]), box(0, 0, 100, 100))
    'border'
    """
    total = line.length
    if total <= 0:
        return None
    grown = area.buffer(LINE_AREA_TOLERANCE_M)
    shrunk = area.buffer(-LINE_AREA_TOLERANCE_M)
    inside_grown = line.intersection(grown).length
    inside_shrunk = line.intersection(shrunk).length if not shrunk.is_empty else 0.0
    if inside_grown >= WITHIN_MIN_FRACTION * total and inside_shrunk >= LINE_CROSS_MIN_M:
        return "within"
    outside = total - inside_grown
    if inside_shrunk >= LINE_CROSS_MIN_M and outside >= INTERSECT_MIN_FRACTION * total:
        return "intersect"
    if inside_shrunk == 0.0:
        along = line.intersection(area.boundary.buffer(LINE_BORDER_DISTANCE_M)).length
        if along >= BORDER_MIN_SHARED_M:
            return "border"
        if line.distance(area) >= DISJOINT_MIN_GAP_M:
            return "disjoint"
    return None


def radius_m(geometry: BaseGeometry, centre: BaseGeometry) -> float:
    """Farthest distance from a point to a geometry's vertices (metres, metric frame).

    Parameters
    ----------
    geometry : shapely geometry
        In a metric frame.
    centre : shapely Point
        In the same frame.

    Returns
    -------
    float

    Examples
    --------
    >>> from shapely.geometry import Point, box
    >>> radius_m(box(-3, -4, 3, 4), Point(0, 0))
    5.0
    """
    return float(shapely.hausdorff_distance(centre, geometry.convex_hull))


@dataclass(frozen=True)
class GroundDistance:
    """A centre-to-centre distance between two features, and how clear it is.

    Attributes
    ----------
    meters : float
        Geodesic distance (WGS84) between the two centroids.
    radius_a_m, radius_b_m : float
        Radii of the features around their centroids.
    lat_a, lon_a, lat_b, lon_b : float
        The centroids, degrees.
    """

    meters: float
    radius_a_m: float
    radius_b_m: float
    lat_a: float
    lon_a: float
    lat_b: float
    lon_b: float

    @property
    def extent_fraction(self) -> float:
        """Sum of the radii over the distance."""
        return (self.radius_a_m + self.radius_b_m) / self.meters if self.meters else math.inf

    def clear(self, scale_bar_m: float) -> bool:
        """Whether the distance can be asked on a map with this scale bar.

        Parameters
        ----------
        scale_bar_m : float
            The length the map's (metric) scale bar stands for, metres.

        Returns
        -------
        bool
            ``True`` when :attr:`extent_fraction` <= :data:`DISTANCE_MAX_EXTENT_FRACTION`
            and the distance is at least :data:`DISTANCE_MIN_SCALE_BARS` scale bars.
        """
        return (
            self.extent_fraction <= DISTANCE_MAX_EXTENT_FRACTION
            and self.meters >= DISTANCE_MIN_SCALE_BARS * scale_bar_m
        )


def centre_and_radius(
    geometry: BaseGeometry, frame: LocalFrame
) -> tuple[float, float, float]:
    """A geometry's centroid (taken in metres, not degrees) and radius around it.

    Parameters
    ----------
    geometry : shapely geometry
        In ``(lon, lat)``.
    frame : LocalFrame
        A frame near the geometry.

    Returns
    -------
    tuple of float
        ``(lat, lon, radius_m)``.
    """
    metric = frame.to_metric(geometry)
    centre = metric.centroid
    lonlat = frame.to_lonlat(centre)
    return lonlat.y, lonlat.x, radius_m(metric, centre)


def distance_between(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> GroundDistance:
    """The geodesic distance between two ``(lat, lon, radius_m)`` centres.

    Parameters
    ----------
    a, b : tuple of float
        From :func:`centre_and_radius`.

    Returns
    -------
    GroundDistance

    Examples
    --------
    >>> round(distance_between((0.0, 0.0, 0.0), (0.0, 1.0, 0.0)).meters, 3)
    111319.491
    """
    meters = float(_WGS84.inv(a[1], a[0], b[1], b[0])[2])
    return GroundDistance(meters, a[2], b[2], a[0], a[1], b[0], b[1])


def distances_from(
    a: tuple[float, float, float], lats: np.ndarray, lons: np.ndarray
) -> np.ndarray:
    """The geodesic metres from one centre to many, in one call.

    Element ``k`` equals ``distance_between(a, (lats[k], lons[k], r)).meters`` bit for
    bit (the same geodesic routine, run over arrays).

    Parameters
    ----------
    a : tuple of float
        From :func:`centre_and_radius`.
    lats, lons : numpy.ndarray
        The other centres' latitudes and longitudes (degrees).

    Returns
    -------
    numpy.ndarray
        ``(len(lats),)`` metres.

    Examples
    --------
    >>> import numpy as np
    >>> c = [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)]
    >>> row = distances_from(c[0], np.array([0.0, 0.0]), np.array([0.0, 1.0]))
    >>> float(row[1]) == distance_between(c[0], c[1]).meters, float(row[0])
    (True, 0.0)
    """
    n = len(lats)
    row = _WGS84.inv(np.full(n, a[1]), np.full(n, a[0]), lons, lats)[2]
    return np.asarray(row, dtype=float)


def ground_distance(a: BaseGeometry, b: BaseGeometry) -> GroundDistance:
    """The geodesic distance between the centroids of two ``(lon, lat)`` geometries.

    Parameters
    ----------
    a, b : shapely geometry
        In ``(lon, lat)``.

    Returns
    -------
    GroundDistance
        Centroids are taken in a local metric frame (not in degrees).
    """
    frame = LocalFrame.around([a, b])
    return distance_between(centre_and_radius(a, frame), centre_and_radius(b, frame))


def direction_name(bearing_deg: float) -> str:
    """The compass direction (of eight) whose sector holds a bearing.

    Parameters
    ----------
    bearing_deg : float
        Degrees clockwise from north.

    Returns
    -------
    str

    Examples
    --------
    >>> direction_name(0.0), direction_name(22.4), direction_name(22.6), direction_name(350.0)
    ('north', 'north', 'north-east', 'north')
    """
    return DIRECTIONS[int(((bearing_deg % 360.0) + 22.5) // 45.0) % 8]


def sector_offset_deg(bearing_deg: float) -> float:
    """Absolute angle between a bearing and the centre of its compass sector.

    Parameters
    ----------
    bearing_deg : float
        Degrees clockwise from north.

    Returns
    -------
    float
        0 to 22.5 degrees.

    Examples
    --------
    >>> sector_offset_deg(50.0), sector_offset_deg(355.0)
    (5.0, 5.0)
    """
    centre = round((bearing_deg % 360.0) / 45.0) * 45.0
    return abs((bearing_deg % 360.0) - centre)


@dataclass(frozen=True)
class Orientation:
    """Where feature a lies as seen from feature b.

    Attributes
    ----------
    bearing_deg : float
        Geodesic azimuth from b's centroid to a's, degrees clockwise from north.
    direction : str
        One of :data:`DIRECTIONS`.
    spread_deg : float
        Half the angle the two objects can shift the bearing by:
        ``asin((radius_a + radius_b) / distance)`` (90 when they are too close).
    distance : GroundDistance
        The distance between the centroids.
    """

    bearing_deg: float
    direction: str
    spread_deg: float
    distance: GroundDistance

    @property
    def clear(self) -> bool:
        """Whether every bearing from a point of b to a point of a stays in the sector.

        ``True`` when ``sector_offset + spread <= 22.5 - ORIENTATION_MARGIN_DEG``.
        """
        limit = 22.5 - ORIENTATION_MARGIN_DEG
        return sector_offset_deg(self.bearing_deg) + self.spread_deg <= limit


def orientation_between(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> Orientation:
    """The direction of centre ``a`` seen from centre ``b`` (``(lat, lon, radius_m)``).

    Parameters
    ----------
    a, b : tuple of float
        From :func:`centre_and_radius`.

    Returns
    -------
    Orientation

    Examples
    --------
    >>> o = orientation_between((60.001, 24.0, 0.0), (60.0, 24.0, 0.0))
    >>> o.direction, o.clear
    ('north', True)
    """
    dist = distance_between(a, b)
    fwd = float(_WGS84.inv(b[1], b[0], a[1], a[0])[0]) % 360.0
    ratio = (dist.radius_a_m + dist.radius_b_m) / dist.meters if dist.meters else math.inf
    spread = math.degrees(math.asin(ratio)) if ratio < 1.0 else 90.0
    return Orientation(fwd, direction_name(fwd), spread, dist)


def orientation(a: BaseGeometry, b: BaseGeometry) -> Orientation:
    """The direction of ``a`` as seen from ``b`` (``(lon, lat)`` geometries).

    Parameters
    ----------
    a, b : shapely geometry
        In ``(lon, lat)``.

    Returns
    -------
    Orientation
        Check :attr:`Orientation.clear` before asking it.
    """
    frame = LocalFrame.around([a, b])
    return orientation_between(centre_and_radius(a, frame), centre_and_radius(b, frame))
