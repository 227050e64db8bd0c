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
from helpers.written_slots import KEY, finalise, mml_item, png, write_slot

from cartoqa.dataset import versions
from cartoqa.dataset.card import MFS_ZOOMS, render_card, task_blurb
from cartoqa.dataset.manifest import count_items
from cartoqa.dataset.reader import image_file, image_mime, read_items
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.validate import checksum_problems, count_problems, validate_dataset
from cartoqa.dataset.writer import STAGING_DIR, DatasetWriter, sha256_bytes
from cartoqa.errors import CartoqaError
from renderers.mfs.swatches import SWATCH_ZOOMS

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
    # the zooms each task covers, read off its items
    assert "\n## Zooms each task covers\n\n- mml: zoom 17\n" in card
    # MFS draws no map: the card says at which zoom its lines and areas are drawn
    assert f"line drawn alone at zoom {SWATCH_ZOOMS['line']}" in MFS_ZOOMS
    assert f"area at zoom {SWATCH_ZOOMS['area']}" in MFS_ZOOMS
    manifest["counts"]["by_stratum"]["mfs"] = {"category": {"line": 1}}
    assert f"\n- mml: zoom 17\n- mfs: {MFS_ZOOMS}\n" in render_card(manifest)
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


def test_item_lines_do_not_depend_on_the_order_keys_were_set() -> None:
    """Two builds that assemble the same item in a different order write the same line
    (items.jsonl and the journal are compared byte for byte, and checksummed)."""
    from cartoqa.dataset.files import dumps_line

    one = {"id": "x", "answer": {"value": 3, "unit": "m"}, "task": "RLE", "name": "Åbo"}
    other = {"task": "RLE", "name": "Åbo", "answer": {"unit": "m", "value": 3}, "id": "x"}
    assert dumps_line(one) == dumps_line(other) == (
        '{"answer":{"unit":"m","value":3},"id":"x","name":"Åbo","task":"RLE"}')


# -- what a user reads when a dataset is wrong, and what the files promise -------------

def test_every_refusal_to_read_a_dataset_says_how_to_fix_it(tmp_path: Path) -> None:
    rebuild = "rebuild the dataset with `cartoqa build`"
    with pytest.raises(CartoqaError) as exc:
        read_items(tmp_path / "nowhere")
    assert exc.value.fix == "pass the folder `cartoqa build` wrote"
    (tmp_path / "empty").mkdir()
    with pytest.raises(CartoqaError) as exc:
        read_items(tmp_path / "empty")
    assert exc.value.fix == "pass the folder `cartoqa build` wrote"
    for name, lines, message in (
            ("torn", ["{oops"], "line 1 is not valid JSON"),
            ("list", ["[1, 2]"], "line 1 is not a JSON object"),
            ("twice", [json.dumps(ITEM), json.dumps(ITEM)], "repeats the item id 'mml-0000'")):
        root = tmp_path / name
        root.mkdir()
        (root / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        with pytest.raises(CartoqaError, match=message) as exc:
            read_items(root)
        assert exc.value.fix == rebuild
    root = _dataset(tmp_path, [json.dumps(ITEM)])
    with pytest.raises(CartoqaError, match=r"image images/mml-0000\.png of item mml-0000 is "
                                           "missing") as exc:
        image_file(root, ITEM)
    assert exc.value.fix == rebuild


def test_a_multi_map_item_must_list_its_own_image_first() -> None:
    from cartoqa.dataset.reader import images_list_problem

    item = {"image": "images/a.png", "images": ["images/b.png", "images/a.png"]}
    assert images_list_problem(item) == (
        "images[0] is 'images/b.png', not the item's image 'images/a.png'")
    assert images_list_problem({**item, "images": ["images/a.png", "images/b.png"]}) is None
    # not a list, or empty: the schema reports it, not this check
    assert images_list_problem({**item, "images": "images/b.png"}) is None
    assert images_list_problem({**item, "images": []}) is None


def test_validate_reports_repeated_ids_and_a_multi_map_item_out_of_order(
        tmp_path: Path) -> None:
    out = _finished(tmp_path)
    lines = (out / "items.jsonl").read_text("utf-8").splitlines()
    first = json.loads(lines[0])
    first["images"] = ["images/mml-0001.png", first["image"]]
    (out / "items.jsonl").write_text("\n".join([json.dumps(first)] * 2) + "\n", "utf-8")
    errors = _errors(out)
    assert "items.jsonl: repeated ids mml-0000" in errors, errors
    assert ("mml-0000: images[0] is 'images/mml-0001.png', not the item's image "
            "'images/mml-0000.png'") in errors, errors


def test_validate_names_a_missing_image_and_stops_at_max_errors(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    (out / "images" / "mml-0000.png").unlink()
    assert "mml-0000: image images/mml-0000.png: missing" in _errors(out)
    (out / "images" / "mml-0001.png").unlink()
    assert len(validate_dataset(out, max_errors=2).errors) == 2
    assert len(validate_dataset(out, max_errors=3).errors) == 3


def test_validate_checks_map_sizes_without_recorded_sizes(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest.pop("image_sizes", None)
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    (out / "images" / "mml-0000.png").write_bytes(png(size=(10, 10)))
    # a map task's image is the view, 1366x768, whatever the manifest says
    assert "mml-0000: image images/mml-0000.png is 10x10, expected 1366x768" in _errors(out)


def test_validate_names_a_manifest_that_is_not_an_object(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    (out / "manifest.json").write_text("[1, 2]", "utf-8")
    assert "manifest.json: missing or not a JSON object (not an object)" in _errors(out)


def test_validate_a_staged_build_says_to_rerun_it(tmp_path: Path) -> None:
    root = tmp_path / "staged"
    (root / STAGING_DIR).mkdir(parents=True)
    with pytest.raises(CartoqaError, match=r"has no items\.jsonl, so it is not a dataset") as exc:
        validate_dataset(root)
    assert exc.value.fix == ("an unfinished build is staged there: rerun the same "
                             "`cartoqa build` command to finish it")


def test_counts_of_another_shape_are_named_not_a_crash() -> None:
    problems = count_problems({"total": 2, "by_task": 2}, {"total": 2, "by_task": {"mml": 2}})
    assert len(problems) == 1 and "by_task is 2 in the manifest" in problems[0], problems


def test_unsummed_images_are_listed_five_and_counted(tmp_path: Path) -> None:
    from cartoqa.dataset.validate import unsummed_images

    items = [{"image": f"images/m-{i}.png"} for i in range(7)]
    [message] = unsummed_images({"checksums": {"items.jsonl": "0"}}, items)
    assert message.endswith("refer to: images/m-0.png, images/m-1.png, images/m-2.png, "
                            "images/m-3.png, images/m-4.png and 2 more"), message


def test_the_manifest_carries_the_licence_and_the_unfilled_zooms(tmp_path: Path) -> None:
    from cartoqa.dataset import DATA_LICENSE
    from cartoqa.dataset.manifest import build_manifest

    manifest = build_manifest([mml_item(0)], extract={"name": "x", "sha256": "0" * 64},
                              versions={"cartoqa": "0"}, image_sizes={"mml": (1366, 768)},
                              shortfalls={}, unfilled_zooms={"mml": {15: "too small"}})
    assert manifest["data_license"] == DATA_LICENSE
    assert manifest["zooms_not_filled"] == {"mml": {"15": "too small"}}


def test_the_card_lists_shortfalls_after_the_rest_and_frieda_rebuilds(tmp_path: Path) -> None:
    out = _finished(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["shortfalls"] = {"mml": {"written": 1, "requested": 2, "reason": "few roads"}}
    card = render_card(manifest)
    assert card.startswith("# cartoqa dataset: x\n")
    assert "\n## Shortfalls\n\n- mml: 1 of 2 items (few roads)\n" in card
    manifest["build"] = {**manifest["build"], "tasks": ["frieda_border"],
                         "task_options": {"frieda_setting": "both"}}
    assert "`cartoqa build --suite frieda --frieda-setting both --extract" in render_card(
        manifest)


def test_the_schema_names_the_task_rule_an_item_breaks() -> None:
    from helpers.written_slots import mml_item as item_of

    good = item_of(0)
    assert item_errors(good) == []
    assert item_errors({**good, "strata": {"zoom": 17}}) == [
        "$.strata: 'color' is a required property"]
    assert "$.id: 5 is not of type 'string'" in item_errors({**good, "id": 5})
    assert item_errors({**good, "id": "mml-zoom17.b_2"}) == []  # letters after the task
    assert any(e.startswith("$.id: 'mml-a b' does not match")
               for e in item_errors({**good, "id": "mml-a b"}))
    frieda = {**good, "id": "frieda_border-0000", "task": "frieda_border",
              "request": "textual", "strata": {"maps": 1, "setting": "single", "n_images": 1},
              "provenance": {"extract": "x"}}
    errors = item_errors(frieda)
    assert "$.provenance: 'relation' is a required property" in errors, errors


def test_the_library_version_of_mapnik_wins_over_its_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    mapnik = pytest.importorskip("mapnik")
    # a binding built against another libmapnik: the card records the library's version
    monkeypatch.setattr(mapnik, "version_string", lambda: "9.8.7", raising=False)
    assert versions.mapnik_version() == "9.8.7"


def test_the_chromium_version_is_chromiums() -> None:
    import shutil

    from renderers.browser import default_chromium

    if shutil.which(str(default_chromium())) is None:
        pytest.skip("no chromium")
    found = versions.chromium_version()
    assert found is not None and re.fullmatch(r"\d+(\.\d+)+", found), found
