"""Every form a reader may write a region in, resolved to a region of a country's map.

A model may name a region by its full name (``Hubei``), with its kind (``Hubei Province``,
``Tibet Autonomous Region``, ``Chongqing Municipality``, ``Lakshadweep Islands``), by an
exonym or older name (``Tibet``/``Xizang``, ``Orissa``/``Odisha``), by a postal code
(``TX``) or an ISO 3166-2 code (``CN-HB``, ``IN-MH``, ``US-TX``), or by a D.C. form
(``D.C.``, ``Washington, D.C.``), a code written with dots or ``&`` (``M.P.``, ``J&K``,
``N.J.``) or an AP-style US abbreviation (``Pa.``, ``Calif.``, from the **us** package).
:class:`RegionNames` resolves all of them to a code of
the map's own region table (:class:`groundtruth.thematic.countries.Region`), by matching
*names*, so that it keeps working whichever codes the map declares:

- the map's own codes and names (and the aliases its table lists) come first;
- ISO 3166-2 subdivisions come from **pycountry** (the iso-codes database, maintained by
  Debian; LGPL-2.1), whose names are matched to the map's names after folding accents and
  dropping the generic term of the subdivision's kind (``Hubei Sheng`` is ``Hubei``,
  ``Xizang Zizhiqu`` is ``Xizang``); a prefixed ISO code (``CN-HB``) resolves through that
  name, a bare one (``HB``) only when it is not one of the map's own codes;
- the English names of the kinds (pycountry's subdivision types: Province, Autonomous
  region, Municipality, Union territory, State, District, ...) and ``Islands`` are dropped
  from the end of a name when what is left resolves.

Pure: no I/O beyond the pycountry package's own data.

Examples
--------
>>> from groundtruth.thematic.countries import region_table
>>> names = RegionNames("china", region_table("china"))
>>> [names.resolve(t) for t in ("Hubei Province", "CN-HB", "Xizang (Tibet)", "Atlantis")]
['HB', 'HB', 'XZ', None]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Protocol

#: ISO 3166-1 alpha-2 code of each country the maps draw.
ISO_COUNTRY: dict[str, str] = {"usa": "US", "india": "IN", "china": "CN"}

#: Generic terms in pycountry's Chinese subdivision names (pinyin): Sheng = province,
#: Shi = municipality, Zizhiqu = autonomous region, and the nationality of an autonomous
#: region; dropped to get the proper name (``Guangxi Zhuangzu Zizhiqu`` is ``Guangxi``).
_PINYIN_GENERIC = ("sheng", "shi", "zizhiqu", "zhuangzu", "huizu", "uygur", "sar")

#: English words of a region's kind a reader may append ("Hubei Province"); pycountry's
#: subdivision types plus the qualifiers of China's autonomous regions.
_KIND_WORDS = (
    "special administrative region", "autonomous region", "union territory",
    "national capital territory", "municipality", "province", "territory", "district",
    "state", "region", "islands", "island", "sar", "ut",
    "zhuang", "hui", "uyghur", "uygur", "uighur",
)
_KIND_TAIL = re.compile(r"(?:\s+(?:" + "|".join(_KIND_WORDS) + r"))+$")
_KIND_HEAD = re.compile(r"^(?:the\s+)?(?:state|province|union\s+territory|nct)\s+of\s+")
_PAREN = re.compile(r"^(?P<main>[^()]*?)\s*\((?P<inner>[^()]*)\)\s*$")
_ISO = re.compile(r"^(?P<country>[a-z]{2})\s*-\s*(?P<code>[a-z0-9]{1,3})$")
#: "D.C.", "DC", "Washington, D.C.", "Washington DC": the District of Columbia.
_DC = re.compile(r"^(?:washington\s*,?\s*)?d\s*\.?\s*c\s*\.?$|^washington\s*,?\s*d\s*\.?\s*c\b.*$")


class RegionLike(Protocol):
    """What :class:`RegionNames` reads of a region: its code, name and other names."""

    @property
    def code(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


def fold_name(text: str) -> str:
    """Lower case, no accents, ``&`` as ``and``, punctuation as spaces, spaces squeezed.

    Examples
    --------
    >>> fold_name("  Jammu & Kashmīr. "), fold_name("Nei-Mongol")
    ('jammu and kashmir', 'nei mongol')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    text = text.replace("&", " and ")
    text = re.sub(r"[^\w()\-]+", " ", text).replace("_", " ")
    text = re.sub(r"(?<=\w)-(?=\w{3,})", " ", text)  # "Nei-Mongol"; keep "CN-HB"
    return " ".join(text.split())


@dataclass(frozen=True)
class IsoSubdivision:
    """One ISO 3166-2 subdivision as pycountry gives it.

    Attributes
    ----------
    code : str
        ``"CN-HB"``.
    name : str
        pycountry's name (``"Hubei Sheng"``).
    kind : str
        pycountry's type (``"Province"``).
    """

    code: str
    name: str
    kind: str

    @property
    def proper_name(self) -> str:
        """The name without Chinese generic terms, folded (``"hubei"``)."""
        words = fold_name(self.name).split()
        while len(words) > 1 and words[-1] in _PINYIN_GENERIC:
            words.pop()
        return " ".join(words)


@cache
def iso_subdivisions(country: str) -> tuple[IsoSubdivision, ...]:
    """The ISO 3166-2 subdivisions of a map country, from pycountry (empty if unknown).

    Examples
    --------
    >>> [s.code for s in iso_subdivisions("china") if s.proper_name == "hubei"]
    ['CN-HB']
    """
    alpha2 = ISO_COUNTRY.get(country)
    if alpha2 is None:
        return ()
    import pycountry

    subs = pycountry.subdivisions.get(country_code=alpha2) or []
    return tuple(sorted((IsoSubdivision(s.code, s.name, s.type) for s in subs),
                        key=lambda s: s.code))


@dataclass
class RegionNames:
    """Resolve what a reader writes to a region code of one map.

    Parameters
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"`` (the ISO country of pycountry's codes).
    regions : mapping of str to Region
        The map's regions by code (``CountryRegions.regions`` or
        :func:`groundtruth.thematic.countries.region_table`).

    Examples
    --------
    >>> from groundtruth.thematic.countries import region_table
    >>> usa = RegionNames("usa", region_table("usa"))
    >>> usa.resolve("Washington, D.C."), usa.resolve("US-TX"), usa.resolve("illinois (IL)")
    ('DC', 'TX', 'IL')
    """

    country: str
    regions: Mapping[str, RegionLike]
    _by_name: dict[str, str] = field(init=False, repr=False)
    _by_code: dict[str, str] = field(init=False, repr=False)
    _by_iso: dict[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._by_code = {r.code.lower(): code for code, r in self.regions.items()}
        self._by_name = {}
        for code, r in self.regions.items():
            for name in (r.name, *getattr(r, "aliases", ())):
                key = fold_name(name)
                if name != r.name and len(name) <= 3 and name.isalpha() and name.isupper():
                    self._by_code.setdefault(key, code)  # an alias that is a code ("OD")
                else:
                    self._by_name.setdefault(key, code)
                    self._by_name.setdefault(_KIND_TAIL.sub("", key), code)
        if self.country == "usa" and "DC" in self.regions:
            self._by_name.setdefault("district of columbia", "DC")
        self._by_iso = {}
        for sub in iso_subdivisions(self.country):
            match = self._name_code(sub.proper_name) or self._name_code(fold_name(sub.name))
            if match is None:
                continue
            self._by_iso[sub.code.lower()] = match
            self._by_name.setdefault(sub.proper_name, match)
            self._by_name.setdefault(fold_name(sub.name), match)

    def _name_code(self, key: str) -> str | None:
        if key in self._by_name:
            return self._by_name[key]
        bare = _KIND_TAIL.sub("", key)
        return self._by_name.get(bare) if bare else None

    def codes(self) -> tuple[str, ...]:
        """The map's region codes."""
        return tuple(self.regions)

    def resolve(self, text: str) -> str | None:
        """The code of the one region ``text`` names, or ``None``.

        Parameters
        ----------
        text : str
            A name, a name with its kind, an exonym, a map code, an ISO 3166-2 code
            (prefixed or, when not one of the map's codes, bare), ``Name (CODE)``.

        Returns
        -------
        str or None
            A key of ``regions``.

        Examples
        --------
        >>> from groundtruth.thematic.countries import region_table
        >>> india = RegionNames("india", region_table("india"))
        >>> india.resolve("Lakshadweep Islands"), india.resolve("Orissa"), india.resolve("IN-MH")
        ('LD', 'OD', 'MH')
        """
        key = fold_name(text).strip(" .")
        key = re.sub(r"^(?:the|and)\s+", "", key)
        if not key:
            return None
        found = self._resolve_key(key)
        if found is not None:
            return found
        m = _PAREN.match(key)
        if m:  # "Xizang (Tibet)", "Illinois (IL)", "Maharashtra (MH)"
            main, inner = self._resolve_key(m.group("main")), self._resolve_key(m.group("inner"))
            if main is not None and inner is not None and main != inner:
                return None
            return main or inner
        if self.country == "usa" and text.strip().endswith("."):
            # "Pa.", "Calif.", "W.Va.": AP-style abbreviations, written with their dot (a
            # name cut short, "Calif", is no abbreviation)
            postal = ap_abbreviations().get(key)
            if postal is not None:
                return self._by_code.get(postal.lower())
        return None

    def _resolve_key(self, key: str) -> str | None:
        key = key.strip(" .,;:")
        if not key:
            return None
        if self.country == "usa" and _DC.match(key) and "DC" in self.regions:
            return "DC"
        iso = _ISO.match(key)
        if iso:
            if iso.group("country") != ISO_COUNTRY.get(self.country, "").lower():
                return None
            return self._by_iso.get(key.replace(" ", ""))
        if key in self._by_code:
            return self._by_code[key]
        name = self._name_code(key)
        if name is not None:
            return name
        head = _KIND_HEAD.sub("", key)
        if head != key:
            return self._name_code(head) or self._by_code.get(head)
        prefix = ISO_COUNTRY.get(self.country, "").lower()
        if len(key) == 2 and key.isalpha():  # an ISO code without its country prefix
            return self._by_iso.get(f"{prefix}-{key}")
        initials = _INITIALS.fullmatch(key)
        if initials:  # "M.P.", "U.P.", "J&K", "N.J.": a code written with dots or "&"
            code = self._by_code.get("".join(g for g in initials.groups() if g))
            if code is not None:
                return code
        return None

    def resolve_all(self, texts: Iterable[str]) -> list[str | None]:
        """:meth:`resolve` of each text."""
        return [self.resolve(t) for t in texts]


#: Single letters that fold from a code written with dots or ``&`` (``m p``, ``j and k``).
_INITIALS = re.compile(r"([a-z])\s+(?:and\s+)?([a-z])(?:\s+(?:and\s+)?([a-z]))?")


@cache
def ap_abbreviations() -> dict[str, str]:
    """Folded AP-style state abbreviation -> postal code (``"pa"`` -> ``"PA"``).

    From the **us** package (``State.ap_abbr``, the Associated Press Stylebook's
    abbreviations; BSD-3-Clause); empty when it is not installed. Only abbreviations
    that are not the full name (``Ohio``, ``Texas`` are left out).

    Examples
    --------
    >>> ap_abbreviations().get("pa"), ap_abbreviations().get("w va"), "ohio" in ap_abbreviations()
    ('PA', 'WV', False)
    """
    try:
        import us
    except ImportError:  # pragma: no cover - a declared dependency
        return {}
    return {fold_name(s.ap_abbr).strip(" ."): s.abbr
            for s in us.states.STATES_AND_TERRITORIES
            if s.ap_abbr and fold_name(s.ap_abbr) != fold_name(s.name)}


@lru_cache(maxsize=8)
def region_names(country: str, edition: str | None = None) -> RegionNames:
    """The :class:`RegionNames` of a country's region table (cached).

    Examples
    --------
    >>> region_names("china").resolve("Inner Mongolia Autonomous Region")
    'NM'
    """
    # imported here: countries loads shapely (~0.8 s), and the answer reader, which
    # imports this module, never draws
    from groundtruth.thematic.countries import region_table

    return RegionNames(country, region_table(country, edition))
