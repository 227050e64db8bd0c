"""MapWise's name counterfactuals: the regions of a map relabelled.

MapWise (Mukhopadhyay et al. 2024; released data ``counter_factuals/``, map-wise/
mapwise-dataset) draws each of its 90 counterfactual US maps in three variants besides the
original, and rewrites each question and answer for the variant:

- **imaginary**: every state's label is an invented name (``Eloria``, ``Ravia``; drawn as
  a two-letter code, ``EL``); questions and answers use the invented names;
- **shuffled**: the real names are permuted among the states (the map 20787 writes
  ``WI`` on Mississippi, and "What value range does state Wisconsin fall in?" asks about
  the state labelled WI);
- **jumbled**: the labels stay real and the *values* are permuted among the states
  (released maps 957 and 20787: every label in place, the colours moved). That is a value
  counterfactual: :func:`groundtruth.thematic.country_variables.counterfactual` with
  ``"shuffle"``; this module builds the two *name* counterfactuals.

A name counterfactual maps each region code of the map (the key its geometry, values and
answers are computed under) to the :class:`~groundtruth.thematic.countries.Region` the
map shows there; the answer is the label the map shows. Pure: no I/O.

Examples
--------
>>> from groundtruth.thematic.countries import region_table
>>> usa = region_table("usa")
>>> shown = relabelled("shuffled", usa, seed=0)
>>> sorted(r.code for r in shown.values()) == sorted(usa)
True
>>> any(shown[c].code == c for c in usa)
False
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from groundtruth.thematic.countries import Region

#: The name counterfactuals (MapWise's jumbled variant is a value counterfactual).
NAME_COUNTERFACTUALS: tuple[str, ...] = ("imaginary", "shuffled")

#: Building blocks of invented names, in the manner of MapWise's (Eloria, Fenara, Valara).
_ONSETS = ("B", "D", "El", "F", "G", "Hal", "Ir", "J", "K", "L", "M", "N", "Or", "P",
           "R", "S", "T", "V", "W", "X", "Y", "Z", "Ad", "Ev", "Is", "Ul", "Qu", "Th")
_MIDDLES = ("a", "e", "i", "o", "ar", "or", "al", "el", "yr", "an", "en", "ov")
_ENDINGS = ("ia", "ora", "ara", "ium", "ona", "ea", "is", "anth", "ova", "ura")


def imaginary_regions(regions: Mapping[str, Region], seed: int = 0,
                      avoid: Mapping[str, Region] | None = None) -> dict[str, Region]:
    """An invented name and two-letter code for each region.

    Names are unique, and neither a name nor a code is a name or code of ``regions`` or
    ``avoid`` (so a reader's real name or real code never resolves on such a map).

    Parameters
    ----------
    regions : mapping of str to Region
        The map's regions by code.
    seed : int, optional
        Seed of the invented names.
    avoid : mapping of str to Region, optional
        More regions whose names and codes are not to be used.

    Returns
    -------
    dict
        Map code -> the invented :class:`Region` drawn there.

    Examples
    --------
    >>> from groundtruth.thematic.countries import region_table
    >>> shown = imaginary_regions(region_table("india"), seed=1)
    >>> len({r.name for r in shown.values()}) == len(shown) == len({r.code for r in shown.values()})
    True
    >>> any(r.code in region_table("india") for r in shown.values())
    False
    """
    taken_names: set[str] = set()
    taken_codes: set[str] = set()
    for table in (regions, avoid or {}):
        for code, r in table.items():
            taken_codes.update({code.upper(), r.code.upper()})
            taken_names.update(n.lower() for n in (r.name, *r.aliases))
    rng = random.Random(f"imaginary:{seed}")
    out: dict[str, Region] = {}
    for code in sorted(regions):
        for _ in range(10_000):
            name = rng.choice(_ONSETS) + rng.choice(_MIDDLES) + rng.choice(_ENDINGS)
            if name.lower() in taken_names:
                continue
            letters = [ch for ch in name[1:].upper() if ch.isalpha()]
            short = next((name[0].upper() + ch for ch in letters
                          if name[0].upper() + ch not in taken_codes), None)
            if short is None:
                continue
            taken_names.add(name.lower())
            taken_codes.add(short)
            out[code] = Region(short, name)
            break
        else:  # pragma: no cover - the name space holds thousands of names
            raise ValueError("ran out of invented names")
    return out


def shuffled_regions(regions: Mapping[str, Region], seed: int = 0) -> dict[str, Region]:
    """The real regions' names permuted so that no region keeps its own (a derangement).

    Examples
    --------
    >>> r = {c: Region(c, n) for c, n in [("A", "Aa"), ("B", "Bb"), ("C", "Cc")]}
    >>> shown = shuffled_regions(r, seed=2)
    >>> sorted(s.name for s in shown.values()), [c for c in r if shown[c].code == c]
    (['Aa', 'Bb', 'Cc'], [])
    """
    codes = sorted(regions)
    if len(codes) < 2:
        raise ValueError("a shuffle needs two regions")
    rng = random.Random(f"shuffled:{seed}")
    while True:
        perm = list(codes)
        rng.shuffle(perm)
        if all(a != b for a, b in zip(codes, perm, strict=True)):
            return {a: regions[b] for a, b in zip(codes, perm, strict=True)}


def relabelled(mode: str, regions: Mapping[str, Region], seed: int = 0,
               avoid: Mapping[str, Region] | None = None) -> dict[str, Region]:
    """The regions a name counterfactual shows (``imaginary`` or ``shuffled``)."""
    if mode == "imaginary":
        return imaginary_regions(regions, seed, avoid)
    if mode == "shuffled":
        return shuffled_regions(regions, seed)
    raise ValueError(f"not a name counterfactual: {mode!r}")


__all__ = ["NAME_COUNTERFACTUALS", "imaginary_regions", "relabelled", "shuffled_regions"]
