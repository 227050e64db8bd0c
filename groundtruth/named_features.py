"""Named OSM features that spatial-relation questions (FRIEDA) are asked about.

Three kinds, each a :class:`NamedFeature` with one category:

* ``polygon``: named closed ways and multipolygons of a :data:`POLYGON_RULES` tag
  (parks, gardens, squares, landuse, water, woods, campuses, buildings,
  neighbourhoods, administrative areas);
* ``line``: named ways of a :data:`LINE_RULES` tag (roads, railways, waterways); the
  ways of one category that share a name are one feature, merged where they meet;
* ``point``: named nodes of a :data:`POINT_KEYS` tag (amenities, shops, tourism,
  historic sites).

An object matching several rules takes the first (a park also tagged
``landuse=grass`` is a park). Areas that cannot be assembled (clipped at the extract
border) are left out; every feature records whether it comes within
:data:`EDGE_MARGIN_M` of the extract's bounds (``at_edge``), where its true extent is
unknown. Geometries stay in ``(lon, lat)``; measure them with
:mod:`groundtruth.relations`, which projects them to the ground.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import shapely
from shapely.geometry import MultiLineString, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge

from groundtruth._osm_reader import RawObject, read_tagged_objects
from groundtruth.extracts import Extract, resolve_extract

Bounds = tuple[float, float, float, float]

#: ``(key, values, category)``: a named area with ``key`` in ``values`` (any value
#: when ``values`` is empty) is a polygon feature of ``category``; first match wins.
#: ``{v}`` in a category is replaced by the tag value.
POLYGON_RULES: tuple[tuple[str, frozenset[str], str], ...] = (
    ("leisure", frozenset({"park"}), "park"),
    ("leisure", frozenset({"garden"}), "garden"),
    ("leisure", frozenset({"playground"}), "playground"),
    ("leisure", frozenset({"pitch", "sports_centre", "stadium", "track"}), "sports ground"),
    ("leisure", frozenset({"nature_reserve", "common"}), "nature area"),
    ("place", frozenset({"square"}), "square"),
    ("natural", frozenset({"water"}), "water"),
    ("natural", frozenset({"bay"}), "bay"),
    ("natural", frozenset({"wood"}), "wood"),
    ("natural", frozenset({"beach", "scrub", "grassland", "heath", "wetland"}), "{v}"),
    ("landuse", frozenset({"forest"}), "wood"),
    ("landuse", frozenset(), "{v} area"),
    ("amenity", frozenset({"school", "university", "college", "hospital", "kindergarten"}),
     "{v} grounds"),
    ("place", frozenset({"neighbourhood", "quarter", "suburb", "city_block"}), "{v}"),
    ("boundary", frozenset({"administrative"}), "administrative area"),
    ("building", frozenset(), "building"),
)

#: ``(key, values, category)`` for named ways read as lines.
LINE_RULES: tuple[tuple[str, frozenset[str], str], ...] = (
    ("highway", frozenset({
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
        "residential", "living_street", "pedestrian", "service",
        "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
    }), "road"),
    ("railway", frozenset({"rail", "light_rail", "subway", "tram", "narrow_gauge"}),
     "railway"),
    ("waterway", frozenset({"river", "stream", "canal", "ditch", "drain"}), "waterway"),
)

#: Tag keys whose named nodes are point features (the key is the category).
POINT_KEYS: tuple[str, ...] = ("amenity", "shop", "tourism", "historic")

#: A feature closer than this to the extract's bounds is flagged ``at_edge`` (metres).
EDGE_MARGIN_M = 10.0


@dataclass(frozen=True)
class NamedFeature:
    """A named map object spatial relations are measured on.

    Attributes
    ----------
    name : str
        The ``name`` tag.
    kind : str
        ``"polygon"``, ``"line"`` or ``"point"``.
    category : str
        What it is, in words (``"park"``, ``"road"``, ``"restaurant"``).
    osm_ids : tuple of str
        Source objects as ``"node/1"``, ``"way/2"`` or ``"relation/3"``.
    geometry : shapely geometry
        (Multi)Polygon, (Multi)LineString or Point in ``(lon, lat)``.
    at_edge : bool
        Whether it comes within :data:`EDGE_MARGIN_M` of the extract's bounds.
    """

    name: str
    kind: str
    category: str
    osm_ids: tuple[str, ...]
    geometry: BaseGeometry
    at_edge: bool = False

    @property
    def key(self) -> str:
        """A stable identifier: kind, category and name (``"polygon:park:Esplanadi"``)."""
        return f"{self.kind}:{self.category}:{self.name}"


def _match(rules: Sequence[tuple[str, frozenset[str], str]], tags: dict[str, str]) -> str | None:
    for key, values, category in rules:
        value = tags.get(key)
        if value is None or value == "no":
            continue
        if values and value not in values:
            continue
        return category.replace("{v}", value.replace("_", " "))
    return None


def polygon_category(tags: dict[str, str]) -> str | None:
    """The polygon category of an area's tags, or ``None``.

    Parameters
    ----------
    tags : dict
        OSM tags.

    Returns
    -------
    str or None

    Examples
    --------
    >>> polygon_category({"leisure": "park", "landuse": "grass"})
    'park'
    >>> polygon_category({"landuse": "retail"})
    'retail area'
    >>> polygon_category({"highway": "footway"}) is None
    True
    """
    return _match(POLYGON_RULES, tags)


def line_category(tags: dict[str, str]) -> str | None:
    """The line category of a way's tags, or ``None``.

    Parameters
    ----------
    tags : dict
        OSM tags.

    Returns
    -------
    str or None

    Examples
    --------
    >>> line_category({"highway": "residential"})
    'road'
    >>> line_category({"highway": "footway"}) is None
    True
    """
    if tags.get("area") == "yes":
        return None
    return _match(LINE_RULES, tags)


def point_category(tags: dict[str, str]) -> str | None:
    """The point category of a node's tags (its tag value, in words), or ``None``.

    Parameters
    ----------
    tags : dict
        OSM tags.

    Returns
    -------
    str or None

    Examples
    --------
    >>> point_category({"amenity": "fast_food"})
    'fast food'
    """
    for key in POINT_KEYS:
        value = tags.get(key)
        if value and value not in ("no", "yes"):
            return value.replace("_", " ")
    return None


def _near_edge(geometry: BaseGeometry, bounds: Bounds | None) -> bool:
    if bounds is None:
        return False
    south, west, north, east = bounds
    margin_lat = EDGE_MARGIN_M / 111_000.0  # a degree of latitude is 110.6-111.7 km
    lat = (south + north) / 2
    margin_lon = margin_lat / max(0.01, math.cos(math.radians(lat)))
    inner = box(west + margin_lon, south + margin_lat, east - margin_lon, north - margin_lat)
    return not inner.contains(geometry)


#: Two polygons of one category and name are one object mapped twice (a building as a
#: way and again as a relation) when their overlap is at least this share of the
#: smaller one; they are merged into one feature (their union).
DUPLICATE_MIN_OVERLAP = 0.5


def _merge_duplicates(polygons: list[NamedFeature]) -> list[NamedFeature]:
    groups: dict[tuple[str, str], list[NamedFeature]] = {}
    for f in polygons:
        groups.setdefault((f.category, f.name), []).append(f)
    out: list[NamedFeature] = []
    for group in groups.values():
        merged: list[NamedFeature] = []
        for f in group:
            for i, g in enumerate(merged):
                smaller = min(f.geometry.area, g.geometry.area)
                if f.geometry.intersection(g.geometry).area >= DUPLICATE_MIN_OVERLAP * smaller:
                    refs = tuple(sorted({*g.osm_ids, *f.osm_ids}))
                    merged[i] = NamedFeature(g.name, g.kind, g.category, refs,
                                             g.geometry.union(f.geometry))
                    break
            else:
                merged.append(f)
        out.extend(merged)
    return out


def build_named_features(
    objects: Iterable[RawObject], bounds: Bounds | None = None
) -> list[NamedFeature]:
    """Turn tagged OSM objects into named features (pure).

    Parameters
    ----------
    objects : iterable of RawObject
        Nodes, ways and areas read from an extract.
    bounds : tuple of float, optional
        ``(south, west, north, east)`` of the extract, for ``at_edge``.

    Returns
    -------
    list of NamedFeature
        Sorted by kind (polygon, line, point), category, name, then source ids.
        Polygons of one category and name that overlap by at least
        :data:`DUPLICATE_MIN_OVERLAP` of the smaller (an old-style multipolygon tagged
        on both the relation and its outer way, a building mapped twice) are one
        feature.
    """
    polygons: dict[tuple[str, str, bytes], NamedFeature] = {}
    lines: dict[tuple[str, str], list[RawObject]] = {}
    points: list[NamedFeature] = []
    for obj in objects:
        name = obj.tags.get("name")
        if not name:
            continue
        if obj.osm_type == "area":
            category = polygon_category(obj.tags)
            if category is None:
                continue
            geom = shapely.make_valid(obj.geometry)
            if geom.is_empty or geom.area == 0:
                continue
            key = (category, name, shapely.normalize(geom).wkb)
            old = polygons.get(key)
            refs = (obj.ref,) if old is None else tuple(sorted({*old.osm_ids, obj.ref}))
            polygons[key] = NamedFeature(name, "polygon", category, refs, geom)
        elif obj.osm_type == "way":
            category = line_category(obj.tags)
            if category is not None:
                lines.setdefault((category, name), []).append(obj)
        elif obj.osm_type == "node":
            category = point_category(obj.tags)
            if category is not None:
                points.append(NamedFeature(name, "point", category, (obj.ref,), obj.geometry))
    out = _merge_duplicates(list(polygons.values()))
    for (category, name), parts in lines.items():
        merged = linemerge(MultiLineString([p.geometry for p in parts]))
        refs = tuple(sorted({p.ref for p in parts}))
        out.append(NamedFeature(name, "line", category, refs, merged))
    out.extend(points)
    out = [
        NamedFeature(f.name, f.kind, f.category, f.osm_ids, f.geometry,
                     _near_edge(f.geometry, bounds))
        for f in out
    ]
    order = {"polygon": 0, "line": 1, "point": 2}
    out.sort(key=lambda f: (order[f.kind], f.category, f.name, f.osm_ids))
    return out


def named_feature_keys() -> set[str]:
    """Tag keys the reader must keep for :func:`build_named_features`.

    Returns
    -------
    set of str

    Examples
    --------
    >>> sorted(named_feature_keys())[:4]
    ['amenity', 'boundary', 'building', 'highway']
    """
    keys = {key for key, _, _ in POLYGON_RULES} | {key for key, _, _ in LINE_RULES}
    return keys | set(POINT_KEYS)


def load_named_features(source: Extract | str | Path) -> list[NamedFeature]:
    """Read the named polygons, lines and points of an extract.

    Parameters
    ----------
    source : Extract, str or pathlib.Path
        An :class:`~groundtruth.extracts.Extract`, a bundled name or an extract file.

    Returns
    -------
    list of NamedFeature

    Raises
    ------
    GroundTruthError
        If the extract cannot be found or read.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> feats = load_named_features(asset_path("osm", "relations.osm"))
    >>> [f.name for f in feats if f.category == "park"]
    ['Alpha Park', 'Beta Park']
    """
    extract = source if isinstance(source, Extract) else resolve_extract(source)
    objects = read_tagged_objects(extract.path, named_feature_keys())
    return build_named_features(objects, extract.bounds)


def by_name(features: Iterable[NamedFeature], name: str) -> NamedFeature:
    """The one feature with a name (a convenience for tests and notebooks).

    Parameters
    ----------
    features : iterable of NamedFeature
        Features.
    name : str
        Exact name.

    Returns
    -------
    NamedFeature

    Raises
    ------
    KeyError
        When no feature, or more than one, has that name.
    """
    found = [f for f in features if f.name == name]
    if len(found) != 1:
        raise KeyError(f"{len(found)} features are named {name!r}")
    return found[0]
