"""The lmms-eval export loaded by lmms-eval itself (skipped where lmms-eval is absent).

lmms-eval is not a cartoqa dependency (it pulls in transformers, accelerate and
torch). Where it is installed, this test lets its ``TaskManager`` find the exported
folder, build every task from the YAML configs, load the documents from the local
Parquet files, and aggregate perfect answers with the configs' own functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cartoqa.cli import main
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.exports.hf import item_from_row

#: Metrics where a lower value is better (what the exported configs must say).
LOWER_IS_BETTER = frozenset({"rmse", "mae", "rmse_m", "mae_m", "mape"})

lmms_tasks = pytest.importorskip("lmms_eval.tasks")


def _leaves(tasks: dict[Any, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in tasks.items():
        if isinstance(value, dict):
            yield from _leaves(value)
        else:
            yield str(key), value


def test_lmms_eval_builds_and_scores_the_exported_tasks(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    out = tmp_path / "lmms"
    assert main(["export", str(dataset), "--format", "lmms-eval", str(out)]) == 0
    manager = lmms_tasks.TaskManager(include_path=str(out))
    names = [f"cartoqa_{t}" for t in ("mfs", "stmf", "mtmf", "rle", "mml", "srn")]
    assert set(names) | {"cartoqa"} <= set(manager.all_tasks)
    built = dict(_leaves(lmms_tasks.get_task_dict(["cartoqa"], manager)))
    assert sorted(built) == sorted(names)
    for name, task in built.items():
        values: dict[str, list[Any]] = {}
        docs = list(task.test_docs())
        assert docs
        for doc in docs:
            assert task.doc_to_text(doc).endswith(doc["question"])
            response = answer_as_text(item_from_row(doc))
            for metric, value in task.process_results(doc, [response]).items():
                values.setdefault(metric, []).append(value)
        aggregations = task.aggregation()
        for metric, got in values.items():
            score = aggregations[metric](got)
            if math.isnan(score):
                assert metric.endswith(("_r2", "_connectivity")), (name, metric)
                continue
            lower = any(metric.endswith(f"_{m}") for m in LOWER_IS_BETTER)
            assert task.higher_is_better()[metric] is not lower
            assert score == pytest.approx(0.0 if lower else 1.0), (name, metric)
