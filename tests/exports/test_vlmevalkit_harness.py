"""The VLMEvalKit export as VLMEvalKit loads it, and its predictions as VLMEvalKit writes them.

The loader and writers are reproduced in :mod:`helpers.vlmevalkit_like` (VLMEvalKit is
not on PyPI in a usable form). The dataset mixes one-map and multi-map items in one
task file (``frieda_equal``: the declared sample has one map, the contextual item
three), the case where VLMEvalKit's loader met an empty ``image_path`` cell.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import vlmevalkit_like as vlm
from helpers.synthetic_dataset import spec_items, write_items_dataset

from cartoqa.cli import main
from cartoqa.dataset.reader import item_images, read_items
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.errors import CartoqaError
from cartoqa.exports.prompt import prompt_text
from cartoqa.scoring import score_dataset
from cartoqa.scoring.harness import harness_result_files
from cartoqa.scoring.io import read_predictions

MULTI_ID = "frieda_equal-0007-contextual"
MAPS = ["images/frieda-context-001.png", "images/frieda_equal-0007-1.png",
        "images/frieda_equal-0007-2.png"]


def _multi_item() -> dict[str, Any]:
    return {
        "id": MULTI_ID, "task": "frieda_equal", "request": "textual",
        "image": MAPS[0], "images": list(MAPS), "system_prompt": "Read the maps.",
        "question": "Which area, A or B, is the park outlined on another map?",
        "options": None, "answer": {"type": "textual", "names": ["B"]},
        "strata": {"maps": "multi", "setting": "contextual", "n_images": 3},
        "provenance": {"extract": "synthetic", "relation": "equal", "maps": []},
    }


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    items = sorted([*spec_items(), _multi_item()], key=lambda it: it["id"])
    return write_items_dataset(tmp_path / "ds", items)


@pytest.fixture
def exported(dataset: Path, tmp_path: Path) -> Path:
    out = tmp_path / "LMUData"
    assert main(["export", str(dataset), "--format", "vlmevalkit", str(out)]) == 0
    return out


def _headline(report: dict[str, Any]) -> dict[str, Any]:
    return {key: {name: m["all"] for name, m in s["metrics"].items()}
            for key, s in report["sections"].items()}


def test_every_row_of_a_mixed_file_loads_with_its_maps_in_order(
        dataset: Path, exported: Path, tmp_path: Path) -> None:
    items = {it["id"]: it for it in read_items(dataset)}
    mixed = next(exported.glob("*_FRIEDA_EQUAL.tsv"))
    import pandas as pd

    raw = pd.read_csv(mixed, sep="\t")
    assert "image_path" in raw and not raw["image_path"].isna().any()
    seen = 0
    for tsv in sorted(exported.glob("*.tsv")):
        data = vlm.load_benchmark(tsv)  # NotImplementedError on an empty image_path
        for (_, row), (files, text) in zip(data.iterrows(),
                                           vlm.prompt(data, tmp_path / "images" / tsv.stem),
                                           strict=True):
            item = items[str(row["id"])]
            assert [f.read_bytes() for f in files] == \
                [(dataset / p).read_bytes() for p in item_images(item)]
            assert text == prompt_text(item)
            assert text.startswith(item["system_prompt"]) and text.endswith(item["question"])
            seen += 1
    assert seen == len(items)


def test_the_old_layout_is_what_failed(exported: Path, tmp_path: Path) -> None:
    """An empty ``image_path`` cell (as the export once wrote) stops VLMEvalKit's loader."""
    import pandas as pd

    mixed = next(exported.glob("*_FRIEDA_EQUAL.tsv"))
    table = pd.read_csv(mixed, sep="\t", keep_default_na=False, dtype=str)
    table.loc[~table["image"].str.startswith("["), "image_path"] = ""
    old = tmp_path / "old.tsv"
    table.to_csv(old, sep="\t", index=False)
    with pytest.raises(NotImplementedError):
        vlm.load_benchmark(old)


@pytest.mark.parametrize("fmt", ["xlsx", "tsv", "json"])
def test_predictions_as_vlmevalkit_writes_them_score_like_cartoqa(
        dataset: Path, exported: Path, tmp_path: Path, fmt: str) -> None:
    items = {it["id"]: it for it in read_items(dataset)}
    work = tmp_path / "outputs" / "Model-7B"
    written = []
    for tsv in sorted(exported.glob("*.tsv")):
        data = vlm.load_benchmark(tsv)
        answers = [answer_as_text(items[str(i)]) for i in data["id"]]
        written.append(vlm.write_predictions(data, answers, work, "Model-7B", tsv.stem, fmt))
    mfs = next(p for p in written if "_MFS." in p.name)
    extra = vlm.write_mcq_results(mfs)  # _exact_matching_result.<fmt>, _acc.csv
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps({"id": i, "response": answer_as_text(it)}) + "\n"
                           for i, it in items.items()), encoding="utf-8")
    expected = score_dataset(dataset, own, check_connectivity=False)
    # the whole work folder, as a shell glob passes it: the result files are left out
    every = sorted(work.iterdir())
    assert set(extra) <= set(every)
    report = score_dataset(dataset, every, check_connectivity=False)
    assert report["n_missing"] == 0 and report["n_invalid"] == expected["n_invalid"]
    assert _headline(report) == _headline(expected)
    assert any("exact_matching_result" in n and "left out" in n for n in report["notes"])
    # each prediction file on its own reads every row
    for path in written:
        got, _ = read_predictions(path)
        assert got and all(got[i] == answer_as_text(items[i]) for i in got), path


def test_a_result_file_on_its_own_still_reads(exported: Path, dataset: Path,
                                              tmp_path: Path) -> None:
    items = {it["id"]: it for it in read_items(dataset)}
    tsv = next(exported.glob("*_MFS.tsv"))
    data = vlm.load_benchmark(tsv)
    pred = vlm.write_predictions(data, [answer_as_text(items[str(i)]) for i in data["id"]],
                                 tmp_path / "w", "M", tsv.stem)
    result, _ = vlm.write_mcq_results(pred)
    assert read_predictions(result)[0] == read_predictions(pred)[0]
    # but not beside the predictions under another name: repeated ids are an error
    other = tmp_path / "elsewhere" / "copy.xlsx"
    other.parent.mkdir()
    other.write_bytes(result.read_bytes())
    with pytest.raises(CartoqaError, match="again"):
        score_dataset(dataset, [pred, other], check_connectivity=False)


def test_result_files_are_told_by_name_only_beside_their_predictions() -> None:
    given = [Path("w/M_D_FRIEDA_BORDER.xlsx"), Path("w/M_D_FRIEDA_BORDER_gpt-4o_result.xlsx"),
             Path("w/M_D_FRIEDA_EQUAL.xlsx"), Path("w/M_D_FRIEDA_EQUAL_acc.csv"),
             Path("w/status.json"), Path("v/M_D_FRIEDA_EQUAL_x_result.xlsx"),
             Path("run.jsonl"), Path("run_2.jsonl")]
    keep, notes = harness_result_files(given)
    assert [str(p) for p in keep] == ["w/M_D_FRIEDA_BORDER.xlsx", "w/M_D_FRIEDA_EQUAL.xlsx",
                                      "v/M_D_FRIEDA_EQUAL_x_result.xlsx", "run.jsonl",
                                      "run_2.jsonl"]
    assert len(notes) == 3


def test_json_that_is_no_prediction_table_is_refused(tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps([{"index": 0, "answer": "B"}], indent=4), encoding="utf-8")
    with pytest.raises(CartoqaError, match="not a predictions file cartoqa reads"):
        read_predictions(odd)
