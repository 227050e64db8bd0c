"""MFS: which option labels are also true of the answer (a label hierarchy).

An MFS option is wrong only if its label is false of the feature shown. A distractor
whose label is *true* of the answer makes a second right answer by meaning, whatever
the pictures look like: *place of worship* offered for a christian church's cross
(mfs-0000 of seed 5151), *tower* for a lattice tower, *forest* for a wood. So no
distractor may be **broader** than the answer (a kind it is one of, or a whole its
area is drawn as part of) or a **synonym** of it. The hierarchy has two sources:

* **The style's own refinements** (:func:`style_refinements`, derived, not written
  down): OSM-Carto draws a christian church by a rule whose filter adds
  ``religion=christian`` to the place of worship's ``amenity=place_of_worship``; the
  catalogue keeps each entry's tags as the style's filter selects them
  (:mod:`renderers.mfs.catalogue_specs`), so an entry whose tags are a proper subset
  of another's (same category) is broader than it. This gives every religion under
  *place of worship*, every ``tower:type``/``tower:construction`` under *tower* (and
  *lattice tower*, *lighting tower*, the style's plain communication tower), the
  ``memorial=*`` kinds under *memorial*, the masts under *mast*, fortress and palace
  under *castle*, street-side parking under *parking*, and the optical telescope under
  the style's generic (dish) telescope.
* **Meanings the style cannot show** (:data:`BROADER`, :data:`SYNONYMS`, written by
  hand): kinds under other keys (``man_made=communications_tower`` is a tower,
  ``amenity=fast_food`` a restaurant, ``amenity=pub`` a bar: OSM wiki definitions of
  the tags), parts of a drawn whole (the ``golf=*`` areas lie inside a
  ``leisure=golf_course``, an ``aeroway=apron`` inside an aerodrome, OSM's golf and
  aeroway tagging schemes), the everyday names that cover several tags (*railway*
  for every rail line), and words a reader uses for the same thing (forest and
  wood, cemetery and graveyard, chemist and pharmacy, memorial and monument:
  *monument* was offered for a statue, mfs-0009 of seed 2718). The tests check that
  none of these repeats a style refinement or contradicts one (the narrower label
  never the style's broader entry).

Both are followed transitively, through synonyms. Narrower labels stay allowed: for
the generic place-of-worship symbol, *christian church* is false (the symbol says no
religion). Labels are the catalogue's everyday names (:mod:`renderers.mfs.labels`); the
lists name only labels the catalogue has (checked by the tests), and a label may stand
in any category (symbol, line, area).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Protocol

_COMMS_TOWERS = ("cantilever communication tower", "dish communication tower",
                 "dome communication tower", "lattice communication tower")
_RAILWAYS = ("heritage railway", "narrow-gauge railway", "miniature railway", "light rail",
             "subway line", "funicular", "monorail", "tram line", "disused railway",
             "railway under construction")
_GOLF_PARTS = ("golf rough", "golf bunker", "golf green", "golf tee", "golf fairway",
               "driving range", "golf hole")

#: Label -> labels directly broader than it that the style's tags do not show (see the
#: module docstring for the sources); :func:`broader_labels` follows them, with the
#: style's refinements, transitively.
BROADER: dict[str, tuple[str, ...]] = {
    # another key, the same kind (OSM wiki: man_made=communications_tower is a tower;
    # water towers, masts of a kind)
    **{t: ("communications tower",) for t in _COMMS_TOWERS},
    "communications tower": ("tower",),
    "water tower": ("tower",),
    "religious area": ("place of worship",),
    "motorcycle parking": ("parking",),
    "bicycle parking": ("parking",),
    "parking space": ("car park",),
    "obelisk": ("memorial",),
    "kissing gate": ("gate",),
    "lift gate": ("gate",),
    "city gate": ("gate",),
    "fast food": ("restaurant",),
    "internet cafe": ("cafe",),
    "pub": ("bar",),
    "biergarten": ("bar",),
    "liquor store": ("beverage store",),
    "hi-fi shop": ("electronics shop",),
    "computer shop": ("electronics shop",),
    "mobile phone shop": ("electronics shop",),
    "charity shop": ("second-hand shop",),
    # everyday names covering several tags
    **{r: ("railway",) for r in _RAILWAYS},
    "steps": ("footway",),
    "minor power line": ("power line",),
    "string bog": ("bog",),
    "saltmarsh": ("marsh",),
    "wet meadow": ("meadow",),
    "meadow": ("grassland",),
    "village green": ("grass",),
    "caravan site": ("campsite",),
    "caravan park": ("campsite",),
    "water basin": ("reservoir",),
    # parts of a drawn whole (OSM's golf, aeroway and landuse schemes)
    **{g: ("golf course",) for g in _GOLF_PARTS},
    "airport apron": ("airport",),
    "dog park": ("park",),
    "shopping mall": ("retail area",),
    "factory": ("industrial area",),
    "power plant": ("industrial area",),
    "power generator": ("industrial area",),
    "power substation": ("industrial area",),
    "water works": ("industrial area",),
    "wastewater plant": ("industrial area",),
}

#: Labels a reader may use for the same thing: each is true of the others.
SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"forest", "wood"}),
    frozenset({"cemetery", "graveyard"}),
    frozenset({"chemist", "pharmacy"}),
    frozenset({"fort", "fortress"}),
    frozenset({"memorial", "monument"}),
    frozenset({"lighting tower", "lighting mast"}),
    frozenset({"communications tower", "communications mast"}),
    frozenset({"grass", "grassland"}),
    frozenset({"path", "footway"}),
    frozenset({"ditch", "drain"}),
    frozenset({"music shop", "musical instrument shop"}),
    frozenset({"embassy", "consulate"}),
    frozenset({"lake", "reservoir"}),
)


class _Entry(Protocol):
    """What :func:`style_refinements` reads of a catalogue entry
    (:class:`renderers.mfs.spec.FeatureSpec`)."""

    @property
    def label(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def tags(self) -> tuple[tuple[str, str], ...]: ...


def style_refinements(entries: Iterable[_Entry]) -> frozenset[tuple[str, str]]:
    """``(narrower, broader)`` label pairs the style's own rules make: two entries of a
    category where the broader one's tags are a proper subset of the narrower one's
    (OSM-Carto draws the narrower by a rule adding conditions to the broader's filter).

    Examples
    --------
    >>> from renderers.mfs.spec import FeatureSpec
    >>> pow_ = FeatureSpec("s1", "place of worship", "symbol", "amenity",
    ...                    (("amenity", "place_of_worship"),))
    >>> church = FeatureSpec("s2", "christian church", "symbol", "amenity",
    ...                      (("amenity", "place_of_worship"), ("religion", "christian")))
    >>> sorted(style_refinements([pow_, church]))
    [('christian church', 'place of worship')]
    """
    listed = list(entries)
    return frozenset((n.label, b.label) for n in listed for b in listed
                     if n.category == b.category and n.label != b.label
                     and set(b.tags) < set(n.tags))


@cache
def broader_labels(label: str,
                   refinements: frozenset[tuple[str, str]] = frozenset()) -> frozenset[str]:
    """Every label true of a feature labelled ``label``, itself excluded: broader ones
    (the style's ``refinements``, :func:`style_refinements`, and :data:`BROADER`,
    transitively) and the synonyms (:data:`SYNONYMS`) of it and of each of them.

    Examples
    --------
    >>> sorted(broader_labels("lattice communication tower"))
    ['communications mast', 'communications tower', 'tower']
    >>> refined = frozenset({("lattice communication tower", "lattice tower")})
    >>> sorted(broader_labels("lattice communication tower", refined))
    ['communications mast', 'communications tower', 'lattice tower', 'tower']
    >>> sorted(broader_labels("wood"))
    ['forest']
    >>> sorted(broader_labels("place of worship"))
    []
    """
    up: dict[str, list[str]] = {}
    for narrow, broad in refinements:
        up.setdefault(narrow, []).append(broad)
    seen: set[str] = set()
    todo = [label]
    while todo:
        current = todo.pop()
        nxt = list(BROADER.get(current, ())) + up.get(current, [])
        nxt += [s for group in SYNONYMS if current in group for s in group]
        for other in nxt:
            if other not in seen and other != label:
                seen.add(other)
                todo.append(other)
    return frozenset(seen)


def true_of(label: str, answer: str,
            refinements: frozenset[tuple[str, str]] = frozenset()) -> bool:
    """Whether an option labelled ``label`` is also a right answer for a feature
    labelled ``answer`` (the same label, a synonym, or a broader one; ``refinements``:
    the style's, :func:`style_refinements`).

    Examples
    --------
    >>> refined = frozenset({("christian church", "place of worship")})
    >>> true_of("place of worship", "christian church", refined)
    True
    >>> true_of("christian church", "place of worship", refined)  # narrower: false of it
    False
    >>> true_of("mosque", "christian church", refined)
    False
    >>> true_of("tower", "water tower")   # another key: by hand (BROADER)
    True
    """
    return label == answer or label in broader_labels(answer, refinements)


def labels_named(labels: Iterable[str] | None = None) -> set[str]:
    """Every label :data:`BROADER` and :data:`SYNONYMS` name (to check them against the
    catalogue); with ``labels``, those of them not among ``labels``.

    Examples
    --------
    >>> "tower" in labels_named()
    True
    >>> labels_named(labels_named())
    set()
    """
    named = set(BROADER) | {b for bs in BROADER.values() for b in bs}
    named |= {s for group in SYNONYMS for s in group}
    if labels is None:
        return named
    return named - set(labels)
