"""`cartoqa score` on predictions written by VLMEvalKit and lmms-eval, after an export."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from cartoqa.cli import main
from cartoqa.dataset.reader import read_items
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.errors import CartoqaError
from cartoqa.scoring import score_dataset
from cartoqa.scoring.io import read_predictions

TASKS = ["mfs", "stmf", "mtmf", "rle", "mml", "srn"]


def _headline(report: dict[str, Any]) -> dict[str, Any]:
    return {key: {name: m["all"] for name, m in s["metrics"].items()}
            for key, s in report["sections"].items()}


def _vlmevalkit_predictions(dataset: Path, tmp_path: Path) -> list[pd.DataFrame]:
    """The exported TSVs with VLMEvalKit's `prediction` column added (image dropped)."""
    out = tmp_path / "vlm"
    assert main(["export", str(dataset), "--format", "vlmevalkit", str(out)]) == 0
    items = {it["id"]: it for it in read_items(dataset)}
    frames = []
    for task in TASKS:
        frame = pd.read_csv(out / f"CartoQA_synthetic_{task.upper()}.tsv", sep="\t",
                            keep_default_na=False, dtype=str).drop(columns=["image"])
        frame["prediction"] = [answer_as_text(items[i]) for i in frame["id"]]
        frames.append(frame)
    return frames


def _write_xlsx(frame: pd.DataFrame, path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(frame.columns))
    for row in frame.itertuples(index=False):
        sheet.append([int(v) if k == "index" else v for k, v in zip(frame.columns, row,
                                                                    strict=True)])
    book.save(path)
    return path


def test_vlmevalkit_xlsx_and_tsv_score_like_cartoqa_jsonl(dataset: Path, tmp_path: Path
                                                         ) -> None:
    frames = _vlmevalkit_predictions(dataset, tmp_path)
    every = pd.concat(frames)
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps({"id": i, "response": p}) + "\n"
                           for i, p in zip(every["id"], every["prediction"], strict=True)),
                   encoding="utf-8")
    xlsx = _write_xlsx(every, tmp_path / "model_CartoQA.xlsx")
    tsv = tmp_path / "model_CartoQA.tsv"
    every.to_csv(tsv, sep="\t", index=False, quoting=csv.QUOTE_MINIMAL)
    expected = score_dataset(dataset, own, check_connectivity=False)
    assert expected["n_invalid"] == 0
    for path in (xlsx, tsv):
        report = score_dataset(dataset, path, check_connectivity=False)
        assert report["n_invalid"] == 0 and report["n_missing"] == 0, path
        assert _headline(report) == _headline(expected), path
    # one file per task, as VLMEvalKit writes them: several files on one command line
    paths = [_write_xlsx(f, tmp_path / f"model_CartoQA_{t.upper()}.xlsx")
             for f, t in zip(frames, TASKS, strict=True)]
    report_path = tmp_path / "report.json"
    code = main(["score", str(dataset), *map(str, paths), "--no-connectivity",
                 "--out", str(report_path)])
    assert code == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert _headline(report) == _headline(expected)


def test_lmms_eval_sample_log(dataset: Path, tmp_path: Path) -> None:
    items = read_items(dataset)
    lines = []
    for doc_id, item in enumerate(items):
        text = answer_as_text(item)
        doc = {"id": item["id"], "task": item["task"], "question": item["question"],
               "image": "<PIL.PngImagePlugin.PngImageFile>"}
        lines.append(json.dumps({"doc_id": doc_id, "doc": doc, "target": "x",
                                 "arguments": [["prompt", {"max_new_tokens": 1024}]],
                                 "resps": [[text]], "filtered_resps": [text],
                                 "filter": "none", "metrics": ["cartoqa_valid"]}))
    samples = tmp_path / "samples_cartoqa_2026-01-01T00-00-00.jsonl"
    samples.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = score_dataset(dataset, samples, check_connectivity=False)
    assert report["n_items"] == len(items) and report["n_invalid"] == 0
    assert report["sections"]["srn"]["metrics"]["exact_route"]["all"] == 1.0
    # the older aggregated form: one JSON object with a "logs" list
    logs = tmp_path / "cartoqa_logs.json"
    logs.write_text(json.dumps({"logs": [json.loads(line) for line in lines]}),
                    encoding="utf-8")
    assert _headline(score_dataset(dataset, logs, check_connectivity=False)) == \
        _headline(report)


def test_unknown_formats_are_one_clear_error(dataset: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"question": "q", "answer": "a"}\n', encoding="utf-8")
    with pytest.raises(CartoqaError, match="not a predictions file cartoqa reads"):
        read_predictions(odd)
    table = tmp_path / "odd.tsv"
    table.write_text("index\tanswer\n0\tC\n", encoding="utf-8")
    with pytest.raises(CartoqaError, match="prediction"):
        read_predictions(table)
    no_id = tmp_path / "no_id.tsv"
    no_id.write_text("index\tprediction\n0\tC\n", encoding="utf-8")
    with pytest.raises(CartoqaError, match="no `id` column"):
        read_predictions(no_id)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"not a zip file")
    assert main(["score", str(dataset), str(broken), "--no-connectivity"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "is not a predictions file cartoqa reads" in err[0]
