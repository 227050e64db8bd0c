"""Maps with imaginary or shuffled region names: drawn labels, questions, answers and the
answer-reading all speak the names the map shows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cartoqa.declarations import answer_as_text
from cartoqa.parsing.kinds import item_names
from cartoqa.scoring.core import score_predictions
from cartoqa.tasks.mapwise.build import COUNTERFACTUALS, MapPlan, MapwiseBuilder, plan_maps
from groundtruth.thematic.countries import region_table
from groundtruth.thematic.variables import Variable


@pytest.fixture(scope="module")
def builder() -> MapwiseBuilder:
    return MapwiseBuilder(["usa"], seed=0)


def _slot(builder: MapwiseBuilder, mode: str, style: str = "discrete_light",
          index: int = 1) -> list[dict[str, Any]]:
    table = region_table("usa")
    # values by position, west to east: the map (not the real names) decides the answers
    xs = builder.points["usa"]
    values = {c: round(xs[c][0] / 1e5, 1) for c in builder.regions["usa"].projected}
    var = Variable("user_x", "Test value", "user", values, "test", "test")
    rejected: Counter[str] = Counter()
    made = builder.make_slot(MapPlan(index, "usa", var, style, mode), rejected, Counter())
    assert made is not None, rejected
    items = made[0]
    assert items and all(i["strata"]["counterfactual"] == mode for i in items)
    assert set(table) >= set(items[0]["provenance"]["region_labels"])
    return items


@pytest.mark.parametrize(("mode", "style"), [("imaginary", "discrete_light"),
                                              ("shuffled", "continuous_gradient"),
                                              ("imaginary", "annotated")])
def test_questions_and_answers_use_the_shown_names(builder: MapwiseBuilder, mode: str,
                                                   style: str) -> None:
    items = _slot(builder, mode, style)
    labels = items[0]["provenance"]["region_labels"]
    shown_codes = {v["code"] for v in labels.values()}
    real = region_table("usa")
    assert all(v["code"] != c for c, v in labels.items())
    for item in items:
        answer = item["answer"]
        for key in ("accepted", "items", "order"):
            assert set(answer.get(key) or ()) <= shown_codes, item["id"]
        if answer.get("accepted"):  # the answer's code and name are one shown region
            name_of = {v["code"]: v["name"] for v in labels.values()}
            assert name_of[answer["accepted"][0]] == answer["text"], item["id"]
        question = item["question"].split("\n")[0]
        for v in labels.values():
            if f"({v['code']})" in question:
                assert f"{v['name']} ({v['code']})" in question
        if mode == "imaginary":  # no real name is written anywhere in a question
            assert not any(f"{r.name} (" in question for r in real.values()), question
    # own answers score perfectly (the reference text is written in the shown codes)
    preds = {i["id"]: answer_as_text(i) for i in items}
    scored = score_predictions(items, preds, include_items=False)
    for key, section in scored["sections"].items():
        for metric in section["metrics"].values():
            assert metric["all"] == 1.0, key
    # named parts only by position (along a border), never an administrative group
    assert not any("Census" in i["question"] for i in items)


def test_the_drawn_labels_are_the_shown_codes(builder: MapwiseBuilder) -> None:
    var = Variable("user_x", "Test value", "user",
                   {c: float(i) for i, c in enumerate(sorted(region_table("usa")))
                    if c in builder.regions["usa"].projected}, "test", "test")
    from renderers.thematic.draw import MapRequest, draw_map

    shown = {"TX": "QQ", "CA": "ZZ"}
    drawn = draw_map(MapRequest("choropleth", "t", {c: 1 for c in var.values}, ("a",),
                                dict(builder.regions["usa"].projected), labels=shown))
    states = drawn.report["states"]
    assert states["TX"]["label"]["text"] == "QQ" and states["CA"]["label"]["text"] == "ZZ"
    assert states["NY"]["label"]["text"] == "NY"


def test_answer_reading_accepts_the_shown_names_not_the_real_ones(
        builder: MapwiseBuilder) -> None:
    items = _slot(builder, "shuffled")
    labels = items[0]["provenance"]["region_labels"]
    names = item_names(items[0])
    for v in labels.values():
        assert names.resolve(v["name"]) == v["code"]
        assert names.resolve(v["code"]) == v["code"]
    single = next(i for i in items if i["request"] == "single" and i["answer"]["accepted"])
    shown = single["answer"]["accepted"][0]
    real_code = next(c for c, v in labels.items() if v["code"] == shown)
    real_name = region_table("usa")[real_code].name  # the region's real name: wrong here
    right = f"My answer is [{single['answer']['text']}]"
    wrong = f"My answer is [{real_name}]"
    scored = score_predictions([single, {**single, "id": "w"}],
                               {single["id"]: right, "w": wrong}, include_items=True)
    rows = {r["id"]: r for r in scored["items"]}
    assert rows["w"]["valid"]  # a real name, read as the region the map labels so
    assert rows[single["id"]]["measures"]["recall"] == 1.0
    assert rows["w"]["measures"]["recall"] == 0.0
    imaginary = _slot(builder, "imaginary")
    inames = item_names(imaginary[0])
    assert inames.resolve("Texas") is None and inames.resolve("TX") is None
    assert inames.resolve(imaginary[0]["provenance"]["region_labels"]["TX"]["name"]) == \
        imaginary[0]["provenance"]["region_labels"]["TX"]["code"]


def test_small_builds_draw_the_name_counterfactuals_first() -> None:
    assert COUNTERFACTUALS[:2] == ("imaginary", "shuffled")
    var = Variable("user_x", "Test value", "user", {"TX": 1.0, "CA": 2.0, "NY": 3.0,
                                                    "OH": 4.0}, "test", "test")
    plans = plan_maps({"usa": [var]}, 3, 0)
    assert [p.counterfactual for p in plans] == ["none", "imaginary", "shuffled"]
    assert plans[1].variable.values == var.values  # names change, values do not
    plans = plan_maps({"usa": [var]}, 14, 0)
    assert [p.counterfactual for p in plans][-4:] == list(COUNTERFACTUALS)
    assert plans[-2].variable.values != var.values  # jumbled values
