"""The lmms-eval export loaded by lmms-eval itself (skipped where lmms-eval is absent).

lmms-eval is not a cartoqa dependency (it pulls in transformers, accelerate and
torch, several GB). Where it is installed, these tests let its ``TaskManager`` find two
exported folders in one ``--include_path`` (each dataset its own group), build every
task from the YAML configs, load the documents from the local Parquet files, aggregate
perfect answers with the configs' own functions, and run ``simple_evaluate`` with a
model that answers from the items, saving the samples with lmms-eval's own writer for
``cartoqa score``. ``test_lmms_eval_logs.py`` scores a log that writer made, everywhere.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cartoqa.cli import main
from cartoqa.dataset.reader import read_items
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.exports.hf import item_from_row
from cartoqa.exports.prompt import prompt_text
from cartoqa.scoring import score_dataset

#: Metrics where a lower value is better (what the exported configs must say).
LOWER_IS_BETTER = frozenset({"rmse", "mae", "rmse_m", "mae_m", "mape"})

lmms_tasks = pytest.importorskip("lmms_eval.tasks")


def _leaves(tasks: dict[Any, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in tasks.items():
        if isinstance(value, dict):
            yield from _leaves(value)
        else:
            yield str(key), value


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))


@pytest.fixture
def two_exports(dataset: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """The synthetic dataset and a copy named ``second``, exported into one folder."""
    second = tmp_path / "second"
    shutil.copytree(dataset, second)
    manifest = json.loads((second / "manifest.json").read_text("utf-8"))
    manifest["name"] = "second"
    (second / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    include = tmp_path / "include"
    for source in (dataset, second):
        out = include / source.name
        assert main(["export", str(source), "--format", "lmms-eval", str(out)]) == 0
    return include, dataset, second


def test_lmms_eval_builds_and_scores_the_exported_tasks(
        two_exports: tuple[Path, Path, Path], offline: None) -> None:
    include, _, _ = two_exports
    manager = lmms_tasks.TaskManager(include_path=str(include))
    for group in ("cartoqa_synthetic", "cartoqa_second"):
        names = [f"{group}_{t}" for t in ("mfs", "stmf", "mtmf", "rle", "mml", "srn")]
        assert set(names) | {group} <= set(manager.all_tasks)
        built = dict(_leaves(lmms_tasks.get_task_dict([group], manager)))
        assert sorted(built) == sorted(names)
    for name, task in built.items():
        values: dict[str, list[Any]] = {}
        docs = list(task.test_docs())
        assert docs
        for doc in docs:
            assert task.doc_to_text(doc) == prompt_text(doc)
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


def test_samples_saved_by_lmms_eval_score_in_cartoqa(
        two_exports: tuple[Path, Path, Path], offline: None, tmp_path: Path) -> None:
    from lmms_eval import evaluator
    from lmms_eval.api.model import lmms
    from lmms_eval.loggers import EvaluationTracker

    include, first, second = two_exports
    items = read_items(first)
    answers = {prompt_text(it): answer_as_text(it) for it in items}
    answers[prompt_text(items[0])] = ""  # one invalid answer

    class Answers(lmms):  # type: ignore[misc,valid-type]
        def generate_until(self, requests: list[Any]) -> list[str]:
            return [answers[req.args[0]] for req in requests]

        def loglikelihood(self, requests: list[Any]) -> list[Any]:
            raise NotImplementedError

        def generate_until_multi_round(self, requests: list[Any]) -> list[str]:
            raise NotImplementedError

    manager = lmms_tasks.TaskManager(include_path=str(include))
    results = evaluator.simple_evaluate(model=Answers(), tasks=["cartoqa_synthetic",
                                                                "cartoqa_second"],
                                        task_manager=manager, log_samples=True, batch_size=1)
    tracker = EvaluationTracker(output_path=str(tmp_path / "out"))
    tracker.general_config_tracker.model_name_sanitized = "answers"
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples,
                                    datetime_str="2026-01-01T00-00-00")
    for task_name in results["configs"]:
        tracker.save_results_samples(task_name=task_name, samples=samples[task_name])
    folder = tmp_path / "out" / "answers"
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps({"id": it["id"], "response": answers[prompt_text(it)]})
                           + "\n" for it in items), encoding="utf-8")
    expected = score_dataset(first, own, check_connectivity=False)
    assert expected["n_invalid"] >= 1
    for dataset, group in ((first, "cartoqa_synthetic"), (second, "cartoqa_second")):
        given = [*folder.glob("*_results.json"), *folder.glob(f"*_samples_{group}_*.jsonl")]
        report = score_dataset(dataset, given, check_connectivity=False)
        assert report["n_missing"] == 0
        assert {k: s["metrics"] for k, s in report["sections"].items()} == \
            {k: s["metrics"] for k, s in expected["sections"].items()}
