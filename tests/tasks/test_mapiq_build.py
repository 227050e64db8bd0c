"""A small ``cartoqa build --suite mapiq`` end to end: build, validate, perfect score."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cartoqa.dataset.validate import validate_dataset
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring.core import score_predictions
from cartoqa.tasks.mapiq.build import build_mapiq_dataset, plan_maps
from groundtruth.thematic.us_states import CONTIGUOUS
from groundtruth.thematic.variables import read_user_table

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
