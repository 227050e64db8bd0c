"""MapWise's question forms: the crash cases of no-data regions, answers read from the
printed values of annotated maps, colour-bar ties, neighbour questions that test
something, the forms' coverage of MapWise's families, named parts and prompt modes."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from cartoqa.cli import main
from cartoqa.tasks.mapwise import single, task_modules
from cartoqa.tasks.mapwise.build import MapPlan, MapwiseBuilder, colour_bar
from cartoqa.tasks.mapwise.common import (
    PROMPT_MODES,
    TIE_BAR_GAP,
    MapwiseContext,
    with_format,
)
from cartoqa.tasks.mapwise.forms import FAMILIES, forms
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.countries import INDIA, region_table
from groundtruth.thematic.parts import PARTS, country_parts
from groundtruth.thematic.variables import Variable

# A row BR-UP-MH-GA-KL-TN-AP (each touching the next) plus TG touching MH, GA and KL.
_ROW = ["BR", "UP", "MH", "GA", "KL", "TN", "AP"]
ADJ: dict[str, frozenset[str]] = {
    c: frozenset(_ROW[max(0, i - 1):i] + _ROW[i + 1:i + 2]) for i, c in enumerate(_ROW)}
ADJ = {**ADJ, "TS": frozenset({"MH", "GA", "KL"})}
ADJ = {c: ADJ[c] | ({"TS"} if c in ("MH", "GA", "KL") else set()) for c in ADJ}
REGIONS = {**INDIA, "TS": region_table("india")["TS"]}
VALUES = {"BR": 1.0, "UP": 2.0, "MH": 30.0, "GA": 50.0, "KL": 50.5, "TN": 70.0, "AP": 95.0}


def _all_questions(ctx: MapwiseContext, seed: int) -> list:
    rng = random.Random(seed)
    return [q for m in task_modules() for q in m.make_questions(ctx, rng, Counter())]


@pytest.mark.parametrize("continuous", [False, True])
def test_no_data_neighbour_never_crashes_and_is_never_asked(continuous: bool) -> None:
    """Telangana drawn without data beside MH, GA and KL (MapWise's India tables leave
    such gaps): every form runs, and only missing-data forms name Telangana."""
    bar = colour_bar(VALUES, "gradient") if continuous else None
    ctx = MapwiseContext("india", REGIONS, "T", dict(VALUES), fisher_jenks(VALUES), bar, ADJ,
                         drawn=tuple(sorted(ADJ)))
    assert ctx.missing == ["TS"]
    for seed in range(30):
        for q in _all_questions(ctx, seed):
            if q.family == "missing_data":
                continue
            text = json.dumps(q.answer)
            assert "TS" not in q.asked and "Telangana" not in q.text and "TS" not in text
            if q.template == "neighbour_extreme":
                assert "with data" in q.text or "TS" not in q.text


def test_missing_data_forms_answer_from_the_gaps() -> None:
    ctx = MapwiseContext("india", REGIONS, "T", dict(VALUES), fisher_jenks(VALUES), None,
                         ADJ, drawn=tuple(sorted(ADJ)))
    seen = {}
    for seed in range(10):
        for q in _all_questions(ctx, seed):
            if q.family == "missing_data":
                seen[q.template] = q
                if q.template == "missing_has_data":
                    assert q.answer["value"] == (q.asked[0] != "TS")
    assert seen["missing_list"].answer == {"items": ["TS"]}
    assert seen["missing_count"].answer == {"count": 1}


def _builder_slot(country: str, values: dict[str, float], style: str,
                  index: int = 0) -> tuple[list[dict], bytes]:
    builder = MapwiseBuilder([country], seed=0)
    var = Variable("user_x", "Test value", "user", values, "test", "test")
    rejected: Counter[str] = Counter()
    made = builder.make_slot(MapPlan(index, country, var, style), rejected, Counter())
    assert made is not None, rejected
    return made


def test_china_without_inner_mongolia_builds() -> None:
    """China with one province empty raised ``KeyError: 'NM'``; now NM is drawn as no
    data and no question but the missing-data ones names it."""
    codes = sorted(region_table("china"))
    values = {c: 10.0 + 3.7 * i for i, c in enumerate(codes) if c != "NM"}
    for style in ("discrete_light", "continuous_gradient"):
        items, png = _builder_slot("china", values, style)
        assert png[:4] == b"\x89PNG"
        assert any(i["strata"]["template"] == "missing_list" for i in items)
        for item in items:
            assert item["provenance"]["no_data_regions"] == ["NM"]
            if item["strata"]["family"] != "missing_data":
                assert "NM" not in item["provenance"]["asked_regions"]


def test_india_without_telangana_and_dd_builds() -> None:
    codes = sorted(region_table("india"))
    values = {c: float((i * 7919) % 97) + 1.5 for i, c in enumerate(codes)
              if c not in ("TS", "DD")}
    items, _ = _builder_slot("india", values, "annotated")
    assert {i["strata"]["missing_data"] for i in items} == {True}
    for item in items:
        if item["strata"]["family"] != "missing_data":
            assert not {"TS", "DD"} & set(item["provenance"]["asked_regions"])


def test_cli_china_with_an_empty_province_leaves_a_finished_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = sorted(region_table("china"))
    table = tmp_path / "cn.csv"
    table.write_text("region,value\n" + "".join(
        f"{c},{'' if c == 'NM' else 10 + 3.7 * i}\n" for i, c in enumerate(codes)))
    out = tmp_path / "ds"
    # in this process (as tests/tasks/test_frieda_build.py runs its builds): the same
    # command line and exit status, without a second interpreter's imports
    rc = main(["build", "--suite", "mapwise", "--countries", "china", "--data", str(table),
               "--maps", "1", "--no-progress", "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert (out / "items.jsonl").is_file() and not (out / ".cartoqa-build").exists()


def test_annotated_maps_answer_from_the_printed_values() -> None:
    """UP 75.5 > WB 73.2 > JH 71.9 share a class; the printed numbers rule: only UP is
    the highest, and a rank of the three is asked by their printed values."""
    values = {"UP": 75.5, "WB": 73.2, "JH": 71.9, "BR": 40.0, "OD": 20.0, "MH": 10.0,
              "GA": 5.0}
    cls = fisher_jenks(values)
    assert cls.classes["UP"] == cls.classes["WB"] == cls.classes["JH"]
    adj = {c: frozenset(values) - {c} for c in values}
    printed = {c: float(f"{v:.3g}") for c, v in values.items()}
    ctx = MapwiseContext("india", INDIA, "T", values, cls, None, adj, printed=printed)
    assert ctx.extreme(sorted(values), True) == ["UP"]
    assert ctx.distinct("WB", "JH") and ctx.ties_with("UP") == ["UP"]
    for seed in range(20):
        for q in _all_questions(ctx, seed):
            if q.template == "extreme" and "highest" in q.text:
                assert q.answer["accepted"] == ["UP"]
            if q.template == "neighbour_extreme" and "highest" in q.text:
                assert len(q.answer["accepted"]) == 1


def test_colour_bar_ties_are_at_most_five_percent_of_the_bar() -> None:
    """Sikkim and Assam 11% of the bar apart were accepted as a tie; now they are
    neither tied nor comparable, so "which is highest?" is not asked on them."""
    values = {"SK": 100.0, "AS": 89.0, "BR": 0.0, "UP": 10.0, "MH": 20.0}
    bar = colour_bar(values, "gradient")
    assert (bar.vmin, bar.vmax) == (0.0, 100.0)
    ctx = MapwiseContext("india", INDIA, "T", values, fisher_jenks(values), bar,
                         {c: frozenset() for c in values})
    assert TIE_BAR_GAP == 0.05
    assert not ctx.tied("SK", "AS") and not ctx.distinct("SK", "AS")
    assert ctx.extreme(sorted(values), True) is None
    values["AS"] = 96.0  # 4% apart: a tie
    ctx = MapwiseContext("india", INDIA, "T", values, fisher_jenks(values), bar,
                         {c: frozenset() for c in values})
    assert ctx.extreme(sorted(values), True) == ["AS", "SK"]


def test_neighbour_extreme_is_not_asked_when_every_neighbour_is_accepted() -> None:
    """A hub whose three neighbours share one class: the question would accept each."""
    values = {"MH": 50.0, "GA": 10.0, "KA": 10.5, "TS": 11.0, "BR": 30.0, "UP": 70.0,
              "AP": 90.0}
    adj = {"MH": frozenset({"GA", "KA", "TS"}), "GA": frozenset({"MH"}),
           "KA": frozenset({"MH"}), "TS": frozenset({"MH"}), "BR": frozenset(),
           "UP": frozenset(), "AP": frozenset()}
    cls = fisher_jenks(values)
    assert cls.classes["GA"] == cls.classes["KA"] == cls.classes["TS"]
    ctx = MapwiseContext("india", REGIONS, "T", values, cls, None, adj)
    for seed in range(20):
        qs = single.make_questions(ctx, random.Random(seed), Counter())
        assert not [q for q in qs if q.template == "neighbour_extreme"]


def test_at_least_thirty_forms_cover_every_family() -> None:
    declared = forms()
    classic = {"above_tick", "class_range", "extreme", "higher_than", "in_class",
               "neighbour_extreme", "order", "tick_interval"}
    templates = {f.template for f in declared} | classic
    assert len(templates) >= 30
    assert {f.family for f in declared} | {"classic"} == set(FAMILIES)
    assert {f.request for f in declared} <= {"binary", "single", "count", "list", "range",
                                             "rank"}


def _flat(lists: object) -> list[str]:
    return [x for part in lists for x in part]  # type: ignore[attr-defined]


def test_parts_come_from_the_tables_and_cover_each_country() -> None:
    us = country_parts("usa", region_table("usa"))
    regions = [m for k, (p, m) in us.items() if p.kind == "census_region"]
    divisions = [m for k, (p, m) in us.items() if p.kind == "census_division"]
    assert sorted(_flat(regions)) == sorted(region_table("usa"))  # 48 states and DC
    assert sorted(_flat(divisions)) == sorted(region_table("usa"))
    assert us["border_mexico"][1] == ["AZ", "CA", "NM", "TX"]
    india = country_parts("india", region_table("india"))
    covered = sorted(_flat(m for _, m in india.values()))
    assert covered == sorted(set(region_table("india")) - {"AN", "LD"})
    assert "TS" not in country_parts("india", region_table("india", "pre2014"))[
        "zonal_council_southern"][1]
    china = country_parts("china", region_table("china"))
    assert sorted(_flat(m for _, m in china.values())) == sorted(region_table("china"))
    assert {p.kind for p in PARTS["china"]} == {"economic_region"}


def test_prompt_modes_change_the_question_and_are_recorded() -> None:
    texts = {m: with_format("Q?", "binary", m) for m in PROMPT_MODES}
    assert len(set(texts.values())) == 3
    assert all(t.startswith("Q?\n") and t.endswith("'My answer is [Yes]'.")
               for t in texts.values())
    assert "step by step" in texts["cot"] and "extract" in texts["extract"].lower()


def test_closer_to_needs_a_visible_difference() -> None:
    """Madhya Pradesh's 23.97 between ticks 20 and 25 (5.9% of the bar from half way) is
    never asked; between 25 and 30 (14% from half way) it is asked on viridis but not on
    the light ramp, where the two fills are under ΔE 10 apart."""
    from cartoqa.tasks.mapwise import region_forms

    values = {"MP": 23.97, "BR": 10.0, "UP": 35.0, "GA": 11.0, "KL": 34.0}
    for ramp, far_pair in (("light", False), ("gradient", True)):
        bar = colour_bar(values, ramp)
        assert bar.ticks == (10.0, 15.0, 20.0, 25.0, 30.0, 35.0)
        ctx = MapwiseContext("india", INDIA, "T", {"MP": 23.97}, fisher_jenks(values), bar,
                             {}, drawn=("MP",))
        qs = [region_forms.closer_to(ctx, random.Random(s), Counter()) for s in range(60)]
        pairs = {q.text.split("closer to ")[1].split("?")[0] for q in qs if q is not None}
        assert not {"20 than to 25", "25 than to 20"} & pairs
        assert bool({"25 than to 30", "30 than to 25"} & pairs) is far_pair


def test_neighbours_are_regions_sharing_a_visible_border() -> None:
    """The Four Corners (Utah and New Mexico meet at a point) and Puducherry's Mahe
    inside Kerala do not make neighbours in questions."""
    from cartoqa.tasks.mapwise.build import MapwiseBuilder

    builder = MapwiseBuilder(["usa", "india"], seed=0)
    assert "NM" not in builder.queen["usa"]["UT"] and "AZ" in builder.queen["usa"]["UT"]
    assert "PY" not in builder.queen["india"]["KL"] and "TN" in builder.queen["india"]["KL"]
