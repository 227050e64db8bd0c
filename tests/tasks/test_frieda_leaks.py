"""FRIEDA questions that cannot be answered without reading the maps (issue 27).

Over every question the bundled Helsinki extract gives (``plan_all``, seed 0), two
"models" that do not read the maps are scored:

* **copy the example**: it answers with the prompt's own example line. The prompts now
  show placeholders (``Answer: <number> <unit>``), which no rule reads as an answer:
  it scores 0. The concrete examples they replaced (``250 m``, ``north-east``, ``A``)
  are scored too, to show what they earned;
* **answer from map 1 alone** (two-map questions): it can name only what map 1 draws
  or writes. Every map of a two-map question is label-free, and map 1 draws none of
  the features the answer names, so it names nothing right; on counts it can only
  guess, and the best fixed guess is measured against the answers' spread (0 to 3,
  balanced).

Then the build-wide rules: no question twice, no subject asked twice in a relation,
no feature drawn beside the same subject twice (any relation), drawn candidates that
do not overlap each other (one would hide the other).
"""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from cartoqa.metrics.frieda import frieda_correct, parse_frieda
from cartoqa.tasks.frieda.build import EXAMPLES, example_key, plan_all, question_text
from cartoqa.tasks.frieda.legend_questions import (
    AREA_COUNT_OTHERS,
    LegendIndex,
    area_relations,
    category_components,
    legend_index,
)
from cartoqa.tasks.frieda.questions import (
    LEGEND_TEMPLATES,
    UNLABELLED_STYLES,
    QuestionPlan,
    two_relation_plans,
)
from groundtruth import relations as rel
from groundtruth.legend_areas import (
    INSIDE_MIN_M,
    OUTSIDE_MIN_M,
    CategoryArea,
    load_category_areas,
    point_in_category,
)
from groundtruth.named_features import NamedFeature


# Helsinki's features, legend areas and pairs (``feats`` and ``pairs``:
# tests/tasks/conftest.py), and the plans, are read and planned once for the module
# (each is a pure function of the extract and the seed; no test changes them): they were
# read again in several tests, and plan_all ran twice.
@pytest.fixture(scope="module")
def areas() -> list[CategoryArea]:
    return load_category_areas("helsinki")


@pytest.fixture(scope="module")
def planned(feats: list[NamedFeature], pairs: list[Any], areas: list[CategoryArea]
            ) -> dict[str, tuple[list[QuestionPlan], list[QuestionPlan]]]:
    """``plan_all`` of the extract, seed 0: relation -> (one-map plans, two-map plans)."""
    return plan_all(feats, pairs, seed=0, count=40, areas=areas)


@pytest.fixture(scope="module")
def index(feats: list[NamedFeature], areas: list[CategoryArea]) -> LegendIndex | None:
    """The legend index of the extract's features and areas (as plan_all makes it)."""
    return legend_index(feats, areas)


@pytest.fixture(scope="module")
def plans(planned: dict[str, tuple[list[QuestionPlan], list[QuestionPlan]]]
          ) -> list[QuestionPlan]:
    return [p for single, multi in planned.values() for p in (*single, *multi)]


def _score(plan: QuestionPlan, text: str) -> bool:
    return frieda_correct(plan.answer, parse_frieda(plan.answer, text))


#: The examples the prompts showed before (issue 27).
OLD_EXAMPLES = {"distance": "Answer: 250 m", "cardinal": "Answer: north-east",
                "letter": "Answer: A", "name": "Answer: Example Park",
                "names": "Answer: Example Park", "count": "Answer: 2"}


def copy_rates(plans: list[QuestionPlan], examples: dict[str, str] | None
               ) -> dict[str, float]:
    """Accuracy of copying the example line, per example kind (the prompt's own line
    when ``examples`` is None)."""
    hits: dict[str, list[bool]] = collections.defaultdict(list)
    for plan in plans:
        key = example_key(plan)
        for setting in ("direct", "contextual"):
            if examples is None:
                line = question_text(plan, setting, 9).strip().splitlines()[-1]
            else:
                line = examples[key]
            hits[key].append(_score(plan, line))
    return {k: sum(v) / len(v) for k, v in sorted(hits.items())}


def test_copying_the_example_scores_nothing(plans: list[QuestionPlan]) -> None:
    kinds = {example_key(p) for p in plans}
    assert {"distance", "cardinal", "count", "name", "names", "letter"} <= kinds
    for plan in plans:
        for setting in ("direct", "contextual"):
            line = question_text(plan, setting, 9).strip().splitlines()[-1]
            assert line == EXAMPLES[example_key(plan)]
            assert not _score(plan, line), (plan.question, line)
    assert set(copy_rates(plans, None).values()) == {0.0}
    # the concrete examples the prompts showed before earned credit: the test can fail
    old = copy_rates(plans, OLD_EXAMPLES)
    assert old["cardinal"] > 0.2 and old["letter"] > 0.3 and old["distance"] > 0.05


def test_no_two_map_question_is_answered_from_map_1(plans: list[QuestionPlan]) -> None:
    multi = [p for p in plans if p.map_count == "multi"]
    assert len(multi) > 100
    correct: list[bool] = []
    counts: list[int] = []
    for plan in multi:
        # no basemap names anything: the reader has only the legends
        assert all(m.style in UNLABELLED_STYLES for m in plan.maps), plan.question
        first = plan.maps[0]
        shown = {f.name for f in first.features}  # all map 1 names (its legend)
        if plan.answer["type"] == "textual" and plan.relation != "equal":
            names = set(plan.answer["names"])
            assert not names & shown, plan.question  # map 1 draws none of the answer
            # the map-1 model answers with a name it can read there
            guesses = sorted(shown - {plan.maps[0].features[0].name}) or \
                [first.features[0].name]
            correct.append(_score(plan, "Answer: " + guesses[0]))
        elif plan.answer["type"] == "count":
            counts.append(int(plan.answer["count"]))
        elif plan.answer["type"] in ("distance", "cardinal"):
            # a two-map distance or direction: no map draws both of its places
            a, b = plan.maps[0].features[0], plan.maps[1].features[0]
            assert b not in plan.maps[0].features and a not in plan.maps[1].features
    assert correct and sum(correct) == 0
    # counts from map 1 alone: the best fixed guess is right only as often as the
    # commonest count (counts run 0 to 3, balanced: chance is a quarter)
    spread = collections.Counter(counts)
    assert len(spread) >= 3 and max(spread.values()) / len(counts) <= 0.4, spread


def test_no_question_or_subject_decoy_pair_twice(plans: list[QuestionPlan]) -> None:
    texts = collections.Counter(p.question for p in plans)
    assert max(texts.values()) == 1
    subjects = collections.Counter((p.relation, p.meta["subject"]) for p in plans
                                   if "subject" in p.meta)
    assert max(subjects.values()) == 1
    seen: set[frozenset[str]] = set()
    for p in plans:
        if "relations" not in p.meta:
            continue
        for other in p.meta["relations"]:
            pair = frozenset((p.meta["subject"], other))
            assert pair not in seen, (p.relation, pair)
            seen.add(pair)


def _drawn_areas(plan: QuestionPlan) -> list[Any]:
    mp = plan.maps[-1]
    skip = 1 if plan.map_count == "single" else 0  # the subject on a one-map question
    return [f.geometry for f in mp.features[skip:] if f.kind == "polygon"]


def test_drawn_candidates_do_not_overlap(plans: list[QuestionPlan]) -> None:
    topo = [p for p in plans if "relations" in p.meta]
    assert topo
    for plan in topo:
        areas = _drawn_areas(plan)
        if len(areas) < 2:
            continue
        frame = rel.LocalFrame.around(areas)
        metric = [frame.to_metric(g) for g in areas]
        for i, a in enumerate(metric):
            for b in metric[i + 1:]:
                assert a.intersection(b).area <= rel.NO_OVERLAP_MAX_FRACTION * min(
                    a.area, b.area) + 1e-6, plan.question


def test_templates_and_answer_types(plans: list[QuestionPlan]) -> None:
    table = collections.Counter((p.relation, p.meta["template"], p.meta["answer_type"])
                                for p in plans)
    for relation in ("border", "within"):
        for template, kind in (("one", "text"), ("list", "list"), ("count", "count")):
            assert table[(relation, template, kind)] > 0, (relation, template)
    for template, kind in (("pair", "distance"), ("two_maps", "distance"),
                           ("closest", "text"), ("furthest", "text")):
        assert table[("distance", template, kind)] > 0
    for template in ("pair", "two_maps"):
        assert table[("orientation", template, "direction")] > 0
    assert table[("within", "category", "text")] > 0
    # list answers name two or three features; counts are 1 to 3
    for p in plans:
        if p.meta["template"] == "list":
            assert 2 <= len(p.answer["names"]) <= 3
        if p.meta["template"] == "count":
            assert 0 <= p.answer["count"] <= 3


def test_legend_category_questions(plans: list[QuestionPlan], fams: dict[str, Family]
                                   ) -> None:
    """``within``/``category``: the answer is the one dot inside an area of the asked
    category, by the same geometries the map draws; the decoys are clearly outside;
    the answer's colour is no fixed guess; several categories and both families."""
    legend = [p for p in plans if p.meta["template"] == "category"]
    assert len(legend) >= 20
    families = collections.Counter(p.meta["family"] for p in legend)
    assert set(families) == {"land use", "building use"}
    assert len({p.meta["category"] for p in legend}) >= 5
    colours: collections.Counter[str] = collections.Counter()
    for p in legend:
        (mp,) = p.maps
        assert p.answer == {"type": "textual", "names": [p.answer["names"][0]]}
        assert p.meta["answer_type"] == "text" and p.relation == "within"
        cat = p.meta["category"]
        assert cat in [c for c, _ in mp.categories] and len(mp.categories) <= 5
        fam = fams[p.meta["family"]]
        frame = rel.LocalFrame.around([f.geometry for f in mp.features])
        inside = [point_in_category(f.geometry, cat, fam.near(f.geometry), frame)
                  for f in mp.features]
        assert sorted(inside, key=str) == [False, False, True], p.question
        k = inside.index(True)
        assert mp.features[k].name == p.answer["names"][0]
        assert mp.category_checks == tuple(
            (i, [c for c, _ in mp.categories].index(cat), v) for i, v in enumerate(inside))
        assert mp.style in UNLABELLED_STYLES  # no basemap names the places' land use
        colours[mp.color(k)] += 1
        # the question names every dot, so a model cannot answer from the text alone
        assert all(f.name in p.question for f in mp.features)
    assert max(colours.values()) / len(legend) <= 0.45, colours


def test_two_relation_questions(plans: list[QuestionPlan], pairs: list[Any]) -> None:
    """``within``/``two_relations``: exactly one candidate lies within A and borders B;
    of the decoys one is within A only, one borders B only, so one relation alone
    leaves two answers; the question's colours match the map."""
    two = two_relation_plans(pairs, rng=random.Random(0))
    assert len(two) >= 3
    # built: the within plans draw them (seed 0 gives 4 plans, 13 more were too wide
    # for one zoom-17 view of the extract)
    assert [p for p in plans if p.meta["template"] == "two_relations"]
    for p in two:
        (mp,) = p.maps
        a, b, *cands = mp.features
        assert (a.key, b.key) == (p.meta["a"], p.meta["b"])
        assert mp.colors == ("red", "orange", "blue", "purple", "cyan")
        assert mp.outset == (0,)  # A's outline drawn just outside its edge
        in_a = {f.name for f in cands if p.meta["relations"][f.key] == "contains"}
        by_b = {f.name for f in cands if p.meta["relations_b"][f.key] == "border"}
        assert in_a & by_b == set(p.answer["names"]) and len(p.answer["names"]) == 1
        assert len(in_a) == 2 and len(by_b) == 2, p.question
        # the decoys' other relation is clearly not the asked one
        for f in cands:
            if f.name not in in_a:  # clearly apart: A's grown outline never reaches it
                assert p.meta["relations"][f.key] == "disjoint"
            if f.name not in by_b:
                assert p.meta["relations_b"][f.key] == "disjoint"
        for f, colour in zip(cands, ("blue", "purple", "cyan"), strict=True):
            assert f"{f.name} ({colour})" in p.question


# -- questions read through the legend (legend templates) -------------------------------


NEAR_DEG = 0.01
"""Legend areas whose bounding box lies further than this from a dot's (degrees: at
least 550 m at Helsinki's 60° N) are left out when the dot is checked. They cannot
change :func:`point_in_category`'s answer, which looks only :data:`INSIDE_MIN_M` and
:data:`OUTSIDE_MIN_M` around the dot; leaving them out saves projecting the whole
family into each dot's frame (most of this file's time). ``test_legend_pick_answers``
checks on its first plan that the answers are those over the whole family."""


@dataclass(frozen=True)
class Family:
    """The legend areas of one family, and their bounding boxes (lon/lat)."""

    areas: list[CategoryArea]
    boxes: np.ndarray

    def near(self, geometry: Any) -> list[CategoryArea]:
        """The areas whose box lies within :data:`NEAR_DEG` of the geometry's box."""
        x0, y0, x1, y1 = geometry.bounds
        b = self.boxes
        keep = ((b[:, 0] <= x1 + NEAR_DEG) & (b[:, 2] >= x0 - NEAR_DEG)
                & (b[:, 1] <= y1 + NEAR_DEG) & (b[:, 3] >= y0 - NEAR_DEG))
        return [self.areas[i] for i in np.flatnonzero(keep)]


@pytest.fixture(scope="module")
def fams(areas: list[CategoryArea]) -> dict[str, Family]:
    """The legend areas by family."""
    assert max(INSIDE_MIN_M, OUTSIDE_MIN_M) < 100.0  # far below NEAR_DEG's 550 m
    out: dict[str, list[CategoryArea]] = collections.defaultdict(list)
    for a in areas:
        out[a.family].append(a)
    return {k: Family(v, np.array([a.geometry.bounds for a in v]).reshape(-1, 4))
            for k, v in out.items()}


def _inside(p: QuestionPlan, f: Any, fam: Family) -> bool | None:
    frame = rel.LocalFrame.around([f.geometry])
    return point_in_category(f.geometry, p.meta["category"], fam.near(f.geometry), frame)


def test_legend_share_and_templates(
        plans: list[QuestionPlan],
        planned: dict[str, tuple[list[QuestionPlan], list[QuestionPlan]]]) -> None:
    """Every legend template yields plans on Helsinki, on one map and on two, and in the
    plan lists the slots draw from (``plan_all``), three of every four within, distance
    and orientation questions read the legend while such plans last."""
    table = collections.Counter((p.relation, p.meta["template"], p.map_count) for p in plans)
    for key in (("within", "category_count", "single"), ("within", "category_of", "single"),
                ("within", "category_of", "multi"), ("distance", "legend_pick", "single"),
                ("distance", "legend_pick", "multi"), ("orientation", "legend_pick", "single"),
                ("orientation", "legend_pick", "multi"), ("border", "area_count", "single"),
                ("within", "area_count", "single"), ("equal", "area_category", "multi"),
                ("distance", "legend_rank", "single"),
                ("orientation", "legend_direction", "single"), ("border", "area_pick", "single")):
        assert table[key] >= 3, (key, table[key])
    # area_count on one map and on two (few on Helsinki: the rest of the slots)
    for relation in ("border", "intersect"):
        assert table[(relation, "area_count", "single")] >= 1
        assert table[(relation, "area_count", "multi")] >= 1
        assert table[(relation, "area_count", "single")] + \
            table[(relation, "area_count", "multi")] >= 3
    for relation in ("within", "distance", "orientation", "equal"):
        for lst in planned[relation]:
            if not lst:
                continue  # equal asks on two maps only
            head = lst[:30]
            legend = sum(p.meta["template"] in LEGEND_TEMPLATES for p in head)
            assert legend >= 22, (relation, legend)  # LEGEND_WEIGHT = 3 of every 4
    # every legend question's map draws a layer that lists the asked category
    for p in plans:
        if p.meta["template"] in LEGEND_TEMPLATES:
            layered = [mp for mp in p.maps if mp.categories]
            assert layered and p.meta["category"] in [c for c, _ in layered[-1].categories]
            assert p.meta["family"] in p.question
            # the asked category is named, except where it is the answer
            assert (p.meta["category"] in p.question) == (
                p.meta["template"] not in ("category_of", "area_category"))
            assert all(mp.style in UNLABELLED_STYLES for mp in layered)


def test_category_count_answers(plans: list[QuestionPlan], fams: dict[str, Family]) -> None:
    """``category_count``: the count is the number of dots within the category by the same
    geometries the map draws, the others clearly outside; counts 0-3 balanced."""
    got = [p for p in plans if p.meta["template"] == "category_count"]
    assert len(got) >= 20
    counts = collections.Counter(p.answer["count"] for p in got)
    assert set(counts) == {0, 1, 2, 3} and max(counts.values()) / len(got) <= 0.3, counts
    for p in got:
        (mp,) = p.maps
        inside = [_inside(p, f, fams[p.meta["family"]]) for f in mp.features]
        assert None not in inside and sum(inside) == p.answer["count"], p.question
        ci = [c for c, _ in mp.categories].index(p.meta["category"])
        assert mp.category_checks == tuple((k, ci, v) for k, v in enumerate(inside))


def test_category_of_answers(plans: list[QuestionPlan], fams: dict[str, Family]) -> None:
    """``category_of``: the place lies within the answer's category and clearly outside
    every other category the legend lists (three or more); no category is the answer of
    more than a quarter of the questions; on two maps, map 1 has no layer and map 2
    does not draw the place."""
    got = [p for p in plans if p.meta["template"] == "category_of"]
    assert len(got) >= 20
    answers = collections.Counter(p.answer["names"][0] for p in got)
    assert len(answers) >= 5 and max(answers.values()) / len(got) <= 0.3, answers
    for p in got:
        layered = p.maps[-1]
        x = p.maps[0].features[0]
        legend = [c for c, _ in layered.categories]
        assert len(legend) >= 3 and p.answer["names"] == [p.meta["category"]]
        frame = rel.LocalFrame.around([x.geometry])
        near = fams[p.meta["family"]].near(x.geometry)
        for c in legend:
            want = c == p.meta["category"]
            assert point_in_category(x.geometry, c, near, frame) is want
        if p.map_count == "multi":
            assert not p.maps[0].categories and layered.features == ()
            assert layered.context == (x,)


def test_legend_rank_and_direction_answers(plans: list[QuestionPlan],
                                           fams: dict[str, Family]) -> None:
    """``legend_rank`` / ``legend_direction``: two of the three dots lie within the
    category, re-measured from the drawn geometries; the answer is the closest
    (furthest) of those two, or the one in the asked direction, and the dot outside is
    closer (further) still, or in that direction too: naming the closest dot, or the
    one in that direction, without reading the legend, scores as wrong."""
    for template in ("legend_rank", "legend_direction"):
        got = [p for p in plans if p.meta["template"] == template]
        assert len(got) >= 20, template
        places: collections.Counter[int] = collections.Counter()
        for p in got:
            (mp,) = p.maps
            x, *cands = mp.features
            inside = [_inside(p, f, fams[p.meta["family"]]) for f in cands]
            assert sorted(inside, key=str) == [False, True, True], p.question
            frame = rel.LocalFrame.around([f.geometry for f in mp.features])
            cx = rel.centre_and_radius(x.geometry, frame)
            o = [rel.orientation_between(rel.centre_and_radius(f.geometry, frame), cx)
                 for f in cands]
            names = p.answer["names"]
            (k,) = [i for i, f in enumerate(cands) if [f.name] == names]
            places[k] += 1
            assert inside[k]
            other = next(i for i in range(3) if i != k and inside[i])
            out = inside.index(False)
            d = [v.distance.meters for v in o]
            if template == "legend_rank":
                sign = 1 if p.meta["rank"] == "closest" else -1
                assert sign * d[other] > sign * d[k] > sign * d[out], p.question
            else:
                assert o[k].direction == p.meta["direction"] == o[out].direction
                assert o[other].direction != o[k].direction
            assert _score(p, f"Answer: {cands[k].name}")
            assert not _score(p, f"Answer: {cands[out].name}")
        # the answer's colour in turn
        assert max(places.values()) - min(places.values()) <= 1 + len(got) // 10, places


def test_legend_pick_answers(plans: list[QuestionPlan], fams: dict[str, Family]) -> None:
    """``legend_pick``: exactly one of the three candidate dots lies within the category
    (the answer's end); answering for a decoy instead scores as wrong."""
    got = [p for p in plans if p.meta["template"] == "legend_pick"]
    assert len(got) >= 20
    colours: collections.Counter[str] = collections.Counter()
    for p in got:
        layered = p.maps[-1]
        x = p.maps[0].features[0]
        cands = [f for f in layered.features if f.key not in (x.key, p.meta.get("anchor"))]
        assert len(cands) == 3
        inside = [_inside(p, f, fams[p.meta["family"]]) for f in cands]
        assert sorted(inside, key=str) == [False, False, True], p.question
        if p is got[0]:  # the near areas give the answers of the whole family
            fam = fams[p.meta["family"]]
            assert inside == [point_in_category(
                f.geometry, p.meta["category"], fam.areas,
                rel.LocalFrame.around([f.geometry])) for f in cands]
        (answer,) = [f for f, v in zip(cands, inside, strict=True) if v]
        assert answer.key == p.meta["answer_key"]
        frame = rel.LocalFrame.around([f.geometry for f in (x, *cands)])
        cx = rel.centre_and_radius(x.geometry, frame)
        for f in cands:
            o = rel.orientation_between(rel.centre_and_radius(f.geometry, frame), cx)
            if p.relation == "distance":
                reply = f"Answer: {o.distance.meters:.0f} m"
            else:
                reply = f"Answer: {o.direction}"
            assert _score(p, reply) == (f is answer), (p.question, reply)
        colours[layered.color(layered.features.index(answer))] += 1
        if p.map_count == "multi":  # X only on map 1, the candidates only on map 2
            assert x not in layered.features and not set(cands) & set(p.maps[0].features)
    assert max(colours.values()) / len(got) <= 0.4, colours  # the answer's colour in turn


def test_area_count_answers(plans: list[QuestionPlan], index: LegendIndex | None) -> None:
    """``area_count``: the count is the number of merged areas of the category in the
    asked relation to the subject, recomputed from the areas; every other merged area
    near it is clearly in another relation; counts spread over 0-3."""
    assert index is not None
    comps = {f: category_components(fi) for f, fi in index.families.items()}
    got = [p for p in plans if p.meta["template"] == "area_count"]
    assert len(got) >= 10
    counts = collections.Counter(p.answer["count"] for p in got)  # e.g. {0: 6, 1: 6, 2: 2}
    assert len(counts) >= 3 and max(counts.values()) / len(got) <= 0.45, counts
    assert {p.map_count for p in got} == {"single", "multi"}
    for p in got[:40]:
        mp = p.maps[-1]  # the map with the layer
        subject = p.maps[0].features[0]
        if p.map_count == "multi":  # X outlined on map 1 only, the layer on map 2 only
            assert not p.maps[0].categories and mp.features == () and mp.context == (subject,)
        sm = index.frame.to_metric(subject.geometry)
        near = [c for c in comps[p.meta["family"]][p.meta["category"]]
                if c.distance(sm) < 60.0]
        rels = area_relations(sm, near)
        assert sum(r == p.relation for r in rels) == p.answer["count"]
        assert all(r == p.relation or r in AREA_COUNT_OTHERS[p.relation] for r in rels)
        assert len(mp.area_checks) == p.answer["count"]


def test_area_category_answers(plans: list[QuestionPlan], index: LegendIndex | None
                               ) -> None:
    """``equal``/``area_category``: the subject equals one legend area of the answer's
    category (the same outline), the legend lists at least three categories, the
    answers spread over the categories; map 1 outlines X without a layer, map 2 shades
    the place without drawing X and checks that X's ground shows the answer's fill."""
    assert index is not None
    got = [p for p in plans if p.meta["template"] == "area_category"]
    assert len(got) >= 15
    answers = collections.Counter(p.answer["names"][0] for p in got)
    assert len(answers) >= 4 and max(answers.values()) / len(got) <= 0.35, answers
    for p in got:
        first, second = p.maps
        (x,) = first.features
        assert not first.categories and second.features == () and second.context == (x,)
        legend = [c for c, _ in second.categories]
        assert len(legend) >= 3 and p.answer["names"] == [p.meta["category"]]
        assert second.area_checks == ((legend.index(p.meta["category"]), x.geometry),)
        fam = index.families[p.meta["family"]]
        xm = index.frame.to_metric(x.geometry)
        same = {fam.areas[i].category for i, g in enumerate(fam.metric)
                if g.intersects(xm) and rel.area_relation(g, xm) == "equal"}
        assert same == {p.meta["category"]}, p.question
        assert x.name in p.question and p.meta["category"] not in p.question
        assert example_key(p) == "name"  # not the same_area letter


def test_map_1_of_a_two_map_legend_question_tells_no_category(plans: list[QuestionPlan]
                                                              ) -> None:
    """Where the answer is the category of what map 1 draws (``category_of``,
    ``area_count``, ``area_category`` on two maps), map 1 is not a ``print`` map: its own
    land-use fills and legend would tell the category there."""
    got = [p for p in plans if p.map_count == "multi" and p.meta["template"] in
           ("category_of", "area_count", "area_category")]
    assert len(got) >= 20
    assert all(p.maps[0].style in ("plain", "grey") and not p.maps[0].categories
               for p in got)
