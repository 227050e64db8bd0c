"""The worked example of docs/build.md ("Adding a task"), registered for these tests only.

Registering the one module (``example_bus_stops``) is all it takes: the schema, the
parser, the scoring section, the card, ``cartoqa validate`` and the exports follow
from its ``SPEC``. The slow test builds it from Helsinki with the real renderer and
scores the build's own answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.synthetic_dataset import spec_items, write_items_dataset

from cartoqa.cli import main
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.declarations.suites import TASK_MODULES, parse_tasks

NAME = "busstops"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the example task for one test (the registries follow at once)."""
    monkeypatch.setitem(TASK_MODULES, NAME, "example_bus_stops")


def _score(dataset: Path, tmp_path: Path, items: list[dict[str, Any]]) -> dict[str, Any]:
    predictions = tmp_path / "perfect.jsonl"
    predictions.write_text("".join(json.dumps({"id": it["id"], "response": answer_as_text(it)})
                                   + "\n" for it in items), encoding="utf-8")
    assert main(["score", str(dataset), str(predictions), "--no-connectivity"]) == 0
    report: dict[str, Any] = json.loads((tmp_path / "perfect.score.json").read_text("utf-8"))
    return report


def test_the_example_is_not_a_shipped_task() -> None:
    assert NAME not in TASK_MODULES


def test_registering_the_module_is_enough(registered: None, tmp_path: Path) -> None:
    assert parse_tasks(NAME) == [NAME]
    items = [it for it in spec_items() if it["task"] == NAME]
    assert [(it["request"], it["answer"]) for it in items] == [("count", {"count": 2})]
    dataset = write_items_dataset(tmp_path / "ds", items)
    assert main(["validate", str(dataset)]) == 0
    report = _score(dataset, tmp_path, items)
    metrics = report["sections"][NAME]["metrics"]
    assert list(metrics) == ["accuracy", "rmse"]
    assert metrics["accuracy"]["all"] == 1.0 and metrics["rmse"]["all"] == 0.0
    assert set(report["metric_labels"]) == {"accuracy", "rmse"}
    for fmt in ("hf", "vlmevalkit", "lmms-eval"):
        assert main(["export", str(dataset), "--format", fmt, str(tmp_path / fmt)]) == 0
    assert list((tmp_path / "hf" / "data").glob(f"{NAME}-*.parquet"))
    assert list((tmp_path / "vlmevalkit").glob(f"*_{NAME.upper()}.tsv"))
    config = (tmp_path / "lmms-eval" / f"cartoqa_synthetic_{NAME}.yaml").read_text("utf-8")
    assert "metric: busstops_accuracy" in config and "metric: busstops_rmse" in config


def test_without_registration_its_items_are_refused(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TASK_MODULES, NAME, "example_bus_stops")
    items = [it for it in spec_items() if it["task"] == NAME]
    monkeypatch.delitem(TASK_MODULES, NAME)
    dataset = write_items_dataset(tmp_path / "ds", items)
    assert main(["validate", str(dataset)]) == 1
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(json.dumps({"id": items[0]["id"], "response": "2"}) + "\n")
    assert main(["score", str(dataset), str(predictions)]) == 2


@pytest.fixture(scope="module")
def cache_env(shared_env: dict[str, str]) -> None:
    """The session's shared cache (tests/helpers/shared_builds.py)."""


@pytest.mark.slow
def test_the_example_builds_validates_and_scores(cache_env: None, registered: None,
                                                 tmp_path: Path) -> None:
    out = tmp_path / "ds"
    assert main(["build", "--extract", "helsinki", "--out", str(out), "--tasks", NAME,
                 "--per-task", "2", "--seed", "3", "--no-progress"]) == 0
    assert main(["validate", str(out)]) == 0
    items = [json.loads(line) for line in (out / "items.jsonl").read_text("utf-8").splitlines()]
    assert [it["task"] for it in items] == [NAME, NAME]
    for item in items:
        assert item["request"] == "count" and item["strata"]["zoom"] == 18
        assert item["question"].startswith("Look at the map. How many bus stops")
        assert item["image"].startswith("images/map18-")
    assert "Bus stops (example task)" in (out / "README.md").read_text("utf-8")
    report = _score(out, tmp_path, items)
    metrics = report["sections"][NAME]["metrics"]
    assert metrics["accuracy"]["all"] == 1.0 and metrics["rmse"]["all"] == 0.0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["counts"]["by_task"] == {NAME: 2}
