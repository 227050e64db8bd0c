"""``cartoqa report`` without a browser: what the pages hold, the images, the output
folder rules, the outcomes and the overlay shapes (hand-computed)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from report_data import INVALID, MULTI_ID, SIZE, read_items

from cartoqa.cli import main
from cartoqa.errors import CartoqaError
from cartoqa.report import answer_text, item_images, outcome, overlay_shapes, write_report
from cartoqa.report.output import MARKER
from cartoqa.scoring import score_predictions
from groundtruth.projection import View


def page_data(page: Path) -> dict[str, Any]:
    """The JSON a task page embeds."""
    html = page.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                      html, re.S)
    assert match, f"no data in {page}"
    return json.loads(match.group(1).replace("<\\/", "</"))


@pytest.fixture(scope="module")
def report(report_inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reports") / "rep"
    write_report(report_inputs["dataset"], [report_inputs["reference"], report_inputs["flawed"]],
                 out=out, check_connectivity=False)
    return out


def test_pages_hold_every_item_once_with_both_models(report: Path,
                                                      report_inputs: dict[str, Path]) -> None:
    items = read_items(report_inputs["dataset"])
    seen: list[str] = []
    for page in sorted(report.glob("task-*.html")):
        data = page_data(page)
        assert data["models"] == ["reference", "flawed"]
        for row in data["items"]:
            seen.append(row["id"])
            assert [a["m"] for a in row["answers"]] == [0, 1]
            assert row["answers"][0]["outcome"] == "correct", row
    assert sorted(seen) == sorted(it["id"] for it in items)
    assert {p.name for p in report.glob("task-*.html")} == {
        f"task-{t}.html" for t in ("mfs", "stmf", "mtmf", "rle", "mml", "srn")}


def test_flawed_model_outcomes_and_reasons(report: Path) -> None:
    # Per task and request: first item right, second wrong, third invalid (report_data).
    for page in sorted(report.glob("task-*.html")):
        data = page_data(page)
        by_request: dict[str, list[str]] = {}
        for row in data["items"]:
            flawed = row["answers"][1]
            by_request.setdefault(row["request"], []).append(flawed["outcome"])
            if flawed["outcome"] == "invalid":
                assert flawed["response"] == INVALID
                assert flawed["parsed"] is None and flawed["why"]
            else:
                assert flawed["parsed"]
        for request, outcomes in by_request.items():
            assert outcomes == ["correct", "wrong", "invalid"], (page.name, request)


def test_item_row_shows_prompt_truth_and_reading(report: Path,
                                                 report_inputs: dict[str, Path]) -> None:
    data = page_data(report / "task-srn.html")
    row = data["items"][1]
    item = next(it for it in read_items(report_inputs["dataset"]) if it["id"] == row["id"])
    assert data["systems"][row["sys"]] == item["system_prompt"]
    assert row["question"] == item["question"]
    assert row["truth"] == "blue → turn left → Mannerheimintie → turn right → Lönnrotinkatu → red"
    flawed = row["answers"][1]
    assert flawed["parsed"] == "blue → turn right → Mannerheimintie → red"
    assert flawed["why"].startswith("step accuracy 0.00")


def test_images_copied_at_full_size_and_multi_image_item(report: Path) -> None:
    data = page_data(report / "task-mml.html")
    row = next(r for r in data["items"] if r["id"] == MULTI_ID)
    assert [i["src"] for i in row["images"]] == ["images/mml-0001.png", "images/mml-0001-b.png"]
    for image in row["images"]:
        assert (image["w"], image["h"]) == SIZE
        assert (report / image["src"]).is_file()


def test_reference_mode_links_into_the_dataset(report_inputs: dict[str, Path],
                                               tmp_path: Path) -> None:
    out = tmp_path / "deep" / "rep"
    summary = write_report(report_inputs["dataset"], [], out=out, images="reference",
                           check_connectivity=False)
    assert summary.image_bytes == 0 and not (out / "images").exists()
    row = page_data(out / "task-rle.html")["items"][0]
    target = (out / row["images"][0]["src"]).resolve()
    assert target == (report_inputs["dataset"] / "images" / f"{row['id']}.png").resolve()
    assert row["answers"] == []


def test_overview_has_counts_tables_and_figures(report: Path) -> None:
    html = (report / "index.html").read_text(encoding="utf-8")
    assert html.count('<table class="scores"') == 8  # every section
    assert "task-stmf.html#model=flawed&amp;outcome=invalid&amp;request=count" in html or \
        "task-stmf.html#model=flawed&outcome=invalid&request=count" in html
    for figure in re.findall(r'<img src="([^"]+)"', html):
        assert (report / figure).is_file()
    assert "figures/flawed/tasks.png" in html and "figures/reference/tasks.png" in html
    assert "© OpenStreetMap contributors" in html
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_pages_name_no_remote_url(report: Path) -> None:
    for page in report.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', html), page
        assert "<link" not in html and "<script src" not in html


def test_script_data_cannot_close_its_element(report_inputs: dict[str, Path],
                                              tmp_path: Path) -> None:
    from report_data import write_predictions
    preds = write_predictions(tmp_path / "evil.jsonl",
                              {"mfs-0000": "</script><script>alert(1)</script> Answer: C"})
    out = tmp_path / "rep"
    write_report(report_inputs["dataset"], [preds], out=out, check_connectivity=False)
    html = (out / "task-mfs.html").read_text(encoding="utf-8")
    assert html.count("</script>") == 2  # the data element and the script element
    row = page_data(out / "task-mfs.html")["items"][0]
    assert row["answers"][0]["response"].startswith("</script>")


# --- the output folder -------------------------------------------------------------


def test_refuses_a_folder_that_is_not_a_report_even_with_overwrite(
        report_inputs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("keep me")
    for overwrite in (False, True):
        with pytest.raises(CartoqaError, match="not a cartoqa report"):
            write_report(report_inputs["dataset"], [], out=out, overwrite=overwrite,
                         check_connectivity=False)
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]
    assert not list(tmp_path.glob(".mine.report-*"))


def test_replaces_an_earlier_report_only_with_overwrite(report_inputs: dict[str, Path],
                                                        tmp_path: Path) -> None:
    out = tmp_path / "rep"
    write_report(report_inputs["dataset"], [report_inputs["reference"]], out=out,
                 check_connectivity=False)
    with pytest.raises(CartoqaError, match="earlier report"):
        write_report(report_inputs["dataset"], [], out=out, check_connectivity=False)
    assert (out / "figures" / "reference" / "tasks.png").is_file()
    write_report(report_inputs["dataset"], [], out=out, overwrite=True,
                 check_connectivity=False)
    assert not (out / "figures").exists()  # the earlier report's files are gone
    marker = json.loads((out / MARKER).read_text())
    assert marker["predictions"] == []
    assert sorted(marker["files"]) == sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()
        and p.name != MARKER)


def test_an_earlier_report_with_foreign_files_is_kept(report_inputs: dict[str, Path],
                                                      tmp_path: Path) -> None:
    out = tmp_path / "rep"
    write_report(report_inputs["dataset"], [], out=out, check_connectivity=False)
    (out / "notes.txt").write_text("mine")
    with pytest.raises(CartoqaError, match="did not write"):
        write_report(report_inputs["dataset"], [], out=out, overwrite=True,
                     check_connectivity=False)
    assert (out / "notes.txt").read_text() == "mine" and (out / "index.html").is_file()


def test_cli_writes_and_refuses_in_one_line(report_inputs: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    args = ["report", str(report_inputs["dataset"]), str(report_inputs["reference"]),
            "--out", str(out), "--no-connectivity"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "24 items, 1 model(s)" in printed and "MB" in printed
    assert f"report: {out / 'index.html'}" in printed
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cartoqa report: error:") and "--overwrite" in err
    assert len(err.splitlines()) == 1
    (tmp_path / "afile").write_text("x")
    assert main([*args[:3], "--out", str(tmp_path / "afile")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_a_missing_dataset_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CartoqaError, match="does not exist"):
        write_report(tmp_path / "nope", [], out=tmp_path / "rep")
    assert not (tmp_path / "rep").exists()


def test_missing_image_is_noted_not_fatal(report_inputs: dict[str, Path], tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    import shutil
    shutil.copytree(report_inputs["dataset"], ds)
    (ds / "images" / "rle-0000.png").unlink()
    summary = write_report(ds, [], out=tmp_path / "rep", check_connectivity=False)
    assert summary.notes and "rle-0000.png" in summary.notes[0]
    row = page_data(tmp_path / "rep" / "task-rle.html")["items"][0]
    assert row["images"][0]["src"] is None


def test_copies_are_copies_and_links_are_links(report: Path, report_inputs: dict[str, Path],
                                              tmp_path: Path) -> None:
    source = report_inputs["dataset"] / "images" / "mfs-0000.png"
    copied = report / "images" / "mfs-0000.png"
    assert copied.read_bytes() == source.read_bytes()
    assert os.stat(copied).st_ino != os.stat(source).st_ino
    summary = write_report(report_inputs["dataset"], [], out=tmp_path / "rep", images="link",
                           check_connectivity=False)
    linked = tmp_path / "rep" / "images" / "mfs-0000.png"
    assert os.stat(linked).st_ino == os.stat(source).st_ino  # same file system here
    assert summary.linked_images == summary.n_images == 25


# --- pure parts --------------------------------------------------------------------


def test_item_images_accepts_one_or_several() -> None:
    assert item_images({"image": "images/a.png"}) == ["images/a.png"]
    assert item_images({"images": ["images/a.png", "images/b.png"]}) == [
        "images/a.png", "images/b.png"]
    assert item_images({}) == []


def test_outcomes_from_real_scoring(report_inputs: dict[str, Path]) -> None:
    from report_data import flawed_responses
    items = read_items(report_inputs["dataset"])
    rows = score_predictions(items, flawed_responses(items))["items"]
    why = {r["id"]: outcome(r) for r in rows}
    assert why["mfs-0001"] == ("wrong", "does not match the ground truth")
    assert why["stmf-0004"] == ("wrong", "off by 4")  # 7 counted, 3 true
    assert why["rle-0001"][0] == "wrong" and why["rle-0001"][1].startswith("282.1 % off")
    assert why["mtmf-0001"][0] == "wrong" and "F1 0.00" in why["mtmf-0001"][1]
    assert why["mml-0001"] == ("wrong", "does not match the ground truth")
    assert why["srn-0002"][0] == "invalid"


def test_rle_within_ten_percent_is_correct() -> None:
    assert outcome({"valid": True, "measures": {"abs_pct_error": 9.9, "abs_error_m": 5}})[0] \
        == "correct"
    assert outcome({"valid": True, "measures": {"abs_pct_error": 10.1, "abs_error_m": 5}})[0] \
        == "wrong"


def test_answer_text_per_task() -> None:
    assert answer_text({"task": "stmf", "request": "presence"}, {"present": False}) == "no"
    assert answer_text({"task": "stmf", "request": "names"},
                       {"names": ["A", "B"], "unnamed": 1}) == \
        "- A\n- B\n(+ 1 without a legible name)"
    assert answer_text({"task": "mtmf", "request": "all"}, {"types": {
        "bank": {"count": 1, "names": ["Nordea"]}, "park": {"count": 0, "names": []}}}) == \
        "bank: 1 (Nordea)\n(1 other types: 0)"
    assert answer_text({"task": "mml", "request": "roads"}, {"roads": ["A", "B"]}) == "A / B"
    assert answer_text({"task": "new", "request": "x"}, {"k": 1}) == '{\n "k": 1\n}'


def test_overlay_path_projects_through_the_view() -> None:
    # At (0, 0) the view's centre falls on a whole pixel, the middle of the image; at
    # zoom 19 the world is 2**27 pixels wide, so 360 / 2**27 degrees east is one pixel.
    centre = (0.0, 0.0)
    step = 360 / 2 ** 27
    item = {"task": "rle", "answer": {"value": 5, "unit": "m"},
            "provenance": {"center": list(centre), "zoom": 19,
                           "path": [list(centre), [centre[0], centre[1] + 10 * step]],
                           "markers": [{"color": "blue", "px": [683.0, 384.0]}]}}
    shapes = overlay_shapes(item, (1366, 768))
    assert shapes[0]["kind"] == "path" and shapes[0]["label"] == "path: 5 m"
    (x0, y0), (x1, y1) = shapes[0]["points"]
    assert (x0, y0) == (683.0, 384.0)
    assert x1 - x0 == pytest.approx(10.0, abs=0.1) and y1 == y0
    assert View(center=centre, zoom=19).to_view_px(*centre) == (683.0, 384.0)
    assert shapes[1] == {"kind": "point", "at": [683.0, 384.0], "label": "blue marker",
                         "color": "#1f4fff"}


def test_overlay_counted_features_and_nothing_for_mfs() -> None:
    item = {"task": "stmf", "provenance": {"counted": [
        {"type": "bank", "name": "Nordea", "px": [10, 20]},
        {"type": "bank", "name": None, "px": [30, 40]}]}}
    assert [(s["kind"], s["at"], s["label"]) for s in overlay_shapes(item, (100, 100))] == [
        ("box", [10.0, 20.0], "bank: Nordea"), ("box", [30.0, 40.0], "bank")]
    assert overlay_shapes({"task": "mfs", "provenance": {"zoom": 19}}, (10, 10)) == []
