"""MapWise maps without region labels (its ``wo_annotations`` maps), hatched legends of
other class counts, and coastal parts in the build: the plan, the drawn map and the
rule that no question needs a region too small to see."""

from __future__ import annotations

from collections import Counter

from cartoqa.tasks.mapwise.build import (
    STYLES,
    UNLABELLED_AT,
    MapPlan,
    MapwiseBuilder,
    _style_fits,
    needs_hidden,
    plan_maps,
)
from cartoqa.tasks.mapwise.common import Question
from cartoqa.tasks.mapwise.table_spec import TableSpec
from groundtruth.thematic.countries import region_table
from groundtruth.thematic.variables import Variable


def _values(country: str) -> dict[str, float]:
    return {c: float((i * 7919) % 97) + 1.5 for i, c in enumerate(sorted(region_table(country)))}


def test_plan_draws_some_real_maps_without_labels() -> None:
    var = Variable("x", "X", "test", _values("usa"), "test", "test")
    plans = plan_maps({"usa": [var]}, 14, 0)
    unlabelled = [p for p in plans if not p.labelled]
    assert [p.index for p in unlabelled] == sorted(UNLABELLED_AT)
    assert all(p.counterfactual == "none" and not STYLES[p.style][4] for p in unlabelled)
    assert {STYLES[p.style][0] for p in unlabelled} == {"discrete", "continuous"}


def test_needs_hidden_reads_asked_regions_and_answers() -> None:
    hidden = frozenset({"DC"})
    assert needs_hidden(Question("single", "extreme", "?", {"accepted": ["DC"]}, []), hidden)
    assert needs_hidden(Question("rank", "order", "?", {"order": ["MD", "DC"],
                                                        "levels": {}}, []), hidden)
    assert needs_hidden(Question("binary", "higher_than", "?", {"value": True},
                                 ["DC", "VA"]), hidden)
    assert not needs_hidden(Question("count", "in_class", "?", {"count": 2}, ["MD", "VA"]),
                            hidden)


def test_unlabelled_usa_map_never_asks_about_a_hidden_region() -> None:
    """On the unlabelled map DC and RI are hidden; no item names them in its asked
    regions or its answer, the system prompt says the map has no labels, and the items
    record it."""
    builder = MapwiseBuilder(["usa"], seed=0)
    var = Variable("x", "Test value", "test", _values("usa"), "test", "test")
    for style in ("discrete_dark", "continuous_dark"):
        skipped: Counter[str] = Counter()
        made = builder.make_slot(MapPlan(3, "usa", var, style, labelled=False), Counter(),
                                 skipped)
        assert made is not None
        items, _ = made
        assert items
        hidden = set(items[0]["provenance"]["hidden_regions"])
        assert {"DC", "RI"} <= hidden
        for item in items:
            assert item["strata"]["region_labels"] is False
            assert "drawn without labels" in item["system_prompt"]
            answer = item["answer"]
            named = set(item["provenance"]["asked_regions"])
            for key in ("accepted", "items", "order"):
                named |= set(answer.get(key) or [])
            named |= set(answer.get("levels") or {})
            assert not named & hidden, (item["strata"]["template"], named & hidden)
        assert any(k.endswith("_hidden_region") for k in skipped), skipped


def test_hatched_styles_take_three_to_five_classes() -> None:
    assert _style_fits("hatched", TableSpec(k=3)) and _style_fits("hatched", TableSpec(k=4))
    assert not _style_fits("hatched", TableSpec(k=6))
    assert _style_fits("hatched", TableSpec(classes=((0, 1), (1, 2), (2, 3))))
    assert not _style_fits("hatched", TableSpec(breaks=(0, 1, 2, 3, 4, 5, 6, 7)))
    builder = MapwiseBuilder(["china"], seed=0)
    var = Variable("x", "Test value", "test", _values("china"), "test", "test")
    rejected: Counter[str] = Counter()
    made = builder.make_slot(MapPlan(2, "china", var, "hatched"), rejected, Counter())
    assert made is not None, rejected
    items, _ = made
    assert items[0]["provenance"]["classification"]["k"] == 4


def test_coastal_parts_reach_the_questions() -> None:
    """China's coastal provinces are a part questions use (every region with data)."""
    builder = MapwiseBuilder(["china"], seed=0)
    var = Variable("x", "Test value", "test", _values("china"), "test", "test")
    phrases = []
    for index in range(8):
        made = builder.make_slot(MapPlan(index, "china", var, "discrete_light"), Counter(),
                                 Counter())
        assert made is not None
        phrases += [i["question"] for i in made[0] if "coastal provinces" in i["question"]]
        if phrases:
            break  # one map that asks about them is the claim; each map drawn costs ~2 s
    assert phrases
    assert builder.coastal["china"] == ["FJ", "GD", "GX", "HE", "HI", "JS", "LN", "SD", "SH",
                                        "TJ", "ZJ"]


def test_largest_border_difference_agrees_with_the_data() -> None:
    """Review find (India literacy, Census 2011, hatched): Delhi 86.21 / Uttar Pradesh
    67.68 are three classes apart, Kerala 94.0 / Karnataka 75.36 two, yet KL-KA differ
    more (18.64 > 18.53): "Are DL and UP the pair with the largest difference?" must not
    be asked. With Kerala at 90.0 (difference 14.64) the question is asked again."""
    import random

    from cartoqa.tasks.mapwise.common import MapwiseContext
    from cartoqa.tasks.mapwise.region_forms import border_difference
    from groundtruth.thematic.classification import classes_from_breaks

    adj = {"DL": frozenset({"UP"}), "UP": frozenset({"DL"}), "KL": frozenset({"KA"}),
           "KA": frozenset({"KL"})}

    def ask(kl: float) -> list[object]:
        values = {"DL": 86.21, "UP": 67.68, "KL": kl, "KA": 75.36}
        cls = classes_from_breaks(values, [61.8, 70.3, 76.3, 82.8, 94.0])
        ctx = MapwiseContext("india", {c: region_table("india")[c] for c in values}, "T",
                             values, cls, None, adj)
        assert [cls.classes[c] for c in ("DL", "UP", "KL", "KA")] == [4, 1, 4, 2]
        return [border_difference(ctx, random.Random(s), Counter()) for s in range(6)]

    assert ask(94.0) == [None] * 6
    asked = ask(90.0)
    assert all(q is not None for q in asked)
