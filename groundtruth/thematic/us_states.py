"""The US states and DC: FIPS code, USPS code, name and Census region (zone).

The four zones are the U.S. Census Bureau's regions (West, Midwest, Northeast, South),
the zoning MapIQ uses. :data:`CONTIGUOUS` are the 48 contiguous states plus DC, the 49
units MapIQ's maps and zones cover.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class State:
    """One state.

    Attributes
    ----------
    fips : str
        Two-digit FIPS code (``"01"`` for Alabama), as in us-atlas ids.
    code : str
        USPS two-letter code (``"AL"``).
    name : str
        Name (``"Alabama"``).
    zone : str
        Census region: ``"West"``, ``"Midwest"``, ``"Northeast"`` or ``"South"``.
    """

    fips: str
    code: str
    name: str
    zone: str


_ROWS = """\
01 AL Alabama South
02 AK Alaska West
04 AZ Arizona West
05 AR Arkansas South
06 CA California West
08 CO Colorado West
09 CT Connecticut Northeast
10 DE Delaware South
11 DC District_of_Columbia South
12 FL Florida South
13 GA Georgia South
15 HI Hawaii West
16 ID Idaho West
17 IL Illinois Midwest
18 IN Indiana Midwest
19 IA Iowa Midwest
20 KS Kansas Midwest
21 KY Kentucky South
22 LA Louisiana South
23 ME Maine Northeast
24 MD Maryland South
25 MA Massachusetts Northeast
26 MI Michigan Midwest
27 MN Minnesota Midwest
28 MS Mississippi South
29 MO Missouri Midwest
30 MT Montana West
31 NE Nebraska Midwest
32 NV Nevada West
33 NH New_Hampshire Northeast
34 NJ New_Jersey Northeast
35 NM New_Mexico West
36 NY New_York Northeast
37 NC North_Carolina South
38 ND North_Dakota Midwest
39 OH Ohio Midwest
40 OK Oklahoma South
41 OR Oregon West
42 PA Pennsylvania Northeast
44 RI Rhode_Island Northeast
45 SC South_Carolina South
46 SD South_Dakota Midwest
47 TN Tennessee South
48 TX Texas South
49 UT Utah West
50 VT Vermont Northeast
51 VA Virginia South
53 WA Washington West
54 WV West_Virginia South
55 WI Wisconsin Midwest
56 WY Wyoming West
"""

#: All 50 states and DC, in FIPS order.
STATES: tuple[State, ...] = tuple(
    State(f, c, n.replace("_", " "), z) for f, c, n, z in (r.split() for r in _ROWS.splitlines())
)

#: USPS code -> state.
BY_CODE: dict[str, State] = {s.code: s for s in STATES}

#: FIPS code -> state.
BY_FIPS: dict[str, State] = {s.fips: s for s in STATES}

#: The 48 contiguous states and DC (MapIQ's 49 units), in FIPS order.
CONTIGUOUS: tuple[str, ...] = tuple(s.code for s in STATES if s.code not in ("AK", "HI"))

#: Zone names in MapIQ's order.
US_ZONE_NAMES: tuple[str, ...] = ("West", "Midwest", "Northeast", "South")


def us_zones(codes: tuple[str, ...] = CONTIGUOUS) -> dict[str, str]:
    """Census region of each state code.

    Parameters
    ----------
    codes : tuple of str, optional
        The states (default: the contiguous states).

    Returns
    -------
    dict of str to str
        State code -> Census region.

    Examples
    --------
    >>> us_zones(("TX", "ME"))
    {'TX': 'South', 'ME': 'Northeast'}
    """
    return {c: BY_CODE[c].zone for c in codes}


def code_for_name(name: str) -> str | None:
    """USPS code for a state name, code or FIPS code (case and spaces forgiven).

    Parameters
    ----------
    name : str
        A state's name, USPS code or FIPS code.

    Returns
    -------
    str or None
        The USPS code, or None when ``name`` names no state.

    Examples
    --------
    >>> code_for_name(" new york "), code_for_name("tx"), code_for_name("06"), code_for_name("X")
    ('NY', 'TX', 'CA', None)
    """
    return _NAME_KEYS.get(" ".join(name.split()).lower())


def _name_keys() -> dict[str, str]:
    """Every spelling :func:`code_for_name` knows, lower case, -> USPS code."""
    keys = {"washington dc": "DC", "washington d.c.": "DC", "d.c.": "DC"}
    for s in STATES:
        for key in (s.name.lower(), s.code.lower(), s.fips, s.fips.lstrip("0")):
            keys.setdefault(key, s.code)
    return keys


#: The lookup behind :func:`code_for_name` (the MapIQ catalogue reads a million table
#: cells through it; a scan of the 51 states per cell cost seconds).
_NAME_KEYS: dict[str, str] = _name_keys()
