"""What the analysis of a view decides: one sighting per data feature, per type."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from groundtruth.features import Feature


@dataclass(frozen=True)
class Sighting:
    """One data feature in a view and what the rendering shows of it.

    Attributes
    ----------
    feature : groundtruth.features.Feature
        The feature.
    px : tuple of float
        Its anchor in view pixels.
    drawn : bool
        Whether the rendering shows it.
    name_legible : bool
        Whether its name is written on the map (False for unnamed features).
    edge : bool
        Whether it lies so close to an edge that a reader may see part of it.
    label_cut : bool
        Whether its label would run over an edge of the view (partly readable).
    icon_px : tuple of float or None
        Where its icon was found (symbols only).
    score : float
        Evidence for ``drawn`` (icon IoU, line coverage or area pixels).
    clear : bool
        For an icon: whether its match is clear of the threshold and of every other
        type's match at that spot (:func:`cartoqa.visibility.icons.icon_is_clear`);
        an unclear icon makes its type ambiguous.
    """

    feature: Feature
    px: tuple[float, float]
    drawn: bool
    name_legible: bool
    edge: bool
    label_cut: bool
    score: float
    icon_px: tuple[float, float] | None = None
    clear: bool = True


#: Pieces of a line or area type this close (metres) are one thing to a reader: an
#: unnamed stub touching a named road is part of it, parks touching are one green area.
JOIN_DISTANCE_M = 3.0
_M_PER_DEG = 111_320.0


def _metres(geom: BaseGeometry, lat0: float) -> BaseGeometry:
    """``(lon, lat)`` geometry scaled to local metres (equirectangular at ``lat0``)."""
    k = math.cos(math.radians(lat0)) * _M_PER_DEG
    return shapely.transform(geom, lambda xy: xy * np.array([k, _M_PER_DEG]))


def reader_groups(sightings: Sequence[Sighting], kind: str) -> list[list[Sighting]]:
    """The drawn pieces of one line or area type grouped as a reader counts them.

    Lines (roads, streams) with the same name are one already (one feature per name);
    an unnamed piece within :data:`JOIN_DISTANCE_M` of a named one is part of the first
    such (a stub, a link), and unnamed pieces touching each other are one. Areas (parks)
    within :data:`JOIN_DISTANCE_M` of each other (touching or overlapping) are one
    visually separate area.

    Examples
    --------
    >>> from shapely.geometry import LineString, box
    >>> from groundtruth.features import Feature
    >>> def piece(name, geom):
    ...     f = Feature("primary road", "line", name, ("way/1",), 0.0, 0.0, geom)
    ...     return Sighting(f, (0.0, 0.0), True, False, False, False, 1.0)
    >>> road = piece("A", LineString([(0, 0), (0.001, 0)]))
    >>> stub = piece(None, LineString([(0.001, 0), (0.001, 0.0005)]))
    >>> far = piece(None, LineString([(0.003, 0), (0.004, 0)]))
    >>> [len(g) for g in reader_groups([road, stub, far], "line")]
    [2, 1]
    >>> a = piece("P", box(0, 0, 0.001, 0.001)); b = piece("Q", box(0.001, 0, 0.002, 0.001))
    >>> [len(g) for g in reader_groups([a, b], "area")]
    [2]
    """
    if not sightings:
        return []
    lat0 = sightings[0].feature.lat
    geoms = [_metres(s.feature.geometry, lat0) for s in sightings]
    parent = list(range(len(sightings)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def near(i: int, j: int) -> bool:
        return bool(geoms[i].distance(geoms[j]) <= JOIN_DISTANCE_M)

    n = len(sightings)
    if kind == "area":
        for i in range(n):
            for j in range(i + 1, n):
                if near(i, j):
                    parent[find(j)] = find(i)
    else:
        named = [i for i in range(n) if sightings[i].feature.name]
        for i in range(n):
            if sightings[i].feature.name:
                continue
            host = next((j for j in named if near(i, j)), None)
            if host is not None:
                parent[find(i)] = find(host)
                continue
            for j in range(n):
                if j != i and not sightings[j].feature.name and near(i, j):
                    parent[find(i)] = find(j)
    groups: dict[int, list[Sighting]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(sightings[i])
    return list(groups.values())


@dataclass
class ViewFeatures:
    """What a view shows of every catalogue type.

    Attributes
    ----------
    by_type : dict
        Type name -> sightings of the type's data features in (or near) the view.
    orphans : dict
        Type name -> icon detections no data feature explains.
    kinds : dict
        Type name -> ``"symbol"``, ``"line"`` or ``"area"`` (lines and areas are
        counted as a reader groups them, :func:`reader_groups`).
    """

    by_type: dict[str, list[Sighting]] = field(default_factory=dict)
    orphans: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)

    def drawn(self, feature_type: str) -> list[Sighting]:
        """Sightings of the type that the rendering shows (fully on screen)."""
        return [s for s in self.by_type.get(feature_type, []) if s.drawn and not s.edge]

    def count(self, feature_type: str) -> int:
        """How many features of the type a reader sees.

        Icons one by one; lines and areas as a reader groups their pieces
        (:func:`reader_groups`: a named road with its unnamed stubs is one road, parks
        that touch are one).
        """
        drawn = self.drawn(feature_type)
        kind = self.kinds.get(feature_type, "symbol")
        if kind == "symbol":
            return len(drawn)
        return len(reader_groups(drawn, kind))

    def names(self, feature_type: str) -> list[str]:
        """Legible names of the type, one per drawn feature, sorted (repeats kept).

        Five bus stops each labelled *Hakaniemi* give *Hakaniemi* five times, so the
        names plus :meth:`unnamed` make the count, and scoring matches names as
        multisets (docs/scoring.md, *Names as multisets*).
        """
        return sorted(s.feature.name for s in self.drawn(feature_type)
                      if s.name_legible and s.feature.name)

    def written_names(self) -> list[str]:
        """Every name the map writes legibly, of any type, sorted and unique.

        What a reader can read on the map whatever the question asks about (drawn
        features, on an edge or not, whose name is legible). An item records it as
        ``provenance.map_names`` so that the answer reader can tell ``A & B`` (two names
        the map writes) from ``Day & Nite Sushi Bar`` (one); never the answer.

        Examples
        --------
        >>> from groundtruth.features import Feature
        >>> def seen(name, legible=True, drawn=True):
        ...     f = Feature("restaurant", "symbol", name, ("node/1",), 0.0, 0.0, None)
        ...     return Sighting(f, (0.0, 0.0), drawn, legible, False, False, 1.0)
        >>> ViewFeatures({"restaurant": [seen("Hiisi"), seen("Kuu", legible=False)],
        ...               "bank": [seen("Nordea"), seen("Hiisi"), seen("X", drawn=False)]}
        ...              ).written_names()
        ['Hiisi', 'Nordea']
        """
        return sorted({s.feature.name for sightings in self.by_type.values() for s in sightings
                       if s.drawn and s.name_legible and s.feature.name})

    def unnamed(self, feature_type: str) -> int:
        """Drawn features of the type whose name a reader cannot read."""
        return sum(1 for s in self.drawn(feature_type)
                   if not (s.name_legible and s.feature.name))

    def in_data(self, feature_type: str) -> int:
        """Features of the type in or near the view in the data (drawn or not)."""
        return len(self.by_type.get(feature_type, []))

    def unlabelled_line_meets_another(self, feature_type: str) -> bool:
        """Whether a drawn road or stream whose name the map does not write meets another.

        A primary road whose name is not written in the view (``name_legible`` False,
        named in the data or not) that touches another drawn road of the type (within
        :data:`JOIN_DISTANCE_M`) may be read as that road's continuation or as a road
        of its own: a reader may count it either way (Lönnrotinkatu, unlabelled, going on
        from Pohjoisesplanadi across Mannerheimintie). Lines and areas only; judge it
        after the line names were decided (``written_line_names``).

        Examples
        --------
        >>> from shapely.geometry import LineString
        >>> from groundtruth.features import Feature
        >>> def piece(name, geom, legible):
        ...     f = Feature("primary road", "line", name, ("way/1",), 0.0, 0.0, geom)
        ...     return Sighting(f, (0.0, 0.0), True, legible, False, False, 1.0)
        >>> a = piece("A", LineString([(0, 0), (0.001, 0)]), True)
        >>> b = piece("B", LineString([(0.001, 0), (0.002, 0.0005)]), False)
        >>> far = piece("C", LineString([(0.004, 0), (0.005, 0)]), False)
        >>> vf = ViewFeatures({"primary road": [a, b]}, kinds={"primary road": "line"})
        >>> vf.unlabelled_line_meets_another("primary road")
        True
        >>> vf.by_type["primary road"] = [a, far]
        >>> vf.unlabelled_line_meets_another("primary road")
        False
        """
        kind = self.kinds.get(feature_type, "symbol")
        if kind != "line":
            return False
        groups = reader_groups(self.drawn(feature_type), kind)
        if len(groups) < 2:
            return False
        lat0 = groups[0][0].feature.lat
        shapes = [shapely.union_all([_metres(s.feature.geometry, lat0) for s in g])
                  for g in groups]
        for i, group in enumerate(groups):
            if any(s.name_legible and s.feature.name for s in group):
                continue
            if any(shapes[i].distance(shapes[j]) <= JOIN_DISTANCE_M
                   for j in range(len(groups)) if j != i):
                return True
        return False

    def ambiguous(self, feature_type: str, *, names: bool = False) -> bool:
        """Whether a reader might see something the answer does not count.

        True when a feature of the type lies on an edge of the view (partly drawn),
        an icon of the type is seen that no feature explains, or a drawn icon's match
        is not clear (near the threshold or near another type's); with ``names``, also
        when a drawn feature's label runs over an edge.
        """
        if self.orphans.get(feature_type):
            return True
        sightings = self.by_type.get(feature_type, [])
        if any(s.edge for s in sightings):
            return True
        if any(s.drawn and not s.clear for s in sightings):
            return True
        return names and any(s.label_cut and s.drawn for s in sightings)
