"""Thematic areas of an OSM extract read through a map legend (FRIEDA's legend layers).

FRIEDA's maps draw categories (land use, building use, parks, protected areas) as
fills and hatches and name each in a legend box; most of its questions need that
legend. A :class:`CategoryArea` is one OSM area (named or not) of a legend category
(:data:`LEGEND_RULES`), in one :data:`FAMILIES` family: a map draws the areas of one
family only, so no category is drawn over another of its own map.

:func:`point_in_category` states whether a point lies within an area shown as a
category, with margins (``None`` in the band where a reader could argue either way).
Geometries stay in ``(lon, lat)``; the margins are measured in a
:class:`groundtruth.relations.LocalFrame`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import shapely
from shapely.geometry.base import BaseGeometry

from groundtruth._osm_reader import RawObject, read_tagged_objects
from groundtruth.extracts import Extract, resolve_extract
from groundtruth.relations import LocalFrame

#: ``(family, key, values, category)``: an area with ``key`` in ``values`` is drawn as
#: ``category`` on maps of ``family``; the first rule of a family that matches wins.
LEGEND_RULES: tuple[tuple[str, str, frozenset[str], str], ...] = (
    ("land use", "leisure", frozenset({"park", "garden"}), "park and garden"),
    ("land use", "boundary", frozenset({"protected_area", "national_park"}),
     "protected area"),
    ("land use", "leisure", frozenset({"nature_reserve"}), "protected area"),
    ("land use", "landuse", frozenset({"military"}), "restricted area"),
    ("land use", "military", frozenset({"yes", "barracks", "danger_area", "base"}),
     "restricted area"),
    ("land use", "amenity", frozenset({"university", "college", "school", "kindergarten"}),
     "education grounds"),
    ("land use", "landuse", frozenset({"grass", "meadow", "recreation_ground", "village_green"}),
     "grass"),
    ("land use", "landuse", frozenset({"commercial", "retail"}), "commercial land"),
    ("land use", "landuse", frozenset({"residential"}), "residential land"),
    ("land use", "landuse", frozenset({"industrial", "railway", "construction"}),
     "industrial and works land"),
    ("building use", "building", frozenset({"apartments", "residential", "house", "dormitory"}),
     "residential building"),
    ("building use", "building", frozenset({"office", "commercial", "retail", "kiosk",
                                            "hotel"}), "commercial building"),
    ("building use", "building", frozenset({"public", "civic", "government", "church",
                                            "cathedral", "university", "school", "museum",
                                            "train_station"}), "public building"),
)
#: The families (a map draws one).
FAMILIES: tuple[str, ...] = ("land use", "building use")
#: A point lies within a category when it is at least this far inside one of its areas
#: (and this far from every area of another category of the family), metres.
INSIDE_MIN_M = 8.0
#: A point lies clearly outside a category when every area of it is at least this far
#: away (about 30 px at zoom 17 in Helsinki), metres.
OUTSIDE_MIN_M = 20.0
#: Areas smaller than this are left out of the legend layers (:func:`build_category_areas`):
#: a fill of a few pixels has no readable hatch, so no map draws them and no answer
#: rests on them, square metres.
MIN_AREA_M2 = 150.0
#: Metres per degree of latitude (for :func:`ground_area_m2`).
_M_PER_DEG = 111_320.0


def ground_area_m2(geometry: BaseGeometry) -> float:
    """The ground area of a ``(lon, lat)`` polygon in square metres (equirectangular at its
    centroid's latitude: within 0.1% for areas under a kilometre across).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> round(ground_area_m2(box(24.0, 60.0, 24.001, 60.0001)))  # 55.7 m x 11.1 m
    620
    """
    k = math.cos(math.radians(geometry.centroid.y))
    return float(geometry.area * _M_PER_DEG * _M_PER_DEG * k)


@dataclass(frozen=True)
class CategoryArea:
    """One OSM area drawn as a legend category.

    Attributes
    ----------
    family : str
        One of :data:`FAMILIES`.
    category : str
        The legend's words (``"commercial land"``).
    osm_id : str
        ``"way/1"`` or ``"relation/2"``.
    geometry : shapely geometry
        (Multi)Polygon in ``(lon, lat)``.
    """

    family: str
    category: str
    osm_id: str
    geometry: BaseGeometry


def categories_of(tags: dict[str, str]) -> list[tuple[str, str]]:
    """The ``(family, category)`` pairs an area's tags give (one per family at most).

    Examples
    --------
    >>> categories_of({"landuse": "retail", "building": "retail"})
    [('land use', 'commercial land'), ('building use', 'commercial building')]
    >>> categories_of({"landuse": "farmland"})
    []
    """
    out: dict[str, str] = {}
    for family, key, values, category in LEGEND_RULES:
        if family not in out and tags.get(key) in values:
            out[family] = category
    return [(f, out[f]) for f in FAMILIES if f in out]


def legend_keys() -> set[str]:
    """Tag keys the reader must keep for :func:`build_category_areas`."""
    return {key for _, key, _, _ in LEGEND_RULES}


def build_category_areas(objects: Iterable[RawObject]) -> list[CategoryArea]:
    """The areas of every legend category (pure), sorted by family, category, id; areas
    under :data:`MIN_AREA_M2` are left out.

    Parameters
    ----------
    objects : iterable of RawObject
        Areas read from an extract (others are skipped).

    Returns
    -------
    list of CategoryArea
    """
    out = []
    for obj in objects:
        if obj.osm_type != "area":
            continue
        geom = shapely.make_valid(obj.geometry)
        if geom.is_empty or geom.area == 0:
            continue
        geom = geom.buffer(0) if geom.geom_type not in ("Polygon", "MultiPolygon") else geom
        if geom.is_empty or ground_area_m2(geom) < MIN_AREA_M2:
            continue
        for family, category in categories_of(obj.tags):
            out.append(CategoryArea(family, category, obj.ref, geom))
    out.sort(key=lambda a: (FAMILIES.index(a.family), a.category, a.osm_id))
    return out


def load_category_areas(source: Extract | str | Path) -> list[CategoryArea]:
    """Read the legend categories' areas of an extract.

    Parameters
    ----------
    source : Extract, str or pathlib.Path
        An extract, a bundled name or an extract file.

    Returns
    -------
    list of CategoryArea
    """
    extract = source if isinstance(source, Extract) else resolve_extract(source)
    return build_category_areas(read_tagged_objects(extract.path, legend_keys()))


def point_in_category(point: BaseGeometry, category: str,
                      areas: Sequence[CategoryArea], frame: LocalFrame,
                      metric: Sequence[BaseGeometry] | None = None) -> bool | None:
    """Whether a point lies within an area drawn as ``category`` on a map of its family.

    ``True`` when it is at least :data:`INSIDE_MIN_M` inside an area of the category and
    as far from every area of the family's other categories (drawn beside it, perhaps
    over it); ``False`` when every area of the category is at least
    :data:`OUTSIDE_MIN_M` away; ``None`` in between.

    Parameters
    ----------
    point : shapely Point
        In ``(lon, lat)``.
    category : str
        A legend category.
    areas : sequence of CategoryArea
        The areas of the map's family.
    frame : LocalFrame
        The metric frame.
    metric : sequence of shapely geometry, optional
        ``areas`` already projected with ``frame`` (saves projecting them per point).

    Returns
    -------
    bool or None

    Examples
    --------
    >>> from shapely.geometry import Point, box
    >>> frame = LocalFrame(60.0, 24.0)
    >>> sq = frame.to_lonlat(box(0, 0, 100, 100))
    >>> areas = [CategoryArea("land use", "grass", "way/1", sq)]
    >>> [point_in_category(frame.to_lonlat(Point(x, 50)), "grass", areas, frame)
    ...  for x in (50, 97, 110, 130)]
    [True, None, None, False]
    """
    p = frame.to_metric(point)
    inside = near_other = False
    geoms = metric if metric is not None else [frame.to_metric(a.geometry) for a in areas]
    for a, g in zip(areas, geoms, strict=True):
        if a.category == category:
            if g.contains(p) and g.boundary.distance(p) >= INSIDE_MIN_M:
                inside = True
            elif g.distance(p) < OUTSIDE_MIN_M:
                return None  # at its edge, or just outside it
        elif g.distance(p) < INSIDE_MIN_M:
            near_other = True  # on or by an area of another category, maybe over it
    if inside and near_other:
        return None
    return inside


def point_categories(point_m: BaseGeometry, categories: Sequence[str],
                     areas: Sequence[CategoryArea], metric: Sequence[BaseGeometry],
                     tree: shapely.STRtree | None = None) -> dict[str, bool | None]:
    """:func:`point_in_category` for every category of a family at once (metric input).

    Only the areas within :data:`OUTSIDE_MIN_M` of the point can change an answer, so
    with ``tree`` (an :class:`shapely.STRtree` of ``metric``) only those are looked at;
    the result equals :func:`point_in_category` per category.

    Parameters
    ----------
    point_m : shapely Point
        In the frame of ``metric``.
    categories : sequence of str
        The family's categories.
    areas : sequence of CategoryArea
        The family's areas.
    metric : sequence of shapely geometry
        ``areas`` in a metric frame.
    tree : shapely.STRtree, optional
        Of ``metric``.

    Returns
    -------
    dict
        category -> ``True``, ``False`` or ``None``.

    Examples
    --------
    >>> from shapely.geometry import Point, box
    >>> areas = [CategoryArea("land use", "grass", "way/1", box(0, 0, 1, 1)),
    ...          CategoryArea("land use", "commercial land", "way/2", box(0, 0, 1, 1))]
    >>> metric = [box(0, 0, 100, 100), box(100, 0, 200, 100)]
    >>> point_categories(Point(50, 50), ["grass", "commercial land"], areas, metric)
    {'grass': True, 'commercial land': False}
    >>> point_categories(Point(95, 50), ["grass", "commercial land"], areas, metric)
    {'grass': None, 'commercial land': None}
    """
    if tree is not None:
        near = [int(i) for i in tree.query(point_m, predicate="dwithin",
                                           distance=OUTSIDE_MIN_M)]
    else:
        near = [i for i, g in enumerate(metric) if g.distance(point_m) < OUTSIDE_MIN_M]
    inside: dict[str, bool] = {}
    unclear: set[str] = set()
    near_cats: set[str] = set()  # categories with an area within INSIDE_MIN_M
    for i in near:
        g, c = metric[i], areas[i].category
        d = g.distance(point_m)
        if d < INSIDE_MIN_M:
            near_cats.add(c)
        if g.contains(point_m) and g.boundary.distance(point_m) >= INSIDE_MIN_M:
            inside[c] = True
        elif d < OUTSIDE_MIN_M:
            unclear.add(c)
    out: dict[str, bool | None] = {}
    for c in categories:
        if c in unclear:
            out[c] = None
        elif inside.get(c):
            out[c] = None if near_cats - {c} else True
        else:
            out[c] = False
    return out
