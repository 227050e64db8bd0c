"""Items with several images (FRIEDA's multi-map and contextual items).

A dataset of every declared request's sample item plus one three-map FRIEDA item:
``cartoqa validate`` checks every image (present, checksum recorded and unchanged,
``images[0]`` is ``image``), ``cartoqa run`` sends all three in one message (each after
``Map k:``), and the Hugging Face, VLMEvalKit and lmms-eval exports carry all three.
"""

from __future__ import annotations

import ast
import base64
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.chat_server import ChatServer
from helpers.synthetic_dataset import spec_items, write_items_dataset

from cartoqa.cli import main
from cartoqa.dataset.reader import item_images, read_items
from cartoqa.dataset.validate import validate_dataset
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.exports.hf import item_from_row, row_from_item
from cartoqa.exports.lmms_eval_support import doc_to_visual
from cartoqa.exports.vlmevalkit import columns_for, tsv_row
from cartoqa.runner.request import build_payload

MULTI_ID = "frieda_equal-0007-contextual"
MAPS = ["images/frieda-context-001.png", "images/frieda_equal-0007-1.png",
        "images/frieda_equal-0007-2.png"]


def _multi_item() -> dict[str, Any]:
    return {
        "id": MULTI_ID, "task": "frieda_equal", "request": "textual",
        "image": MAPS[0], "images": list(MAPS),
        "system_prompt": "Read the maps.",
        "question": "Which area, A or B, is the park outlined on another map?",
        "options": None, "answer": {"type": "textual", "names": ["B"]},
        "strata": {"maps": "multi", "setting": "contextual", "n_images": 3,
                   "template": "same_area", "answer_type": "text", "legend": "none"},
        "provenance": {"extract": "synthetic", "relation": "equal", "maps": []},
    }


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    items = sorted([*spec_items(), _multi_item()], key=lambda it: it["id"])
    return write_items_dataset(tmp_path / "ds", items)


def _rewrite_items(root: Path, change: Any) -> None:
    """Edit the multi-map item in place (the checksum of items.jsonl then differs)."""
    lines = []
    for line in (root / "items.jsonl").read_text("utf-8").splitlines():
        item = json.loads(line)
        if item["id"] == MULTI_ID:
            change(item)
        lines.append(json.dumps(item))
    (root / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_multi_map_dataset_validates(dataset: Path) -> None:
    report = validate_dataset(dataset)
    assert report.ok, report.errors
    assert report.images == len(read_items(dataset)) + 2  # two more maps than items


def test_validate_finds_a_missing_second_map(dataset: Path) -> None:
    (dataset / MAPS[1]).unlink()
    problems = validate_dataset(dataset).errors
    assert any(MAPS[1] in p and "missing" in p for p in problems), problems


def test_validate_finds_a_changed_second_map(dataset: Path) -> None:
    data = (dataset / MAPS[2]).read_bytes()
    (dataset / MAPS[2]).write_bytes(data + b"\0")
    problems = validate_dataset(dataset).errors
    assert any(f"{MAPS[2]} was changed" in p for p in problems), problems


def test_validate_finds_a_map_without_checksum(dataset: Path) -> None:
    manifest = json.loads((dataset / "manifest.json").read_text("utf-8"))
    del manifest["checksums"][MAPS[1]]
    (dataset / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    problems = validate_dataset(dataset).errors
    assert any("records no checksum" in p and MAPS[1] in p for p in problems), problems


def test_validate_wants_image_first_in_images(dataset: Path) -> None:
    _rewrite_items(dataset, lambda it: it.update(image=MAPS[1]))
    problems = validate_dataset(dataset).errors
    assert any("images[0]" in p for p in problems), problems


def test_validate_refuses_a_bad_images_list(dataset: Path) -> None:
    _rewrite_items(dataset, lambda it: it.update(images=[MAPS[0], MAPS[0]]))
    problems = validate_dataset(dataset).errors
    assert any("non-unique" in p for p in problems), problems


def test_payload_sends_every_map_in_order() -> None:
    payload = build_payload(_multi_item(), model="m", image_url=["u1", "u2", "u3"])
    content = payload["messages"][-1]["content"]
    assert [p.get("text") or p["image_url"]["url"] for p in content] == [
        "Map 1:", "u1", "Map 2:", "u2", "Map 3:", "u3", _multi_item()["question"]]


def test_run_sends_all_maps_and_scores_perfectly(dataset: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARTOQA_API_KEY", "k")
    out = tmp_path / "preds.jsonl"
    with ChatServer(dataset, answer_text=answer_as_text, api_key="k") as server:
        rc = main(["run", str(dataset), "--endpoint", server.url, "--model", "test-model",
                   "--out", str(out), "--no-progress"])
        state = server.state
    assert rc == 0 and state.problems == []
    assert state.images_seen[_multi_item()["question"]] == 3
    report = tmp_path / "report.json"
    assert main(["score", str(dataset), str(out), "--out", str(report), "--no-items",
                 "--no-connectivity"]) == 0
    section = json.loads(report.read_text("utf-8"))["sections"]["frieda_equal"]
    assert section["metrics"]["accuracy"]["all"] == 1.0
    assert section["strata"]["setting"]["contextual"]["n"] == 1


def test_hf_row_carries_every_map_and_reads_back(dataset: Path) -> None:
    item = _multi_item()
    data = [(dataset / rel).read_bytes() for rel in MAPS]
    row = row_from_item(item, data[0], data[1:])
    assert [m["path"] for m in row["more_images"]] == MAPS[1:]
    assert [m["bytes"] for m in row["more_images"]] == data[1:]
    assert item_images(item_from_row(row)) == MAPS
    assert len(doc_to_visual(row)) == 3
    single = row_from_item({**item, "images": [MAPS[0]]}, data[0])
    assert single["more_images"] == [] and "images" not in item_from_row(single)


def test_hf_export_has_the_maps(dataset: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    assert main(["export", "-f", "hf", str(dataset), str(tmp_path / "hf")]) == 0
    table = pq.read_table(next((tmp_path / "hf" / "data").glob("frieda_equal-*.parquet")))
    rows = {r["id"]: r for r in table.to_pylist()}
    assert [m["path"] for m in rows[MULTI_ID]["more_images"]] == MAPS[1:]
    card = (tmp_path / "hf" / "README.md").read_text("utf-8")
    assert "more_images" in card


def test_vlmevalkit_row_lists_the_maps(dataset: Path, tmp_path: Path) -> None:
    data = [(dataset / rel).read_bytes() for rel in MAPS]
    row = tsv_row(_multi_item(), 0, data, answer_as_text)
    assert [base64.b64decode(b) for b in ast.literal_eval(row["image"])] == data
    assert ast.literal_eval(row["image_path"]) == [Path(m).name for m in MAPS]
    assert "image_path" in columns_for("frieda_equal", multi_image=True)
    assert "image_path" not in columns_for("frieda_equal")
    assert main(["export", "-f", "vlmevalkit", str(dataset), str(tmp_path / "v")]) == 0
    import pandas as pd

    table = pd.read_csv(next((tmp_path / "v").glob("*_FRIEDA_EQUAL.tsv")), sep="\t")
    assert len(ast.literal_eval(table[table.id == MULTI_ID].iloc[0]["image"])) == 3
