"""End to end: ``cartoqa build --suite frieda`` on the hand-made relations fixture.

Real PostGIS, Mapnik and Chromium; a few items (border on one map, equal on two, each
direct and contextual), then validation, perfect scores, a multi-image export and a
rerun that finds the dataset complete. The fixture is tiny, so a contextual item here
holds 3-4 maps and distractor maps need only be 20 m clear of the question (the
defaults, 7-12 maps and 100 m, are for a city).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.shared_builds import SharedBuilds

from cartoqa.cli import main
from cartoqa.dataset.validate import validate_dataset
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.metrics.frieda import frieda_correct, parse_frieda
from cartoqa.tasks.frieda import build as frieda_build
from cartoqa.tasks.frieda.maps import MIN_PIXEL_VISIBLE
from cartoqa.tasks.frieda.questions import UNLABELLED_STYLES
from groundtruth.assets import asset_path

pytestmark = pytest.mark.slow


SMALL_MAPS = ((frieda_build, "CONTEXT_MAPS", (3, 4)),
              (frieda_build, "CONTEXT_MIN_GAP_M", 20.0))


@pytest.fixture(scope="module")
def built(shared_env: dict[str, str], shared_builds: SharedBuilds) -> Iterator[Path]:
    patch = pytest.MonkeyPatch()
    try:
        for module, name, value in SMALL_MAPS:
            patch.setattr(module, name, value)
        yield shared_builds.build("--suite", "frieda", "--tasks", "border,equal",
                                  "--extract", str(asset_path("osm", "relations.osm")),
                                  "--per-task", "1", patches=SMALL_MAPS)
    finally:
        patch.undo()


def _items(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / "items.jsonl").read_text("utf-8").splitlines()]


def _one_question(items: dict[str, dict[str, Any]], task: str
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The direct and contextual items of a task's only question."""
    ids = sorted(i for i in items if i.startswith(f"{task}-"))
    assert len(ids) == 2 and [i.rsplit("-", 1)[1] for i in ids] == ["contextual", "direct"]
    return items[ids[1]], items[ids[0]]


def test_items_in_both_settings_with_their_maps(built: Path) -> None:
    assert validate_dataset(built).ok
    items = {it["id"]: it for it in _items(built)}
    # one border and one equal question (from the slot that found one), both settings
    border, border_ctx = _one_question(items, "frieda_border")
    equal, equal_ctx = _one_question(items, "frieda_equal")
    # the same question in both settings: same answer, the same own maps
    assert border["answer"] == border_ctx["answer"] and equal["answer"] == equal_ctx["answer"]
    assert len(equal["images"]) == 2
    assert equal["strata"] == {"maps": "multi", "setting": "direct", "n_images": 2,
                               "template": "same_area", "answer_type": "text",
                               "legend": "none"}
    assert border["strata"]["template"] in ("one", "list", "count")
    for direct, contextual in ((border, border_ctx), (equal, equal_ctx)):
        assert contextual["image"] == contextual["images"][0]
        assert 3 <= len(contextual["images"]) <= 4
        relevant = [contextual["images"][k - 1] for k in contextual["provenance"]["relevant"]]
        assert relevant == direct["images"]  # the question's maps, in their order
        distractors = set(contextual["images"]) - set(relevant)
        assert distractors and all("frieda-context-" in d for d in distractors)
        assert "Map 1" not in contextual["question"]
        assert contextual["question"].startswith(f"The {len(contextual['images'])} maps")
        # the prompt's answer line is a placeholder: copying it scores nothing
        line = direct["question"].strip().splitlines()[-1]
        assert "<" in line and not frieda_correct(direct["answer"],
                                                  parse_frieda(direct["answer"], line))
    for it in (border, equal):
        for m in it["provenance"]["maps"]:
            # every drawn feature shows its colour on the image's pixels
            assert min(m["pixel_visible"]) >= MIN_PIXEL_VISIBLE
            if it["strata"]["maps"] == "multi":  # no map of two writes any name
                assert m["style"] in UNLABELLED_STYLES
    # the answer is among the features the question's last map names in its legend
    legend = [f["label"] for f in border["provenance"]["maps"][-1]["features"]]
    if border["answer"]["type"] == "textual":
        assert set(border["answer"]["names"]) <= set(legend)
    assert equal["answer"]["names"] in (["A"], ["B"])
    manifest = json.loads((built / "manifest.json").read_text("utf-8"))
    assert manifest["build"]["task_options"] == {"frieda_setting": "both"}
    assert "© OpenStreetMap contributors" in manifest["attribution"]
    for it in items.values():
        for rel in it["images"]:
            assert rel in manifest["checksums"]


def test_perfect_answers_score_one_and_export_keeps_every_map(built: Path,
                                                              tmp_path: Path) -> None:
    items = _items(built)
    predictions = tmp_path / "perfect.jsonl"
    predictions.write_text("".join(json.dumps({"id": it["id"], "response": answer_as_text(it)})
                                   + "\n" for it in items), encoding="utf-8")
    report_path = tmp_path / "report.json"
    assert main(["score", str(built), str(predictions), "--out", str(report_path),
                 "--no-items"]) == 0
    report = json.loads(report_path.read_text("utf-8"))
    for key in ("frieda_border", "frieda_equal"):
        section = report["sections"][key]
        assert section["metrics"]["accuracy"]["all"] == 1.0
        assert set(section["strata"]["setting"]) == {"direct", "contextual"}
    assert main(["export", "-f", "hf", str(built), str(tmp_path / "hf")]) == 0
    import pyarrow.parquet as pq

    table = pq.read_table(next((tmp_path / "hf" / "data").glob("frieda_equal-*.parquet")))
    rows = {r["id"]: r for r in table.to_pylist()}
    direct, contextual = _one_question(_items_by_id(items), "frieda_equal")
    assert len(rows[direct["id"]]["more_images"]) == 1
    ctx = rows[contextual["id"]]
    assert 1 + len(ctx["more_images"]) == len(contextual["images"])


def _items_by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {it["id"]: it for it in items}


def test_rerun_finds_the_dataset_complete(built: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    rc = main(["build", "--suite", "frieda", "--tasks", "border,equal",
               "--extract", str(asset_path("osm", "relations.osm")),
               "--out", str(built), "--per-task", "1", "--no-progress"])
    assert rc == 0
    assert "already built" in capsys.readouterr().out
