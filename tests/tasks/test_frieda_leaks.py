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
from typing import Any

import pytest

from cartoqa.metrics.frieda import frieda_correct, parse_frieda
from cartoqa.tasks.frieda.build import EXAMPLES, example_key, plan_all, question_text
from cartoqa.tasks.frieda.questions import (
    UNLABELLED_STYLES,
    QuestionPlan,
    two_relation_plans,
)
from groundtruth import relations as rel
from groundtruth.legend_areas import load_category_areas, point_in_category
from groundtruth.named_features import load_named_features
from groundtruth.relation_pairs import topological_pairs


@pytest.fixture(scope="module")
def plans() -> list[QuestionPlan]:
    feats = load_named_features("helsinki")
    pairs = topological_pairs(feats, include_disjoint=True)
    out = plan_all(feats, pairs, seed=0, count=40, areas=load_category_areas("helsinki"))
    return [p for single, multi in out.values() for p in (*single, *multi)]


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


def test_legend_category_questions(plans: list[QuestionPlan]) -> None:
    """``within``/``category``: the answer is the one dot inside an area of the asked
    category, by the same geometries the map draws; the decoys are clearly outside;
    the answer's colour is no fixed guess; several categories and both families."""
    legend = [p for p in plans if p.meta["template"] == "category"]
    assert len(legend) >= 20
    areas = load_category_areas("helsinki")
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
        fam = [a for a in areas if a.family == p.meta["family"]]
        frame = rel.LocalFrame.around([f.geometry for f in mp.features])
        inside = [point_in_category(f.geometry, cat, fam, frame) for f in mp.features]
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


def test_two_relation_questions(plans: list[QuestionPlan]) -> None:
    """``within``/``two_relations``: exactly one candidate lies within A and borders B;
    of the decoys one is within A only, one borders B only, so one relation alone
    leaves two answers; the question's colours match the map."""
    feats = load_named_features("helsinki")
    two = two_relation_plans(topological_pairs(feats, include_disjoint=True),
                             rng=random.Random(0))
    assert len(two) >= 5
    assert not [p for p in plans if p.meta["template"] == "two_relations"]  # not built
    for p in two:
        (mp,) = p.maps
        a, b, *cands = mp.features
        assert (a.key, b.key) == (p.meta["a"], p.meta["b"])
        assert mp.colors == ("red", "orange", "blue", "purple", "cyan")
        in_a = {f.name for f in cands if p.meta["relations"][f.key] == "contains"}
        by_b = {f.name for f in cands if p.meta["relations_b"][f.key] == "border"}
        assert in_a & by_b == set(p.answer["names"]) and len(p.answer["names"]) == 1
        assert len(in_a) == 2 and len(by_b) == 2, p.question
        # the decoys' other relation is clearly not the asked one
        for f in cands:
            if f.name not in in_a:
                assert p.meta["relations"][f.key] in ("disjoint", "border")
            if f.name not in by_b:
                assert p.meta["relations_b"][f.key] == "disjoint"
        for f, colour in zip(cands, ("blue", "purple", "cyan"), strict=True):
            assert f"{f.name} ({colour})" in p.question
