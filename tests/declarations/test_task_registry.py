"""The task registry checks itself: every declared task and request works end to end.

For every task in ``cartoqa.declarations.suites.TASK_MODULES`` and each of its requests, a
sample item (built from the declaration's samples, :func:`helpers.synthetic_dataset.spec_items`)
passes the item schema, its reference answer parses and scores perfectly, and the task
appears in the dataset card and in every export. A task declared half-way fails here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from helpers.modules import load_module
from helpers.synthetic_dataset import spec_items, write_items_dataset

from cartoqa.cli import main
from cartoqa.dataset.card import render_card
from cartoqa.dataset.manifest import build_manifest
from cartoqa.dataset.schema import item_errors
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.declarations.dispatch import parse_response
from cartoqa.declarations.registry import task_specs
from cartoqa.declarations.suites import SUITES, TASK_MODULES
from cartoqa.exports.export import dataset_name
from cartoqa.exports.hf import row_from_item
from cartoqa.exports.lmms_eval import group_name, task_name
from cartoqa.exports.lmms_eval_support import metric_name
from cartoqa.metrics import get_metric
from cartoqa.scoring import score_predictions, section_for

ITEMS = spec_items()
PAIRS = [(it["task"], it["request"]) for it in ITEMS]


def _best(metric: str) -> float:
    return 1.0 if get_metric(metric).higher_is_better else 0.0


def test_every_registered_task_is_declared_with_its_requests() -> None:
    assert [s.name for s in task_specs()] == list(TASK_MODULES)
    assert sorted(PAIRS) == sorted((s.name, r.name) for s in task_specs() for r in s.requests)
    for spec in task_specs():
        assert spec.blurb and spec.image_size[0] > 0 and spec.items_per_scenario >= 1
        for request in spec.requests:
            section = section_for(spec.name, request.name)
            assert section is not None and section.metrics == request.metrics
            for metric in request.metrics:
                get_metric(metric)  # named from the one metric registry


def test_every_suite_is_covered() -> None:
    # Each registered suite's tasks are among the sample items checked below, MapWise's
    # six answer types included.
    assert {s.suite for s in task_specs()} == set(SUITES)
    for suite, modules in SUITES.items():
        assert set(modules) <= {t for t, _ in PAIRS}, suite
    assert sorted(p for p in PAIRS if p[0].startswith("mapwise_")) == [
        ("mapwise_binary", "binary"), ("mapwise_count", "count"), ("mapwise_list", "list"),
        ("mapwise_range", "range"), ("mapwise_rank", "rank"), ("mapwise_single", "single")]


@pytest.mark.parametrize("item", ITEMS, ids=[f"{t}/{r}" for t, r in PAIRS])
def test_sample_item_validates_parses_and_scores_perfectly(item: dict[str, Any]) -> None:
    assert item_errors(item) == []
    reference = answer_as_text(item)
    assert parse_response(item, reference).valid
    assert not parse_response(item, "").valid
    report = score_predictions([item], {item["id"]: reference},
                               is_connected=lambda item, steps: True)
    assert report["n_invalid"] == 0 and "unscored_item_ids" not in report
    section = section_for(item["task"], item["request"])
    assert section is not None
    metrics = report["sections"][section.key]["metrics"]
    assert list(metrics) == list(section.metrics)
    defined = {name: m["all"] for name, m in metrics.items() if m["all"] is not None}
    assert defined, "no metric is defined on one perfect answer"
    for name, value in defined.items():
        assert value == pytest.approx(_best(name)), (section.key, name)
    assert set(report["metric_labels"]) == set(section.metrics)


def test_every_task_is_in_the_card(tmp_path: Path) -> None:
    manifest = build_manifest(ITEMS, extract={"name": "x", "sha256": "0" * 64},
                              versions={}, image_sizes={}, shortfalls={})
    card = render_card(manifest)
    for spec in task_specs():
        assert f"| {spec.name} | {len(spec.requests)} | " in card
        assert spec.blurb in card


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = write_items_dataset(tmp_path / "ds", ITEMS)
    assert main(["validate", str(root)]) == 0
    return root


def test_every_task_is_in_every_export(dataset: Path, tmp_path: Path) -> None:
    by_task: dict[str, set[str]] = {}
    for item in ITEMS:
        by_task.setdefault(item["task"], set()).add(item["id"])
    for fmt in ("hf", "vlmevalkit", "lmms-eval"):
        assert main(["export", str(dataset), "--format", fmt, str(tmp_path / fmt)]) == 0
    for task, ids in by_task.items():
        parquet = sorted((tmp_path / "hf" / "data").glob(f"{task}-*.parquet"))
        assert parquet and set(pd.concat(pd.read_parquet(p) for p in parquet)["id"]) == ids
        (tsv,) = (tmp_path / "vlmevalkit").glob(f"*_{task.upper()}.tsv")
        frame = pd.read_csv(tsv, sep="\t", keep_default_na=False)
        assert set(frame["id"]) == ids and all(frame["answer"].astype(str) != "")
    folder = tmp_path / "lmms-eval"
    utils = load_module("registry_export_utils", folder / "utils.py")
    loader = type("Loader", (yaml.SafeLoader,), {})
    loader.add_constructor("!function", lambda ld, node: str(ld.construct_scalar(node)))
    group_id = group_name(dataset_name(dataset))
    group = yaml.load((folder / f"{group_id}.yaml").read_text(), Loader=loader)
    assert group["task"] == [task_name(s.name, group_id) for s in task_specs()]
    for task_spec in task_specs():
        config = yaml.load((folder / f"{task_name(task_spec.name, group_id)}.yaml").read_text(),
                           Loader=loader)
        listed = {m["metric"]: m for m in config["metric_list"]}
        results: dict[str, list[Any]] = {}
        for item in ITEMS:
            if item["task"] != task_spec.name:
                continue
            doc = row_from_item(item, (dataset / item["image"]).read_bytes())
            assert utils.doc_to_target(doc) == answer_as_text(item)
            for name, value in utils.process_results(doc, [answer_as_text(item)]).items():
                results.setdefault(name, []).append(value)
        for request in task_spec.requests:
            key = task_spec.section_key(request)
            for metric in request.metrics:
                name = metric_name(key, metric)
                entry = listed[name]
                assert entry["higher_is_better"] is get_metric(metric).higher_is_better
                value = getattr(utils, entry["aggregation"].split(".")[1])(results[name])
                if not math.isnan(value):
                    assert value == pytest.approx(_best(metric)), (task_spec.name, name)


def test_score_refuses_items_that_no_section_scores(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items_path = dataset / "items.jsonl"
    stray = dict(ITEMS[0], id="zz-0000", task="maze", request="solve")
    with items_path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(stray) + "\n")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": it["id"], "response": answer_as_text(it)})
                                   + "\n" for it in ITEMS), encoding="utf-8")
    assert main(["score", str(dataset), str(predictions)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "belong to no scoring section" in err[0]
    assert "task 'maze' request 'solve'" in err[0] and "'zz-0000'" in err[0]
    assert not (tmp_path / "p.score.json").exists()
