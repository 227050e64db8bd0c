"""Named parts of the MapWise countries, from documented official groupings.

MapWise asks about "states in the north-east", "states bordering Canada", "the west
coast". cartoqa asks only about parts whose members an official source lists:

- **USA**: the U.S. Census Bureau's four *regions* and nine *divisions* ("Census Regions
  and Divisions of the United States", census.gov, geographic reference map), and the
  states on the land or water boundary with Canada (the 13 states the International
  Boundary Commission's treaty boundary touches: Alaska, Idaho, Maine, Michigan,
  Minnesota, Montana, New Hampshire, New York, North Dakota, Ohio, Pennsylvania, Vermont,
  Washington; Ohio and Pennsylvania through Lake Erie) or with Mexico (the four states
  of the International Boundary and Water Commission's boundary: Arizona, California,
  New Mexico, Texas).
- **India**: the five *Zonal Councils* of the States Reorganisation Act, 1956, Part III
  (Ministry of Home Affairs, Inter-State Council Secretariat; membership as amended for
  Telangana, 2014), and the members of the *North Eastern Council* (North Eastern
  Council Act, 1971, as amended 2002 to add Sikkim). Andaman and Nicobar Islands and
  Lakshadweep are special invitees of the Southern Zonal Council, not members, and belong
  to no part here.
- **China**: the National Bureau of Statistics' four economic regions (国家统计局,
  "东西中部和东北地区划分方法", 13 June 2011): Eastern, Central, Western and Northeastern.

- **Coasts** (every country): the regions that touch the sea and those that do not,
  derived from geometry by :mod:`groundtruth.thematic.coast` (Natural Earth 1:10m land;
  :func:`coast_parts`), not listed by name.

Members are listed by *name* and resolved to the country's region codes
(:func:`groundtruth.thematic.countries.region_code`), so the parts follow the codes of
whichever boundary edition is drawn; a member the map does not draw (Alaska on a
contiguous map, Telangana on the pre-2014 map of India) is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from groundtruth.thematic.us_states import code_for_name

__all__ = ["PARTS", "PART_SOURCES", "Part", "coast_parts", "country_parts"]

#: Where each country's parts come from.
PART_SOURCES: dict[str, str] = {
    "usa": "U.S. Census Bureau, Census Regions and Divisions of the United States; "
           "International Boundary Commission (Canada) and International Boundary and "
           "Water Commission (Mexico) boundary states",
    "india": "States Reorganisation Act, 1956, Part III (Zonal Councils, Ministry of Home "
             "Affairs); North Eastern Council Act, 1971 (amended 2002)",
    "china": "National Bureau of Statistics of China, division into Eastern, Central, "
             "Western and Northeastern regions (13 June 2011)",
}


@dataclass(frozen=True)
class Part:
    """One named part of a country.

    Attributes
    ----------
    key : str
        Stable key (``"census_division_pacific"``).
    phrase : str
        How a question names it, after "in" (``"the Pacific Census division"``).
    kind : str
        ``"census_region"``, ``"census_division"``, ``"border"``, ``"zonal_council"``,
        ``"economic_region"``, ``"coast"``.
    members : tuple of str
        Member names, as the source lists them.
    """

    key: str
    phrase: str
    kind: str
    members: tuple[str, ...]


_US = (
    ("census_region_northeast", "the Northeast Census region", "census_region",
     "Connecticut Maine Massachusetts New_Hampshire Rhode_Island Vermont New_Jersey "
     "New_York Pennsylvania"),
    ("census_region_midwest", "the Midwest Census region", "census_region",
     "Illinois Indiana Michigan Ohio Wisconsin Iowa Kansas Minnesota Missouri Nebraska "
     "North_Dakota South_Dakota"),
    ("census_region_south", "the South Census region", "census_region",
     "Delaware District_of_Columbia Florida Georgia Maryland North_Carolina "
     "South_Carolina Virginia West_Virginia Alabama Kentucky Mississippi Tennessee "
     "Arkansas Louisiana Oklahoma Texas"),
    ("census_region_west", "the West Census region", "census_region",
     "Arizona Colorado Idaho Montana Nevada New_Mexico Utah Wyoming Alaska California "
     "Hawaii Oregon Washington"),
    ("census_division_new_england", "the New England Census division", "census_division",
     "Connecticut Maine Massachusetts New_Hampshire Rhode_Island Vermont"),
    ("census_division_middle_atlantic", "the Middle Atlantic Census division",
     "census_division", "New_Jersey New_York Pennsylvania"),
    ("census_division_east_north_central", "the East North Central Census division",
     "census_division", "Illinois Indiana Michigan Ohio Wisconsin"),
    ("census_division_west_north_central", "the West North Central Census division",
     "census_division", "Iowa Kansas Minnesota Missouri Nebraska North_Dakota South_Dakota"),
    ("census_division_south_atlantic", "the South Atlantic Census division",
     "census_division", "Delaware District_of_Columbia Florida Georgia Maryland "
     "North_Carolina South_Carolina Virginia West_Virginia"),
    ("census_division_east_south_central", "the East South Central Census division",
     "census_division", "Alabama Kentucky Mississippi Tennessee"),
    ("census_division_west_south_central", "the West South Central Census division",
     "census_division", "Arkansas Louisiana Oklahoma Texas"),
    ("census_division_mountain", "the Mountain Census division", "census_division",
     "Arizona Colorado Idaho Montana Nevada New_Mexico Utah Wyoming"),
    ("census_division_pacific", "the Pacific Census division", "census_division",
     "Alaska California Hawaii Oregon Washington"),
    ("border_canada", "the group of states bordering Canada", "border",
     "Alaska Idaho Maine Michigan Minnesota Montana New_Hampshire New_York North_Dakota "
     "Ohio Pennsylvania Vermont Washington"),
    ("border_mexico", "the group of states bordering Mexico", "border",
     "Arizona California New_Mexico Texas"),
)

_INDIA = (
    ("zonal_council_northern", "the Northern Zonal Council", "zonal_council",
     "Chandigarh Delhi Haryana Himachal_Pradesh Jammu_and_Kashmir Punjab Rajasthan"),
    ("zonal_council_central", "the Central Zonal Council", "zonal_council",
     "Chhattisgarh Madhya_Pradesh Uttar_Pradesh Uttarakhand"),
    ("zonal_council_eastern", "the Eastern Zonal Council", "zonal_council",
     "Bihar Jharkhand Odisha West_Bengal"),
    ("zonal_council_western", "the Western Zonal Council", "zonal_council",
     "Dadra_and_Nagar_Haveli Daman_and_Diu Goa Gujarat Maharashtra"),
    ("zonal_council_southern", "the Southern Zonal Council", "zonal_council",
     "Andhra_Pradesh Karnataka Kerala Puducherry Tamil_Nadu Telangana"),
    ("north_eastern_council", "the North Eastern Council", "zonal_council",
     "Arunachal_Pradesh Assam Manipur Meghalaya Mizoram Nagaland Sikkim Tripura"),
)

_CHINA = (
    ("economic_region_eastern", "the Eastern economic region", "economic_region",
     "Beijing Tianjin Hebei Shanghai Jiangsu Zhejiang Fujian Shandong Guangdong Hainan"),
    ("economic_region_central", "the Central economic region", "economic_region",
     "Shanxi Anhui Jiangxi Henan Hubei Hunan"),
    ("economic_region_western", "the Western economic region", "economic_region",
     "Inner_Mongolia Guangxi Chongqing Sichuan Guizhou Yunnan Tibet Shaanxi Gansu Qinghai "
     "Ningxia Xinjiang"),
    ("economic_region_northeastern", "the Northeastern economic region", "economic_region",
     "Liaoning Jilin Heilongjiang"),
)


def _parts(rows: Iterable[tuple[str, str, str, str]]) -> tuple[Part, ...]:
    return tuple(Part(k, p, kind, tuple(n.replace("_", " ") for n in names.split()))
                 for k, p, kind, names in rows)


#: Every country's parts, as the sources list them.
PARTS: dict[str, tuple[Part, ...]] = {
    "usa": _parts(_US), "india": _parts(_INDIA), "china": _parts(_CHINA)}


def country_parts(country: str, drawn: Iterable[str]) -> dict[str, tuple[Part, list[str]]]:
    """The parts of a country with the codes of their members that are drawn.

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    drawn : iterable of str
        Codes of the regions on the map.

    Returns
    -------
    dict
        Part key -> (part, sorted member codes on the map).

    Raises
    ------
    ValueError
        When a listed member's name resolves to no region code (a typo in the table).

    Examples
    --------
    >>> from groundtruth.thematic.countries import region_table
    >>> parts = country_parts("usa", region_table("usa"))
    >>> parts["census_division_pacific"][1]  # Alaska and Hawaii are not drawn
    ['CA', 'OR', 'WA']
    >>> len(parts["border_canada"][1]), parts["border_mexico"][1]
    (12, ['AZ', 'CA', 'NM', 'TX'])
    """
    # imported here: countries loads shapely (~0.8 s), and the answer reader, which
    # imports this module, never draws
    from groundtruth.thematic.countries import region_code

    drawn_set = set(drawn)
    out: dict[str, tuple[Part, list[str]]] = {}
    for part in PARTS[country]:
        codes = []
        for name in part.members:
            code = _code(country, name, region_code)
            if code in drawn_set:
                codes.append(code)
        out[part.key] = (part, sorted(codes))
    return out


#: How a coast part names each country's regions.
_COAST_WORDS: dict[str, str] = {"usa": "states", "india": "states and union territories",
                                "china": "provinces"}


def coast_parts(country: str, coastal: Iterable[str],
                drawn: Iterable[str]) -> dict[str, tuple[Part, list[str]]]:
    """The coastal regions and the inland ones (no coast) as two parts.

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    coastal : iterable of str
        Codes of the coastal regions (:func:`groundtruth.thematic.coast.coastal_regions`).
    drawn : iterable of str
        Codes of the regions on the map.

    Returns
    -------
    dict
        ``"coast_coastal"`` and ``"coast_inland"`` -> (part, sorted member codes).

    Examples
    --------
    >>> parts = coast_parts("china", ["SH", "ZJ"], ["AH", "SH", "ZJ"])
    >>> parts["coast_coastal"][0].phrase, parts["coast_coastal"][1], parts["coast_inland"][1]
    ('the group of coastal provinces (touching the sea)', ['SH', 'ZJ'], ['AH'])
    """
    # imported here: countries loads shapely (~0.8 s), and the answer reader, which
    # imports this module, never draws
    from groundtruth.thematic.countries import region_table

    table = region_table(country, "insets" if country == "usa" else None)
    drawn_set = set(drawn)
    sea = sorted(set(coastal) & drawn_set)
    land = sorted(drawn_set - set(coastal))
    words = _COAST_WORDS[country]

    def names(codes: list[str]) -> tuple[str, ...]:
        return tuple(table[c].name if c in table else c for c in codes)

    return {
        "coast_coastal": (Part("coast_coastal", f"the group of coastal {words} (touching "
                               "the sea)", "coast", names(sea)), sea),
        "coast_inland": (Part("coast_inland", f"the group of {words} without a sea coast",
                              "coast", names(land)), land),
    }


def _code(country: str, name: str, resolve: object) -> str | None:
    """A member's code; names outside the drawn table (Alaska, Telangana) give None."""
    assert callable(resolve)
    if country == "usa":
        code = code_for_name(name)
        if code is None:
            raise ValueError(f"unknown US member {name!r}")
        return code
    code = resolve(country, name)
    if code is None:
        raise ValueError(f"unknown {country} member {name!r}")
    return str(code)
