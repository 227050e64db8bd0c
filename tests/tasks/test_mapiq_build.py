"""A small ``cartoqa build --suite mapiq`` end to end: build, validate, perfect score."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cartoqa.dataset.validate import validate_dataset
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.errors import CartoqaError
from cartoqa.scoring.core import score_predictions
from cartoqa.tasks.mapiq.build import (
    build_mapiq_dataset,
    load_variables,
    parse_labels,
    plan_maps,
    select_test_split,
    split_lines,
    split_shortfall,
    variation_variables,
)
from groundtruth.thematic.us_states import CONTIGUOUS
from groundtruth.thematic.variables import Variable, read_user_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "rates.csv"
    rows = ["state,rate"] + [f"{c},{(i * 7919) % 97 + 0.5 * (i % 3)}"
                             for i, c in enumerate(CONTIGUOUS)]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_plan_puts_variations_where_they_apply(table: Path) -> None:
    variables = read_user_table(table)
    plans = plan_maps(variables, ["color_flipped", "no_title"])
    kinds = [(p.map_type, p.variation) for p in plans]
    assert kinds[:3] == [("choropleth", "baseline"), ("cartogram", "baseline"),
                         ("proportional_symbol", "baseline")]
    assert ("proportional_symbol", "color_flipped") not in kinds
    assert ("proportional_symbol", "no_title") in kinds and len(plans) == 3 + 2 + 3


def test_build_validates_and_scores_one(table: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    report = build_mapiq_dataset(out=out, data=table, variations=["no_legend"], max_maps=4,
                                 progress=False)
    assert report.maps == 4 and report.maps_rejected == {}
    assert report.total == 4 * 19 - sum(report.questions_skipped.values())
    assert validate_dataset(out).errors == []
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert {i["strata"]["variation"] for i in items} == {"baseline", "no_legend"}
    assert {i["strata"]["map_type"] for i in items} == {"choropleth", "cartogram",
                                                         "proportional_symbol"}
    no_legend = [i for i in items if i["strata"]["variation"] == "no_legend"]
    assert all("no legend" in i["system_prompt"] for i in no_legend)
    zoned = [i for i in items if i["task"] == "mapiq_rc"]
    assert all(i["system_prompt"].startswith("In the provided data") for i in zoned)
    preds = {i["id"]: answer_as_text(i) for i in items}
    scored = score_predictions(items, preds, include_items=False)
    for key, section in scored["sections"].items():
        if key.startswith("mapiq_"):
            for metric in section["metrics"].values():
                assert metric["all"] == 1.0, key
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["suite"] == "mapiq" and manifest["maps"]["accepted"] == 4
    assert "rates.csv" in manifest["attribution"]
    assert "Data sources and licences" in (out / "README.md").read_text()
    again = build_mapiq_dataset(out=out, data=table, variations=["no_legend"], max_maps=4,
                                progress=False)
    assert again.already_complete


def test_cli_reports_a_bad_table_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("state,rate\nAtlantis,1\n")
    run = subprocess.run([sys.executable, "-m", "cartoqa", "build", "--suite", "mapiq",
                          "--data", str(bad), "--out", str(tmp_path / "ds")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2
    assert "unknown state 'Atlantis'" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "ds" / "items.jsonl").exists()


def _fake_variables(themes: dict[str, int]) -> list[Variable]:
    out = []
    for theme, n in themes.items():
        for i in range(n):
            vals = {c: float((j * (i + 3)) % 41 + j % 5) for j, c in enumerate(CONTIGUOUS)}
            out.append(Variable(f"{theme}_{i}", f"{theme} {i}", theme, vals, "s", "l",
                                topic=f"{theme}_t{i // 2}"))
    return out


def test_variations_go_to_two_random_topics_per_theme() -> None:
    variables = _fake_variables({"crime": 8, "health": 6})
    chosen = variation_variables(variables, 0)
    assert Counter(v.theme for v in chosen) == {"crime": 2, "health": 2}
    assert len({v.topic for v in chosen}) == 4
    assert variation_variables(variables, 0) == chosen
    seeds = {tuple(v.key for v in variation_variables(variables, s)) for s in range(6)}
    assert len(seeds) > 1  # the seed draws the topics
    plans = plan_maps(variables, ["no_title"], seed=0)
    assert {p.variable.key for p in plans if p.variation == "no_title"} == {
        v.key for v in chosen}


def test_test_split_is_balanced_distinct_topics_first_and_seeded() -> None:
    variables = _fake_variables({"crime": 20, "housing": 4})
    plans = plan_maps(variables, ["no_title"])
    avail = [(p, t, r) for p in plans for t, r in (("mapiq_rv", "mcq"), ("mapiq_se", "list"))]
    keep = select_test_split(avail, seed=3, per_combination=8)
    by_index = {p.index: p for p in plans}
    assert all(by_index[i].variation == "baseline" for i, _, _ in keep)
    combos = Counter((by_index[i].map_type, t, r, by_index[i].variable.theme)
                     for i, t, r in keep)
    assert set(combos.values()) == {8, 4}  # housing has 4 variables only
    assert len(combos) == 3 * 2 * 2
    crime = [by_index[i].variable.topic for i, t, r in keep
             if by_index[i].variable.theme == "crime" and (t, r) == ("mapiq_rv", "mcq")
             and by_index[i].map_type == "choropleth"]
    assert len(set(crime)) == 8  # 10 topics available: no topic twice
    assert select_test_split(avail, seed=3, per_combination=8) == keep
    assert select_test_split(avail, seed=4, per_combination=8) != keep
    # the combinations the data leave short: housing's 4 per map type and template
    short = split_shortfall(avail, keep, per_combination=8)
    assert short == {f"{m}/{t}/{r}/housing": 4 for m in ("cartogram", "choropleth",
                                                        "proportional_symbol")
                     for t, r in (("mapiq_rv", "mcq"), ("mapiq_se", "list"))}
    card = "\n".join(split_lines({"sources": {"split": {
        "name": "test", "questions": len(keep), "per_combination": 8,
        "short_combinations": short}}}))
    assert "6 combinations hold fewer than 8" in card and "themes: housing" in card


def test_maps_without_a_legend_drop_retrieve_value_and_determine_range(table: Path) -> None:
    from cartoqa.tasks.mapiq.build import MapiqBuilder
    from groundtruth.thematic.classification import fisher_jenks_absorbing

    variables = read_user_table(table)
    plans = plan_maps(variables, ["no_legend"])
    builder = MapiqBuilder(variables, 0)
    skipped: Counter[str] = Counter()
    for plan in plans[:1] + [p for p in plans if p.variation == "no_legend"][:1]:
        ctx = builder.context(plan, fisher_jenks_absorbing(plan.variable.values))
        tasks = {spec.name for spec, _ in builder.questions(plan, ctx, skipped)}
        if plan.variation == "no_legend":
            assert not tasks & {"mapiq_rv", "mapiq_dr"}
        else:
            assert {"mapiq_rv", "mapiq_dr"} <= tasks
    assert skipped["no_legend_mapiq_rv"] == 4 and skipped["no_legend_mapiq_dr"] == 3


def test_data_takes_a_title_and_units(table: Path, tmp_path: Path) -> None:
    (v,) = load_variables(table, ["Rate of something"], ["per 1,000"])
    assert v.title == "Rate of something (per 1,000)" and v.unit == "per 1,000"
    with pytest.raises(CartoqaError, match="names no value column"):
        parse_labels(["x=A"], ["a", "b"], "--title")
    with pytest.raises(CartoqaError, match="need --data"):
        load_variables(None, ["A"])
    two = tmp_path / "two.csv"
    two.write_text("state,a,b\nTX,1,2\nCA,3,4\n")
    a, b = load_variables(two, ["a=Alpha", "b=Beta"], ["b=%"])
    assert (a.title, b.title) == ("Alpha", "Beta (%)")
    run = subprocess.run([sys.executable, "-m", "cartoqa", "build", "--suite", "mapiq",
                          "--data", str(two), "--title", "Alpha", "--out",
                          str(tmp_path / "ds")], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 2 and "COLUMN=TEXT" in run.stderr


def test_test_split_refuses_variations_and_unknown_splits(table: Path, tmp_path: Path) -> None:
    with pytest.raises(CartoqaError, match="baseline maps"):
        build_mapiq_dataset(out=tmp_path / "a", data=table, split="test",
                            variations=["no_title"], progress=False)
    with pytest.raises(CartoqaError, match="unknown split"):
        build_mapiq_dataset(out=tmp_path / "b", data=table, split="train", progress=False)
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_test_split_build_names_its_short_combinations(table: Path, tmp_path: Path) -> None:
    # One variable: every combination holds one question, so all are short of 15;
    # the manifest and the card say so. One map (--maps 1) keeps the build small.
    out = tmp_path / "t"
    build_mapiq_dataset(out=out, data=table, split="test", max_maps=1, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    split = manifest["sources"]["split"]
    assert split["name"] == "test" and split["per_combination"] == 15
    short = split["short_combinations"]
    # every question the three maps ask is in the split, each alone in its combination
    assert set(short.values()) == {1} and len(short) == split["questions"] >= 3 * 17
    assert all(k.endswith("/user") and k.count("/") == 3 for k in short)
    card = (out / "README.md").read_text()
    assert f"{len(short)} combinations hold fewer than 15" in card
