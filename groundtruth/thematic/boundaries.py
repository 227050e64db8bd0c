"""US state boundaries from the packaged us-atlas TopoJSON (I/O at the edge).

``states-10m.json`` (npm us-atlas 3.0.1, ISC licence; from the U.S. Census Bureau's
cartographic boundary files, 1:10,000,000) holds one object per state with its FIPS id.
GDAL reads TopoJSON with no CRS; the coordinates are longitude/latitude (EPSG:4326).
Maps are drawn in Conus Albers (EPSG:5070), the lower-48 part of Albers USA.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from shapely.geometry.base import BaseGeometry

from groundtruth.thematic.sources import US_ATLAS_VERSION, data_file
from groundtruth.thematic.us_states import BY_FIPS, CONTIGUOUS

#: The projection of MapIQ-style maps of the contiguous states.
ALBERS_CRS = "EPSG:5070"

#: Source and licence of the boundaries, for dataset cards.
BOUNDARY_SOURCE = (f"npm us-atlas {US_ATLAS_VERSION} states-10m.json (U.S. Census Bureau "
                   "cartographic boundaries 1:10m), ISC licence, © 2013-2019 Michael Bostock")


@dataclass(frozen=True)
class StateBoundaries:
    """Boundaries of a set of states.

    Attributes
    ----------
    lonlat : dict
        Code -> geometry in longitude/latitude.
    albers : dict
        Code -> geometry in Conus Albers metres (EPSG:5070).
    source : str
        Where they came from.
    """

    lonlat: dict[str, BaseGeometry]
    albers: dict[str, BaseGeometry]
    source: str = BOUNDARY_SOURCE


@lru_cache(maxsize=2)
def load_us_states(codes: tuple[str, ...] = CONTIGUOUS) -> StateBoundaries:
    """Read the packaged state boundaries and project them to Albers.

    Parameters
    ----------
    codes : tuple of str
        USPS codes to keep (default: the 48 contiguous states and DC).

    Returns
    -------
    StateBoundaries
    """
    import geopandas as gpd

    path = data_file("us-atlas", "states-10m.json")
    frame = gpd.read_file(path, layer="states")
    frame = frame.set_crs("EPSG:4326", allow_override=True)
    frame["code"] = [BY_FIPS[str(i).zfill(2)].code if str(i).zfill(2) in BY_FIPS else None
                     for i in frame["id"]]
    frame = frame[frame["code"].isin(codes)].sort_values("code")
    missing = sorted(set(codes) - set(frame["code"]))
    if missing:
        raise ValueError(f"us-atlas lacks {missing}")
    albers = frame.to_crs(ALBERS_CRS)
    return StateBoundaries(
        lonlat=dict(zip(frame["code"], frame.geometry, strict=True)),
        albers=dict(zip(albers["code"], albers.geometry, strict=True)),
    )
