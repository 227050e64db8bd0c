"""The report in a real headless Chromium: pages render with their images, filters
change what is shown, the overlay is drawn, and no request leaves the machine."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from report_data import MULTI_ID, SIZE

from cartoqa.report import write_report
from cartoqa.report.screenshots import allow_report, open_page, screenshot_report
from renderers.browser import Browser

pytestmark = pytest.mark.slow

#: Choose the flawed model's invalid answers with the page's own controls, then report.
FILTER_JS = """
function pick(id, value) {
  const s = document.getElementById(id); s.value = value;
  s.dispatchEvent(new Event('change'));
}
const before = document.querySelectorAll('.item').length;
pick('f-model', 'flawed');
pick('f-outcome', 'invalid');
const ids = Array.from(document.querySelectorAll('.item')).map(e => e.dataset.id);
const answers = Array.from(document.querySelectorAll('.answer')).map(e => e.dataset.model);
const q = document.getElementById('f-q'); q.value = 'stmf-0008';
q.dispatchEvent(new Event('input'));
const searched = Array.from(document.querySelectorAll('.item')).map(e => e.dataset.id);
return {before: before, ids: ids, answers: answers, searched: searched, hash: location.hash,
        resources: performance.getEntriesByType('resource').map(e => e.name)};
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(width=1400, height=1500, record_requests=True) as b:
        yield b


@pytest.fixture(scope="module")
def report(report_inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-report") / "rep"
    write_report(report_inputs["dataset"], [report_inputs["reference"], report_inputs["flawed"]],
                 out=out, check_connectivity=False)
    return out


@pytest.fixture(autouse=True)
def _allowed(report: Path, browser: Browser) -> None:
    allow_report(browser, report)


def test_overview_and_every_task_page_render_offline(report: Path, browser: Browser,
                                                     tmp_path: Path) -> None:
    shots = screenshot_report(report, tmp_path / "shots", browser)
    assert [s.name for s in shots] == ["overview", "mfs", "mml", "mtmf", "rle", "srn", "stmf"]
    for shot in shots:
        assert shot.non_local_urls() == [], shot.name
        assert shot.png is not None
        assert Image.open(io.BytesIO(shot.png.read_bytes())).size == (1400, 1500)
    overview = shots[0].probe
    assert overview["tables"] == 8
    assert shots[0].requests[0] == browser.url_for((report / "index.html").resolve().as_uri())
    assert any(r.endswith("figures/flawed/tasks.png") for r in shots[0].requests)
    for shot in shots[1:]:
        probe = shot.probe
        assert any(r.endswith(".png") for r in shot.requests), shot.name
        assert probe["items"], shot.name
        first = probe["images"][0]
        assert (first["w"], first["h"]) == SIZE and first["complete"], shot.name
        assert probe["answers"][:2] == ["answer correct", "answer correct"], shot.name
    by_name = {s.name: s.probe for s in shots}
    assert by_name["stmf"]["count"] == "9 of 9 items"
    # Overlays where provenance has something to draw (#overlay=1), none for MFS.
    assert by_name["mfs"]["overlays"] == 0
    for task in ("rle", "srn", "mml", "stmf"):
        assert by_name[task]["overlays"] >= 1, task


def test_filters_change_what_is_shown(report: Path, browser: Browser) -> None:
    shot = open_page(browser, (report / "task-stmf.html").as_uri(), "filtered",
                     probe_js=FILTER_JS)
    p = shot.probe
    assert p["before"] == 9
    # The flawed model's third answer per request is invalid (report_data).
    assert p["ids"] == ["stmf-0006", "stmf-0007", "stmf-0008"]
    assert set(p["answers"]) == {"flawed"}
    assert p["searched"] == ["stmf-0008"]
    assert "outcome=invalid" in p["hash"] and "model=flawed" in p["hash"]
    assert shot.non_local_urls() == []


def test_the_request_check_sees_a_remote_request(report: Path, browser: Browser) -> None:
    # The check above can fail: a page that asks for a remote image is caught (the
    # address is reserved and never resolves; no data leaves).
    shot = open_page(browser, (report / "index.html").as_uri(), "remote", probe_js=(
        "const i = document.createElement('img'); i.src = 'http://report.invalid/x.png';"
        "document.body.appendChild(i); return {};"))
    assert shot.non_local_urls() == ["http://report.invalid/x.png"]


def test_filter_in_the_address_and_a_multi_image_item(report: Path, browser: Browser) -> None:
    url = (report / "task-mml.html").as_uri() + f"#q={MULTI_ID}&overlay=1"
    probe = open_page(browser, url, "mml").probe
    assert probe["items"] == [MULTI_ID]
    assert [i["src"].rsplit("/", 1)[1] for i in probe["images"]] == [
        "mml-0001.png", "mml-0001-b.png"]
    assert all(i["w"] == SIZE[0] for i in probe["images"])
    assert probe["overlays"] == 1  # on the first image


def test_five_pages_of_items_paginate(report_inputs: dict[str, Path], tmp_path: Path,
                                      browser: Browser) -> None:
    from report_data import write_report_dataset
    ds = write_report_dataset(tmp_path / "big", copies=40)  # 120 STMF items
    out = tmp_path / "rep"
    write_report(ds, [], out=out, check_connectivity=False)
    allow_report(browser, out)
    probe = open_page(browser, (out / "task-stmf.html").as_uri() + "#page=3", "p3").probe
    assert probe["count"] == "120 of 120 items"
    assert len(probe["items"]) == 20 and probe["items"][0] == "stmf-0100"


def test_hostile_answers_and_osm_names_do_not_empty_a_page(
        report_inputs: dict[str, Path], browser: Browser, tmp_path: Path) -> None:
    """Issue 31, point 3: ``Answer: <!--<script>`` emptied its whole task page (0 items);
    an OSM name in an item could do the same. Every page still shows every item."""
    import json
    import shutil

    dataset = tmp_path / "ds"
    shutil.copytree(report_inputs["dataset"], dataset)
    items = [json.loads(line) for line in
             (dataset / "items.jsonl").read_text("utf-8").splitlines()]
    hostile = "Answer: <!--<script>"
    for item in items:
        if item["task"] == "mml":
            item["answer"]["roads"][0] = "<!--<script>Mannerheimintie</script>"
        item["question"] = item["question"] + " <!--<script>"
    (dataset / "items.jsonl").write_text(
        "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), "utf-8")
    preds = tmp_path / "hostile.jsonl"
    preds.write_text("".join(json.dumps({"id": i["id"], "response": hostile}) + "\n"
                             for i in items), "utf-8")
    out = tmp_path / "rep"
    write_report(dataset, [preds], out=out, check_connectivity=False)
    allow_report(browser, out)
    shots = screenshot_report(out, tmp_path / "shots", browser)
    per_task: dict[str, int] = {}
    for item in items:
        per_task[item["task"]] = per_task.get(item["task"], 0) + 1
    for shot in shots[1:]:
        n = per_task[shot.name]
        assert shot.probe["count"] == f"{n} of {n} items", shot.name
        assert len(shot.probe["items"]) > 0, shot.name
