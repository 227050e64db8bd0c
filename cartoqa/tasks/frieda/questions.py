"""FRIEDA question plans: which features to draw on which maps, and the answer (pure).

A :class:`QuestionPlan` holds the question text, the answer (``docs/frieda.md``
answer shapes: ``textual`` names, ``distance`` metres, ``cardinal`` direction) and
one :class:`MapPlan` per image (the features drawn, their colours and legend labels,
the map's zoom and turn). Plans come from the clear relations of
:mod:`groundtruth.relation_pairs`; every feature drawn beside the subject has a clear
relation to it (so no drawn distractor is ambiguous), and exactly the features named
in the answer satisfy the asked relation.

``cartoqa build --suite frieda`` (:mod:`cartoqa.tasks.frieda`) renders them and keeps
those whose maps show what the question needs.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from groundtruth import relations as rel
from groundtruth.named_features import NamedFeature
from groundtruth.relation_pairs import TopologicalPair

#: Colours in the order features are drawn (subject first).
COLORS: tuple[str, ...] = ("red", "blue", "purple", "orange")
#: Distractors drawn beside the subject and the true feature in a topological question.
DISTRACTORS = 2
#: Relations a distractor may have to the subject, per question: only ones no reader
#: could take for the asked relation (a building inside a block at its edge could be
#: said to "border" it; a feature inside another does "overlap" it).
DISTRACTOR_RELATIONS: dict[str, frozenset[str]] = {
    "border": frozenset({"disjoint"}),
    "within": frozenset({"disjoint", "border"}),
    "intersect": frozenset({"disjoint", "border"}),
}


@dataclass(frozen=True)
class MapPlan:
    """One image of a question.

    Attributes
    ----------
    features : tuple of NamedFeature
        Drawn in :data:`COLORS` order.
    labels : tuple of str
        Legend text per feature (its name, or ``"Area A"`` where the name is the answer).
    angle_deg : float
        Where north points, clockwise from the top.
    zoom : int or None
        ``None``: the highest zoom (15-19) that shows every feature.
    context : tuple of NamedFeature
        Features the map must show without drawing them (the subject of a two-map
        question on its second map).
    first_color : int
        Index in :data:`COLORS` of the first feature's colour: 1 on a second map, so
        that red always means the subject of map 1 and colours never match across maps.
    """

    features: tuple[NamedFeature, ...]
    labels: tuple[str, ...]
    angle_deg: float = 0.0
    zoom: int | None = None
    context: tuple[NamedFeature, ...] = ()
    first_color: int = 0

    def color(self, i: int) -> str:
        """The colour of feature ``i``."""
        return COLORS[self.first_color + i]


@dataclass(frozen=True)
class QuestionPlan:
    """A question before rendering.

    Attributes
    ----------
    relation : str
        ``border``, ``equal``, ``intersect``, ``within``, ``distance``, ``orientation``.
    question : str
        The prompt text.
    answer : dict
        ``{"type": "textual", "names": [...]}``, ``{"type": "distance", "meters": m}``
        or ``{"type": "cardinal", "direction": d}``.
    maps : tuple of MapPlan
        One per image.
    meta : dict
        What the answer rests on (measures, pairs) for provenance.
    contextual : str
        The same question in the contextual setting, where its maps are shown among
        distractor maps of the same city: it names no map by number, the reader must
        find the map(s) by the features their legends name.
    """

    relation: str
    question: str
    answer: dict[str, Any]
    maps: tuple[MapPlan, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    contextual: str = ""

    @property
    def map_count(self) -> str:
        """``"single"`` or ``"multi"``."""
        return "single" if len(self.maps) == 1 else "multi"


def _describe(f: NamedFeature) -> str:
    return f"{f.name} (the {f.category})" if f.kind != "point" else f.name


def relation_index(pairs: Sequence[TopologicalPair]) -> dict[str, dict[str, str]]:
    """Feature key -> other feature key -> relation, both ways round.

    ``within`` reads ``contains`` from the outer feature's side.

    Parameters
    ----------
    pairs : sequence of TopologicalPair
        With the ``disjoint`` pairs (``include_disjoint=True``).

    Returns
    -------
    dict
    """
    index: dict[str, dict[str, str]] = defaultdict(dict)
    flip = {"within": "contains"}
    for p in pairs:
        index[p.a.key][p.b.key] = p.relation
        index[p.b.key][p.a.key] = flip.get(p.relation, p.relation)
    return index


def _features(pairs: Sequence[TopologicalPair]) -> dict[str, NamedFeature]:
    out: dict[str, NamedFeature] = {}
    for p in pairs:
        out[p.a.key] = p.a
        out[p.b.key] = p.b
    return out


def _holes(feature: NamedFeature) -> BaseGeometry:
    """The holes of a polygon feature (empty for others)."""
    geom = feature.geometry
    if feature.kind != "polygon":
        return Polygon()
    polys = [geom] if isinstance(geom, Polygon) else list(getattr(geom, "geoms", []))
    holes = [Polygon(ring) for p in polys if isinstance(p, Polygon) for ring in p.interiors]
    return shapely.union_all(holes) if holes else Polygon()


def topological_plans(pairs: Sequence[TopologicalPair], relation: str, *, rng: random.Random,
                      multi: bool = False) -> list[QuestionPlan]:
    """Questions "which of the drawn features <relation> the subject?".

    For each subject with at least one feature in the relation and
    :data:`DISTRACTORS` features in a relation of :data:`DISTRACTOR_RELATIONS` (and
    not in a hole of the subject, where they look inside its outline), one plan:
    the subject in red, one true feature and the distractors in the other colours,
    shuffled. With ``multi``, the subject is alone on a first map (turned) and the
    candidates are on a second map, so the two must be matched.

    Parameters
    ----------
    pairs : sequence of TopologicalPair
        From :func:`groundtruth.relation_pairs.topological_pairs` with the disjoint
        pairs.
    relation : str
        ``"border"``, ``"within"`` or ``"intersect"``.
    rng : random.Random
        Seeded.
    multi : bool, optional
        Two maps instead of one.

    Returns
    -------
    list of QuestionPlan
    """
    index = relation_index(pairs)
    feats = _features(pairs)
    # "which lies within S": candidates are within S, i.e. S contains them
    wanted = {"within": "contains"}.get(relation, relation)
    plans = []
    for skey in sorted(index):
        subject = feats[skey]
        if subject.kind == "line":
            continue
        others = index[skey]
        true = sorted(k for k, r in others.items() if r == wanted)
        # a distractor in a hole of the subject looks "inside" its outline: left out
        holes = _holes(subject)
        false = sorted(k for k, r in others.items() if r in DISTRACTOR_RELATIONS[relation]
                       and not holes.intersects(feats[k].geometry))
        if not true or len(false) < DISTRACTORS:
            continue
        pick_true = rng.choice(true)
        picks = [pick_true, *rng.sample(false, DISTRACTORS)]
        rng.shuffle(picks)
        cands = tuple(feats[k] for k in picks)
        verb = {"border": "borders", "within": "lies entirely within",
                "intersect": "partly overlaps"}[relation]
        maps: tuple[MapPlan, ...]
        if multi:
            maps = (
                MapPlan((subject,), (subject.name,), angle_deg=rng.choice([0.0, 90.0, 200.0])),
                MapPlan(cands, tuple(c.name for c in cands), context=(subject,),
                        first_color=1),
            )
            same_place = (f"shows the same place (its scale and turn may differ), with "
                          f"{len(cands)} other features named in its legend "
                          f"({subject.name} is not drawn there)")
            prompt = (f"Map 1 draws {_describe(subject)} in red. Map 2 {same_place}. "
                      f"Which of these {len(cands)} features {verb} {subject.name}? "
                      "Answer with its name.")
            contextual = (f"One of the maps draws {_describe(subject)} alone in red; another "
                          f"{same_place}. Which of these {len(cands)} features {verb} "
                          f"{subject.name}? Answer with its name.")
        else:
            maps = (MapPlan((subject, *cands), (subject.name, *(c.name for c in cands))),)
            prompt = (
                "The legend names the features drawn on the map. "
                f"Which of the features other than {subject.name} {verb} "
                f"{_describe(subject)}, drawn in red? Answer with its name."
            )
            contextual = (
                f"Find the map that draws {_describe(subject)} in red. Which of the other "
                f"features named in that map's legend {verb} {subject.name}? Answer with "
                "its name."
            )
        plans.append(QuestionPlan(
            relation, prompt, {"type": "textual", "names": [feats[pick_true].name]}, maps,
            {"subject": subject.key, "relations": {k: others[k] for k in picks}},
            contextual=contextual,
        ))
    return plans


def equal_plans(features: Sequence[NamedFeature], *, rng: random.Random
                ) -> list[QuestionPlan]:
    """Two-map "equal" questions: which area on map 2 is the one outlined on map 1?

    Map 1 shows the subject (red, named); map 2 shows it again and a clearly
    different area nearby (IoU <= ``NOT_EQUAL_MAX_IOU``), labelled ``Area A`` and
    ``Area B`` in shuffled order, at another zoom and turn.

    Parameters
    ----------
    features : sequence of NamedFeature
        Named features (polygons are used, none at the edge).
    rng : random.Random
        Seeded.

    Returns
    -------
    list of QuestionPlan
    """
    polys = [f for f in features if f.kind == "polygon" and not f.at_edge]
    if len(polys) < 2:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in polys])
    metric = {f.key: frame.to_metric(f.geometry) for f in polys}
    plans = []
    for subject in polys:
        sm = metric[subject.key]
        near = [
            f for f in polys
            if f.key != subject.key and sm.distance(metric[f.key]) <= 150.0
            and 0.4 <= metric[f.key].area / sm.area <= 2.5
            and rel.areas_clearly_unequal(sm, metric[f.key])
            and rel.area_relation(sm, metric[f.key]) in ("disjoint", "border")
        ]
        if not near:
            continue
        other = rng.choice(sorted(near, key=lambda f: f.key))
        order = [subject, other]
        rng.shuffle(order)
        letter = "A" if order[0] is subject else "B"
        # map 2 is always turned (45-270 degrees); its zoom may equal map 1's
        prompt = (
            f"Map 1 outlines {subject.name} in red. Map 2 outlines two areas, A and B, on "
            "a turned map, perhaps at another scale. Which of them covers exactly the same "
            f"ground as {subject.name}? Answer A or B."
        )
        contextual = (
            f"One of the maps outlines {subject.name} in red. Another outlines two areas, "
            "Area A and Area B, on a turned map, perhaps at another scale. Which of them "
            f"covers exactly the same ground as {subject.name}? Answer A or B."
        )
        plans.append(QuestionPlan(
            "equal", prompt, {"type": "textual", "names": [letter]},
            (MapPlan((subject,), (subject.name,)),
             MapPlan(tuple(order), ("Area A", "Area B"),
                     angle_deg=rng.choice([45.0, 120.0, 270.0]), first_color=1)),
            {"subject": subject.key, "other": other.key}, contextual=contextual,
        ))
    return plans


def point_plans(features: Sequence[NamedFeature], *, rng: random.Random, count: int,
                min_m: float = 200.0, max_m: float = 550.0) -> list[QuestionPlan]:
    """Distance and orientation questions between two named points on one map.

    Pairs are drawn at random (seeded) until ``count`` of each kind are found: a
    distance pair with both objects points between ``min_m`` and ``max_m`` apart (the
    scale-bar margin is checked after rendering), an orientation pair whose bearing is
    clear (:attr:`groundtruth.relations.Orientation.clear`); orientation maps are
    turned by a random angle, so only the compass gives north.

    Parameters
    ----------
    features : sequence of NamedFeature
        Named features (points are used).
    rng : random.Random
        Seeded.
    count : int
        Plans of each kind.
    min_m, max_m : float, optional
        Distance window, metres.

    Returns
    -------
    list of QuestionPlan
    """
    points = [f for f in features if f.kind == "point" and not f.at_edge]
    # names that occur once, so the legend's name picks one object
    counts: dict[str, int] = defaultdict(int)
    for f in points:
        counts[f.name] += 1
    points = [f for f in points if counts[f.name] == 1]
    if len(points) < 2:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in points])
    centres = [rel.centre_and_radius(f.geometry, frame) for f in points]
    plans: list[QuestionPlan] = []
    made = {"distance": 0, "orientation": 0}
    for _ in range(200 * count):
        if min(made.values()) >= count:
            break
        i, j = rng.sample(range(len(points)), 2)
        o = rel.orientation_between(centres[i], centres[j])
        d = o.distance
        if not (min_m <= d.meters <= max_m):
            continue
        a, b = points[i], points[j]
        if made["distance"] < count:
            made["distance"] += 1
            plans.append(QuestionPlan(
                "distance",
                f"Using the scale bar, how far apart are {a.name} (red dot) and {b.name} "
                "(blue dot) in a straight line? Answer in metres.",
                {"type": "distance", "meters": round(d.meters, 1)},
                (MapPlan((a, b), (a.name, b.name)),),
                {"radii_m": [d.radius_a_m, d.radius_b_m]},
                contextual=(f"Find the map that shows {a.name} (red dot) and {b.name} (blue "
                            "dot). Using its scale bar, how far apart are they in a "
                            "straight line? Answer in metres."),
            ))
        elif made["orientation"] < count and o.clear:
            made["orientation"] += 1
            angle = float(rng.choice([0, 30, 75, 120, 160, 210, 250, 300, 330]))
            plans.append(QuestionPlan(
                "orientation",
                f"The map may be turned: use its compass. In which direction is {a.name} "
                f"(red dot) from {b.name} (blue dot)? Answer with one of the eight compass "
                "directions (north, north-east, east, south-east, south, south-west, west, "
                "north-west).",
                {"type": "cardinal", "direction": o.direction},
                (MapPlan((a, b), (a.name, b.name), angle_deg=angle),),
                {"bearing_deg": round(o.bearing_deg, 2), "spread_deg": round(o.spread_deg, 2)},
                contextual=(f"Find the map that shows {a.name} (red dot) and {b.name} (blue "
                            "dot); it may be turned: use its compass. In which direction is "
                            f"{a.name} from {b.name}? Answer with one of the eight compass "
                            "directions (north, north-east, east, south-east, south, "
                            "south-west, west, north-west)."),
            ))
    return plans
