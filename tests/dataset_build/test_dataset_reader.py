"""Reading a dataset back, and the writer's tidying, at their edges: each bad folder or
line is named in one message with what to do, nothing the user made is deleted, and
the versions a manifest records are the real ones. Hand-made folders, no rendering."""

from __future__ import annotations

import importlib.metadata
import json
import re
import sys
from pathlib import Path

import pytest
from test_build_dataset import KEY, finalise, mml_item, png, write_slot

from cartoqa.dataset import versions
from cartoqa.dataset.card import render_card, task_blurb
from cartoqa.dataset.manifest import count_items
from cartoqa.dataset.reader import image_file, image_mime, read_items
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.validate import checksum_problems, count_problems, validate_dataset
from cartoqa.dataset.writer import STAGING_DIR, DatasetWriter, sha256_bytes
from cartoqa.errors import CartoqaError

ITEM = {"id": "mml-0000", "task": "mml", "request": "roads", "image": "images/mml-0000.png",
        "question": "Q", "answer": {"roads": ["A", "B"]}}


def _dataset(tmp_path: Path, lines: list[str]) -> Path:
    root = tmp_path / "ds"
    root.mkdir()
    (root / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_read_items_names_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(CartoqaError, match="does not exist") as exc:
        read_items(tmp_path / "nowhere")
    assert exc.value.fix and "cartoqa build" in exc.value.fix
    (tmp_path / "empty").mkdir()
    with pytest.raises(CartoqaError, match=r"has no items\.jsonl"):
        read_items(tmp_path / "empty")
    root = _dataset(tmp_path, [json.dumps(ITEM), "[1, 2]"])
    with pytest.raises(CartoqaError, match=r"items.jsonl line 2 is not a JSON object"):
        read_items(root)


def test_read_items_names_the_missing_keys_and_the_file(tmp_path: Path) -> None:
    root = _dataset(tmp_path, [json.dumps({"id": "x", "task": "mml"})])
    with pytest.raises(CartoqaError) as exc:
        read_items(root)
    assert str(root / "items.jsonl") in exc.value.message
    assert "lacks" in exc.value.message and "image" in exc.value.message
    assert exc.value.fix == "see docs/dataset-format.md for the item keys"
    # fewer keys are enough when the caller asks for fewer
    assert read_items(root, required=("id",)) == [{"id": "x", "task": "mml"}]


def test_read_items_keeps_non_ascii_names(tmp_path: Path) -> None:
    item = {**ITEM, "answer": {"roads": ["Lönnrotinkatu", "Pohjoisesplanadi"]}}
    root = _dataset(tmp_path, [json.dumps(item, ensure_ascii=False)])
    assert read_items(root)[0]["answer"]["roads"][0] == "Lönnrotinkatu"


def test_an_image_outside_the_dataset_is_refused_by_item(tmp_path: Path) -> None:
    root = _dataset(tmp_path, [json.dumps(ITEM)])
    with pytest.raises(CartoqaError, match="item mml-0000 names an image outside"):
        image_file(root, {**ITEM, "image": "../secret.png"})


@pytest.mark.parametrize(("name", "mime"), [("a.png", "image/png"), ("a.JPG", "image/jpeg"),
                                            ("a.webp", "image/webp"), ("a.bmp", "image/png")])
def test_image_mime_by_suffix(name: str, mime: str) -> None:
    assert image_mime(Path(name)) == mime


def test_a_finished_dataset_left_with_staging_is_tidied(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    out.mkdir()
    (out / "items.jsonl").write_text("", encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps({"build": KEY}), encoding="utf-8")
    (out / STAGING_DIR).mkdir()
    (out / STAGING_DIR / "journal.jsonl").write_text("", encoding="utf-8")
    assert DatasetWriter(out, build_key=KEY).is_complete()
    assert not (out / STAGING_DIR).exists()


def test_abandoning_never_removes_a_folder_the_user_made(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()  # the user's own (empty) folder
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    w.abandon()
    assert out.is_dir()
    w2 = DatasetWriter(out, build_key=KEY)
    w2.open()
    w2.abandon_all()
    assert out.is_dir()


def test_abandon_all_when_no_image_was_written(tmp_path: Path) -> None:
    out = tmp_path / "new"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    if w.images.exists():
        w.images.rmdir()
    w.abandon_all()  # nothing to remove is not an error
    assert not out.exists()


def test_a_checksum_for_a_path_leaving_images_is_reported(tmp_path: Path) -> None:
    root = _dataset(tmp_path, [json.dumps(ITEM)])
    items = root / "items.jsonl"
    sums = {"items.jsonl": sha256_bytes(items.read_bytes()),
            "images/../items.jsonl": sha256_bytes(items.read_bytes())}
    problems = checksum_problems(root, {"checksums": sums}, items)
    assert problems == ["manifest.json: checksum for an unexpected path 'images/../items.jsonl'"]
    missing = checksum_problems(root, {}, items)
    assert missing == ["manifest.json: records no checksums, so edits cannot be detected "
                       "(rebuild the dataset with this cartoqa version)"]


def test_count_problems_with_number_and_text_keys() -> None:
    problems = count_problems({"by_zoom": {"17": 2}}, {"by_zoom": {17: 2, "18": 1}})
    assert len(problems) == 1 and "by_zoom.18 is null in the manifest, 1" in problems[0]


def test_versions_are_read_from_the_tools_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    ok = [sys.executable, "-c", "print('1.2.3')"]
    failed = [sys.executable, "-c", "print('1.2.3'); raise SystemExit(3)"]
    assert versions._run(ok) == "1.2.3"
    assert versions._run(failed) is None  # a tool that fails says nothing reliable
    monkeypatch.setattr(versions, "package_version", lambda name: "5.7.0-1")
    assert versions.osm_carto_version() == "5.7.0-1"
    monkeypatch.setattr(versions, "package_version", lambda name: "unknown")
    assert versions.osm_carto_version() is None


def test_the_mapnik_version_is_mapniks() -> None:
    mapnik = pytest.importorskip("mapnik")
    found = versions.mapnik_version()
    assert found is not None and re.match(r"\d+\.\d+", found)
    if callable(getattr(mapnik, "version_string", None)):
        assert found == str(mapnik.version_string())


def test_the_mapnik_version_without_version_string(monkeypatch: pytest.MonkeyPatch) -> None:
    mapnik = pytest.importorskip("mapnik")
    try:
        installed: str | None = importlib.metadata.version("mapnik")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    monkeypatch.delattr(mapnik, "version_string", raising=False)
    assert versions.mapnik_version() == installed


# -- cartoqa validate and the card, on a finished hand-made dataset ----------------------

def _finished(tmp_path: Path, slots: int = 2) -> Path:
    out = tmp_path / "done"
    w = DatasetWriter(out, build_key={**KEY, "per_task": slots})
    w.open()
    for slot in range(slots):
        write_slot(w, slot)
    finalise(w)
    assert validate_dataset(out).ok
    return out


def _errors(out: Path) -> list[str]:
    return validate_dataset(out).errors


def test_validate_without_a_readable_manifest(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    (out / "manifest.json").unlink()
    errors = _errors(out)
    assert any(e.startswith("manifest.json: missing or not a JSON object") for e in errors)


def test_validate_names_the_line_and_the_item(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    lines = (out / "items.jsonl").read_text("utf-8").splitlines()
    bad = json.loads(lines[0])
    bad["answer"] = {"roads": []}
    (out / "items.jsonl").write_text("\n".join([json.dumps(bad), "{oops", *lines[1:]]) + "\n",
                                     "utf-8")
    errors = _errors(out)
    assert any(e.startswith("items.jsonl line 1 (mml-0000) ") for e in errors), errors
    assert any(e.startswith("items.jsonl line 2: not JSON (") for e in errors), errors


def test_validate_names_the_item_of_a_wrongly_sized_or_missing_image(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    (out / "images" / "mml-0000.png").write_bytes(png(size=(10, 10)))
    (out / "images" / "mml-0001.png").unlink()
    errors = _errors(out)
    assert "mml-0000: image images/mml-0000.png is 10x10, expected 1366x768" in errors, errors
    assert "images/mml-0001.png: missing (the manifest records its checksum)" in errors, errors


def test_validate_a_thematic_dataset_needs_attribution_and_sources(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest.update(suite="mapiq", sources=[{"name": "us-atlas", "licence": "ISC"}])
    manifest.pop("attribution", None)
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert any("must name its sources" in e for e in _errors(out))
    manifest["attribution"] = "us-atlas (ISC)"
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert not any("must name its sources" in e for e in _errors(out))


def test_the_card_says_what_made_the_dataset(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    card = render_card(manifest)
    assert card.startswith("# cartoqa dataset: x\n")
    assert "in the style of CartoMapQA, generated by `cartoqa build`" in card
    assert "- extract: `x` (sha256 `" + "0" * 64 + "`)" in card
    assert "- software: cartoqa 0" in card
    assert "Every answer was computed from the same OSM snapshot that drew the image" in card
    # how to rebuild it, and what it holds
    assert "- seed: 0, tasks: mml, requested items per task: 2" in card
    assert "--tasks mml --per-task 2 --seed 0`" in card
    assert "| task | items | requests | what |" in card
    assert "| mml | 2 | roads 2 | " in card
    assert "Total: 2 items." in card
    # Markdown blocks separated by blank lines, ending with how to check the folder
    assert "\n\n## Contents\n\n| task |" in card
    assert "\n\n## Files\n\n- `items.jsonl`" in card
    assert card.endswith("\n\nCheck the folder with `cartoqa validate DIR`.\n")
    assert "XX" not in card
    # the strata and the zooms the extract cannot fill, when there are some
    manifest["counts"]["by_stratum"] = {"mml": {"zoom": {"17": 2}}}
    manifest["zooms_not_filled"] = {"mml": {"15": "the extract covers 40 % of a view"}}
    card = render_card(manifest)
    assert "\n## Strata\n\n- **mml**: zoom (17: 2)\n" in card
    assert ("\n## Zooms the extract cannot fill\n\n"
            "- mml, zoom 15: the extract covers 40 % of a view\n") in card
    # the manifest itself is indented JSON a reader can read
    assert (out / "manifest.json").read_text("utf-8").startswith('{\n  "')
    # a bare manifest still gives a card; an unknown task has no blurb
    assert render_card({}).startswith("# cartoqa dataset: ?")
    assert task_blurb("no-such-task") == ""


def test_a_foreign_folder_is_refused_naming_three_of_its_files(tmp_path: Path) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    for name in ("d.txt", "a.txt", "c.txt", "b.txt"):
        (out / name).write_text("precious")
    fresh = DatasetWriter(out, build_key=KEY)
    assert fresh.records() == [] and fresh.done("mml", 0) is None  # nothing read yet
    with pytest.raises(CartoqaError) as exc:
        fresh.open()
    assert exc.value.message.endswith("is not empty and holds no cartoqa build "
                                      "(a.txt, b.txt, c.txt)")


def test_boolean_strata_are_counted_as_true_and_false() -> None:
    items = [{"id": str(i), "task": "stmf", "request": "presence",
              "strata": {"present": value}} for i, value in enumerate([True, False, True])]
    assert count_items(items)["by_stratum"]["stmf"]["present"] == {"false": 1, "true": 2}


def test_an_answer_of_another_request_shape_is_refused_where_it_is() -> None:
    item = mml_item(0)
    assert item_errors(item) == []
    wrong = {**item, "answer": {"count": 3}}  # a count where MML wants two road names
    errors = item_errors(wrong)
    assert errors and all(e.startswith("$.answer") for e in errors), errors
    other = {**item, "request": "count"}  # MML has one request, "roads"
    assert any(e.startswith("$.request") for e in item_errors(other))
