"""The dataset writer (staging, resume, atomic finalisation), schema, manifest and
`cartoqa validate`, on hand-made items (no rendering)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers.written_slots import KEY, finalise, finished_dataset, mml_item, png, write_slot

from cartoqa.build import BuildReport, _run_task
from cartoqa.cli import main
from cartoqa.dataset.manifest import count_items
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.validate import validate_dataset
from cartoqa.dataset.writer import STAGING_DIR, DatasetWriter, read_journal
from cartoqa.errors import CartoqaError
from cartoqa.tasks.cartomapqa.mml import SPEC as MML_SPEC
from cartoqa.tasks.common.base import Scenario


def test_schema_accepts_a_good_item_and_names_what_is_wrong() -> None:
    assert item_errors(mml_item(0)) == []
    bad = mml_item(0)
    bad["answer"] = {"roads": ["only one"]}
    assert any("answer.roads" in e for e in item_errors(bad))
    bad = mml_item(0)
    del bad["question"]
    assert any("question" in e for e in item_errors(bad))


def test_schema_accepts_the_shared_synthetic_dataset(tmp_path: Path) -> None:
    from helpers.synthetic_dataset import write_synthetic_dataset

    root = write_synthetic_dataset(tmp_path / "ds")
    for line in (root / "items.jsonl").read_text("utf-8").splitlines():
        item = json.loads(line)
        item.setdefault("system_prompt", "S")
        item.setdefault("provenance", {})
        item.setdefault("options", None)
        assert item_errors(item) == [], item["id"]


def test_writer_stages_then_finalises_sorted(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key=KEY)
    assert w.open() == []
    for slot in (1, 0):
        write_slot(w, slot)
    assert not (out / "items.jsonl").exists()  # only at the end
    assert (out / STAGING_DIR).is_dir()
    (out / "images" / "stray.png").write_bytes(png())  # unreferenced: removed
    items = finalise(w)
    assert [i["id"] for i in items] == ["mml-0000", "mml-0001"]
    assert not (out / STAGING_DIR).exists()
    assert sorted(p.name for p in (out / "images").iterdir()) == ["mml-0000.png", "mml-0001.png"]
    report = validate_dataset(out)
    assert report.ok, report.errors
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["build"] == KEY
    assert "© OpenStreetMap contributors" in manifest["attribution"]
    assert "© OpenStreetMap contributors" in (out / "README.md").read_text("utf-8")
    assert DatasetWriter(out, build_key=KEY).is_complete()


def test_writer_resumes_and_ignores_a_torn_last_line(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    write_slot(w, 0)
    journal = out / STAGING_DIR / "journal.jsonl"
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"task": "mml", "slot": 1, "sta')  # killed mid-write
    w2 = DatasetWriter(out, build_key=KEY)
    records = w2.open()
    assert [(r.task, r.slot) for r in records] == [("mml", 0)]
    assert w2.done("mml", 0) is not None and w2.done("mml", 1) is None
    write_slot(w2, 1)
    assert [r.slot for r in read_journal(journal)] == [0, 1]
    assert [i["id"] for i in finalise(w2)] == ["mml-0000", "mml-0001"]


def test_a_resumed_build_does_not_redo_journalled_slots(tmp_path: Path) -> None:
    """Slots in the journal (finished or failed) are taken over; only the rest are made."""
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key={**KEY, "per_task": 4})
    w.open()
    write_slot(w, 0)
    w.record("mml", 1, [], status="failed")
    write_slot(w, 2)
    made: list[int] = []

    def make_scenario(ctx: Any, state: Any, slot: int) -> Scenario:
        made.append(slot)
        image = f"mml-{slot:04d}.png"
        return Scenario(items=[mml_item(slot)], images={image: png(colour=slot)})

    spec = dataclasses.replace(MML_SPEC, prepare=lambda ctx: None, make_scenario=make_scenario,
                               items_per_scenario=1, needs_roads=False)
    resumed = DatasetWriter(out, build_key={**KEY, "per_task": 4})
    resumed.open()
    report = BuildReport(out=out)
    _run_task(spec, None, SimpleNamespace(), resumed,  # type: ignore[arg-type]
              per_task=4, progress=False, report=report)
    assert made == [3, 4]  # 0 and 2 were written, 1 failed: none of them is made again
    assert [r.slot for r in resumed.records() if r.status == "ok"] == [0, 2, 3, 4]
    assert report.shortfalls == {}


def test_writer_refuses_other_options_and_foreign_folders(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    DatasetWriter(out, build_key=KEY).open()
    with pytest.raises(CartoqaError, match="unfinished build with other options"):
        DatasetWriter(out, build_key={**KEY, "seed": 1}).open()
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("precious")
    with pytest.raises(CartoqaError, match="not empty"):
        DatasetWriter(foreign, build_key=KEY).open()
    assert (foreign / "thesis.tex").read_text() == "precious"


def test_writer_reports_an_unwritable_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CartoqaError, match="cannot write to output folder"):
        DatasetWriter(blocker / "ds", build_key=KEY).open()


def test_abandon_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "new"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    w.abandon()
    assert not out.exists()


def test_finalise_refuses_items_that_do_not_validate(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    bad = mml_item(0)
    bad["answer"] = {"roads": []}
    w.write_image("mml-0000.png", png())
    w.record("mml", 0, [bad])
    with pytest.raises(CartoqaError, match="do not validate"):
        finalise(w)
    assert not (out / "items.jsonl").exists()


def test_validate_finds_image_and_count_problems(tmp_path: Path) -> None:
    out = finished_dataset(tmp_path / "ds")
    (out / "images" / "mml-0000.png").write_bytes(png((100, 100)))
    (out / "images" / "mml-0001.png").write_bytes(b"GIF89a not a png")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["counts"]["by_task"]["mml"] = 5
    (out / "manifest.json").write_text(json.dumps(manifest))
    errors = validate_dataset(out).errors
    assert any("100x100, expected 1366x768" in e for e in errors)
    assert any("not a PNG" in e for e in errors)
    assert any("counts do not match" in e for e in errors)
    assert main(["validate", str(out)]) == 1


def test_validate_cli_on_missing_and_unfinished(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nope")]) == 2
    out = tmp_path / "ds"
    DatasetWriter(out, build_key=KEY).open()
    assert main(["validate", str(out)]) == 2
    assert "unfinished build" in capsys.readouterr().err


def test_count_items_by_stratum() -> None:
    items = [mml_item(0), mml_item(1)]
    items[1]["strata"] = {"color": "red", "zoom": 17}
    c = count_items(items)
    assert c["total"] == 2
    assert c["by_stratum"]["mml"] == {"color": {"blue": 1, "red": 1}, "zoom": {"17": 2}}


def test_clipped_restrictions_are_counted_in_the_build_log(tmp_path: Path) -> None:
    from cartoqa.build import _check_roads
    from cartoqa.tasks.common.base import BuildContext
    from groundtruth.assets import asset_path
    from groundtruth.extracts import resolve_extract

    ctx = BuildContext(resolve_extract(asset_path("osm", "legal.osm")), seed=0, per_task=1,
                       cache_dir=tmp_path, assets_dir=tmp_path)
    lines: list[str] = []
    _check_roads(ctx, lines.append)
    assert lines == ["extract legal.osm: 3 turn restriction(s) dropped (2 member missing from "
                     "the extract, 1 via not on the ways); 5 applied"]


def test_writer_refusals_say_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CartoqaError, match="exists and is not a folder") as exc:
        DatasetWriter(blocker, build_key=KEY).open()
    assert exc.value.fix == "give --out a folder path"
    # a finished dataset of other options is named as such, with the way out
    out = finished_dataset(tmp_path / "ds")
    with pytest.raises(CartoqaError) as exc:
        DatasetWriter(out, build_key={**KEY, "seed": 1}).is_complete()
    assert exc.value.message == f"{out} already holds a dataset built with other options"
    assert exc.value.fix == "choose another --out folder, or delete this one to rebuild"
    # items that do not validate are cartoqa's fault, and it says so
    bad_out = tmp_path / "bad"
    w = DatasetWriter(bad_out, build_key=KEY)
    w.open()
    for slot in range(5):
        bad = mml_item(slot)
        bad["answer"] = {"roads": []}
        w.write_image(f"mml-{slot:04d}.png", png())
        w.record("mml", slot, [bad])
    with pytest.raises(CartoqaError) as exc:
        finalise(w)
    assert exc.value.fix == "this is a bug in cartoqa: please report it with the command line"
    # one line: the first three problems, not all of them
    assert exc.value.message.startswith("the build produced items that do not validate: ")
    assert exc.value.message.count("; ") == 2, exc.value.message
