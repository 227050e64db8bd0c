"""What the analysis of a view decides: one sighting per data feature, per type."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """

    feature: Feature
    px: tuple[float, float]
    drawn: bool
    name_legible: bool
    edge: bool
    label_cut: bool
    score: float
    icon_px: tuple[float, float] | None = None


@dataclass
class ViewFeatures:
    """What a view shows of every catalogue type.

    Attributes
    ----------
    by_type : dict
        Type name -> sightings of the type's data features in (or near) the view.
    orphans : dict
        Type name -> icon detections no data feature explains.
    """

    by_type: dict[str, list[Sighting]] = field(default_factory=dict)
    orphans: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def drawn(self, feature_type: str) -> list[Sighting]:
        """Sightings of the type that the rendering shows (fully on screen)."""
        return [s for s in self.by_type.get(feature_type, []) if s.drawn and not s.edge]

    def count(self, feature_type: str) -> int:
        """How many features of the type a reader sees."""
        return len(self.drawn(feature_type))

    def names(self, feature_type: str) -> list[str]:
        """Legible names of the type, one per drawn feature, sorted (repeats kept).

        Five bus stops each labelled *Hakaniemi* give *Hakaniemi* five times, so the
        names plus :meth:`unnamed` make the count, and scoring matches names as
        multisets (docs/scoring.md, *Names as multisets*).
        """
        return sorted(s.feature.name for s in self.drawn(feature_type)
                      if s.name_legible and s.feature.name)

    def unnamed(self, feature_type: str) -> int:
        """Drawn features of the type whose name a reader cannot read."""
        return sum(1 for s in self.drawn(feature_type)
                   if not (s.name_legible and s.feature.name))

    def in_data(self, feature_type: str) -> int:
        """Features of the type in or near the view in the data (drawn or not)."""
        return len(self.by_type.get(feature_type, []))

    def ambiguous(self, feature_type: str, *, names: bool = False) -> bool:
        """Whether a reader might see something the answer does not count.

        True when a feature of the type lies on an edge of the view (partly drawn),
        or an icon of the type is seen that no feature explains; with ``names``, also
        when a drawn feature's label runs over an edge.
        """
        if self.orphans.get(feature_type):
            return True
        sightings = self.by_type.get(feature_type, [])
        if any(s.edge for s in sightings):
            return True
        return names and any(s.label_cut and s.drawn for s in sightings)
