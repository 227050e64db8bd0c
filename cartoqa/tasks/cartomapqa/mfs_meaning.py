"""MFS: which option labels are also true of the answer (a label hierarchy).

An MFS option is wrong only if its label is false of the feature shown. A distractor
whose label is *true* of the answer makes a second right answer by meaning, whatever
the pictures look like: *place of worship* offered for a christian church's cross
(mfs-0000 of seed 5151), *tower* for a lattice tower, *forest* for a wood. So no
distractor may be:

* **broader** than the answer: a kind the answer is one of (a christian church is a
  place of worship, a lattice communication tower a communications tower and a
  tower), or a whole the answer's area is drawn as part of (a golf green lies in a
  golf course, an apron in an airport): :data:`BROADER`, followed transitively;
* a **synonym** of it, a word a reader may use for the same thing (forest and wood,
  cemetery and graveyard, chemist and pharmacy, memorial and monument: *monument* was
  offered for a statue, mfs-0009 of seed 2718): :data:`SYNONYMS`.

Narrower labels stay allowed: for the generic place-of-worship symbol, *christian
church* is false (the symbol says no religion). Labels are the catalogue's everyday
names (:mod:`renderers.mfs.labels`); the lists name only labels the catalogue has
(checked by the tests), and a label may stand in any category (symbol, line, area).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

_TOWERS = ("communications tower", "cantilever communication tower", "cooling tower",
           "defensive tower", "dish communication tower", "dome communication tower",
           "lattice tower", "lattice communication tower", "lattice lighting tower",
           "lighting tower", "observation tower", "water tower", "bell tower")
_WORSHIP = ("buddhist temple", "christian church", "hindu temple", "synagogue", "mosque",
            "shinto shrine", "sikh gurdwara", "taoist temple")
_RAILWAYS = ("heritage railway", "narrow-gauge railway", "miniature railway", "light rail",
             "subway line", "funicular", "monorail", "tram line", "disused railway",
             "railway under construction")
_GOLF_PARTS = ("golf rough", "golf bunker", "golf green", "golf tee", "golf fairway",
               "driving range", "golf hole")

#: Label -> labels directly broader than it (a kind it is one of, or the whole its
#: area is part of); :func:`broader_labels` follows them transitively.
BROADER: dict[str, tuple[str, ...]] = {
    **{t: ("tower",) for t in _TOWERS},
    "cantilever communication tower": ("communications tower", "tower"),
    "dish communication tower": ("communications tower", "tower"),
    "dome communication tower": ("communications tower", "tower"),
    "lattice communication tower": ("communications tower", "lattice tower"),
    "lattice lighting tower": ("lighting tower", "lattice tower"),
    "communications mast": ("mast",),
    "lighting mast": ("mast",),
    **{w: ("place of worship",) for w in _WORSHIP},
    "religious area": ("place of worship",),
    "street-side parking": ("parking",),
    "motorcycle parking": ("parking",),
    "bicycle parking": ("parking",),
    "parking space": ("car park",),
    "memorial stone": ("memorial",),
    "blue plaque": ("memorial",),
    "statue": ("memorial",),
    "bust": ("memorial",),
    "obelisk": ("memorial",),
    "fortress": ("castle",),
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
    **{r: ("railway",) for r in _RAILWAYS},
    "steps": ("footway",),
    "minor power line": ("power line",),
    "string bog": ("bog",),
    "saltmarsh": ("marsh",),
    "wet meadow": ("meadow",),
    "meadow": ("grassland",),
    "village green": ("grass",),
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
    "caravan site": ("campsite",),
    "caravan park": ("campsite",),
    "water basin": ("reservoir",),
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


@cache
def broader_labels(label: str) -> frozenset[str]:
    """Every label true of a feature labelled ``label``, itself excluded: broader ones
    (:data:`BROADER`, transitively) and the synonyms (:data:`SYNONYMS`) of it and of
    each of them.

    Examples
    --------
    >>> sorted(broader_labels("lattice lighting tower"))
    ['lattice tower', 'lighting mast', 'lighting tower', 'mast', 'tower']
    >>> sorted(broader_labels("wood"))
    ['forest']
    >>> sorted(broader_labels("place of worship"))
    []
    """
    seen: set[str] = set()
    todo = [label]
    while todo:
        current = todo.pop()
        nxt = list(BROADER.get(current, ()))
        nxt += [s for group in SYNONYMS if current in group for s in group]
        for other in nxt:
            if other not in seen and other != label:
                seen.add(other)
                todo.append(other)
    return frozenset(seen)


def true_of(label: str, answer: str) -> bool:
    """Whether an option labelled ``label`` is also a right answer for a feature
    labelled ``answer`` (the same label, a synonym, or a broader one).

    Examples
    --------
    >>> true_of("place of worship", "christian church")
    True
    >>> true_of("christian church", "place of worship")   # narrower: false of it
    False
    >>> true_of("mosque", "christian church")
    False
    """
    return label == answer or label in broader_labels(answer)


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
