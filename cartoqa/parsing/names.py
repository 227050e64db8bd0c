"""Name normalisation for matching feature and road names.

The rule (also in ``docs/scoring.md``), applied to both the true and the predicted name:

1. Unicode NFKD, accents and other combining marks removed, case-folded
   (``Lönnrotinkatu`` → ``lonnrotinkatu``, ``Straße`` → ``strasse``); ``ø æ œ ł đ þ``
   become ``o ae oe l d th``.
2. ``&`` becomes ``and``; apostrophes are deleted (``McDonald's`` → ``mcdonalds``);
   every other character that is not a letter or digit becomes a space.
3. Words are split on spaces; each word found in :data:`NAME_ABBREVIATIONS` is
   expanded (``st`` → ``street``, ``ave`` → ``avenue``, ``rd`` → ``road``, ...),
   except that ``st``/``ste`` before a name are *saint*/*sainte*: ``st`` is *street* only
   as the last word or before a compass word (``Main St``, ``5th St NW``), so
   ``St. James St`` = ``Saint James Street`` and ``Rue St-Denis`` = ``Rue Saint Denis``.
4. A leading ``the`` is dropped and words are joined by single spaces.

Nothing language-specific beyond the English street abbreviations is applied: Finnish,
Swedish or other names are compared letter by letter after step 1 (``-katu``/``-tie``
are part of the word and left alone).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Abbreviations expanded word by word (after case folding and punctuation removal).
NAME_ABBREVIATIONS: dict[str, str] = {
    "st": "street",
    "str": "street",
    "ave": "avenue",
    "av": "avenue",
    "rd": "road",
    "blvd": "boulevard",
    "bd": "boulevard",
    "dr": "drive",
    "ln": "lane",
    "pl": "place",
    "sq": "square",
    "hwy": "highway",
    "pkwy": "parkway",
    "ct": "court",
    "cres": "crescent",
    "tce": "terrace",
    "mt": "mount",
}

_SPECIAL = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "þ": "th"})
_APOSTROPHES = re.compile(r"['\u2019\u2018`\u00b4]")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


_COMPASS = {"n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west",
            "northeast", "northwest", "southeast", "southwest"}
_SAINT = {"st": "saint", "ste": "sainte"}


def _expand(words: list[str], i: int) -> str:
    """Word ``i`` with its abbreviation expanded (``st`` as saint before a name)."""
    word = words[i]
    if word in _SAINT and i + 1 < len(words) and words[i + 1] not in _COMPASS:
        return _SAINT[word]
    return NAME_ABBREVIATIONS.get(word, word)


@lru_cache(maxsize=65536)
def normalise_name(name: str) -> str:
    """Normalise a name for matching (the rule in this module's docstring).

    Parameters
    ----------
    name : str
        A feature or road name as written.

    Returns
    -------
    str
        The key two names must share to match; may be empty.

    Examples
    --------
    >>> normalise_name("Main St.")
    'main street'
    >>> normalise_name("  LÖNNROTINKATU ") == normalise_name("Lonnrotinkatu")
    True
    >>> normalise_name("St. James St")
    'saint james street'
    >>> normalise_name("The Ben & Jerry's")
    'ben and jerrys'
    """
    decomposed = unicodedata.normalize("NFKD", str(name).casefold())
    text = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_SPECIAL)
    text = text.replace("&", " and ")
    text = _APOSTROPHES.sub("", text)
    words = _NON_ALNUM.sub(" ", text).split()
    words = [_expand(words, i) for i in range(len(words))]
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def names_match(a: str, b: str) -> bool:
    """Whether two names are equal after :func:`normalise_name`.

    Parameters
    ----------
    a, b : str
        Names.

    Returns
    -------
    bool
        ``True`` when their normalised forms are equal and not empty.
    """
    key = normalise_name(a)
    return bool(key) and key == normalise_name(b)
