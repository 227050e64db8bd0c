"""Stream OSM extracts with pyosmium (private: the I/O edge of :mod:`groundtruth`).

Files are read object by object, never as an XML tree of the whole file. Node
locations are cached by pyosmium (``flex_mem``) so that ways get coordinates. Ways
in a clipped extract may reference nodes the file lacks: those references are dropped
and the way is split where they were, so nothing is ever joined across a gap.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import osmium
import shapely.wkb
from osmium.osm import NODE, RELATION, WAY, Area, Node, Relation, Way
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from groundtruth.errors import GroundTruthError

LatLon = tuple[float, float]
T = TypeVar("T")


@dataclass(frozen=True)
class RawWay:
    """A way as read from the file.

    Attributes
    ----------
    id : int
        OSM way id.
    tags : dict
        All tags of the way.
    runs : tuple of tuple of int
        Runs of consecutive node ids whose locations the file has (one run for an
        unclipped way; several where the way leaves and re-enters the extract).
    """

    id: int
    tags: dict[str, str]
    runs: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RawRestriction:
    """A ``type=restriction`` relation as read from the file.

    Attributes
    ----------
    id : int
        OSM relation id.
    tags : dict
        All tags of the relation.
    members : tuple of (str, int, str)
        ``(type, ref, role)`` per member, type ``"n"``, ``"w"`` or ``"r"``, in order.
    """

    id: int
    tags: dict[str, str]
    members: tuple[tuple[str, int, str], ...]


@dataclass
class RoadData:
    """Ways with a ``highway`` tag and the ``(lat, lon)`` of the nodes they use.

    ``barriers`` maps the id of every node tagged ``barrier=*`` to its tags and
    ``restrictions`` holds the turn-restriction relations (both empty when the reader
    was not asked for them).
    """

    ways: list[RawWay] = field(default_factory=list)
    coords: dict[int, LatLon] = field(default_factory=dict)
    barriers: dict[int, dict[str, str]] = field(default_factory=dict)
    restrictions: list[RawRestriction] = field(default_factory=list)


@dataclass(frozen=True)
class RawObject:
    """A tagged OSM object with its geometry (lon/lat), as read from the file.

    Attributes
    ----------
    osm_type : str
        ``"node"``, ``"way"`` (open or closed way as a line) or ``"area"`` (a closed
        way or multipolygon relation assembled into polygons).
    osm_id : int
        Id of the node, way or relation (for areas, the id of the originating object).
    tags : dict
        All tags.
    geometry : shapely geometry
        Point, LineString or (Multi)Polygon in lon/lat.
    ref : str
        ``"node/1"``, ``"way/2"`` or ``"relation/3"`` (for areas, the originating object).
    """

    osm_type: str
    osm_id: int
    tags: dict[str, str]
    geometry: BaseGeometry
    ref: str


def _processor(path: Path, entities: osmium.osm.osm_entity_bits) -> osmium.FileProcessor:
    try:
        return osmium.FileProcessor(str(path), entities)
    except Exception as exc:  # osmium raises RuntimeError subclasses for bad input
        raise GroundTruthError(
            f"{path}: cannot read this OSM extract ({exc})",
            "check that the file is a complete .osm.pbf, .osm or .osm.bz2 file",
        ) from exc


def _guarded(iterator: Iterator[T], path: Path) -> Iterator[T]:
    try:
        yield from iterator
    except GroundTruthError:
        raise
    except RuntimeError as exc:
        raise GroundTruthError(
            f"{path}: the OSM extract is corrupt or truncated ({exc})",
            "download or export the extract again",
        ) from exc


def located_runs(refs: list[tuple[int, LatLon | None]]) -> tuple[tuple[int, ...], ...]:
    """Split a way's node list into runs of nodes that have locations.

    Parameters
    ----------
    refs : list of (int, (lat, lon) or None)
        The way's node ids in order, with ``None`` for nodes missing from the file.

    Returns
    -------
    tuple of tuple of int
        Runs of at least two consecutive located nodes.

    Examples
    --------
    >>> located_runs([(1, None), (2, (0.0, 0.0)), (3, (0.0, 1.0)), (4, None)])
    ((2, 3),)
    >>> located_runs([(1, (0.0, 0.0)), (2, (0.0, 1.0)), (3, None), (4, (1.0, 1.0))])
    ((1, 2),)
    """
    runs: list[tuple[int, ...]] = []
    current: list[int] = []
    for ref, loc in refs:
        if loc is None:
            if len(current) >= 2:
                runs.append(tuple(current))
            current = []
        else:
            current.append(ref)
    if len(current) >= 2:
        runs.append(tuple(current))
    return tuple(runs)


def read_highway_ways(path: Path) -> RoadData:
    """Read every way tagged ``highway=*``, barrier nodes and turn restrictions.

    Parameters
    ----------
    path : pathlib.Path
        An ``.osm.pbf``, ``.osm`` or ``.osm.bz2`` file.

    Returns
    -------
    RoadData
        The ways (split into located runs), a ``node id -> (lat, lon)`` map for the
        nodes they use, the tags of every located ``barrier=*`` node, and every
        ``type=restriction`` relation (members as the file lists them, whether or
        not the file holds them: a clipped extract may not).

    Raises
    ------
    GroundTruthError
        If the file cannot be read, or it has roads but no node locations for any of
        them (an unsorted file, with ways before nodes).
    """
    data = RoadData()
    fp = (
        _processor(path, NODE | WAY | RELATION)
        .with_locations()
        .with_filter(osmium.filter.KeyFilter("highway", "barrier", "type"))
    )
    highway_ways = 0
    for obj in _guarded(iter(fp), path):
        if isinstance(obj, Way):
            if "highway" not in obj.tags:
                continue
            highway_ways += 1
            refs: list[tuple[int, LatLon | None]] = []
            for nd in obj.nodes:
                loc = nd.location
                if loc.valid():
                    latlon = (loc.lat, loc.lon)
                    data.coords[nd.ref] = latlon
                    refs.append((nd.ref, latlon))
                else:
                    refs.append((nd.ref, None))
            runs = located_runs(refs)
            if runs:
                tags = {t.k: t.v for t in obj.tags}
                data.ways.append(RawWay(id=obj.id, tags=tags, runs=runs))
        elif isinstance(obj, Node):
            if "barrier" in obj.tags and obj.location.valid():
                data.barriers[obj.id] = {t.k: t.v for t in obj.tags}
        elif isinstance(obj, Relation) and obj.tags.get("type") == "restriction":
            members = tuple((m.type, m.ref, m.role) for m in obj.members)
            data.restrictions.append(
                RawRestriction(obj.id, {t.k: t.v for t in obj.tags}, members))
    if highway_ways and not data.ways:
        raise GroundTruthError(
            f"{path}: none of its {highway_ways} roads has node locations (are the nodes"
            " missing, or listed after the ways?)",
            f"sort the file so that nodes come first: osmium sort {path.name} -o sorted.osm.pbf",
        )
    return data


def read_tagged_objects(path: Path, keys: Collection[str]) -> list[RawObject]:
    """Read nodes, ways and areas carrying any of the given tag keys.

    Parameters
    ----------
    path : pathlib.Path
        An ``.osm.pbf``, ``.osm`` or ``.osm.bz2`` file.
    keys : collection of str
        Tag keys of interest (for example ``amenity``, ``shop``, ``waterway``).

    Returns
    -------
    list of RawObject
        Tagged nodes as points; every tagged way as a line (its located runs);
        closed ways and multipolygon relations also as areas. Areas that cannot be
        assembled (for example clipped at the extract border) are left out.
    """
    key_list = sorted(set(keys))
    fp = (
        _processor(path, NODE | WAY | RELATION)
        .with_locations()
        .with_areas(osmium.filter.KeyFilter(*key_list))
        .with_filter(osmium.filter.KeyFilter(*key_list))
    )
    wkb = osmium.geom.WKBFactory()
    out: list[RawObject] = []
    for obj in _guarded(iter(fp), path):
        tags = {t.k: t.v for t in obj.tags}
        if isinstance(obj, Node):
            loc = obj.location
            if loc.valid():
                point = Point(loc.lon, loc.lat)
                out.append(RawObject("node", obj.id, tags, point, f"node/{obj.id}"))
        elif isinstance(obj, Way):
            refs: list[tuple[int, LatLon | None]] = [
                (nd.ref, (nd.location.lat, nd.location.lon) if nd.location.valid() else None)
                for nd in obj.nodes
            ]
            located = {ref: loc for ref, loc in refs if loc is not None}
            for run in located_runs(refs):
                line = LineString([(located[r][1], located[r][0]) for r in run])
                out.append(RawObject("way", obj.id, tags, line, f"way/{obj.id}"))
        elif isinstance(obj, Area):
            try:
                geom = shapely.wkb.loads(wkb.create_multipolygon(obj), hex=True)
            except RuntimeError:
                continue
            if geom.is_empty:
                continue
            osm_id = obj.orig_id()
            kind = "way" if obj.from_way() else "relation"
            out.append(RawObject("area", osm_id, tags, geom, f"{kind}/{osm_id}"))
    return out
