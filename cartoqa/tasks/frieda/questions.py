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

import math
import random
import zlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from groundtruth import relations as rel
from groundtruth.legend_areas import FAMILIES, CategoryArea, point_in_category
from groundtruth.named_features import NamedFeature
from groundtruth.relation_pairs import TopologicalPair

#: Colours in the order features are drawn (subject first).
COLORS: tuple[str, ...] = ("red", "blue", "purple", "orange")
#: Basemap styles (:data:`renderers.map_styles.STYLES`; repeated here so that plans stay
#: free of the renderers) and those that write no names.
STYLES: tuple[str, ...] = ("carto", "plain", "grey", "print")
UNLABELLED_STYLES: tuple[str, ...] = ("plain", "grey", "print")
#: North-arrow designs (:data:`renderers.compass.NORTH_DESIGNS`, repeated here).
NORTH_DESIGNS: tuple[str, ...] = ("rose", "arrow", "star")
#: Scale-bar units of distance questions (:data:`renderers.scale_bars.UNIT_METRES`) and
#: the words their prompts use.
SCALE_UNITS: dict[str, str] = {"m": "metres", "km": "kilometres", "ft": "feet",
                               "mi": "miles"}
#: Question templates per relation: each plan records its template and answer type
#: (``text``, ``list``, ``count``, ``distance``, ``direction``) in ``meta``.
TEMPLATES: dict[str, tuple[str, ...]] = {
    "border": ("one", "list", "count", "area_count", "area_pick"),
    "within": ("one", "list", "count", "category", "category_count", "category_of",
               "area_count", "two_relations"),
    "intersect": ("one", "list", "count", "area_count", "area_pick"),
    "equal": ("same_area", "area_category"),
    "distance": ("pair", "two_maps", "closest", "furthest", "legend_pick", "legend_rank"),
    "orientation": ("pair", "two_maps", "legend_pick", "legend_direction"),
}
#: The templates whose answer needs the map's legend (a thematic layer read through its
#: legend box: :mod:`cartoqa.tasks.frieda.legend_questions` and ``category``).
LEGEND_TEMPLATES: frozenset[str] = frozenset({"category", "category_count", "category_of",
                                              "legend_pick", "area_count", "area_category",
                                              "legend_rank", "legend_direction",
                                              "area_pick"})
#: The templates :func:`point_plans` makes.
POINT_TEMPLATES: tuple[str, ...] = ("pair", "two_maps", "closest", "furthest")
#: The templates :func:`topological_plans` makes (``category`` is :func:`legend_plans`).
TOPOLOGICAL_TEMPLATES: tuple[str, ...] = ("one", "list", "count")
#: The answer type of each template.
ANSWER_TYPES: dict[str, str] = {
    "one": "text", "list": "list", "count": "count", "same_area": "text",
    "pair": "", "two_maps": "", "closest": "text", "furthest": "text",
    "category": "text", "two_relations": "text", "category_count": "count",
    "category_of": "text", "legend_pick": "", "area_count": "count",
    "area_category": "text", "legend_rank": "text", "legend_direction": "text",
    "area_pick": "text",
}
#: Candidates drawn beside the subject (colours after red).
CANDIDATES = 3
#: closest/furthest: the answer's distance and the runner-up's differ by at least this
#: factor (a reader measuring with the scale bar within 20% cannot confuse them).
RANK_MIN_RATIO = 1.35
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
    style : str
        The basemap (:data:`renderers.map_styles.STYLES`): the maps of a two-map question
        are label-free (:data:`UNLABELLED_STYLES`), so that no map names on its basemap
        what the question asks the reader to find on the other.
    colors : tuple of str
        Explicit colours per feature (overrides ``first_color``), e.g. an anchor drawn
        orange on both maps of a two-map distance question.
    categories : tuple of (str, tuple of geometry)
        A thematic layer (:mod:`renderers.legend_layer`): legend categories in legend
        order, each with its ``(lon, lat)`` areas.
    category_checks : tuple of (int, int, bool)
        ``(feature, category, inside)``: after rendering, the ring around that feature's
        dot must show (``inside``) or not show that category's fill (feature indices
        count :attr:`features`, then :attr:`context`).
    min_legend : int
        Fewest categories the legend must still list once cut to those in view
        (:func:`cartoqa.tasks.frieda.maps.categories_in_view`); 0: one.
    keep_categories : tuple of int
        Categories the legend must still list once cut to those in view.
    area_checks : tuple of (int, geometry)
        ``(category, area)``: after rendering, that ``(lon, lat)`` area must show the
        category's fill on the image (an area a count question counts).
    north : str
        The north indicator (:data:`NORTH_DESIGNS`); ``""``: one picked from the
        features' keys (:meth:`north_design`), so every map of a build varies.
    scale_unit : str
        ``""``: Leaflet's metres-and-feet bars; ``m``, ``km``, ``ft`` or ``mi``: one
        bar in that unit (distance questions ask their answer in it).
    outset : tuple of int
        Polygon features drawn grown outward by
        :data:`cartoqa.tasks.frieda.maps.OUTSET_PX` pixels at the chosen zoom, so that
        their outline runs just outside their edge, clear of the features drawn after
        them along it (``two_relations``: A's outline is not covered by the candidates
        inside it).
    wider_for_legend : bool
        Zoom out (one zoom at a time, while the map still shows what it must inside the
        data) when the legend's categories do not all lie in view at the highest zoom
        (:func:`cartoqa.tasks.frieda.maps.legend_view`): the maps of the questions whose
        answer is a legend category (``area_category``, ``category_of``), where a
        refusal took the answer's category out of the build.
    """

    features: tuple[NamedFeature, ...]
    labels: tuple[str, ...]
    angle_deg: float = 0.0
    zoom: int | None = None
    context: tuple[NamedFeature, ...] = ()
    first_color: int = 0
    style: str = "carto"
    colors: tuple[str, ...] = ()
    categories: tuple[tuple[str, tuple[BaseGeometry, ...]], ...] = ()
    category_checks: tuple[tuple[int, int, bool], ...] = ()
    min_legend: int = 0
    keep_categories: tuple[int, ...] = ()
    area_checks: tuple[tuple[int, BaseGeometry], ...] = ()
    north: str = ""
    scale_unit: str = ""
    outset: tuple[int, ...] = ()
    wider_for_legend: bool = False

    def north_design(self) -> str:
        """:attr:`north`, or a design picked from the features' keys (deterministic)."""
        if self.north:
            return self.north
        key = "|".join(f.key for f in self.features) + f"|{self.angle_deg}"
        return NORTH_DESIGNS[zlib.crc32(key.encode()) % len(NORTH_DESIGNS)]

    def color(self, i: int) -> str:
        """The colour of feature ``i``."""
        if self.colors:
            return self.colors[i]
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


def uniquely_named(features: Sequence[NamedFeature], kind: str, *,
                   count_edge: bool = True) -> list[NamedFeature]:
    """Features of ``kind`` inside the view whose name no other feature of that kind
    has, so that a legend or question naming it picks one object.

    Parameters
    ----------
    features : sequence of NamedFeature
        The map's named features.
    kind : str
        ``"point"`` or ``"polygon"``.
    count_edge : bool
        Whether features at the view's edge count as namesakes (they are drawn, so a
        reader sees the name twice) or not.

    Returns
    -------
    list of NamedFeature
        In the order given.
    """
    of_kind = [f for f in features if f.kind == kind]
    names: dict[str, int] = defaultdict(int)
    for f in of_kind:
        if count_edge or not f.at_edge:
            names[f.name] += 1
    return [f for f in of_kind if not f.at_edge and names[f.name] == 1]


class PairLedger:
    """The subject-feature pairs a build has already asked about (one ledger per build).

    No two questions of a build draw the same feature beside the same subject (as its
    answer or a decoy), in any relation, and no subject is asked twice in a relation:
    two questions of one build are never the same question or the same subject with the
    same decoy.
    """

    def __init__(self) -> None:
        self.pairs: set[frozenset[str]] = set()
        self.subjects: set[tuple[str, str]] = set()
        #: key -> the keys already drawn beside it (either way round): ``pairs`` by key
        self.partners: dict[str, set[str]] = defaultdict(set)

    def free(self, subject: str, other: str) -> bool:
        """Whether ``other`` may still be drawn beside ``subject``."""
        return other not in self.partners.get(subject, ())

    def taken_with(self, subject: str) -> set[str] | frozenset[str]:
        """The keys that may no longer be drawn beside ``subject``."""
        return self.partners.get(subject, frozenset())

    def take(self, relation: str, subject: str, others: Sequence[str]) -> None:
        """Record a question's subject and the features drawn beside it."""
        self.subjects.add((relation, subject))
        for o in others:
            self.pairs.add(frozenset((subject, o)))
            self.partners[subject].add(o)
            self.partners[o].add(subject)


def _apart(metric: dict[str, BaseGeometry], keys: Sequence[str]) -> bool:
    """Whether no two of the drawn areas overlap (one drawn over another hides it)."""
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            ga, gb = metric[a], metric[b]
            if ga.area <= 0 or gb.area <= 0:
                continue
            inter = ga.intersection(gb).area
            if inter > rel.NO_OVERLAP_MAX_FRACTION * min(ga.area, gb.area):
                return False
    return True


_VERBS = {"border": "border", "within": "lie entirely within", "intersect": "partly overlap"}
_VERB_ONE = {"border": "borders", "within": "lies entirely within",
             "intersect": "partly overlaps"}


def _template_text(template: str, relation: str, n: int) -> tuple[str, str]:
    """The asking part of a topological question and its answer instruction."""
    if template == "one":
        return (f"Which one of these {n} features {_VERB_ONE[relation]}",
                "Answer with its name.")
    if template == "list":
        return (f"Which of these {n} features {_VERBS[relation]}",
                "Name every one that does (one or more), separated by semicolons.")
    return (f"How many of these {n} features {_VERBS[relation]}", "Answer with a number.")


def topological_plans(pairs: Sequence[TopologicalPair], relation: str, *, rng: random.Random,
                      multi: bool | Sequence[bool] = False,
                      templates: Sequence[str] = ("one",),
                      ledger: PairLedger | None = None) -> list[QuestionPlan]:
    """Questions about the features drawn beside a subject in one relation to it.

    Templates (:data:`TEMPLATES`): ``one`` (exactly one of :data:`CANDIDATES` drawn
    features is in the relation: its name), ``list`` (two or three are: their names)
    and ``count`` (none to three are: how many; the number least given so far among
    those the subject allows, so that no fixed guess does well). The other candidates
    are in a relation of :data:`DISTRACTOR_RELATIONS` (and not in a hole of the
    subject, where they look inside its outline); no two drawn areas overlap each
    other. Each subject gives one plan, its template the first of ``templates`` (in
    turn) that it supports. With ``multi``, the subject is alone on a first map and
    the candidates on a second, both label-free (:data:`UNLABELLED_STYLES`), so the
    two must be matched by their streets and buildings; one-map plans draw their
    basemap style at random.

    Parameters
    ----------
    pairs : sequence of TopologicalPair
        From :func:`groundtruth.relation_pairs.topological_pairs` with the disjoint
        pairs.
    relation : str
        ``"border"``, ``"within"`` or ``"intersect"``.
    rng : random.Random
        Seeded.
    multi : bool or sequence of bool, optional
        Two maps instead of one; a sequence: for successive plans, in turn.
    templates : sequence of str, optional
        Templates to use, in turn.
    ledger : PairLedger, optional
        The build's pairs already asked (updated): subjects and subject-feature pairs in
        it are not used again.

    Returns
    -------
    list of QuestionPlan
    """
    index = relation_index(pairs)
    feats = _features(pairs)
    ledger = ledger if ledger is not None else PairLedger()
    frame = rel.LocalFrame.around([f.geometry for f in feats.values()]) if feats else None
    metric: dict[str, BaseGeometry] = {}
    # "which lies within S": candidates are within S, i.e. S contains them
    wanted = {"within": "contains"}.get(relation, relation)
    plans = []
    turn = 0
    kind_turn = {False: 0, True: 0}
    made: dict[tuple[bool, str, int], int] = defaultdict(int)
    for skey in sorted(index):
        subject = feats[skey]
        if subject.kind == "line" or (relation, skey) in ledger.subjects:
            continue
        others = index[skey]
        true = sorted(k for k, r in others.items() if r == wanted and ledger.free(skey, k))
        # a distractor in a hole of the subject looks "inside" its outline: left out
        holes = _holes(subject)
        false = sorted(k for k, r in others.items() if r in DISTRACTOR_RELATIONS[relation]
                       and not holes.intersects(feats[k].geometry) and ledger.free(skey, k))
        if not true:
            continue
        assert frame is not None
        for k in (*true, *false):
            if k not in metric:
                metric[k] = frame.to_metric(feats[k].geometry)
        picks: list[str] | None = None
        template = ""
        two_maps = multi if isinstance(multi, bool) else multi[turn % len(multi)]
        # templates in turn within each kind (one map, two maps)
        start = kind_turn[two_maps]
        order = [templates[(start + i) % len(templates)] for i in range(len(templates))]
        for template in order:
            feasible = [n for n in {"one": (1,), "list": (2, 3),
                                    "count": (0, 1, 2, 3)}[template]
                        if n <= len(true) and CANDIDATES - n <= len(false)]
            if not feasible:
                continue
            # the count least given so far: a fixed guess stays near chance
            given = {n: made[(two_maps, template, n)] for n in (0, 1, 2, 3)}
            least = min(given[n] for n in feasible)
            if template == "count" and least > min(given[n] for n in (0, 1, 2)):
                continue  # this subject would tip the counts: another template
            n_true = rng.choice([n for n in feasible if given[n] == least])
            n_false = CANDIDATES - n_true
            if len(false) < n_false:
                continue
            for _ in range(6):  # a few draws for candidates that do not overlap
                got = [*rng.sample(true, n_true), *rng.sample(false, n_false)]
                names = {feats[k].name for k in got} | {subject.name}
                if len(names) == len(got) + 1 and _apart(metric, got):
                    picks = got
                    break
            if picks is not None:
                break
        if picks is None:
            continue
        turn += 1
        kind_turn[two_maps] += 1
        made[(two_maps, template, n_true)] += 1
        true_picks = [k for k in picks if others[k] == wanted]
        rng.shuffle(picks)
        ledger.take(relation, skey, picks)
        cands = tuple(feats[k] for k in picks)
        asking, instruction = _template_text(template, relation, len(cands))
        maps: tuple[MapPlan, ...]
        if two_maps:
            maps = (
                MapPlan((subject,), (subject.name,), angle_deg=rng.choice([0.0, 90.0, 200.0]),
                        style=rng.choice(UNLABELLED_STYLES)),
                MapPlan(cands, tuple(c.name for c in cands), context=(subject,),
                        first_color=1, style=rng.choice(UNLABELLED_STYLES)),
            )
            same_place = (f"shows the same place (its scale, turn and style may differ), with "
                          f"{len(cands)} other features named in its legend "
                          f"({subject.name} is not drawn there)")
            prompt = (f"Map 1 draws {_describe(subject)} in red. Map 2 {same_place}. "
                      f"{asking} {subject.name}? {instruction}")
            contextual = (f"One of the maps draws {_describe(subject)} alone in red; another "
                          f"{same_place}. {asking} {subject.name}? {instruction}")
        else:
            maps = (MapPlan((subject, *cands), (subject.name, *(c.name for c in cands)),
                            style=rng.choice(STYLES)),)
            prompt = ("The legend names the features drawn on the map. "
                      f"Of the {len(cands)} features other than {subject.name}: "
                      f"{asking[0].lower()}{asking[1:]} {_describe(subject)}, drawn in red? "
                      f"{instruction}")
            contextual = (f"Find the map that draws {_describe(subject)} in red. Of the "
                          f"{len(cands)} other features named in that map's legend: "
                          f"{asking[0].lower()}{asking[1:]} {subject.name}? {instruction}")
        answer: dict[str, Any]
        if template == "count":
            answer = {"type": "count", "count": len(true_picks)}
        else:
            answer = {"type": "textual", "names": sorted(feats[k].name for k in true_picks)}
        plans.append(QuestionPlan(
            relation, prompt, answer, maps,
            {"subject": subject.key, "relations": {k: others[k] for k in picks},
             "template": template, "answer_type": ANSWER_TYPES[template]},
            contextual=contextual,
        ))
    return plans


def equal_plans(features: Sequence[NamedFeature], *, rng: random.Random,
                ledger: PairLedger | None = None) -> list[QuestionPlan]:
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
    ledger : PairLedger, optional
        The build's pairs already asked (updated).

    Returns
    -------
    list of QuestionPlan
    """
    ledger = ledger if ledger is not None else PairLedger()
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
            and ledger.free(subject.key, f.key)
        ]
        if not near or ("equal", subject.key) in ledger.subjects:
            continue
        other = rng.choice(sorted(near, key=lambda f: f.key))
        ledger.take("equal", subject.key, [other.key])
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
            # no map writes names: OSM-Carto would label Area A or B with its name
            (MapPlan((subject,), (subject.name,), style=rng.choice(UNLABELLED_STYLES)),
             MapPlan(tuple(order), ("Area A", "Area B"),
                     angle_deg=rng.choice([45.0, 120.0, 270.0]), first_color=1,
                     style=rng.choice(UNLABELLED_STYLES))),
            {"subject": subject.key, "other": other.key, "template": "same_area",
             "answer_type": "text"}, contextual=contextual,
        ))
    return plans


def with_area_letter(plan: QuestionPlan, letter: str) -> QuestionPlan:
    """An ``equal`` plan with its subject drawn as Area ``letter`` on map 2.

    The two areas of map 2 swap places (and with them their legend labels and
    colours) when the subject is not already ``letter``; nothing else changes.

    Parameters
    ----------
    plan : QuestionPlan
        From :func:`equal_plans`.
    letter : str
        ``"A"`` or ``"B"``.

    Returns
    -------
    QuestionPlan
    """
    if plan.answer.get("names") == [letter]:
        return plan
    second = plan.maps[1]
    swapped = replace(second, features=second.features[::-1],
                      colors=second.colors[::-1])
    return replace(plan, answer={**plan.answer, "names": [letter]},
                   maps=(plan.maps[0], swapped, *plan.maps[2:]))


def balance_area_letters(plans: Sequence[QuestionPlan],
                         rng: random.Random) -> list[QuestionPlan]:
    """``equal`` plans whose answers alternate between A and B in seeded pairs.

    Each two consecutive plans (in the order the build's slots take them) answer A
    once and B once, in an order drawn from ``rng``: a build's letters are balanced
    to within one item (a guess of A or B scores a half), instead of each plan's
    own coin flip (2 of 3 B in a three-question build).

    Parameters
    ----------
    plans : sequence of QuestionPlan
        From :func:`equal_plans`, in the order slots take them.
    rng : random.Random
        Seeded.

    Returns
    -------
    list of QuestionPlan

    Examples
    --------
    >>> from groundtruth.named_features import NamedFeature
    >>> from shapely.geometry import box
    >>> feats = [NamedFeature(f"Park {k}", "polygon", "park", (f"way/{k}",),
    ...                       box(24.9 + k * 0.002, 60.17, 24.901 + k * 0.002, 60.171))
    ...          for k in range(6)]
    >>> plans = equal_plans(feats, rng=random.Random(1))
    >>> letters = [p.answer["names"][0]
    ...            for p in balance_area_letters(plans, random.Random(0))]
    >>> len(letters), all(sorted(letters[k:k + 2]) == ["A", "B"] for k in (0, 2))
    (5, True)
    """
    out: list[QuestionPlan] = []
    for start in range(0, len(plans), 2):
        letters = ["A", "B"]
        rng.shuffle(letters)
        out.extend(with_area_letter(plan, letter)
                   for plan, letter in zip(plans[start:start + 2], letters, strict=False))
    return out


_DIRECTIONS_TEXT = ("Answer with one of the eight compass directions (north, north-east, "
                    "east, south-east, south, south-west, west, north-west).")


class PointDistances:
    """Geodesic metres between the centres of a build's points, a row at a time, cached.

    ``d(a, b)`` equals ``rel.distance_between(centres[a], centres[b]).meters`` bit for bit
    (:func:`groundtruth.relations.distances_from`); a row costs one array call instead
    of one geodesic call per point, and planning asks the same rows many times.

    Examples
    --------
    >>> c = [(60.0, 24.0, 0.0), (60.001, 24.0, 0.0), (60.0, 24.002, 0.0)]
    >>> d = PointDistances(c)
    >>> d(0, 1) == rel.distance_between(c[0], c[1]).meters
    True
    >>> d.within(0, 100.0, 200.0)
    [1, 2]
    """

    def __init__(self, centres: Sequence[tuple[float, float, float]]) -> None:
        self.centres = centres
        self.lats = np.array([c[0] for c in centres], dtype=float)
        self.lons = np.array([c[1] for c in centres], dtype=float)
        self._rows: dict[int, np.ndarray] = {}
        self._within: dict[tuple[int, float, float], list[int]] = {}

    def row(self, a: int) -> np.ndarray:
        """Metres from point ``a`` to every point."""
        got = self._rows.get(a)
        if got is None:
            got = self._rows[a] = rel.distances_from(self.centres[a], self.lats, self.lons)
        return got

    def __call__(self, a: int, b: int) -> float:
        return float(self.row(a)[b])

    def within(self, a: int, lo: float, hi: float) -> list[int]:
        """The points ``k != a`` with ``lo <= d(a, k) <= hi``, in index order."""
        key = (a, lo, hi)
        got = self._within.get(key)
        if got is None:
            row = self.row(a)
            got = [int(k) for k in np.flatnonzero((row >= lo) & (row <= hi)) if k != a]
            self._within[key] = got
        return got


def point_plans(features: Sequence[NamedFeature], *, rng: random.Random, count: int,
                min_m: float = 200.0, max_m: float = 550.0, ledger: PairLedger | None = None,
                templates: Sequence[str] = ("pair",)) -> list[QuestionPlan]:
    """Distance and orientation questions between named points.

    Templates (:data:`TEMPLATES`), ``count`` plans of each that the relation has:

    * ``pair`` (one map): the distance between two dots, or the direction of one from
      the other (orientation maps are turned, so only the compass gives north);
    * ``two_maps``: the first dot on map 1, the second on map 2, and an anchor (orange)
      on both, each map at its own scale, turn and label-free style: the reader aligns
      the maps through the anchor and the streets;
    * ``closest`` / ``furthest`` (distance, one map): which of three dots lies closest to
      (furthest from) a fourth; the answer's distance and the runner-up's differ by at
      least :data:`RANK_MIN_RATIO`.

    Distances lie between ``min_m`` and ``max_m`` (the scale-bar margin is checked after
    rendering); orientations only when clear (:attr:`groundtruth.relations.Orientation.clear`).

    Parameters
    ----------
    features : sequence of NamedFeature
        Named features (points with a name that occurs once are used).
    rng : random.Random
        Seeded.
    count : int
        Plans of each relation and template.
    min_m, max_m : float, optional
        Distance window, metres.
    ledger : PairLedger, optional
        The build's pairs already asked (updated): no pair of points is asked twice.
    templates : sequence of str, optional
        Templates to make.

    Returns
    -------
    list of QuestionPlan
    """
    ledger = ledger if ledger is not None else PairLedger()
    # names that occur once, so the legend's name picks one object
    points = uniquely_named(features, "point", count_edge=False)
    if len(points) < 4:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in points])
    centres = [rel.centre_and_radius(f.geometry, frame) for f in points]
    dist = PointDistances(centres)
    # the same pairs come up again and again once the free ones grow rare
    between: dict[tuple[int, int], rel.Orientation] = {}
    plans: list[QuestionPlan] = []
    wanted = {(r, t) for r in ("distance", "orientation") for t in templates
              if t in TEMPLATES[r]}
    made = dict.fromkeys(wanted, 0)

    def free(*ids: int) -> bool:
        keys = [points[i].key for i in ids]
        return all(ledger.free(keys[0], k) for k in keys[1:])

    def take(relation: str, *ids: int) -> None:
        ledger.take(relation, points[ids[0]].key, [points[i].key for i in ids[1:]])

    for _ in range(300 * count):
        open_ = [k for k, n in made.items() if n < count]
        if not open_:
            break
        relation, template = rng.choice(sorted(open_))
        if template in ("closest", "furthest"):
            got = _ranked(points, centres, rng, template, min_m, max_m, dist)
            if got is None or not free(*got) \
                    or (relation, points[got[0]].key) in ledger.subjects:
                continue
            x, cands = got[0], got[1:]
            take(relation, *got)
            ledger.subjects.add((relation, points[x].key))
            plans.append(_ranked_plan(points, centres, template, x, cands, rng, dist))
            made[(relation, template)] += 1
            continue
        i, j = rng.sample(range(len(points)), 2)
        o = between.get((i, j))
        if o is None:
            o = between[(i, j)] = rel.orientation_between(centres[i], centres[j])
        d = o.distance
        if not (min_m <= d.meters <= max_m) or not free(i, j):
            continue
        if relation == "orientation" and not o.clear:
            continue
        a, b = points[i], points[j]
        if template == "pair":
            take(relation, i, j)
            plans.append(_pair_plan(relation, a, b, o, rng))
        else:
            m = _anchor(centres, i, j, rng, dist)
            if m is None or not free(i, j, m):
                continue
            take(relation, i, j, m)
            plans.append(_two_map_plan(relation, a, b, points[m], o, rng))
        made[(relation, template)] += 1
    return plans


def _pair_plan(relation: str, a: NamedFeature, b: NamedFeature, o: rel.Orientation,
               rng: random.Random) -> QuestionPlan:
    style = rng.choice(STYLES)
    if relation == "distance":
        d = o.distance
        unit = rng.choice(sorted(SCALE_UNITS))
        words = SCALE_UNITS[unit]
        return QuestionPlan(
            "distance",
            f"Using the scale bar, how far apart are {a.name} (red dot) and {b.name} "
            f"(blue dot) in a straight line? Answer in {words}, the scale bar's unit.",
            {"type": "distance", "meters": round(d.meters, 1), "unit": unit},
            (MapPlan((a, b), (a.name, b.name), style=style, scale_unit=unit),),
            {"radii_m": [d.radius_a_m, d.radius_b_m], "template": "pair",
             "answer_type": "distance"},
            contextual=(f"Find the map that shows {a.name} (red dot) and {b.name} (blue "
                        "dot). Using its scale bar, how far apart are they in a "
                        f"straight line? Answer in {words}, the scale bar's unit."),
        )
    angle = float(rng.choice([0, 30, 75, 120, 160, 210, 250, 300, 330]))
    return QuestionPlan(
        "orientation",
        f"The map may be turned: use its compass. In which direction is {a.name} "
        f"(red dot) from {b.name} (blue dot)? {_DIRECTIONS_TEXT}",
        {"type": "cardinal", "direction": o.direction},
        (MapPlan((a, b), (a.name, b.name), angle_deg=angle, style=style),),
        {"bearing_deg": round(o.bearing_deg, 2), "spread_deg": round(o.spread_deg, 2),
         "template": "pair", "answer_type": "direction"},
        contextual=(f"Find the map that shows {a.name} (red dot) and {b.name} (blue "
                    "dot); it may be turned: use its compass. In which direction is "
                    f"{a.name} from {b.name}? {_DIRECTIONS_TEXT}"),
    )


#: Two-map questions: the anchor lies this far (metres) from each of the two points.
ANCHOR_RANGE_M: tuple[float, float] = (120.0, 400.0)


def _anchor(centres: Sequence[tuple[float, float, float]], i: int, j: int,
            rng: random.Random, dist: PointDistances | None = None) -> int | None:
    """A point between ``ANCHOR_RANGE_M`` of both ``i`` and ``j`` (or ``None``)."""
    dist = dist if dist is not None else PointDistances(centres)
    order = list(range(len(centres)))
    rng.shuffle(order)
    lo, hi = ANCHOR_RANGE_M
    # metres from m to i and j (the geodesic distance is symmetric to the bit: its
    # routine puts the two ends in one order before measuring)
    row_i, row_j = dist.row(i), dist.row(j)
    for m in order[:400]:
        if m in (i, j):
            continue
        di = float(row_i[m])
        dj = float(row_j[m])
        if lo <= di <= hi and lo <= dj <= hi:
            return m
    return None


def _two_map_plan(relation: str, a: NamedFeature, b: NamedFeature, m: NamedFeature,
                  o: rel.Orientation, rng: random.Random) -> QuestionPlan:
    turns = [0.0, 30.0, 75.0, 120.0, 160.0, 210.0, 250.0, 300.0, 330.0]
    # a distance is asked in the unit both maps' scale bars show
    unit = rng.choice(sorted(SCALE_UNITS)) if relation == "distance" else ""
    maps = (
        MapPlan((a, m), (a.name, m.name), angle_deg=rng.choice(turns),
                style=rng.choice(UNLABELLED_STYLES), colors=("red", "orange"),
                scale_unit=unit),
        MapPlan((b, m), (b.name, m.name), angle_deg=rng.choice(turns),
                style=rng.choice(UNLABELLED_STYLES), colors=("blue", "orange"),
                scale_unit=unit),
    )
    setup = (f"Map 1 shows {a.name} (red dot) and {m.name} (orange dot). Map 2 shows "
             f"{m.name} again (orange dot) and {b.name} (blue dot), at its own scale and "
             "turn. Use both maps' scale bars and compasses.")
    setup_ctx = (f"One of the maps shows {a.name} (red dot) and {m.name} (orange dot); "
                 f"another shows {m.name} again (orange dot) and {b.name} (blue dot), at "
                 "its own scale and turn. Use both maps' scale bars and compasses.")
    if relation == "distance":
        d = o.distance
        ask = (f"How far apart are {a.name} and {b.name} in a straight line? Answer in "
               f"{SCALE_UNITS[unit]}, the scale bars' unit.")
        return QuestionPlan(
            "distance", f"{setup} {ask}",
            {"type": "distance", "meters": round(d.meters, 1), "unit": unit},
            maps, {"radii_m": [d.radius_a_m, d.radius_b_m], "anchor": m.key,
                   "template": "two_maps", "answer_type": "distance"},
            contextual=f"{setup_ctx} {ask}")
    ask = f"In which direction is {a.name} from {b.name}? {_DIRECTIONS_TEXT}"
    return QuestionPlan(
        "orientation", f"{setup} {ask}", {"type": "cardinal", "direction": o.direction},
        maps, {"bearing_deg": round(o.bearing_deg, 2), "spread_deg": round(o.spread_deg, 2),
               "anchor": m.key, "template": "two_maps", "answer_type": "direction"},
        contextual=f"{setup_ctx} {ask}")


#: closest/furthest: the candidates lie at least this far from the subject and from each
#: other (dots of 8 px radius stay apart at zoom 15), metres.
RANK_MIN_GAP_M = 60.0


def _ranked(points: Sequence[NamedFeature], centres: Sequence[tuple[float, float, float]],
            rng: random.Random, template: str, min_m: float, max_m: float,
            between: PointDistances | None = None) -> list[int] | None:
    """A subject and three candidates whose closest (furthest) one is clear."""
    between = between if between is not None else PointDistances(centres)
    x = rng.randrange(len(points))
    near = between.within(x, RANK_MIN_GAP_M, max_m)
    if len(near) < CANDIDATES:
        return None
    cands = rng.sample(near, CANDIDATES)
    for p, c in enumerate(cands):
        for q in cands[p + 1:]:
            if between(c, q) < RANK_MIN_GAP_M:
                return None
    dist = sorted(between(x, c) for c in cands)
    if template == "closest" and dist[1] < RANK_MIN_RATIO * dist[0]:
        return None
    if template == "furthest" and (dist[2] < RANK_MIN_RATIO * dist[1] or dist[2] < min_m):
        return None
    return [x, *cands]


def _ranked_plan(points: Sequence[NamedFeature], centres: Sequence[tuple[float, float, float]],
                 template: str, x: int, cands: Sequence[int], rng: random.Random,
                 between: PointDistances | None = None) -> QuestionPlan:
    between = between if between is not None else PointDistances(centres)
    dist = {c: between(x, c) for c in cands}
    pick = min(cands, key=dist.__getitem__) if template == "closest" \
        else max(cands, key=dist.__getitem__)
    subject = points[x]
    feats = (subject, *(points[c] for c in cands))
    word = "closest to" if template == "closest" else "furthest from"
    ask = (f"Which of the three places drawn in blue, purple and orange lies {word} "
           f"{subject.name} (red dot), in a straight line? Answer with its name.")
    return QuestionPlan(
        "distance", ask, {"type": "textual", "names": [points[pick].name]},
        (MapPlan(feats, tuple(f.name for f in feats), style=rng.choice(STYLES)),),
        {"subject": subject.key, "distances_m": {points[c].key: round(dist[c], 1)
                                                 for c in cands},
         "template": template, "answer_type": "text"},
        contextual=f"Find the map that draws {subject.name} as a red dot. {ask}")


#: ``category`` template: most categories a map's legend names.
MAX_LEGEND_CATEGORIES = 5
#: ``category`` template: the three dots lie at least this far apart and within this
#: distance of the answer's dot, metres.
LEGEND_DOT_GAP_M = 60.0
LEGEND_DOT_SPREAD_M = 300.0
#: ``category`` template: areas within this distance of the dots are drawn, metres.
LEGEND_DRAW_RADIUS_M = 700.0


def legend_plans(features: Sequence[NamedFeature], areas: Sequence[CategoryArea], *,
                 rng: random.Random, count: int, ledger: PairLedger | None = None,
                 statuses: Mapping[str, Sequence[Mapping[str, bool | None]]] | None = None
                 ) -> list[QuestionPlan]:
    """``within`` questions read through a legend: which dot lies in an area of a category?

    Each map draws the areas of one :data:`groundtruth.legend_areas.FAMILIES` family
    (land use, building use) as fills with hatches, a legend box naming the categories
    by their swatch, and three named places as blue, purple and orange dots: exactly
    one lies within an area of the asked category, the others clearly outside every
    area of it (:func:`groundtruth.legend_areas.point_in_category`), preferably inside
    another category (so the reader must tell the swatches apart). The legend names no
    place's relation: the reader matches fill to legend.

    Parameters
    ----------
    features : sequence of NamedFeature
        Named features (points with a name that occurs once are used).
    areas : sequence of CategoryArea
        The extract's legend areas (:func:`groundtruth.legend_areas.load_category_areas`).
    rng : random.Random
        Seeded.
    count : int
        Most plans.
    ledger : PairLedger, optional
        The build's pairs already asked (updated): one question per category and
        answer, no category-place pair twice.
    statuses : mapping, optional
        Family -> each point's :func:`~groundtruth.legend_areas.point_in_category` per
        category, already worked out for ``uniquely_named(features, "point")``
        (``FamilyIndex.status`` of :mod:`cartoqa.tasks.frieda.legend_questions`, made
        with an area tree); worked out here when not given.

    Returns
    -------
    list of QuestionPlan
    """
    ledger = ledger if ledger is not None else PairLedger()
    points = uniquely_named(features, "point")
    if len(points) < 3 or not areas:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in points])
    xy = [frame.to_metric(f.geometry) for f in points]
    plans: list[QuestionPlan] = []
    for family in FAMILIES:
        fam = [a for a in areas if a.family == family]
        cats = sorted({a.category for a in fam})
        fam_metric = [frame.to_metric(a.geometry) for a in fam]
        known = statuses.get(family) if statuses is not None else None
        if known is not None:
            status = {(i, c): known[i][c] for i in range(len(points)) for c in cats}
        else:
            status = {(i, c): point_in_category(p.geometry, c, fam, frame, fam_metric)
                      for i, p in enumerate(points) for c in cats}
        # categories in turn, so that no one category fills the family's share
        queues: dict[str, list[int]] = {}
        for c in cats:
            queues[c] = [i for i in range(len(points)) if status[(i, c)] is True]
            rng.shuffle(queues[c])
        made = 0
        while made < count and any(queues.values()):
            for c in [c for c in cats if queues[c]]:
                a = queues[c].pop()
                got = _legend_picks(points, xy, status, cats, c, a, family, ledger, rng)
                if got is None or made >= count:
                    continue
                # the answer's colour in turn (blue, purple, orange): no fixed guess
                got = _answer_at(got, a, len(plans) % 3)
                ledger.take("within", f"legend:{family}:{c}", [points[i].key for i in got])
                plans.append(_legend_plan(points, got, a, c, family, fam, frame, rng,
                                          fam_metric))
                made += 1
    return plans


def _answer_at(picks: list[int], answer: int, place: int) -> list[int]:
    """The picks with ``answer`` moved to ``place`` (the others keep their order).

    Examples
    --------
    >>> _answer_at([4, 7, 9], 7, 2)
    [4, 9, 7]
    """
    rest = [p for p in picks if p != answer]
    return [*rest[:place], answer, *rest[place:]]


def _legend_picks(points: Sequence[NamedFeature], xy: Sequence[BaseGeometry],
                  status: dict[tuple[int, str], bool | None], cats: Sequence[str], c: str,
                  a: int, family: str, ledger: PairLedger, rng: random.Random
                  ) -> list[int] | None:
    """The answer ``a`` and two decoys clearly outside category ``c``, shuffled."""
    subject = f"legend:{family}:{c}"
    if not ledger.free(subject, points[a].key):
        return None
    # metres from a to every point in one call (the same GEOS distance as one by one)
    da = shapely.distance(xy[a], np.asarray(xy, dtype=object)).tolist()
    near = [i for i in range(len(points)) if status[(i, c)] is False
            and LEGEND_DOT_GAP_M <= da[i] <= LEGEND_DOT_SPREAD_M
            and ledger.free(subject, points[i].key)]
    # decoys inside another category first: the swatches must be told apart
    rng.shuffle(near)
    near.sort(key=lambda i: not any(status[(i, o)] for o in cats if o != c))
    decoys: list[int] = []
    for i in near:
        if all(xy[i].distance(xy[j]) >= LEGEND_DOT_GAP_M for j in decoys):
            decoys.append(i)
        if len(decoys) == 2:
            picks = [a, *decoys]
            rng.shuffle(picks)
            return picks
    return None


def _legend_plan(points: Sequence[NamedFeature], picks: Sequence[int], answer: int,
                 category: str, family: str, fam: Sequence[CategoryArea],
                 frame: rel.LocalFrame, rng: random.Random,
                 fam_metric: Sequence[BaseGeometry] | None = None) -> QuestionPlan:
    centre = shapely.union_all([frame.to_metric(points[i].geometry) for i in picks]).centroid
    drawn: dict[str, list[BaseGeometry]] = defaultdict(list)
    dist: dict[str, float] = {}
    metric = fam_metric if fam_metric is not None else [frame.to_metric(a.geometry)
                                                         for a in fam]
    for a, g in zip(fam, metric, strict=True):
        d = g.distance(centre)
        if d <= LEGEND_DRAW_RADIUS_M:
            drawn[a.category].append(a.geometry)
            dist[a.category] = min(dist.get(a.category, d), d)
    # the asked category and the nearest others, in alphabetical legend order
    others = sorted((c for c in drawn if c != category), key=dist.__getitem__)
    legend = sorted([category, *others[:MAX_LEGEND_CATEGORIES - 1]])
    cats = tuple((c, tuple(drawn[c])) for c in legend)
    ci = legend.index(category)
    feats = tuple(points[i] for i in picks)
    checks = tuple((k, ci, picks[k] == answer) for k in range(len(picks)))
    dots = ", ".join(f"{f.name} ({c} dot)" for f, c in
                     zip(feats[:-1], ("blue", "purple"), strict=True))
    ask = (f"The map shades areas by {family}: its legend box at the bottom right names "
           f"each fill. Which of {dots} and {feats[-1].name} (orange dot) lies within an "
           f"area shown as {category}? Answer with its name.")
    return QuestionPlan(
        "within", ask, {"type": "textual", "names": [points[answer].name]},
        (MapPlan(feats, tuple(f.name for f in feats), style=rng.choice(UNLABELLED_STYLES),
                 colors=("blue", "purple", "orange"), categories=cats,
                 category_checks=checks),),
        {"subject": f"legend:{family}:{category}:{points[answer].key}", "template": "category",
         "answer_type": "text", "family": family, "category": category,
         "legend": legend},
        contextual=f"Find the map that shades areas by {family} and draws these dots. {ask}",
    )


#: ``two_relations``: the drawn features (lines clipped near A as the map draws them)
#: must fit in this many pixels at zoom 17 (the image is 1366 x 768; room is left for
#: the legend, compass and scale bar): a wider plan needs zoom 16 or less, whose view is
#: wider than central Helsinki's data (the ``past_data`` rejection), metres per pixel
#: at zoom 17 taken at the features' latitude.
TWO_RELATION_MAX_PX: tuple[float, float] = (1000.0, 520.0)
#: ``two_relations``: how far (degrees) around A's box a line is drawn
#: (:data:`cartoqa.tasks.frieda.maps.LINE_CLIP_DEG`, repeated: plans stay free of maps).
TWO_RELATION_LINE_CLIP_DEG = 0.0015


def fits_zoom17(geoms: Sequence[BaseGeometry], frame: rel.LocalFrame,
                max_px: tuple[float, float] = TWO_RELATION_MAX_PX) -> bool:
    """Whether ``(lon, lat)`` geometries fit together in ``max_px`` pixels at zoom 17.

    Examples
    --------
    >>> from shapely.geometry import Point
    >>> frame = rel.LocalFrame(60.0, 24.0)  # 0.597 m a pixel at zoom 17
    >>> pts = [frame.to_lonlat(Point(0, 0)), frame.to_lonlat(Point(590, 300))]
    >>> fits_zoom17(pts, frame), fits_zoom17(pts, frame, (900.0, 520.0))
    (True, False)
    """
    metric = shapely.union_all([frame.to_metric(g) for g in geoms])
    x0, y0, x1, y1 = metric.bounds
    lat = shapely.union_all(list(geoms)).centroid.y
    m_px = 156_543.03392 * math.cos(math.radians(lat)) / 2 ** 17
    return x1 - x0 <= max_px[0] * m_px and y1 - y0 <= max_px[1] * m_px


def two_relation_plans(pairs: Sequence[TopologicalPair], *, rng: random.Random,
                       ledger: PairLedger | None = None,
                       rejected: dict[str, int] | None = None) -> list[QuestionPlan]:
    """``within``/``two_relations``: which feature lies within A **and** borders B?

    One map draws A (red), B (orange) and three candidates (blue, purple, cyan):
    exactly one lies within A and borders B; one decoy lies within A but is clearly
    apart from B, one borders B but is clearly apart from A, so no single relation
    finds the answer. Every relation is a clear one of
    :func:`groundtruth.relation_pairs.topological_pairs`; drawn candidates do not
    overlap each other. A's outline is drawn just outside its edge
    (:attr:`MapPlan.outset`): the candidates inside A and B along it would otherwise
    cover it (the decoy outside A is clearly apart from it, so the grown outline never
    reaches it). A plan whose features do not fit one zoom-17 view
    (:func:`fits_zoom17`) is not made: counted as ``too_wide`` in ``rejected``.

    Parameters
    ----------
    pairs : sequence of TopologicalPair
        With the disjoint pairs.
    rng : random.Random
        Seeded.
    ledger : PairLedger, optional
        The build's pairs already asked (updated): a pair A, B is asked once (a
        candidate may have been drawn beside A in another relation's question: this
        one asks two relations at once), a candidate once in this template.
    rejected : dict, optional
        Counts of plans not made, by reason (updated): ``too_wide``, ``names`` (two
        drawn features share a name), ``overlap`` (two candidates overlap), ``asked``.

    Returns
    -------
    list of QuestionPlan
    """
    index = relation_index(pairs)
    feats = _features(pairs)
    ledger = ledger if ledger is not None else PairLedger()
    rejected = rejected if rejected is not None else {}
    if not feats:
        return []
    frame = rel.LocalFrame.around([f.geometry for f in feats.values()])
    metric: dict[str, BaseGeometry] = {}
    plans: list[QuestionPlan] = []
    used: set[str] = set()

    def drawn(key: str, around: NamedFeature) -> BaseGeometry:
        f = feats[key]
        if f.kind != "line":
            return f.geometry
        clip = f.geometry.intersection(around.geometry.envelope.buffer(
            TWO_RELATION_LINE_CLIP_DEG))
        return clip if not clip.is_empty else f.geometry

    def count(reason: str) -> None:
        rejected[reason] = rejected.get(reason, 0) + 1

    for akey in sorted(index):
        a = feats[akey]
        if a.kind != "polygon":
            continue
        inside = [k for k, r in index[akey].items() if r == "contains"
                  and feats[k].kind == "polygon"]
        options = []
        for t in inside:
            for bkey, r in index[t].items():
                if r != "border" or bkey == akey or index[akey].get(bkey) == "contains":
                    continue
                only_a = [k for k in inside if k != t and index[bkey].get(k) == "disjoint"]
                only_b = [k for k, rb in index[bkey].items() if rb == "border"
                          and k not in (akey, t) and feats[k].kind == "polygon"
                          and index[akey].get(k) == "disjoint"]
                if only_a and only_b:
                    options.append((t, bkey, only_a, only_b))
        rng.shuffle(options)
        for t, bkey, only_a, only_b in options:
            picks = [t, rng.choice(sorted(only_a)), rng.choice(sorted(only_b))]
            keys = [akey, bkey, *picks]
            pair = f"two:{akey}+{bkey}"
            if len({feats[k].name for k in keys}) < len(keys):
                count("names")
                continue
            if used & set(picks) or (relation_key := ("two_relations", pair)) \
                    in ledger.subjects:
                count("asked")
                continue
            for k in picks:
                if k not in metric:
                    metric[k] = frame.to_metric(feats[k].geometry)
            if not _apart(metric, picks):
                count("overlap")
                continue
            if not fits_zoom17([drawn(k, a) for k in keys], frame):
                count("too_wide")
                continue
            rng.shuffle(picks)
            ledger.take(relation_key[0], pair, picks)
            used.update(picks)
            plans.append(_two_relation_plan(feats, index, akey, bkey, t, picks, rng))
            break
    return plans


def _two_relation_plan(feats: dict[str, NamedFeature], index: dict[str, dict[str, str]],
                       akey: str, bkey: str, t: str, picks: Sequence[str],
                       rng: random.Random) -> QuestionPlan:
    a, b = feats[akey], feats[bkey]
    cands = tuple(feats[k] for k in picks)
    colours = ("blue", "purple", "cyan")
    listed = ", ".join(f"{f.name} ({c})" for f, c in zip(cands[:-1], colours, strict=False))
    ask = (f"Of {listed} and {cands[-1].name} (cyan): which one lies entirely within "
           f"{_describe(a)}, outlined in red (the red line runs just outside its edge), "
           f"and also borders {_describe(b)}, drawn in orange? Answer with its name.")
    return QuestionPlan(
        "within", ask, {"type": "textual", "names": [feats[t].name]},
        (MapPlan((a, b, *cands), (a.name, b.name, *(f.name for f in cands)),
                 style=rng.choice(STYLES), colors=("red", "orange", *colours),
                 outset=(0,)),),
        {"subject": f"two:{akey}+{bkey}", "a": akey, "b": bkey,
         "template": "two_relations", "answer_type": "text",
         # each candidate's relation to A (``contains``: it lies within A) and to B
         "relations": {k: index[akey][k] for k in picks},
         "relations_b": {k: index[bkey][k] for k in picks}},
        contextual=f"Find the map that draws {a.name} in red and {b.name} in orange. {ask}",
    )
