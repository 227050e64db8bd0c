"""Map features of the 22 CartoMapQA types, and what a map view shows of them.

How an OSM object becomes a :class:`Feature` follows how OSM-Carto draws its type:

* ``symbol`` types (icons): tagged nodes, and closed ways or multipolygons whose icon
  OSM-Carto places inside the area (the anchor is the area's representative point);
* ``line`` types (rivers, streams, primary roads): ways. Ways of one type that share
  a name are one feature (a river mapped as ten ways is one river); unnamed ways are
  joined where they share an end point;
* ``area`` types (parks): closed ways and multipolygon relations.

A symbol is in a view when its anchor is; a line or area when its geometry crosses
the view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import shapely
from shapely.geometry import MultiLineString, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge

from groundtruth._osm_reader import RawObject, read_tagged_objects
from groundtruth.catalogue import FeatureType, get_feature_type, load_catalogue
from groundtruth.extracts import Extract, resolve_extract

Bounds = tuple[float, float, float, float]


@dataclass(frozen=True)
class Feature:
    """One map feature of a catalogue type.

    Attributes
    ----------
    feature_type : str
        Catalogue type name (``"restaurant"``).
    kind : str
        ``"symbol"``, ``"line"`` or ``"area"``.
    name : str or None
        The label OSM-Carto writes: the ``name`` tag (an ATM's ``operator``, see
        :attr:`groundtruth.catalogue.FeatureType.label_tag`).
    osm_ids : tuple of str
        Source objects as ``"node/1"``, ``"way/2"`` or ``"relation/3"``.
    lat, lon : float
        Anchor: the node, an area's representative point, or the middle of a line.
    geometry : shapely geometry
        Point, (Multi)LineString or (Multi)Polygon in ``(lon, lat)``.
    """

    feature_type: str
    kind: str
    name: str | None
    osm_ids: tuple[str, ...]
    lat: float
    lon: float
    geometry: BaseGeometry


@dataclass(frozen=True)
class FeaturesInView:
    """The features of one type that a view shows.

    Attributes
    ----------
    feature_type : str
        Catalogue type name.
    features : tuple of Feature
        The features in the view.
    names : tuple of str
        Distinct names of the named features, sorted.
    unnamed : int
        How many features have no name.
    """

    feature_type: str
    features: tuple[Feature, ...]
    names: tuple[str, ...]
    unnamed: int

    @property
    def count(self) -> int:
        """Number of features in the view (named and unnamed)."""
        return len(self.features)

    @property
    def present(self) -> bool:
        """Whether at least one feature of the type is in the view."""
        return bool(self.features)


def _line_components(objs: Sequence[RawObject]) -> list[list[RawObject]]:
    """Group unnamed line pieces that share an end point (union-find)."""
    parent = list(range(len(objs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_end: dict[tuple[float, float], int] = {}
    for i, obj in enumerate(objs):
        coords = list(obj.geometry.coords)
        for end in (coords[0], coords[-1]):
            j = by_end.setdefault((end[0], end[1]), i)
            parent[find(i)] = find(j)
    groups: dict[int, list[RawObject]] = {}
    for i, obj in enumerate(objs):
        groups.setdefault(find(i), []).append(obj)
    return list(groups.values())


def _line_feature(ft: FeatureType, name: str | None, parts: Sequence[RawObject]) -> Feature:
    merged = linemerge(MultiLineString([p.geometry for p in parts]))
    pieces = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
    longest = max(pieces, key=lambda g: g.length)
    mid = longest.interpolate(0.5, normalized=True)
    refs = tuple(sorted({p.ref for p in parts}))
    return Feature(ft.name, ft.kind, name, refs, mid.y, mid.x, merged)


def build_features(
    objects: Iterable[RawObject], catalogue: Sequence[FeatureType]
) -> list[Feature]:
    """Turn tagged OSM objects into catalogue features (pure).

    Parameters
    ----------
    objects : iterable of RawObject
        Nodes, ways and areas read from an extract.
    catalogue : sequence of FeatureType
        The feature types.

    Returns
    -------
    list of Feature
        Sorted by catalogue order, then name, then source ids.
    """
    features: list[Feature] = []
    lines: dict[tuple[str, str | None], list[RawObject]] = {}
    areas: dict[tuple[str, str | None, bytes], int] = {}
    types = {ft.name: ft for ft in catalogue}
    for obj in objects:
        for ft in catalogue:
            if not ft.matches(obj.tags):
                continue
            # the name as OSM-Carto writes it (an ATM's operator)
            name = obj.tags.get(ft.label_tag) or None
            if ft.kind == "line":
                if obj.osm_type == "way":
                    lines.setdefault((ft.name, name), []).append(obj)
            elif obj.osm_type == "area":
                # old-style multipolygons tag both the relation and its outer way: the
                # same area twice is one feature
                key = (ft.name, name, shapely.normalize(obj.geometry).wkb)
                if key in areas:
                    index = areas[key]
                    old = features[index]
                    refs = tuple(sorted({*old.osm_ids, obj.ref}))
                    features[index] = Feature(old.feature_type, old.kind, old.name, refs,
                                              old.lat, old.lon, old.geometry)
                    continue
                areas[key] = len(features)
                anchor = obj.geometry.representative_point()
                features.append(Feature(ft.name, ft.kind, name, (obj.ref,), anchor.y,
                                        anchor.x, obj.geometry))
            elif ft.kind == "symbol" and obj.osm_type == "node":
                features.append(Feature(ft.name, ft.kind, name, (obj.ref,), obj.geometry.y,
                                        obj.geometry.x, obj.geometry))
    for (type_name, name), parts in lines.items():
        ft = types[type_name]
        if name is not None:
            features.append(_line_feature(ft, name, parts))
        else:
            features.extend(_line_feature(ft, None, group) for group in _line_components(parts))
    order = {ft.name: i for i, ft in enumerate(catalogue)}
    features.sort(key=lambda f: (order[f.feature_type], f.name or "", f.osm_ids))
    return features


def catalogue_keys(catalogue: Sequence[FeatureType]) -> set[str]:
    """Tag keys the catalogue's filters use (what the reader must keep).

    Parameters
    ----------
    catalogue : sequence of FeatureType
        Feature types.

    Returns
    -------
    set of str

    Examples
    --------
    >>> sorted(catalogue_keys(load_catalogue()))
    ['amenity', 'highway', 'leisure', 'shop', 'waterway']
    """
    return {k for ft in catalogue for alt in ft.tags for k in alt}


def load_features(
    source: Extract | str | Path, *, catalogue: Sequence[FeatureType] | None = None
) -> list[Feature]:
    """Read the map features of every catalogue type from an extract.

    Parameters
    ----------
    source : Extract, str or pathlib.Path
        An :class:`~groundtruth.extracts.Extract`, a bundled name or an extract file.
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    list of Feature

    Raises
    ------
    GroundTruthError
        If the extract cannot be found or read.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> feats = load_features(asset_path("osm", "features.osm"))
    >>> sorted({f.feature_type for f in feats})[:3]
    ['ATM', 'bank', 'bus stop']
    """
    cat = tuple(catalogue) if catalogue is not None else load_catalogue()
    extract = source if isinstance(source, Extract) else resolve_extract(source)
    objects = read_tagged_objects(extract.path, catalogue_keys(cat))
    return build_features(objects, cat)


def _in_view(feature: Feature, bounds: Bounds) -> bool:
    south, west, north, east = bounds
    if feature.kind == "symbol":
        return south <= feature.lat <= north and west <= feature.lon <= east
    return bool(feature.geometry.intersects(box(west, south, east, north)))


def features_in_view(
    features: Iterable[Feature],
    bounds: Bounds,
    feature_type: str,
    *,
    zoom: int | None = None,
    catalogue: Sequence[FeatureType] | None = None,
) -> FeaturesInView:
    """The features of one type inside a view, with their names.

    Parameters
    ----------
    features : iterable of Feature
        From :func:`load_features`.
    bounds : tuple of float
        ``(south, west, north, east)`` of the view.
    feature_type : str
        Catalogue type name (case is ignored).
    zoom : int, optional
        When given and OSM-Carto does not draw the type at this zoom, nothing is in
        view.
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    FeaturesInView
        ``features``, sorted distinct ``names``, the ``unnamed`` count, ``count``.

    Raises
    ------
    GroundTruthError
        For an unknown feature type.
    """
    ft = get_feature_type(feature_type, catalogue)
    selected: tuple[Feature, ...] = ()
    if zoom is None or ft.drawn_at(zoom):
        selected = tuple(
            f for f in features if f.feature_type == ft.name and _in_view(f, bounds)
        )
    names = tuple(sorted({f.name for f in selected if f.name}))
    unnamed = sum(1 for f in selected if not f.name)
    return FeaturesInView(ft.name, selected, names, unnamed)


def features_in_view_by_type(
    features: Iterable[Feature],
    bounds: Bounds,
    *,
    zoom: int | None = None,
    catalogue: Sequence[FeatureType] | None = None,
) -> dict[str, FeaturesInView]:
    """:func:`features_in_view` for every catalogue type (the MTMF answer).

    Parameters
    ----------
    features : iterable of Feature
        From :func:`load_features`.
    bounds : tuple of float
        ``(south, west, north, east)`` of the view.
    zoom : int, optional
        As in :func:`features_in_view`.
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    dict
        Type name to :class:`FeaturesInView`, in catalogue order, all types present.
    """
    cat = tuple(catalogue) if catalogue is not None else load_catalogue()
    feats = list(features)
    return {
        ft.name: features_in_view(feats, bounds, ft.name, zoom=zoom, catalogue=cat) for ft in cat
    }
