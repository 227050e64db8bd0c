"""The names a map writes, and splitting ``A & B`` / ``A and B`` by them.

A name answer such as ``Hiisi & Lost In Helsinki`` may be two names joined by ``&`` or
``and``, or one name that holds the word (``Day & Nite Sushi Bar``, ``Fish and Chips``).
The text alone cannot tell them apart; the map can. An item records the names its map
writes (:func:`item_map_names`): ``provenance.map_names`` for the street feature maps
(STMF, MTMF: every legible name of every catalogue type in the view, whatever type is
asked) and the legend labels of FRIEDA's maps. These are what the image shows a reader,
never the item's answer: the reader does not see the gold.

:func:`split_joined` then reads a joined item as the parts the map writes: the split of
the item into consecutive pieces that names the most names of the map wins, and the
whole item stays one name when it is itself a name of the map (so a reference answer
always reads back whole); when no part is one, the caller's default applies. Items
without recorded names (older builds) read as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from cartoqa.parsing.names import normalise_name

# " and ", " & ": the joins a name list may use between two names
_JOIN = re.compile(r"(\s+(?:and|&)\s+)", re.IGNORECASE)
#: At most this many joins in one item are tried (2**n splits).
MAX_JOINS = 5


def item_map_names(item: Mapping[str, Any]) -> frozenset[str]:
    """The normalised names an item's map writes (empty when the item records none).

    Parameters
    ----------
    item : mapping
        The item: ``provenance.map_names`` (street feature maps, since issue 24), else
        the ``label``/``name`` of every feature in ``provenance.maps`` and their
        ``legend_categories`` (FRIEDA's legends and legend boxes).

    Returns
    -------
    frozenset of str
        Names after :func:`cartoqa.parsing.names.normalise_name`.

    Examples
    --------
    >>> sorted(item_map_names({"provenance": {"map_names": ["Hiisi", "Day & Nite"]}}))
    ['day and nite', 'hiisi']
    >>> sorted(item_map_names({"provenance": {"maps": [{"features": [{"label": "Soopeli"}]}]}}))
    ['soopeli']
    >>> item_map_names({"provenance": {"counted": [{"name": "Hiisi"}]}})
    frozenset()
    """
    prov = item.get("provenance") if isinstance(item, Mapping) else None
    if not isinstance(prov, Mapping):
        return frozenset()
    names: list[str] = []
    listed = prov.get("map_names")
    if isinstance(listed, list):
        names.extend(str(n) for n in listed if isinstance(n, str))
    maps = prov.get("maps")
    if isinstance(maps, list):
        for m in maps:
            if not isinstance(m, Mapping):
                continue
            features = m.get("features")
            for f in features if isinstance(features, list) else ():
                if isinstance(f, Mapping):
                    names.extend(str(f[k]) for k in ("label", "name")
                                 if isinstance(f.get(k), str))
                elif isinstance(f, str):
                    names.append(f)
            categories = m.get("legend_categories")  # a legend box naming each fill
            names.extend(str(c) for c in (categories if isinstance(categories, list) else ())
                         if isinstance(c, str))
    return frozenset(k for k in (normalise_name(n) for n in names) if k)


#: "A or B", "A and/or B": alternatives offered between two answers
_OR_JOIN = re.compile(r"\s(?:or|and/or)\s", re.IGNORECASE)


def offers_alternatives(text: str, known: Iterable[str] = ()) -> bool:
    """Whether ``or`` (``and/or``) joins two answers in a text, outside the map's names.

    A legend may write a name that holds ``or`` (FRIEDA's land-use categories *park or
    garden*, *industrial or works land*): that ``or`` is part of the name, not a choice,
    wherever the name stands (alone or in a list). Every name of the map that holds
    `` or `` is taken out of the text first; an ``or`` left is a choice.

    Parameters
    ----------
    text : str
        One answer (a name, a list of names, a sentence).
    known : iterable of str
        The normalised names the map writes (:func:`item_map_names`); empty for none.

    Examples
    --------
    >>> known = {"park or garden", "residential land", "industrial or works land"}
    >>> offers_alternatives("park or garden; residential land", known)
    False
    >>> offers_alternatives("Industrial or works land, Park or garden", known)
    False
    >>> offers_alternatives("park or garden or residential land", known)
    True
    >>> offers_alternatives("park or garden", set()), offers_alternatives("A or B", known)
    (True, True)
    """
    probe = text
    for name in known:
        if " or " in name:
            words = r"\s+".join(re.escape(w) for w in name.split())
            probe = re.sub(rf"(?<!\w){words}(?!\w)", "\u2060", probe, flags=re.IGNORECASE)
    return bool(_OR_JOIN.search(probe))


def split_joined(item: str, known: Iterable[str], *,
                 default: bool) -> list[str]:
    """Split one list item on ``&`` / ``and`` by the names the map writes.

    Parameters
    ----------
    item : str
        One item as written (``Hiisi & Lost In Helsinki``).
    known : iterable of str
        Normalised names the map writes (:func:`item_map_names`); empty for none.
    default : bool
        Whether to split when the map's names do not decide (the list rules: the
        last item of ``A, B and C`` is split, a name on its own line is not); then only
        ``and`` is cut, ``&`` stays inside a name (``Maya Bar & Grill``).

    Returns
    -------
    list of str
        The parts, as written.

    Examples
    --------
    >>> known = {"hiisi", "lost in helsinki", "day and nite sushi bar"}
    >>> split_joined("Hiisi & Lost In Helsinki", known, default=False)
    ['Hiisi', 'Lost In Helsinki']
    >>> split_joined("Day & Nite Sushi Bar", known, default=True)
    ['Day & Nite Sushi Bar']
    >>> split_joined("Hiisi and Porthania", known, default=False)
    ['Hiisi', 'Porthania']
    >>> split_joined("Fish and Chips", known, default=False)
    ['Fish and Chips']
    >>> split_joined("Fish and Chips", set(), default=True)
    ['Fish', 'Chips']
    >>> split_joined("Fish and Chips", {"fish", "chips", "fish and chips"}, default=True)
    ['Fish and Chips']
    >>> split_joined("Maya Bar & Grill", set(), default=True)
    ['Maya Bar & Grill']
    """
    pieces = _JOIN.split(item)  # name, join, name, join, name ...
    joins = len(pieces) // 2
    if joins == 0:
        return [item]
    known = set(known)
    if known and _key(item) in known:
        return [item]  # a name the map writes is never split
    if known and joins <= MAX_JOINS:
        best: tuple[int, int] | None = None
        best_parts: list[str] = [item]
        for n_cuts in range(joins + 1):
            for cuts in combinations(range(joins), n_cuts):
                parts = _parts(pieces, cuts)
                hits = sum(_key(p) in known for p in parts)
                score = (hits, -len(parts))  # most names of the map, then fewest parts
                if best is None or score > best:
                    best, best_parts = score, parts
        if best is not None and best[0] > 0:
            return best_parts
    # without the map's names to decide, "&" is part of a name ("Maya Bar & Grill"), never
    # a separator: only "and" is cut
    cuts = tuple(j for j in range(joins) if pieces[2 * j + 1].strip() != "&")
    return _parts(pieces, cuts) if default else [item]


def _parts(pieces: list[str], cuts: tuple[int, ...]) -> list[str]:
    """The item cut at the joins numbered ``cuts`` (the others kept inside a part)."""
    parts: list[str] = []
    current = pieces[0]
    for j in range(len(pieces) // 2):
        if j in cuts:
            parts.append(current)
            current = pieces[2 * j + 2]
        else:
            current += pieces[2 * j + 1] + pieces[2 * j + 2]
    parts.append(current)
    return [p.strip() for p in parts]


def _key(part: str) -> str:
    return normalise_name(part.strip(" .;,!\"'*"))


#: English generic words a reader may add after a name the map writes (``Mikonkatu
#: street``, ``commercial land category``).
GENERIC_TAILS = ("street", "road", "avenue", "lane", "square", "category", "class", "area",
                 "zone", "type", "fill", "building", "feature", "restaurant", "cafe", "café",
                 "bar", "shop", "store", "hotel", "museum", "church", "school", "park",
                 "statue", "monument", "dot", "marker")


def snap_to_map(name: str, known: Iterable[str]) -> str:
    """A name read as the name of the map it evidently means, else the name unchanged.

    Two forms, decided only by the names the map writes (``known``, normalised):

    - an English generic word after a name of the map (``Mikonkatu street``,
      ``commercial land category``): the name without it;
    - a name the map writes with its last word in the English plural (``commercial
      buildings`` for *commercial building*, ``cemeteries`` for *cemetery*): that name,
      when exactly one fits;
    - words abbreviated with a dot (``Pohj. Makasiinikatu``): the one name of the map
      whose words start with them, the others equal (several such names: unchanged).

    Examples
    --------
    >>> known = {"mikonkatu", "pohjoinen makasiinikatu", "commercial land", "vuorikatu"}
    >>> snap_to_map("Mikonkatu street", known), snap_to_map("Pohj. Makasiinikatu", known)
    ('Mikonkatu', 'pohjoinen makasiinikatu')
    >>> snap_to_map("commercial land category", known), snap_to_map("Kaivokatu street", known)
    ('commercial land', 'Kaivokatu street')
    >>> snap_to_map("Mikonkatu", known), snap_to_map("Pohj. Esplanadi", known)
    ('Mikonkatu', 'Pohj. Esplanadi')
    >>> snap_to_map("Commercial lands", known), snap_to_map("Vuorikadut", known)
    ('commercial land', 'Vuorikadut')
    >>> snap_to_map("cemeteries", {"cemetery"}), snap_to_map("churches", {"church"})
    ('cemetery', 'church')
    """
    known = set(known)
    if not known or _key(name) in known:
        return name
    words = name.split()
    if len(words) >= 2 and words[-1].strip(".,").lower() in GENERIC_TAILS:
        rest = " ".join(words[:-1])
        if _key(rest) in known:
            return rest
    singular = [k for k in known if _plural_of(_key(name), k)]
    if len(singular) == 1:
        return singular[0]
    if any(w.endswith(".") and len(w) > 1 for w in words):
        wanted = [(normalise_name(w), w.endswith(".")) for w in words]
        hits = [k for k in known if _abbreviates(wanted, k.split())]
        if len(hits) == 1:
            return hits[0]
    return name


def _plural_of(key: str, name: str) -> bool:
    """Whether ``key`` is ``name`` (both normalised) with its last word in the English
    plural (``-s``, ``-es``, ``-ies`` for ``-y``); the other words equal."""
    words, label = key.split(), name.split()
    if not words or len(words) != len(label) or words[:-1] != label[:-1]:
        return False
    last, base = words[-1], label[-1]
    forms = {base + "s", base + "es"}
    if base.endswith("y") and len(base) > 1 and base[-2] not in "aeiou":
        forms.add(base[:-1] + "ies")
    return last in forms


def _abbreviates(wanted: list[tuple[str, bool]], label: list[str]) -> bool:
    """Whether words (each normalised, and whether it was cut with a dot) spell a label."""
    if len(wanted) != len(label):
        return False
    return all(word and (part.startswith(word) if cut else part == word)
               for (word, cut), part in zip(wanted, label, strict=True))


#: a question that asks for a legend category's name (FRIEDA's land-use and building-use
#: legend boxes): "Which category does the legend give that area?", "Answer with the
#: category's name"
_ASKS_CATEGORY = re.compile(r"\bcategory's\s+name\b|\bwhich\s+category\b", re.IGNORECASE)


def category_short_form(name: str, known: Iterable[str], question: str) -> list[str]:
    """The legend categories a short category name can mean (``residential`` for
    *residential land*), when the question asks for a category's name.

    A name the map does not write, whose words are the first words of a longer name of
    the map, means that name. Where several fit, those whose added words the question
    uses (``shaded by land use``: *residential land*, not *residential building*) are
    kept when that leaves some. The caller takes one and calls several ambiguous.

    Parameters
    ----------
    name : str
        The name read.
    known : iterable of str
        The normalised names the maps write.
    question : str
        The item's question.

    Returns
    -------
    list of str
        The names it can mean, sorted; empty when the rule does not apply.

    Examples
    --------
    >>> known = {"residential land", "residential building", "commercial land", "grass"}
    >>> q = "... shaded by land use ... Answer with the category's name as the legend writes it."
    >>> category_short_form("residential", known, q), category_short_form("commercial", known, q)
    (['residential land'], ['commercial land'])
    >>> category_short_form("residential", known, "Which category ... building use?")
    ['residential building']
    >>> category_short_form("residential", known, "Which category does the legend give?")
    ['residential building', 'residential land']
    >>> category_short_form("grass", known, q), category_short_form("commercial", known, "Which?")
    ([], [])
    """
    key = _key(name)
    known = set(known)
    if not key or key in known or not _ASKS_CATEGORY.search(question):
        return []
    words = key.split()
    hits = sorted(k for k in known
                  if len(k.split()) > len(words) and k.split()[: len(words)] == words)
    if len(hits) > 1:
        asked = set(normalise_name(question).split())
        picked = [k for k in hits if set(k.split()[len(words):]) <= asked]
        hits = picked or hits
    return hits
