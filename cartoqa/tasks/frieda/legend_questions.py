"""FRIEDA questions whose answer needs the map's legend (pure): counts, categories, and
distances or directions to the place a legend category picks out.

FRIEDA's maps are thematic and 83% of its questions need the legend. Here a map draws
the areas of one :data:`groundtruth.legend_areas.FAMILIES` family (land use, building
use) as hatched fills named in a legend box (:mod:`renderers.legend_layer`), and the
question can only be answered by matching a fill to its legend entry:

* ``within`` / ``category_count``: how many of three dots lie within an area shown as
  <category> (0-3, balanced);
* ``within`` / ``category_of``: within an area of which category does X lie (the answer
  is the legend's words); on two maps, X is drawn alone on map 1 and the layer on map 2
  (same place, another zoom and turn): the reader finds X's spot on map 2 by the streets;
* ``distance`` / ``orientation`` ``legend_pick``: of three dots, one lies within an area
  shown as <category>: how far is it from X, in which direction from X; on two maps, X
  and an anchor on map 1, the anchor and the three dots over the layer on map 2.

Ground truth from the same geometries the map draws
(:func:`groundtruth.legend_areas.point_categories`: 8 m inside, 20 m clear); after
rendering the ring of pixels around each checked spot must show (or not show) its
category (:func:`cartoqa.tasks.frieda.maps.categories_seen`), and the legend lists only
categories whose fill is on the image (:func:`cartoqa.tasks.frieda.maps.categories_in_view`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from cartoqa.tasks.frieda.questions import (
    _DIRECTIONS_TEXT,
    ANCHOR_RANGE_M,
    LEGEND_DOT_GAP_M,
    LEGEND_DRAW_RADIUS_M,
    MAX_LEGEND_CATEGORIES,
    RANK_MIN_RATIO,
    SCALE_UNITS,
    UNLABELLED_STYLES,
    MapPlan,
    PairLedger,
    QuestionPlan,
    _answer_at,
    fits_zoom17,
    uniquely_named,
)
from groundtruth import relations as rel
from groundtruth.legend_areas import FAMILIES, CategoryArea, point_categories
from groundtruth.named_features import NamedFeature

#: ``category_of``: the legend names at least this many categories (a guess among them
#: is right at most a third of the time).
MIN_LEGEND_CHOICES = 3
#: Dots of one legend question lie within this distance of each other, metres (at
#: zoom 17 and above the ring around a dot is a few metres wide, so the 8 m margins of
#: the ground truth show on the pixels).
LEGEND_SPREAD_M = 320.0
#: ``legend_pick`` (orientation): the answer's distance from X lies in this window, metres.
PICK_DISTANCE_M: tuple[float, float] = (150.0, 320.0)
#: ``legend_pick`` (distance): the distance asked lies in one of these windows, metres,
#: taken in turn (the least given first). Frieda27e's single window (150-320 m) let one
#: learned distance score 80% within the 20% tolerance (issue 29's table); over 60-480 m
#: a fixed guess covers about one window of four.
PICK_DISTANCE_BINS: tuple[tuple[float, float], ...] = (
    (60.0, 100.0), (100.0, 170.0), (170.0, 290.0), (290.0, 480.0))
#: ``legend_pick`` (distance): on one map every dot lies at most this far from X, metres
#: (the map shows them all at zoom 17 or 16); on two maps X is on map 1 only.
PICK_MAP_SPAN_M = 520.0
#: ``category_count``: a count may run ahead of the least given one by at most this many
#: questions (a count the extract rarely allows then holds the others back).
COUNT_SLACK = 2
#: Styles of map 1 of a two-map legend question whose answer is the category of what map 1
#: draws (``category_of``, ``area_count``, ``area_category``): label-free, and not
#: ``print``, whose own land-use fills and legend ("Public and education", ...) would
#: tell the category on map 1 (seen in frieda27e's build, ``equal-0006``).
FIRST_MAP_STYLES: tuple[str, ...] = tuple(s for s in UNLABELLED_STYLES if s != "print")
#: Turns of the maps (north clockwise from the top, degrees).
TURNS: tuple[float, ...] = (0.0, 30.0, 75.0, 120.0, 160.0, 210.0, 250.0, 300.0, 330.0)


@dataclass
class FamilyIndex:
    """The legend areas of one family and each point's status per category."""

    family: str
    areas: list[CategoryArea]
    metric: list[BaseGeometry]
    categories: list[str]
    #: point index -> category -> True (within), False (clearly outside), None
    status: list[dict[str, bool | None]]
    #: category -> points within it, and points clearly outside it
    within: dict[str, list[int]] = field(default_factory=dict)
    outside: dict[str, np.ndarray] = field(default_factory=dict)
    #: point index -> whether it lies clearly within no category (``not inside(i)``)
    bare: list[bool] = field(default_factory=list)
    #: category -> its areas merged as a map shows them (:func:`category_components`),
    #: made on first use
    components: dict[str, list[BaseGeometry]] | None = None

    def __post_init__(self) -> None:
        for c in self.categories:
            self.within[c] = [i for i, s in enumerate(self.status) if s[c] is True]
            self.outside[c] = np.array([s[c] is False for s in self.status], dtype=bool)
        self.bare = [not self.inside(i) for i in range(len(self.status))]

    def inside(self, i: int) -> list[str]:
        """The categories point ``i`` lies clearly within."""
        return [c for c, v in self.status[i].items() if v is True]


@dataclass
class LegendIndex:
    """Named points (unique names, none at the edge) and their legend status per family."""

    points: list[NamedFeature]
    frame: rel.LocalFrame
    xy: list[BaseGeometry]
    centres: list[tuple[float, float, float]]
    families: dict[str, FamilyIndex]
    #: ``(n, 2)`` metric coordinates of the points
    coords: np.ndarray
    #: the points' keys (``points[i].key``)
    keys: list[str] = field(default_factory=list)
    _dists: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.keys = [p.key for p in self.points]

    def dist(self, i: int, j: int) -> float:
        """Metres between points ``i`` and ``j`` (in the local frame)."""
        return float(np.hypot(*(self.coords[i] - self.coords[j])))

    def dists(self, i: int) -> np.ndarray:
        """Metres from point ``i`` to every point (cached: planning asks again and again;
        do not write into it)."""
        got = self._dists.get(i)
        if got is None:
            got = self._dists[i] = np.hypot(*(self.coords - self.coords[i]).T)
        return got


def legend_index(features: Sequence[NamedFeature], areas: Sequence[CategoryArea]
                 ) -> LegendIndex | None:
    """The points that legend questions draw and their status in every category.

    Parameters
    ----------
    features : sequence of NamedFeature
        The extract's named features.
    areas : sequence of CategoryArea
        The extract's legend areas.

    Returns
    -------
    LegendIndex or None
        ``None`` when there are fewer than four usable points or no areas.
    """
    points = uniquely_named(features, "point")
    if len(points) < 4 or not areas:
        return None
    frame = rel.LocalFrame.around([f.geometry for f in points])
    xy = [frame.to_metric(f.geometry) for f in points]
    centres = [rel.centre_and_radius(f.geometry, frame) for f in points]
    families: dict[str, FamilyIndex] = {}
    for family in FAMILIES:
        fam = [a for a in areas if a.family == family]
        if not fam:
            continue
        metric = [frame.to_metric(a.geometry) for a in fam]
        cats = sorted({a.category for a in fam})
        tree = shapely.STRtree(metric)
        status = [point_categories(p, cats, fam, metric, tree) for p in xy]
        families[family] = FamilyIndex(family, fam, metric, cats, status)
    coords = np.array([(p.x, p.y) for p in xy], dtype=float)
    return LegendIndex(points, frame, xy, centres, families, coords)


def legend_layer(index: LegendIndex, fam: FamilyIndex, around: Sequence[int],
                 category: str) -> tuple[tuple[str, tuple[BaseGeometry, ...]], ...]:
    """The categories a map draws around some points: the asked one and the nearest
    others (at most :data:`~cartoqa.tasks.frieda.questions.MAX_LEGEND_CATEGORIES`), in
    alphabetical legend order, each with its ``(lon, lat)`` areas."""
    centre = shapely.union_all([index.xy[i] for i in around]).centroid
    return _layer_around(fam, centre, category)


def _intro(family: str, second: bool = False) -> str:
    where = "Map 2" if second else "The map"
    return (f"{where} shades areas by {family}: its legend box at the bottom right names "
            "each fill.")


def _dots(feats: Sequence[NamedFeature], colours: Sequence[str]) -> str:
    parts = [f"{f.name} ({c} dot)" for f, c in zip(feats, colours, strict=True)]
    return ", ".join(parts[:-1]) + f" and {parts[-1]}"


def _decoys(index: LegendIndex, fam: FamilyIndex, category: str, near: int, k: int,
            ledger: PairLedger, subject: str, rng: random.Random,
            exclude: Sequence[int] = ()) -> list[int] | None:
    """``k`` points clearly outside ``category`` near point ``near`` (inside another
    category first), apart from each other and from ``exclude``."""
    if k == 0:
        return []
    d = index.dists(near)
    ok = fam.outside[category] & (d >= LEGEND_DOT_GAP_M) & (d <= LEGEND_SPREAD_M)
    taken, keys = ledger.taken_with(subject), index.keys
    pool = [i for i in np.flatnonzero(ok).tolist() if i not in exclude
            and keys[i] not in taken]
    rng.shuffle(pool)
    pool.sort(key=fam.bare.__getitem__)
    out: list[int] = []
    for i in pool:
        if all(index.dist(i, j) >= LEGEND_DOT_GAP_M for j in (*out, *exclude)):
            out.append(i)
            if len(out) == k:
                return out
    return None


def category_count_plans(index: LegendIndex, *, rng: random.Random, count: int,
                         ledger: PairLedger) -> list[QuestionPlan]:
    """``within`` / ``category_count``: how many of three dots lie within <category>?

    The counts run 0 to 3, each time the one least given so far (a fixed guess stays
    near a quarter); the dots outside the category lie clearly outside every area of
    it, inside another category first.

    Parameters
    ----------
    index : LegendIndex
        Points and their legend status.
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated).

    Returns
    -------
    list of QuestionPlan
    """
    plans: list[QuestionPlan] = []
    given = dict.fromkeys(range(4), 0)
    for _ in range(count * 20):
        if len(plans) >= count:
            break
        fam = index.families[rng.choice(sorted(index.families))]
        category = rng.choice(fam.categories)
        subject = f"legend_count:{fam.family}:{category}"
        inside = [i for i in fam.within[category] if ledger.free(subject, index.points[i].key)]
        if not inside:
            continue
        got = None
        # the count least given so far that this category allows
        low = min(given.values())
        for n in sorted((k for k in given if given[k] <= low + COUNT_SLACK),
                        key=lambda k: (given[k], rng.random())):
            got = _count_dots(index, fam, category, inside, n, ledger, subject, rng)
            if got is not None:
                break
        if got is None:
            continue
        picks, outs = got
        n = len(picks)
        dots = [*picks, *outs]
        rng.shuffle(dots)
        key = f"{subject}:" + "+".join(sorted(index.points[i].key for i in dots))
        if ("within", key) in ledger.subjects:
            continue
        ledger.take("within", subject, [index.points[i].key for i in dots])
        ledger.subjects.add(("within", key))
        given[n] += 1
        feats = tuple(index.points[i] for i in dots)
        layer = legend_layer(index, fam, dots, category)
        ci = [c for c, _ in layer].index(category)
        checks = tuple((k, ci, dots[k] in picks) for k in range(3))
        colours = ("blue", "purple", "orange")
        ask = (f"{_intro(fam.family)} How many of {_dots(feats, colours)} lie within an "
               f"area shown as {category}? Answer with a number.")
        plans.append(QuestionPlan(
            "within", ask, {"type": "count", "count": n},
            (MapPlan(feats, tuple(f.name for f in feats), style=rng.choice(UNLABELLED_STYLES),
                     colors=colours, categories=layer, category_checks=checks),),
            {"subject": key, "template": "category_count", "answer_type": "count",
             "family": fam.family, "category": category, "legend": [c for c, _ in layer],
             "inside": {index.points[i].key: i in picks for i in dots}},
            contextual=(f"Find the map that shades areas by {fam.family} and draws "
                        f"{_dots(feats, colours)}. How many of them lie within an area "
                        f"shown as {category}? Answer with a number."),
        ))
    return plans


def _count_dots(index: LegendIndex, fam: FamilyIndex, category: str, inside: Sequence[int],
                n: int, ledger: PairLedger, subject: str, rng: random.Random
                ) -> tuple[list[int], list[int]] | None:
    """``n`` dots within ``category`` and ``3 - n`` clearly outside it, near each other."""
    first = rng.choice(inside)
    picks = [first] if n else []
    for i in rng.sample(list(inside), len(inside)):
        if len(picks) >= n:
            break
        if i not in picks and all(LEGEND_DOT_GAP_M <= index.dist(i, j) <= LEGEND_SPREAD_M
                                  for j in picks):
            picks.append(i)
    if len(picks) < n:
        return None
    # with no dot inside, the three sit near an area of the category (it is drawn)
    outs = _decoys(index, fam, category, first, 3 - n, ledger, subject, rng, exclude=picks)
    if outs is None or len(picks) + len(outs) != 3:
        return None
    return picks, outs


def category_of_plans(index: LegendIndex, *, rng: random.Random, count: int,
                      ledger: PairLedger, multi: bool) -> list[QuestionPlan]:
    """``within`` / ``category_of``: within an area of which category does X lie?

    X lies clearly within one category and clearly outside every other category its
    legend names (at least :data:`MIN_LEGEND_CHOICES`); the categories come in turn so
    that no fixed guess does well. With ``multi``, map 1 draws X alone (red dot, no
    layer) and map 2 the layer over the same place at another zoom and turn, X not
    drawn: the reader aligns the maps by the streets.

    Parameters
    ----------
    index : LegendIndex
        Points and their legend status.
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated).
    multi : bool
        Two maps.

    Returns
    -------
    list of QuestionPlan
    """
    queues: dict[tuple[str, str], list[int]] = {}
    for fam in index.families.values():
        for c in fam.categories:
            q = list(fam.within[c])
            rng.shuffle(q)
            queues[(fam.family, c)] = q
    plans: list[QuestionPlan] = []
    while len(plans) < count and any(queues.values()):
        for (family, category), q in sorted(queues.items()):
            if not q or len(plans) >= count:
                continue
            i = q.pop()
            fam = index.families[family]
            x = index.points[i]
            if ("within", f"legend_of:{x.key}") in ledger.subjects:
                continue
            layer = legend_layer(index, fam, [i], category)
            legend = [c for c, _ in layer]
            if len(legend) < MIN_LEGEND_CHOICES or any(
                    fam.status[i][c] is not False for c in legend if c != category):
                continue
            ledger.take("within", f"legend_of:{x.key}", [f"category:{category}"])
            checks = tuple((0, k, c == category) for k, c in enumerate(legend))
            fmt = "Answer with the category's name as the legend writes it."
            maps: tuple[MapPlan, ...]
            if multi:
                maps = (MapPlan((x,), (x.name,), angle_deg=rng.choice(TURNS),
                                style=rng.choice(FIRST_MAP_STYLES)),
                        MapPlan((), (), angle_deg=rng.choice(TURNS), context=(x,),
                                style=rng.choice(UNLABELLED_STYLES), categories=layer,
                                category_checks=checks, min_legend=MIN_LEGEND_CHOICES,
                                wider_for_legend=True))
                ask = (f"Map 1 draws {x.name} as a red dot. {_intro(family, True)} It shows "
                       "the same place (its scale, turn and style may differ) without the "
                       f"dot. Within an area of which category does {x.name} lie? {fmt}")
                ctx = (f"One of the maps draws {x.name} alone as a red dot; another shows "
                       f"the same place shaded by {family}, with a legend box naming each "
                       f"fill. Within an area of which category does {x.name} lie? {fmt}")
            else:
                maps = (MapPlan((x,), (x.name,), style=rng.choice(UNLABELLED_STYLES),
                                categories=layer, category_checks=checks,
                                min_legend=MIN_LEGEND_CHOICES, wider_for_legend=True),)
                ask = (f"{_intro(family)} Within an area of which category does {x.name} "
                       f"(red dot) lie? {fmt}")
                ctx = (f"Find the map that draws {x.name} as a red dot over areas shaded "
                       f"by {family}. Within an area of which category does it lie? {fmt}")
            plans.append(QuestionPlan(
                "within", ask, {"type": "textual", "names": [category]}, maps,
                {"subject": f"legend_of:{x.key}", "template": "category_of",
                 "answer_type": "text", "family": family, "category": category,
                 "legend": legend}, contextual=ctx))
    return plans


def _sector(bearing: float) -> int:
    return int(((bearing % 360.0) + 22.5) // 45.0) % 8


def _pick_ok(relation: str, index: LegendIndex, x: int, answer: int,
             decoys: Sequence[int], window: tuple[float, float] = PICK_DISTANCE_M
             ) -> rel.Orientation | None:
    """The answer's orientation from X when picking a decoy instead would be wrong (and
    its distance within ``window``)."""
    o = rel.orientation_between(index.centres[answer], index.centres[x])
    lo, hi = window
    if not lo <= o.distance.meters <= hi:
        return None
    if relation == "orientation":
        if not o.clear:
            return None
        for d in decoys:
            od = rel.orientation_between(index.centres[d], index.centres[x])
            gap = abs(_sector(od.bearing_deg) - _sector(o.bearing_deg)) % 8
            if min(gap, 8 - gap) < 2:  # a neighbouring direction scores as correct
                return None
    else:
        for d in decoys:
            dd = rel.distance_between(index.centres[d], index.centres[x]).meters
            ratio = max(dd, o.distance.meters) / max(min(dd, o.distance.meters), 1e-9)
            if ratio < RANK_MIN_RATIO:
                return None
    return o


def legend_pick_plans(index: LegendIndex, relation: str, *, rng: random.Random, count: int,
                      ledger: PairLedger, multi: bool) -> list[QuestionPlan]:
    """``distance`` / ``orientation`` ``legend_pick``: of three dots, one lies within an
    area shown as <category>: how far is it from X (in which direction from X)?

    Picking a decoy instead gives a wrong answer (distances differ by at least
    :data:`~cartoqa.tasks.frieda.questions.RANK_MIN_RATIO`; directions by two sectors
    or more, since a neighbouring direction scores as correct). With ``multi``, map 1
    draws X (red) and an anchor (orange), map 2 the anchor and the three dots (blue,
    purple, cyan) over the layer, each at its own zoom and turn.

    Parameters
    ----------
    index : LegendIndex
        Points and their legend status.
    relation : str
        ``"distance"`` or ``"orientation"``.
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated): no pair of dots twice.
    multi : bool
        Two maps.

    Returns
    -------
    list of QuestionPlan
    """
    plans: list[QuestionPlan] = []
    families = sorted(index.families)
    n = len(index.points)
    given = dict.fromkeys(range(len(PICK_DISTANCE_BINS)), 0)
    for _ in range(count * 60):
        if len(plans) >= count:
            break
        fam = index.families[rng.choice(families)]
        category = rng.choice(fam.categories)
        inside = fam.within[category]
        if not inside:
            continue
        answer = rng.choice(inside)
        subject = f"legend_pick:{fam.family}:{category}"
        decoys = _decoys(index, fam, category, answer, 2, ledger, subject, rng)
        if not decoys:
            continue
        dots = [answer, *decoys]
        ok = np.ones(n, dtype=bool)
        if relation == "distance":
            # the window least given so far (ties at random)
            b = min(given, key=lambda k: (given[k], rng.random()))
            window = PICK_DISTANCE_BINS[b]
            span = np.inf if multi else PICK_MAP_SPAN_M
            da = index.dists(answer)
            ok &= (da >= window[0]) & (da <= window[1])
            for d in dots:
                dd = index.dists(d)
                ok &= (dd >= LEGEND_DOT_GAP_M) & (dd <= span)
        else:
            window = PICK_DISTANCE_M
            for d in dots:
                dd = index.dists(d)
                ok &= (dd >= window[0]) & (dd <= LEGEND_SPREAD_M)
        xs = [int(i) for i in np.flatnonzero(ok) if int(i) not in dots]
        if not xs:
            continue
        x = rng.choice(xs)
        o = _pick_ok(relation, index, x, answer, decoys, window)
        keys = [index.points[i].key for i in (x, *dots)]
        if o is None or not all(ledger.free(keys[0], k) for k in keys[1:]) \
                or (relation, keys[0]) in ledger.subjects:
            continue
        anchor = None
        if multi:
            anchor = _pick_anchor(index, x, dots, rng)
            if anchor is None:
                continue
        ledger.take(relation, keys[0], keys[1:])
        if relation == "distance":
            given[b] += 1
        dots = _answer_at(dots, answer, len(plans) % 3)  # its colour in turn
        plans.append(_legend_pick_plan(index, fam, relation, category, x, dots, answer, o,
                                       anchor, rng))
    return plans


def _pick_anchor(index: LegendIndex, x: int, dots: Sequence[int], rng: random.Random
                 ) -> int | None:
    lo, hi = ANCHOR_RANGE_M
    order = list(range(len(index.points)))
    rng.shuffle(order)
    for m in order[:600]:
        if m == x or m in dots:
            continue
        if lo <= index.dist(m, x) <= hi and all(
                LEGEND_DOT_GAP_M <= index.dist(m, d) <= LEGEND_SPREAD_M for d in dots):
            return m
    return None


def _legend_pick_plan(index: LegendIndex, fam: FamilyIndex, relation: str, category: str,
                      x: int, dots: Sequence[int], answer: int, o: rel.Orientation,
                      anchor: int | None, rng: random.Random) -> QuestionPlan:
    pts = index.points
    xf = pts[x]
    cands = tuple(pts[i] for i in dots)
    layer = legend_layer(index, fam, dots, category)
    ci = [c for c, _ in layer].index(category)
    unit = rng.choice(sorted(SCALE_UNITS)) if relation == "distance" else ""
    multi = anchor is not None
    meta: dict[str, Any] = {
        "subject": xf.key, "template": "legend_pick", "family": fam.family,
        "category": category, "legend": [c for c, _ in layer], "answer_key": pts[answer].key,
        "answer_type": "distance" if relation == "distance" else "direction",
        "radii_m": [o.distance.radius_a_m, o.distance.radius_b_m],
    }
    if relation == "distance":
        answer_d: dict[str, Any] = {"type": "distance", "meters": round(o.distance.meters, 1),
                                    "unit": unit}
        ask = (f"Using the scale bar, how far is that place from {xf.name} in a straight "
               f"line? Answer in {SCALE_UNITS[unit]}, the scale bar's unit.")
        meta["distances_m"] = {pts[i].key: round(rel.distance_between(
            index.centres[i], index.centres[x]).meters, 1) for i in dots}
    else:
        answer_d = {"type": "cardinal", "direction": o.direction}
        turned = ("The maps may be turned: use their compasses." if multi else
                  "The map may be turned: use its compass.")
        ask = f"{turned} In which direction is that place from {xf.name}? {_DIRECTIONS_TEXT}"
        meta["bearing_deg"] = round(o.bearing_deg, 2)
        meta["spread_deg"] = round(o.spread_deg, 2)
    angle = rng.choice(TURNS) if relation == "orientation" else 0.0
    if anchor is None:
        colours = ("blue", "purple", "orange")
        feats = (xf, *cands)
        checks = tuple((k + 1, ci, dots[k] == answer) for k in range(3))
        maps: tuple[MapPlan, ...] = (MapPlan(
            feats, tuple(f.name for f in feats), angle_deg=angle,
            style=rng.choice(UNLABELLED_STYLES), colors=("red", *colours), categories=layer,
            category_checks=checks, scale_unit=unit),)
        setup = (f"{_intro(fam.family)} Of {_dots(cands, colours)}, exactly one lies within "
                 f"an area shown as {category}.")
        question = f"{setup} {ask.replace(xf.name, f'{xf.name} (red dot)', 1)}"
        ctx = (f"Find the map that draws {xf.name} (red dot) and {_dots(cands, colours)} "
               f"over areas shaded by {fam.family}. Of those three, exactly one lies within "
               f"an area shown as {category}. {ask}")
    else:
        m = pts[anchor]
        colours = ("blue", "purple", "cyan")
        meta["anchor"] = m.key
        checks = tuple((k, ci, dots[k] == answer) for k in range(3))
        maps = (
            MapPlan((xf, m), (xf.name, m.name), angle_deg=rng.choice(TURNS),
                    style=rng.choice(UNLABELLED_STYLES), colors=("red", "orange"),
                    scale_unit=unit),
            MapPlan((*cands, m), (*(f.name for f in cands), m.name),
                    angle_deg=rng.choice(TURNS), style=rng.choice(UNLABELLED_STYLES),
                    colors=(*colours, "orange"), categories=layer, category_checks=checks,
                    scale_unit=unit),
        )
        setup = (f"Map 1 shows {xf.name} (red dot) and {m.name} (orange dot). "
                 f"{_intro(fam.family, True)} It shows {m.name} again (orange dot), at its "
                 "own scale and turn, and "
                 f"{_dots(cands, colours)}: exactly one of these three lies within an area "
                 f"shown as {category}.")
        question = f"{setup} {ask} Use both maps' scale bars and compasses."
        ctx = (f"One of the maps shows {xf.name} (red dot) and {m.name} (orange dot); "
               f"another shows {m.name} again (orange dot) and {_dots(cands, colours)} over "
               f"areas shaded by {fam.family}, at its own scale and turn: exactly one of "
               f"those three lies within an area shown as {category}. {ask} Use both maps' "
               "scale bars and compasses.")
    return QuestionPlan(relation, question, answer_d, maps, meta, contextual=ctx)


#: ``area_count``: areas of one category closer than twice this (metres) read as one
#: area on the map (one fill, no outline between them): they are merged before counting.
MERGE_M = 5.0
#: ``area_count``: a merged area smaller than this near the subject is too small to
#: count on the image (the subject is then not asked about its category), square metres.
MIN_COMPONENT_M2 = 300.0
#: ``area_count``: the verb per relation and the relations (of a merged area to the
#: subject) that are clearly *not* the asked one.
AREA_COUNT_VERBS: dict[str, str] = {"border": "border", "within": "lie entirely within",
                                    "intersect": "partly overlap"}
AREA_COUNT_OTHERS: dict[str, frozenset[str]] = {
    "border": frozenset({"disjoint"}),
    "within": frozenset({"disjoint", "border"}),
    "intersect": frozenset({"disjoint", "border"}),
}
#: ``area_count``: the largest count asked.
AREA_COUNT_MAX = 3


def category_components(fam: FamilyIndex) -> dict[str, list[BaseGeometry]]:
    """Each category's areas merged as a map shows them (metric): areas closer than
    2 x :data:`MERGE_M` become one."""
    out: dict[str, list[BaseGeometry]] = {}
    for c in fam.categories:
        geoms = [g.buffer(MERGE_M) for a, g in zip(fam.areas, fam.metric, strict=True)
                 if a.category == c]
        merged = shapely.union_all(geoms).buffer(-MERGE_M)
        out[c] = [p for p in getattr(merged, "geoms", [merged]) if not p.is_empty]
    return out


def area_relations(subject_m: BaseGeometry, parts: Sequence[BaseGeometry]
                   ) -> list[str | None]:
    """The relation of each merged area to the subject (:func:`groundtruth.relations.
    area_relation`; ``disjoint`` without measuring when it is plainly far)."""
    out: list[str | None] = []
    for p in parts:
        if p.distance(subject_m) >= rel.DISJOINT_MIN_GAP_M:
            out.append("disjoint")
        else:
            out.append(rel.area_relation(p, subject_m))
    return out


def area_count_plans(features: Sequence[NamedFeature], index: LegendIndex, relation: str, *,
                     rng: random.Random, count: int, ledger: PairLedger,
                     multi: bool | Sequence[bool] = False) -> list[QuestionPlan]:
    """``<relation>`` / ``area_count``: how many separate areas shown as <category>
    border (lie within, partly overlap) X?

    The areas of a category are merged as the map shows them (:func:`category_components`:
    one fill with no outline between touching areas); every merged area near X is in a
    clear relation to it (:func:`area_relations`), either the asked one (counted) or
    one no reader takes for it (:data:`AREA_COUNT_OTHERS`), and none is under
    :data:`MIN_COMPONENT_M2`. Counts run 0 to :data:`AREA_COUNT_MAX`, the one least
    given so far first. X (a named polygon) is outlined in red over the layer.

    Parameters
    ----------
    features : sequence of NamedFeature
        The extract's named features (polygons not at the edge are subjects).
    index : LegendIndex
        The legend areas (its families).
    relation : str
        ``"border"``, ``"within"`` or ``"intersect"``.
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated): a subject once per relation.
    multi : bool or sequence of bool, optional
        Two maps (for successive plans, in turn, when a sequence): map 1 outlines X in
        red on a label-free basemap, map 2 shades the same place by the family at
        another zoom and turn without X (:attr:`MapPlan.context`), so the reader
        finds X's ground on map 2 by its streets and buildings.

    Returns
    -------
    list of QuestionPlan
    """
    turns = [multi] if isinstance(multi, bool) else list(multi)
    subjects = uniquely_named(features, "polygon", count_edge=False)
    options: list[tuple[int, str, NamedFeature, str, list[BaseGeometry]]] = []
    for fam in index.families.values():
        if fam.components is None:  # the same for every relation
            fam.components = category_components(fam)
        comps = fam.components
        # the parts near a subject from a tree (queried a little wider than the exact
        # test below, which decides); in each category's order
        flat = [p for parts in comps.values() for p in parts]
        starts = np.cumsum([0, *(len(parts) for parts in comps.values())]).tolist()
        tree = shapely.STRtree(flat)
        for f in subjects:
            sm = index.frame.to_metric(f.geometry)
            hits = np.zeros(len(flat), dtype=bool)
            hits[tree.query(sm, predicate="dwithin", distance=61.0)] = True
            for start, (c, parts) in zip(starts, comps.items(), strict=False):
                near = [p for k, p in enumerate(parts) if hits[start + k]
                        and p.distance(sm) < 60.0]
                if not near or any(p.area < MIN_COMPONENT_M2 for p in near):
                    continue
                rels = area_relations(sm, near)
                if any(r != relation and r not in AREA_COUNT_OTHERS[relation] for r in rels):
                    continue
                n = sum(r == relation for r in rels)
                if n <= AREA_COUNT_MAX:
                    counted = [p for p, r in zip(near, rels, strict=True) if r == relation]
                    options.append((n, fam.family, f, c, counted))
    rng.shuffle(options)
    given = dict.fromkeys(range(AREA_COUNT_MAX + 1), 0)
    plans: list[QuestionPlan] = []
    by_n: dict[int, list[tuple[int, str, NamedFeature, str, list[BaseGeometry]]]] = \
        defaultdict(list)
    for o in options:
        by_n[o[0]].append(o)
    offered = set(by_n)
    while len(plans) < count and any(by_n.values()):
        # the count least given so far; one the extract allows no more holds the others
        # within COUNT_SLACK of it, so that a fixed guess stays near chance
        low = min(given[k] for k in offered)
        # and "none" less often than the commonest other count (a model answering 0
        # every time stays near chance)
        top = max((given[k] for k in given if k), default=0)
        open_ = [k for k in by_n if by_n[k] and given[k] <= low + COUNT_SLACK
                 and (k or given[0] < top)]
        if not open_:
            break
        n = min(open_, key=lambda k: given[k])
        _, family, f, category, counted = by_n[n].pop()
        key = f"area_count:{family}:{category}:{f.key}"
        if (relation, f.key) in ledger.subjects or (relation, key) in ledger.subjects:
            continue
        ledger.take(relation, f.key, [f"category:{category}"])
        ledger.subjects.add((relation, key))
        given[n] += 1
        plans.append(_area_count_plan(index, family, relation, f, category, counted, rng,
                                      multi=turns[len(plans) % len(turns)]))
    return plans


def _area_count_plan(index: LegendIndex, family: str, relation: str, f: NamedFeature,
                     category: str, counted: Sequence[BaseGeometry], rng: random.Random,
                     multi: bool = False) -> QuestionPlan:
    fam = index.families[family]
    sm = index.frame.to_metric(f.geometry)
    layer = _layer_around(fam, sm, category)
    legend = [c for c, _ in layer]
    ci = legend.index(category)
    what = f"{f.name} (the {f.category})"
    checks = tuple((ci, index.frame.to_lonlat(p)) for p in counted)
    maps: tuple[MapPlan, ...]
    if multi:
        maps = (MapPlan((f,), (f.name,), angle_deg=rng.choice(TURNS),
                        style=rng.choice(FIRST_MAP_STYLES)),
                MapPlan((), (), angle_deg=rng.choice(TURNS), context=(f,),
                        style=rng.choice(UNLABELLED_STYLES), categories=layer,
                        keep_categories=(ci,), area_checks=checks))
        ask = (f"Map 1 outlines {what} in red. {_intro(family, True)} It shows the same "
               f"place (its scale, turn and style may differ) without the outline. How "
               f"many separate areas shown as {category} on map 2 "
               f"{AREA_COUNT_VERBS[relation]} {f.name}? Touching areas of one fill count "
               "as one. Answer with a number.")
        ctx = (f"One of the maps outlines {f.name} alone in red; another shows the same "
               f"place shaded by {family}, with a legend box naming each fill. How many "
               f"separate areas shown as {category} there {AREA_COUNT_VERBS[relation]} "
               f"{f.name}? Touching areas of one fill count as one. Answer with a number.")
    else:
        maps = (MapPlan((f,), (f.name,), style=rng.choice(UNLABELLED_STYLES),
                        categories=layer, keep_categories=(ci,), area_checks=checks),)
        ask = (f"{_intro(family)} How many separate areas shown as {category} "
               f"{AREA_COUNT_VERBS[relation]} {what}, outlined in red? Touching areas of one "
               "fill count as one. Answer with a number.")
        ctx = (f"Find the map that outlines {f.name} in red over areas shaded by "
               f"{family}. How many separate areas shown as {category} "
               f"{AREA_COUNT_VERBS[relation]} it? Touching areas of one fill count "
               "as one. Answer with a number.")
    return QuestionPlan(
        relation, ask, {"type": "count", "count": len(counted)},
        maps,
        {"subject": f.key, "template": "area_count", "answer_type": "count",
         "family": family, "category": category, "legend": legend,
         "counted_m2": [round(p.area, 1) for p in counted]},
        contextual=ctx)


#: ``equal`` / ``area_category``: areas of the legend's other categories may cover at most
#: this share of the subject (its spot on map 2 shows one fill).
AREA_CATEGORY_OTHER_MAX = 0.05


def area_category_plans(features: Sequence[NamedFeature], index: LegendIndex, *,
                        rng: random.Random, count: int, ledger: PairLedger
                        ) -> list[QuestionPlan]:
    """``equal`` / ``area_category``: map 1 outlines X; which legend category is the area
    of map 2 that covers exactly the same ground?

    X (a named polygon) equals one legend area of a family
    (:func:`groundtruth.relations.area_relation` is ``equal``: the same OSM outline
    drawn as a category, e.g. a building drawn as *public building*), and areas of
    the family's other categories cover at most :data:`AREA_CATEGORY_OTHER_MAX` of it.
    Map 1 outlines X in red on a label-free basemap; map 2 shades the same place by
    the family at another zoom and turn, X not drawn (:attr:`MapPlan.context`): the
    reader finds X's area on map 2 by its shape and the streets and reads its fill in
    the legend (at least :data:`MIN_LEGEND_CHOICES` categories). The answer is the
    legend's words; categories come in turn, so that no fixed guess does well.

    Parameters
    ----------
    features : sequence of NamedFeature
        The extract's named features (polygons with a unique name, not at the edge).
    index : LegendIndex
        The legend areas (its families).
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated): a subject once in this template
        (keyed ``area_category:<key>``: the same area may also be a ``same_area``
        subject, a different question).

    Returns
    -------
    list of QuestionPlan
    """
    subjects = uniquely_named(features, "polygon", count_edge=False)
    queues: dict[tuple[str, str], list[tuple[NamedFeature, BaseGeometry]]] = defaultdict(list)
    for fam in index.families.values():
        tree = shapely.STRtree(fam.metric)
        for f in subjects:
            sm = index.frame.to_metric(f.geometry)
            if sm.area <= 0:
                continue
            hits = [int(i) for i in tree.query(sm, predicate="intersects")]
            same = [i for i in hits if rel.area_relation(fam.metric[i], sm) == "equal"]
            if len({fam.areas[i].category for i in same}) != 1:
                continue
            category = fam.areas[same[0]].category
            other = sum(fam.metric[i].intersection(sm).area for i in hits
                        if fam.areas[i].category != category)
            if other > AREA_CATEGORY_OTHER_MAX * sm.area:
                continue
            queues[(fam.family, category)].append((f, sm))
    for q in queues.values():
        rng.shuffle(q)
    plans: list[QuestionPlan] = []
    while len(plans) < count and any(queues.values()):
        for (family, category), q in sorted(queues.items()):
            if not q or len(plans) >= count:
                continue
            f, sm = q.pop()
            # its own subject key: an area asked as same_area may be asked here too (the
            # question differs), and on a small extract same_area keeps its subjects
            key = f"area_category:{f.key}"
            if ("equal", key) in ledger.subjects:
                continue
            fam = index.families[family]
            layer = _layer_around(fam, sm, category)
            legend = [c for c, _ in layer]
            if len(legend) < MIN_LEGEND_CHOICES:
                continue
            ledger.take("equal", key, [f"category:{category}"])
            plans.append(_area_category_plan(family, f, category, layer, rng))
    return plans


def _layer_around(fam: FamilyIndex, around_m: BaseGeometry, category: str
                  ) -> tuple[tuple[str, tuple[BaseGeometry, ...]], ...]:
    """The asked category and the nearest others around a metric geometry, in
    alphabetical legend order (as :func:`legend_layer` around points)."""
    drawn: dict[str, list[BaseGeometry]] = defaultdict(list)
    dist: dict[str, float] = {}
    for a, g in zip(fam.areas, fam.metric, strict=True):
        d = g.distance(around_m)
        if d <= LEGEND_DRAW_RADIUS_M:
            drawn[a.category].append(a.geometry)
            dist[a.category] = min(dist.get(a.category, d), d)
    others = sorted((c for c in drawn if c != category), key=dist.__getitem__)
    legend = sorted([category, *others[:MAX_LEGEND_CATEGORIES - 1]])
    return tuple((c, tuple(drawn[c])) for c in legend)


def _area_category_plan(family: str, f: NamedFeature, category: str,
                        layer: tuple[tuple[str, tuple[BaseGeometry, ...]], ...],
                        rng: random.Random) -> QuestionPlan:
    ci = [c for c, _ in layer].index(category)
    fmt = "Answer with the category's name as the legend writes it."
    maps = (MapPlan((f,), (f.name,), style=rng.choice(FIRST_MAP_STYLES)),
            MapPlan((), (), angle_deg=rng.choice(TURNS[1:]), context=(f,),
                    style=rng.choice(UNLABELLED_STYLES), categories=layer,
                    min_legend=MIN_LEGEND_CHOICES, keep_categories=(ci,),
                    area_checks=((ci, f.geometry),), wider_for_legend=True))
    ask = (f"Map 1 outlines {f.name} in red. {_intro(family, True)} It shows the same place "
           "(its scale, turn and style may differ) without the outline; one shaded area of "
           f"map 2 covers exactly the same ground as {f.name}. Which category does the "
           f"legend give that area? {fmt}")
    ctx = (f"One of the maps outlines {f.name} alone in red; another shows the same place "
           f"shaded by {family}, with a legend box naming each fill. One shaded area there "
           f"covers exactly the same ground as {f.name}. Which category does the legend "
           f"give that area? {fmt}")
    return QuestionPlan(
        "equal", ask, {"type": "textual", "names": [category]}, maps,
        {"subject": f"area_category:{f.key}", "template": "area_category",
         "answer_type": "text",
         "family": family, "category": category, "legend": [c for c, _ in layer]},
        contextual=ctx)


#: ``legend_rank``: the words of each rank (the dots lie
#: :data:`~cartoqa.tasks.frieda.questions.LEGEND_DOT_GAP_M` to :data:`LEGEND_SPREAD_M`
#: from X).
RANK_WORDS: dict[str, str] = {"closest": "closest to", "furthest": "furthest from"}


def _sector_gap(a: float, b: float) -> int:
    """Compass sectors (of eight) between two bearings.

    Examples
    --------
    >>> _sector_gap(10.0, 80.0), _sector_gap(350.0, 100.0), _sector_gap(0.0, 180.0)
    (2, 2, 4)
    """
    gap = abs(_sector(a) - _sector(b)) % 8
    return min(gap, 8 - gap)


def _direction_fits(answer: rel.Orientation, other: rel.Orientation,
                    decoy: rel.Orientation) -> bool:
    """``legend_direction``: the answer dot lies clearly in one of the eight directions
    from X, the other dot in the category at least two sectors away, and the dot outside
    the category in the answer's sector (so skipping the legend gives the wrong name).
    """
    return bool(answer.clear and _sector_gap(answer.bearing_deg, other.bearing_deg) >= 2
                and _sector(decoy.bearing_deg) == _sector(answer.bearing_deg))


def _rank_ok(rank: str, d_answer: float, d_other: float, d_decoy: float) -> bool:
    """``legend_rank``: the answer is ``rank`` among the dots within the category by
    :data:`~cartoqa.tasks.frieda.questions.RANK_MIN_RATIO`, and the decoy outside it is
    more so (ignoring the legend picks the decoy).

    Examples
    --------
    >>> _rank_ok("closest", 100.0, 140.0, 70.0), _rank_ok("closest", 100.0, 120.0, 70.0)
    (True, False)
    >>> _rank_ok("furthest", 200.0, 140.0, 280.0)
    True
    """
    r = RANK_MIN_RATIO
    if rank == "closest":
        return d_other >= r * d_answer and d_answer >= r * d_decoy
    return d_answer >= r * d_other and d_decoy >= r * d_answer


def legend_rank_plans(index: LegendIndex, relation: str, *, rng: random.Random, count: int,
                      ledger: PairLedger) -> list[QuestionPlan]:
    """``distance`` / ``legend_rank`` and ``orientation`` / ``legend_direction``: of the
    dots within an area shown as <category>, which is closest to (furthest from) X, or
    which lies to the <direction> of X?

    One map draws X (red) and three dots (blue, purple, orange) over the layer: two lie
    within the category, one clearly outside it. ``legend_rank`` (distance, closest and
    furthest in turn): the answer is closest (furthest) of the two within by
    :data:`~cartoqa.tasks.frieda.questions.RANK_MIN_RATIO`, and the dot outside is
    closer (further) still, so a reader who skips the legend names it.
    ``legend_direction`` (orientation, the map turned): the answer lies clearly in the
    asked direction from X, the other dot within the category two sectors or more away,
    and the dot outside in the asked direction too (again the legend decides). The
    answer is a name (its colour in turn).

    Parameters
    ----------
    index : LegendIndex
        Points and their legend status.
    relation : str
        ``"distance"`` (template ``legend_rank``) or ``"orientation"``
        (``legend_direction``).
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated): X once per relation, no pair of X
        and a dot twice.

    Returns
    -------
    list of QuestionPlan
    """
    plans: list[QuestionPlan] = []
    families = sorted(index.families)
    n = len(index.points)
    ranks = ("closest", "furthest")
    for _ in range(count * 80):
        if len(plans) >= count:
            break
        fam = index.families[rng.choice(families)]
        category = rng.choice(fam.categories)
        x = rng.randrange(n)
        if (relation, index.points[x].key) in ledger.subjects:
            continue
        d = index.dists(x)
        near = (d >= LEGEND_DOT_GAP_M) & (d <= LEGEND_SPREAD_M)
        inside = [i for i in fam.within[category] if near[i] and i != x]
        outside = [int(i) for i in np.flatnonzero(fam.outside[category] & near)]
        if len(inside) < 2 or not outside:
            continue
        a, b = rng.sample(inside, 2)
        e = rng.choice(outside)
        dots = [a, b, e]
        if any(index.dist(p, q) < LEGEND_DOT_GAP_M for p, q in ((a, b), (a, e), (b, e))):
            continue
        keys = [index.points[i].key for i in (x, *dots)]
        if not all(ledger.free(keys[0], k) for k in keys[1:]):
            continue
        o = {i: rel.orientation_between(index.centres[i], index.centres[x]) for i in dots}
        meta: dict[str, Any]
        if relation == "distance":
            rank = ranks[len(plans) % 2]
            dm = {i: o[i].distance.meters for i in dots}
            if _rank_ok(rank, dm[b], dm[a], dm[e]):
                a, b = b, a
            elif not _rank_ok(rank, dm[a], dm[b], dm[e]):
                continue
            meta = {"template": "legend_rank", "rank": rank,
                    "distances_m": {index.points[i].key: round(dm[i], 1) for i in dots}}
        else:
            if not _direction_fits(o[a], o[b], o[e]):
                a, b = b, a
                if not _direction_fits(o[a], o[b], o[e]):
                    continue
            meta = {"template": "legend_direction", "direction": o[a].direction,
                    "bearings_deg": {index.points[i].key: round(o[i].bearing_deg, 2)
                                     for i in dots}}
        ledger.take(relation, keys[0], keys[1:])
        placed = _answer_at([a, b, e], a, len(plans) % 3)
        plans.append(_legend_rank_plan(index, fam, relation, category, x, placed, a, meta,
                                       rng))
    return plans


def _legend_rank_plan(index: LegendIndex, fam: FamilyIndex, relation: str, category: str,
                      x: int, dots: Sequence[int], answer: int, meta: dict[str, Any],
                      rng: random.Random) -> QuestionPlan:
    pts = index.points
    xf = pts[x]
    cands = tuple(pts[i] for i in dots)
    layer = legend_layer(index, fam, dots, category)
    ci = [c for c, _ in layer].index(category)
    colours = ("blue", "purple", "orange")
    checks = tuple((k + 1, ci, fam.status[dots[k]][category] is True) for k in range(3))
    feats = (xf, *cands)
    if relation == "distance":
        which = f"is {RANK_WORDS[meta['rank']]} {xf.name} (red dot), in a straight line"
        angle = 0.0
        turned = ""
    else:
        which = f"lies to the {meta['direction']} of {xf.name} (red dot)"
        angle = rng.choice(TURNS)
        turned = "The map may be turned: use its compass. "
    maps = (MapPlan(feats, tuple(f.name for f in feats), angle_deg=angle,
                    style=rng.choice(UNLABELLED_STYLES), colors=("red", *colours),
                    categories=layer, category_checks=checks),)
    ask = (f"{turned}Of {_dots(cands, colours)}, which one lies within an area shown as "
           f"{category} and {which}? Answer with its name.")
    question = f"{_intro(fam.family)} {ask}"
    ctx = (f"Find the map that draws {xf.name} (red dot) and {_dots(cands, colours)} over "
           f"areas shaded by {fam.family}. {ask}")
    meta = {"subject": xf.key, **meta, "answer_type": "text", "family": fam.family,
            "category": category, "legend": [c for c, _ in layer],
            "answer_key": pts[answer].key,
            "inside": {pts[i].key: fam.status[i][category] is True for i in dots}}
    return QuestionPlan(relation, question, {"type": "textual", "names": [pts[answer].name]},
                        maps, meta, contextual=ctx)


#: ``area_pick``: the verb per relation (one candidate does it).
AREA_PICK_VERBS: dict[str, str] = {"border": "borders", "intersect": "partly overlaps"}
#: ``area_pick``: a candidate that does not border an area of the category keeps at
#: least this far from every one, metres (a building across a street reads as a
#: neighbour: :data:`cartoqa.tasks.frieda.build.BORDER_DISTRACTOR_MIN_GAP_M`, repeated).
AREA_PICK_BORDER_GAP_M = 40.0
#: ``area_pick``: the candidates' centres lie within this distance of the answer's and
#: this far apart, metres.
AREA_PICK_SPREAD_M = 250.0
AREA_PICK_GAP_M = 40.0
#: ``area_pick``: the candidates' outlines keep at least this far apart, metres (one
#: drawn over another would hide it).
DISJOINT_GAP_PICK_M = 10.0


def _area_status(sm: BaseGeometry, parts: Sequence[BaseGeometry], relation: str
                 ) -> tuple[bool | None, list[BaseGeometry]]:
    """Whether a subject (metric: an area, or a line such as a street) is in
    ``relation`` to a category's merged areas ``parts``: ``True`` (with the areas that
    are), ``False`` (clearly not: every area in one of :data:`AREA_COUNT_OTHERS`, and
    for ``border`` at least :data:`AREA_PICK_BORDER_GAP_M` from all), ``None``
    (unclear). A line's relation is :func:`groundtruth.relations.line_area_relation`
    (``border``: it runs along the area's edge; ``intersect``: it crosses into it)."""
    near = [p for p in parts if p.distance(sm) < 60.0]
    if any(p.area < MIN_COMPONENT_M2 for p in near):
        return None, []
    if sm.geom_type in ("LineString", "MultiLineString"):
        rels: list[str | None] = [
            "disjoint" if p.distance(sm) >= rel.DISJOINT_MIN_GAP_M
            else rel.line_area_relation(sm, p) for p in near]
    else:
        rels = area_relations(sm, near)
    if any(r != relation and r not in AREA_COUNT_OTHERS[relation] for r in rels):
        return None, []
    hit = [p for p, r in zip(near, rels, strict=True) if r == relation]
    if hit:
        return True, hit
    if relation == "border" and any(p.distance(sm) < AREA_PICK_BORDER_GAP_M for p in near):
        return None, []
    return False, []


def area_pick_plans(features: Sequence[NamedFeature], index: LegendIndex, relation: str, *,
                    rng: random.Random, count: int, ledger: PairLedger
                    ) -> list[QuestionPlan]:
    """``border`` / ``intersect`` ``area_pick``: which of three outlined places borders
    (partly overlaps) an area shown as <category>?

    The areas of a category are merged as the map shows them
    (:func:`category_components`); exactly one candidate (a named polygon) is in the
    relation to one or more of them (:func:`area_relations`) and in no unclear one; the
    other two are clearly not (:func:`_area_status`: apart, or for ``intersect``
    bordering). The three are drawn outlined in blue, purple and orange over the layer
    (the answer's colour in turn), and the areas it touches must show their fill on
    the image (:attr:`MapPlan.area_checks`). Categories come in turn.

    Parameters
    ----------
    features : sequence of NamedFeature
        The extract's named features (polygons with a unique name, not at the edge).
    index : LegendIndex
        The legend areas (its families).
    relation : str
        ``"border"`` or ``"intersect"``.
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger
        The build's pairs already asked (updated): no candidate twice beside one
        category, no answer twice in a relation.

    Returns
    -------
    list of QuestionPlan
    """
    subjects = (uniquely_named(features, "polygon", count_edge=False)
                + uniquely_named(features, "line", count_edge=False))
    metric = [index.frame.to_metric(f.geometry) for f in subjects]
    centres = np.array([(g.centroid.x, g.centroid.y) if not g.is_empty else (np.nan, np.nan)
                        for g in metric], dtype=float)
    queues: dict[tuple[str, str], list[tuple[int, list[BaseGeometry], list[int]]]] = {}
    for fam in index.families.values():
        comps = category_components(fam)
        for c, parts in comps.items():
            yes: list[tuple[int, list[BaseGeometry]]] = []
            no: list[int] = []
            for k, sm in enumerate(metric):
                if sm.is_empty or (sm.area <= 0 and sm.length <= 0):
                    continue
                status, hit = _area_status(sm, parts, relation)
                if status is True:
                    yes.append((k, hit))
                elif status is False:
                    no.append(k)
            q = [(k, hit, no) for k, hit in yes]
            rng.shuffle(q)
            if q and no:
                queues[(fam.family, c)] = q
    plans: list[QuestionPlan] = []
    while len(plans) < count and any(queues.values()):
        for (family, category), q in sorted(queues.items()):
            if not q or len(plans) >= count:
                continue
            k, hit, no = q.pop()
            f = subjects[k]
            subject = f"area_pick:{family}:{category}"
            if (relation, f"area_pick:{f.key}") in ledger.subjects:
                continue
            d = np.hypot(*(centres[no] - centres[k]).T)
            pool = [no[i] for i in np.flatnonzero((d <= AREA_PICK_SPREAD_M)
                                                  & (d >= AREA_PICK_GAP_M))
                    if ledger.free(subject, subjects[no[i]].key)]
            rng.shuffle(pool)
            picks = [k]
            for j in pool:
                if all(metric[j].distance(metric[i]) >= DISJOINT_GAP_PICK_M
                       and np.hypot(*(centres[j] - centres[i])) >= AREA_PICK_GAP_M
                       for i in picks):
                    picks.append(j)
                    if len(picks) == 3:
                        break
            if len(picks) < 3 or not fits_zoom17([subjects[i].geometry for i in picks],
                                                 index.frame):
                continue
            ledger.take(relation, subject, [subjects[i].key for i in picks])
            ledger.subjects.add((relation, f"area_pick:{f.key}"))
            placed = _answer_at(picks, k, len(plans) % 3)
            plans.append(_area_pick_plan(index, family, relation, category,
                                         [subjects[i] for i in placed], f, hit, rng))
    return plans


def _area_pick_plan(index: LegendIndex, family: str, relation: str, category: str,
                    cands: Sequence[NamedFeature], answer: NamedFeature,
                    hit: Sequence[BaseGeometry], rng: random.Random) -> QuestionPlan:
    fam = index.families[family]
    around = shapely.union_all([index.frame.to_metric(f.geometry) for f in cands])
    layer = _layer_around(fam, around, category)
    legend = [c for c, _ in layer]
    ci = legend.index(category)
    colours = ("blue", "purple", "orange")
    checks = tuple((ci, index.frame.to_lonlat(p)) for p in hit)
    maps = (MapPlan(tuple(cands), tuple(f.name for f in cands),
                    style=rng.choice(UNLABELLED_STYLES), colors=colours, categories=layer,
                    keep_categories=(ci,), area_checks=checks),)
    parts = [f"{f.name} ({c} {'line' if f.kind == 'line' else 'outline'})"
             for f, c in zip(cands, colours, strict=True)]
    listed = ", ".join(parts[:-1]) + f" and {parts[-1]}"
    ask = (f"Which one of {listed} {AREA_PICK_VERBS[relation]} an area shown as "
           f"{category}? Answer with its name.")
    return QuestionPlan(
        relation, f"{_intro(family)} {ask}", {"type": "textual", "names": [answer.name]},
        maps,
        {"subject": f"area_pick:{answer.key}", "template": "area_pick",
         "answer_type": "text", "family": family, "category": category, "legend": legend,
         "candidates": [f.key for f in cands], "answer_key": answer.key,
         "touching_m2": [round(p.area, 1) for p in hit]},
        contextual=(f"Find the map that outlines {_dots(cands, colours).replace(' dot)', ')')}"
                    f" over areas shaded by {family}. {ask}"))
