"""Pedestrian areas: the squares and precincts OSM-Carto fills as pedestrian ground, and
the drivable road edges drawn inside them.

OSM-Carto's ``highway-area-fill`` layer fills ``planet_osm_polygon`` rows with
``highway=pedestrian`` or ``highway=footway`` in the pedestrian lilac grey (#dddde8).
osm2pgsql makes such a polygon of a closed way only when it is tagged ``area=yes``
(``highway`` is a linear key otherwise), and of every multipolygon relation. A
drivable way drawn across such an area (Aleksanterinkatu across Senaatintori in
Helsinki, ``highway=service``: a thin white line on the lilac square) reads as part of
the square to a map reader, not as a street one may drive.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from groundtruth._osm_reader import RawObject, read_tagged_objects
from groundtruth.extracts import Extract

#: ``highway`` values whose areas OSM-Carto fills as pedestrian ground.
PEDESTRIAN_AREA_HIGHWAYS = frozenset({"pedestrian", "footway"})
#: A road point is on pedestrian ground when it lies in an area or has an area on both
#: sides within this many metres (Aleksanterinkatu runs between the two strips of the
#: pedestrian street, 3 m from each; OSM-Carto draws it as one lilac band).
FLANK_M = 8.0
#: An edge lies inside the pedestrian areas when at least this share of its length and
#: at least :data:`MIN_INSIDE_M` metres are on pedestrian ground (Fabianinkatu crossing
#: pedestrian Aleksanterinkatu: 6 of 9 m, not inside; the service road across
#: Mannerheiminaukio: 114 of 118 m, inside).
MIN_SHARE_INSIDE = 0.5
MIN_INSIDE_M = 20.0
#: Sampling step along a road (metres).
SAMPLE_STEP_M = 2.0
_M_PER_DEG_LAT = 110_540.0
_M_PER_DEG_LON_EQUATOR = 111_320.0


def is_pedestrian_area(obj: RawObject) -> bool:
    """Whether an object read from the file is an area OSM-Carto fills as pedestrian.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> sq = box(0, 0, 1, 1)
    >>> is_pedestrian_area(RawObject("area", 1, {"highway": "pedestrian", "area": "yes"},
    ...                              sq, "way/1"))
    True
    >>> is_pedestrian_area(RawObject("area", 1, {"highway": "pedestrian"}, sq, "way/1"))
    False
    >>> is_pedestrian_area(RawObject("area", 2, {"highway": "pedestrian",
    ...                              "type": "multipolygon"}, sq, "relation/2"))
    True
    """
    if obj.osm_type != "area" or obj.tags.get("highway") not in PEDESTRIAN_AREA_HIGHWAYS:
        return False
    return obj.ref.startswith("relation/") or obj.tags.get("area") == "yes"


def pedestrian_areas(extract: Extract) -> list[BaseGeometry]:
    """The pedestrian areas of an extract (lon/lat polygons), read from its file."""
    return [o.geometry for o in read_tagged_objects(extract.path, ["highway"])
            if is_pedestrian_area(o)]


def flanked_length_m(line: LineString, ground: BaseGeometry, *, flank_m: float = FLANK_M,
                     step_m: float = SAMPLE_STEP_M) -> tuple[float, float]:
    """Metres of ``line`` (lon/lat) drawn on pedestrian ground, and its length: points
    inside ``ground`` (prepared or not), or with ``ground`` on both sides within
    ``flank_m`` (a road between two pedestrian strips). Sampled every ``step_m``;
    metres from a local equirectangular projection.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> lat = 1e-4   # 11 m: two strips 4-11 m north and south of the road at lat 0
    >>> road = LineString([(0.0, 0.0), (0.001, 0.0)])               # 111 m long
    >>> strips = box(0, 0.36 * lat, 0.0005, lat).union(box(0, -lat, 0.0005, -0.36 * lat))
    >>> [round(m) for m in flanked_length_m(road, strips)]          # the first half
    [55, 111]
    >>> [round(m) for m in flanked_length_m(road, box(0, 0.36 * lat, 0.0005, lat))]
    [0, 111]
    """
    c = np.asarray(line.coords, dtype=float)
    lon0, lat0 = float(c[0, 0]), float(c[:, 1].mean())
    kx, ky = math.cos(math.radians(lat0)) * _M_PER_DEG_LON_EQUATOR, _M_PER_DEG_LAT
    local = LineString((c - [lon0, 0.0]) * [kx, ky])
    length = local.length
    if length == 0:
        return 0.0, 0.0
    n = max(int(length // step_m), 1)
    at = (np.arange(n) + 0.5) * length / n

    def points(where: np.ndarray) -> np.ndarray:
        return np.asarray(shapely.get_coordinates(shapely.line_interpolate_point(local, where)))

    pts = points(at)
    tangent = points(np.minimum(at + 1.0, length)) - points(np.maximum(at - 1.0, 0.0))
    tangent /= np.maximum(np.linalg.norm(tangent, axis=1)[:, None], 1e-9)
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1) * flank_m

    def on_ground(q: np.ndarray) -> np.ndarray:
        return np.asarray(shapely.contains_xy(ground, q[:, 0] / kx + lon0, q[:, 1] / ky))

    hit = on_ground(pts) | (on_ground(pts + normal) & on_ground(pts - normal))
    return float(hit.sum()) * length / n, length


def edges_inside(graph: nx.MultiDiGraph, areas: Sequence[BaseGeometry], *,
                 min_share: float = MIN_SHARE_INSIDE,
                 min_m: float = MIN_INSIDE_M) -> set[tuple[int, int, int]]:
    """The edges of ``graph`` drawn inside the pedestrian ``areas``: at least
    ``min_share`` of the edge's length and at least ``min_m`` metres on pedestrian
    ground (:func:`flanked_length_m`). A road crossing a pedestrian street (a few metres)
    or running along one side of a square is not inside.

    Examples
    --------
    >>> from shapely.geometry import LineString, box
    >>> g = nx.MultiDiGraph()
    >>> _ = g.add_edge(1, 2, geometry=LineString([(0.0, 0.0), (0.001, 0.0)]))   # 111 m
    >>> _ = g.add_edge(2, 3, geometry=LineString([(0.001, 0.0), (0.001, 0.001)]))
    >>> sorted(edges_inside(g, [box(-0.0001, -0.0001, 0.0006, 0.0001)]))  # 61 m of 111
    [(1, 2, 0)]
    >>> sorted(edges_inside(g, [box(-0.0001, -0.0001, 0.0004, 0.0001)]))  # 39 m of 111
    []
    """
    if not areas:
        return set()
    ground = shapely.union_all(list(areas))
    shapely.prepare(ground)
    tree = STRtree(list(areas))
    pad = 2.0 * FLANK_M / _M_PER_DEG_LAT
    out: set[tuple[int, int, int]] = set()
    for u, v, k, geom in graph.edges(keys=True, data="geometry"):
        if geom is None or geom.length == 0 or not len(tree.query(geom.buffer(pad))):
            continue
        flanked, total = flanked_length_m(geom, ground)
        if flanked >= min_m and flanked >= min_share * total:
            out.add((u, v, k))
    return out
