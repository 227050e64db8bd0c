"""`cartoqa score` on sample logs as lmms-eval 0.7.3's own writer saved them.

The fixture (``fixtures/lmms_eval_0_7_3``, see its README) was written by lmms-eval
itself: its writer drops each sample's ``doc`` (and ``resps`` when it equals
``filtered_resps``), so the item id is read from the logged cartoqa metrics. lmms-eval
is too heavy to install for the test suite (torch, transformers, several GB); where it
is installed, ``test_lmms_eval_loader.py`` writes such logs afresh.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.synthetic_dataset import write_items_dataset

from cartoqa.errors import CartoqaError
from cartoqa.scoring import score_dataset
from cartoqa.scoring.io import read_predictions

FIXTURE = Path(__file__).parent / "fixtures" / "lmms_eval_0_7_3"


def _headline(report: dict[str, Any]) -> dict[str, Any]:
    return {key: {name: m["all"] for name, m in s["metrics"].items()}
            for key, s in report["sections"].items()}


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    items = [json.loads(line) for line in
             (FIXTURE / "items.jsonl").read_text("utf-8").splitlines() if line.strip()]
    return write_items_dataset(tmp_path / "ds", items)


def _samples() -> list[Path]:
    return sorted(FIXTURE.glob("*_samples_*.jsonl"))


def test_the_fixture_is_the_writers_shape() -> None:
    rows = [json.loads(line) for path in _samples()
            for line in path.read_text("utf-8").splitlines()]
    assert rows and all("doc" not in row and "doc_id" in row for row in rows)
    assert all(isinstance(row["filtered_resps"], str) for row in rows)


def test_writer_logs_score_like_the_same_answers_in_cartoqa_format(
        dataset: Path, tmp_path: Path) -> None:
    answers: dict[str, str] = {}
    for path in _samples():
        for line in path.read_text("utf-8").splitlines():
            row = json.loads(line)
            payload = next(v for v in row.values() if isinstance(v, dict) and "item" in v)
            answers[payload["item"]["id"]] = row["filtered_resps"]
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps({"id": i, "response": r}) + "\n"
                           for i, r in answers.items()), encoding="utf-8")
    expected = score_dataset(dataset, own, check_connectivity=False)
    # the whole output folder, as `cartoqa score DS out/model/*` passes it
    given = sorted(FIXTURE.glob("2026-*"))
    report = score_dataset(dataset, given, check_connectivity=False)
    assert report["n_missing"] == 0
    assert _headline(report) == _headline(expected)
    assert len(answers) == expected["n_items"] == report["n_predictions"]
    assert any("results.json" in n and "left out" in n for n in report["notes"])
    multi = next(it for it in map(json.loads, (FIXTURE / "items.jsonl").read_text(
        "utf-8").splitlines()) if len(it.get("images") or []) > 1)
    assert multi["id"] in read_predictions(
        next(p for p in _samples() if "frieda_equal" in p.name))[0]


def test_a_sample_that_names_no_item_is_one_clear_error(tmp_path: Path) -> None:
    row = json.loads(_samples()[0].read_text("utf-8").splitlines()[0])
    stripped = {k: v for k, v in row.items() if not isinstance(v, dict)}
    path = tmp_path / "2026_samples_x.jsonl"
    path.write_text(json.dumps(stripped) + "\n", encoding="utf-8")
    with pytest.raises(CartoqaError, match="names no item"):
        read_predictions(path)
