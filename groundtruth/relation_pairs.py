"""Every pair of named features whose relation holds clearly (what questions draw on).

Pure functions over :class:`~groundtruth.named_features.NamedFeature` lists: they
project once to a :class:`~groundtruth.relations.LocalFrame`, find candidate pairs
with a spatial index and keep the pairs for which :mod:`groundtruth.relations` gives a
clear answer. Features flagged ``at_edge`` are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely import STRtree
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from groundtruth import relations as rel
from groundtruth.named_features import NamedFeature


@dataclass(frozen=True)
class TopologicalPair:
    """Two features and their clear topological relation.

    Attributes
    ----------
    a, b : NamedFeature
        ``a`` is the subject: for ``within`` the inner one, for line-area pairs the line.
    relation : str
        ``"equal"``, ``"within"``, ``"intersect"``, ``"border"`` or ``"disjoint"``.
    """

    a: NamedFeature
    b: NamedFeature
    relation: str


@dataclass(frozen=True)
class PointPair:
    """Two small features with their distance and the direction of ``a`` from ``b``.

    Attributes
    ----------
    a, b : NamedFeature
        The two features.
    distance : GroundDistance
        Centre to centre, with the radii.
    orientation : Orientation
        Where ``a`` lies seen from ``b``.
    """

    a: NamedFeature
    b: NamedFeature
    distance: rel.GroundDistance
    orientation: rel.Orientation


def _usable(features: Sequence[NamedFeature], kinds: tuple[str, ...]) -> list[NamedFeature]:
    return [f for f in features if f.kind in kinds and not f.at_edge]


def topological_pairs(
    features: Sequence[NamedFeature], *, include_disjoint: bool = False
) -> list[TopologicalPair]:
    """Clear topological relations between polygons, and between lines and polygons.

    Parameters
    ----------
    features : sequence of NamedFeature
        From :func:`~groundtruth.named_features.load_named_features`.
    include_disjoint : bool, optional
        Also list the ``disjoint`` pairs near each other (within
        ``5 * DISJOINT_MIN_GAP_M``): the clear *no* answers.

    Returns
    -------
    list of TopologicalPair
        Polygon pairs once each (``contains`` turned round into ``within``), then
        line-polygon pairs, in feature order.
    """
    polys = _usable(features, ("polygon",))
    lines = _usable(features, ("line",))
    if not polys:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in polys + lines])
    pm = [frame.to_metric(f.geometry) for f in polys]
    tree = STRtree(pm)
    reach = 5 * rel.DISJOINT_MIN_GAP_M
    out: list[TopologicalPair] = []
    for i, gi in enumerate(pm):
        for j in sorted(int(k) for k in tree.query(gi, predicate="dwithin", distance=reach)):
            if j <= i:
                continue
            r = rel.area_relation(gi, pm[j])
            if r is None or (r == "disjoint" and not include_disjoint):
                continue
            if r == "contains":
                out.append(TopologicalPair(polys[j], polys[i], "within"))
            else:
                out.append(TopologicalPair(polys[i], polys[j], r))
    for line in lines:
        lm: BaseGeometry = frame.to_metric(line.geometry)
        for j in sorted(int(k) for k in tree.query(lm, predicate="dwithin", distance=reach)):
            r = rel.line_area_relation(lm, pm[j])
            if r is None or (r == "disjoint" and not include_disjoint):
                continue
            out.append(TopologicalPair(line, polys[j], r))
    return out


def point_pairs(
    features: Sequence[NamedFeature],
    *,
    scale_bar_m: float,
    max_distance_m: float,
    max_radius_m: float = 30.0,
) -> list[PointPair]:
    """Pairs of small features whose distance or orientation can be asked.

    Parameters
    ----------
    features : sequence of NamedFeature
        Points, and polygons with a radius up to ``max_radius_m``.
    scale_bar_m : float
        The scale bar of the maps the questions will use (for
        :meth:`~groundtruth.relations.GroundDistance.clear`).
    max_distance_m : float
        Longest distance (both features must fit on one map).
    max_radius_m : float, optional
        Largest polygon radius considered.

    Returns
    -------
    list of PointPair
        Ordered pairs ``(a, b)`` at least ``DISTANCE_MIN_SCALE_BARS * scale_bar_m``
        and at most ``max_distance_m`` apart for which the distance, or the
        orientation, is clear.
    """
    cands = _usable(features, ("point", "polygon"))
    if not cands:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in cands])
    centres_rad = [rel.centre_and_radius(f.geometry, frame) for f in cands]
    small = [i for i, c in enumerate(centres_rad) if c[2] <= max_radius_m]
    points = [frame.to_metric(Point(centres_rad[i][1], centres_rad[i][0])) for i in small]
    tree = STRtree(points)
    lo = rel.DISTANCE_MIN_SCALE_BARS * scale_bar_m
    out: list[PointPair] = []
    for si, i in enumerate(small):
        near = tree.query(points[si], predicate="dwithin", distance=max_distance_m)
        for sj in sorted(int(k) for k in near):
            if sj == si or points[si].distance(points[sj]) < 0.9 * lo:
                continue
            j = small[sj]
            o = rel.orientation_between(centres_rad[i], centres_rad[j])
            d = o.distance
            if d.meters > max_distance_m or d.meters < lo:
                continue
            if d.clear(scale_bar_m) or o.clear:
                out.append(PointPair(cands[i], cands[j], d, o))
    return out
