"""``--data`` as publishers' tables come: a spec beside the CSV (title, units, published
classes, breaks, class count, reversed legend), MapWise's own region codes, ISO 3166-2
codes with or without their country, Alaska and Hawaii drawn as insets, regions without
data drawn as N/A, and rows for regions the map does not draw."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cartoqa.cli import main
from cartoqa.errors import CartoqaError
from cartoqa.tasks.mapwise.build import MapPlan, apply_spec, load_variables, plan_maps
from cartoqa.tasks.mapwise.table_spec import parse_spec, read_spec
from groundtruth.thematic.classification import classes_from_breaks, published_classes
from groundtruth.thematic.countries import load_country, region_code, region_table

ROOT = Path(__file__).resolve().parents[2]


def test_iso_and_mapwise_codes_resolve() -> None:
    assert [region_code("china", c) for c in ("HE", "HB", "HA", "HI", "SN", "CN-HB")] == [
        "HE", "HB", "HA", "HI", "SN", "HB"]
    assert region_table("china")["HB"].name == "Hubei"
    assert region_table("china")["HE"].name == "Hebei"
    assert [region_code("india", c) for c in ("BH", "ME", "MI", "PD", "TS", "OR", "UT",
                                               "CT", "IN-MH")] == [
        "BR", "ML", "MZ", "PY", "TS", "OD", "UK", "CG", "MH"]
    assert region_code("usa", "US-TX") == "TX" and region_code("usa", "Alaska") == "AK"


def test_published_classes_and_breaks() -> None:
    values = {"a": 2.4, "b": 6.9, "c": 12.0, "d": 25.3}
    c = published_classes(values, [(2.4, 6.5), (6.8, 10.5), (10.6, 14.2), (14.8, 25.3)])
    assert c.k == 4 and c.classes == {"a": 1, "b": 2, "c": 3, "d": 4}
    with pytest.raises(ValueError, match="no class"):
        published_classes({"x": 6.6}, [(2.4, 6.5), (6.8, 10.5), (10.6, 14.2)])
    with pytest.raises(ValueError, match="3 to 8"):
        published_classes(values, [(0, 1), (2, 3)])
    b = classes_from_breaks(values, [0, 5, 10, 20, 30])
    assert b.classes == {"a": 1, "b": 2, "c": 3, "d": 4} and b.labels[0] == "0–5"


def test_spec_is_checked_key_by_key() -> None:
    assert parse_spec({"legend": "discrete", "k": 7, "reversed": True}).k == 7
    for bad in ({"legend": "pie"}, {"k": 2}, {"breaks": [3, 2, 1, 0]}, {"colour": "red"},
                {"k": 4, "breaks": [0, 1, 2, 3]}, {"classes": ["1-2", "x"]}):
        with pytest.raises(CartoqaError):
            parse_spec(bad)


def _us_table(folder: Path) -> Path:
    """MapWise-like: every state but DC, with Alaska and Hawaii; published classes."""
    codes = sorted(set(region_table("usa", "insets")) - {"DC"})
    table = folder / "us.csv"
    table.write_text("region,rate\n" + "".join(
        f"{c},{2.4 + (i * 0.45)}\n" for i, c in enumerate(codes)) + "DC,\n")
    (folder / "us.json").write_text(json.dumps({
        "title": "Rate per 1,000 women", "units": "per 1,000", "legend": "discrete",
        "classes": ["2.4-8", "8.05-14", "14.05-20", "20.05-25"], "reversed": True}))
    return table


def test_us_table_with_alaska_hawaii_and_spec(tmp_path: Path) -> None:
    table = _us_table(tmp_path)
    spec = read_spec(table)
    assert spec is not None and spec.reversed and spec.percent is False
    variables = load_variables(["usa"], table, 0)
    variables = {c: apply_spec(vs, spec, table) for c, vs in variables.items()}
    var = variables["usa"][0]
    assert var.title == "Rate per 1,000 women" and {"AK", "HI"} <= set(var.values)
    assert "DC" not in var.values
    plans = plan_maps(variables, 3, 0, spec)
    assert {STYLE for STYLE in (p.style for p in plans)} <= {
        "discrete_light", "discrete_dark", "annotated", "discrete_gradient", "grey"}
    plan: MapPlan = plans[0]
    assert plan.classify().labels == ("2.4-8", "8.05-14", "14.05-20", "20.05-25")
    insets = load_country("usa", "insets")
    mainland = load_country("usa")
    assert len(insets.projected) == 51 and len(mainland.projected) == 49
    for code in ("AK", "HI"):
        assert not any(insets.projected[code].intersects(g)
                       for c, g in insets.projected.items() if c not in ("AK", "HI"))


def test_cli_builds_a_mapwise_like_us_table(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    table = _us_table(tmp_path)
    out = tmp_path / "ds"
    # in this process (as tests/tasks/test_frieda_build.py runs its builds): the same
    # command line and exit status, without a second interpreter's imports
    rc = main(["build", "--suite", "mapwise", "--countries", "usa", "--data", str(table),
               "--maps", "1", "--prompt-mode", "cot", "--no-progress", "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    items = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    prov = items[0]["provenance"]
    assert prov["no_data_regions"] == ["DC"]
    assert prov["classification"]["labels"] == ["2.4-8", "8.05-14", "14.05-20", "20.05-25"]
    assert prov["classification"]["reversed"] is True
    assert "insets" in prov["boundary_version"]
    assert {i["strata"]["prompt_mode"] for i in items} == {"cot"}
    assert all("step by step" in i["question"] for i in items)
    assert any(i["strata"]["template"] == "missing_list" and i["answer"]["items"] == ["DC"]
               for i in items)


def test_china_table_with_hong_kong_and_macau_rows(tmp_path: Path) -> None:
    codes = sorted(region_table("china"))
    table = tmp_path / "cn.csv"
    table.write_text("region,v\n" + "".join(f"CN-{c},{i}\n" for i, c in enumerate(codes))
                     + "HK,5\nMacau,7\n")
    variables = load_variables(["china"], table, 0)
    assert sorted(variables["china"][0].values) == codes


def test_bad_spec_is_one_line_and_exit_2(tmp_path: Path) -> None:
    table = _us_table(tmp_path)
    (tmp_path / "us.json").write_text(json.dumps({"k": 12}))
    run = subprocess.run([sys.executable, "-m", "cartoqa", "build", "--suite", "mapwise",
                          "--countries", "usa", "--data", str(table),
                          "--out", str(tmp_path / "ds")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 2, run.stderr
    assert "k must be a whole number from 3 to 8" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "ds").exists()
