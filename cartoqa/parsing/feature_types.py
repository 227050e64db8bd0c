"""The names models use for the 22 feature types: one synonym table, read both ways.

cartoqa's items name the types as the catalogue does (``assets/feature_types.json``:
``fast food``, ``parking``, ``ATM``, ...). CartoMapQA's prompts and paper (Table 9) use
other names (``Fast food store``, ``Car parking lot``, ``ATM or cash point``), and models
answer with yet others (``fast-food restaurant``, ``car park``, ``cash machine``).
:data:`FEATURE_TYPE_SYNONYMS` lists, per catalogue name, CartoMapQA's name first and
then common variants; :func:`canonical_type` reads any of them back to the catalogue
name, and :func:`cartomapqa_name` writes a catalogue name the way CartoMapQA does.
All names are compared with :func:`type_key` (case, accents, ``_``/``-``/``/``,
*center*/*centre* and a plural ending ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from cartoqa.parsing.text import fold

#: Catalogue name -> (CartoMapQA's name, other names models use).
FEATURE_TYPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "convenience store": ("Convenience store", "convenience shop", "corner shop",
                          "minimarket", "mini market", "kiosk"),
    "supermarket": ("Supermarket", "grocery store", "grocery", "groceries", "food store"),
    "pharmacy": ("Drug store/pharmacy", "drug store", "drugstore", "chemist", "apothecary",
                 "pharmacy or drug store"),
    "clinic": ("General clinic", "medical clinic", "health centre", "health clinic",
               "doctor", "doctors", "medical centre"),
    "hospital": ("Hospital",),
    "restaurant": ("Restaurant", "dining", "eatery"),
    "fast food": ("Fast food store", "fast food restaurant", "fast-food outlet", "fastfood",
                  "fast food shop", "fast food place", "burger place"),
    "coffee shop": ("Coffee shop", "cafe", "café", "coffee", "coffeeshop", "coffee house"),
    "ATM": ("ATM or cash point", "cash point", "cashpoint", "cash machine",
            "automated teller machine", "atm cash point", "atm cashpoint"),
    "bank": ("Bank",),
    "playground": ("Playground", "play area", "children playground"),
    "park": ("Park area", "park", "public park", "green space", "garden"),
    "fitness centre": ("Fitness center", "gym", "fitness", "fitness club", "health club",
                       "sports centre gym"),
    "clothes shop": ("Clothes shop", "clothing store", "clothing shop", "clothes store",
                     "fashion store", "apparel store", "boutique"),
    "beauty shop": ("Beauty shop", "beauty salon", "beauty parlour", "beautician",
                    "cosmetics shop"),
    "stream": ("Water stream", "creek", "brook", "watercourse"),
    "river": ("River",),
    "bus stop": ("Bus stop", "bus station stop", "bus shelter"),
    "fuel station": ("Gas station", "petrol station", "filling station", "gas", "fuel",
                     "service station", "gasoline station"),
    "primary road": ("Primary road", "main road", "major road", "primary highway"),
    "parking": ("Car parking lot", "parking lot", "car park", "parking area",
                "parking place", "car parking", "parking space", "parking garage"),
    "public toilet": ("Public toilet", "toilet", "toilets", "restroom", "wc",
                      "public restroom", "public bathroom", "lavatory"),
}

_CENTRE = {"center", "centers", "centres"}


@lru_cache(maxsize=4096)
def type_key(name: str) -> str:
    """Normalise a feature-type name for matching.

    Case, accents, punctuation (``_``, ``-``, ``/``) and British or American spelling
    of *centre* are ignored, and a plural ``s``/``es`` on the last word is dropped.

    Parameters
    ----------
    name : str
        A type name such as ``"Fitness_Centers"``.

    Returns
    -------
    str
        The key, e.g. ``"fitness centre"``.

    Examples
    --------
    >>> type_key("Bus_Stops")
    'bus stop'
    >>> type_key("fitness centers")
    'fitness centre'
    >>> type_key("Drug store/pharmacy")
    'drug store pharmacy'
    """
    words = re.sub(r"[^0-9a-z]+", " ", fold(name)).split()
    words = ["centre" if w in _CENTRE else w for w in words]
    if words:
        last = words[-1]
        if last.endswith("ies") and len(last) > 4:
            words[-1] = last[:-3] + "y"
        elif last.endswith(("ches", "shes", "sses", "xes")):
            words[-1] = last[:-2]
        elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
            words[-1] = last[:-1]
    return " ".join(words)


def _build() -> dict[str, str]:
    table: dict[str, str] = {}
    for name, synonyms in FEATURE_TYPE_SYNONYMS.items():
        for alias in (name, *synonyms):
            key = type_key(alias)
            if table.get(key, name) != name:
                raise ValueError(f"{alias!r} names both {table[key]!r} and {name!r}")
            table[key] = name
    return table


#: type_key of every name and synonym -> catalogue name.
_BY_KEY: dict[str, str] = _build()


def canonical_type(text: str, known: Iterable[str] | None = None) -> str | None:
    """Read a type name (catalogue, CartoMapQA or a synonym) as the catalogue name.

    Parameters
    ----------
    text : str
        A type name as a model or a prompt writes it.
    known : iterable of str, optional
        The names to accept (an item's types); the result is spelled as in ``known``.

    Returns
    -------
    str or None
        The catalogue name, or ``None`` when the text names no known type.

    Examples
    --------
    >>> canonical_type("Car parking lots")
    'parking'
    >>> canonical_type("ATM or cash point", ["ATM", "bank"])
    'ATM'
    >>> canonical_type("cafés", ["restaurant"]) is None
    True
    """
    key = type_key(text)
    name = _BY_KEY.get(key)
    if known is None:
        return name
    spelled = {type_key(k): k for k in known}
    if key in spelled:
        return spelled[key]
    if name is not None:
        return spelled.get(type_key(name))
    return None


def cartomapqa_name(name: str) -> str:
    """The name CartoMapQA gives a catalogue type (Table 9 of its paper).

    Parameters
    ----------
    name : str
        A catalogue name (or any name :func:`canonical_type` reads).

    Returns
    -------
    str
        CartoMapQA's name, or ``name`` unchanged when it is not a known type.

    Examples
    --------
    >>> cartomapqa_name("fast food")
    'Fast food store'
    """
    canonical = canonical_type(name)
    return FEATURE_TYPE_SYNONYMS[canonical][0] if canonical is not None else name
