"""Every dataset through the three harness formats, checked with the harnesses' own code.

For each dataset folder given, the script exports ``hf``, ``vlmevalkit`` and
``lmms-eval`` into ``WORK/<dataset>/`` and checks, per format:

* ``hf``: ``datasets.load_dataset`` loads every split; every row and every image
  (``image`` and ``more_images``) decodes and equals the dataset's file; the rows read
  back into the items; predictions keyed by the rows' ids score as ``cartoqa score``.
* ``vlmevalkit``: every TSV loads as VLMEvalKit's loader does (reproduced in
  ``tests/helpers/vlmevalkit_like.py``), each row's images reach the prompt in order
  and byte for byte, the prompt text is the system prompt and question; predictions
  written as VLMEvalKit writes them (``.xlsx``, ``.tsv``, ``.json``, with its MCQ
  result files beside them) score as ``cartoqa score``.
* ``lmms-eval`` (only where ``lmms_eval`` imports): one ``TaskManager`` over every
  export at once finds each dataset's group and tasks; each document's visuals and
  text are right; ``process_results`` + the configs' aggregations equal
  ``cartoqa score``; ``simple_evaluate`` with a model that answers from the predictions
  and ``--log_samples``'s writer (``EvaluationTracker.save_results_samples``) gives
  sample logs that ``cartoqa score`` reads back to the same metrics.

The predictions are mixed so that no metric is trivially perfect: per task, the item's
own answer, another item's answer, and an empty answer in turn. Equality compares the
``all`` variant of every section metric (NaN equals NaN), SRN connectivity included
(the road graph of the bundled extract, as lmms-eval's aggregation loads it). Prints one row per
dataset x format, and writes ``WORK/table.json``.

Usage::

    python scripts/harness_table.py --work /tmp/h DATASET [DATASET ...] [--formats ...]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cartoqa.cli import main as cartoqa_main  # noqa: E402
from cartoqa.dataset.reader import item_images, read_items  # noqa: E402
from cartoqa.declarations.answer_text import answer_as_text  # noqa: E402
from cartoqa.exports.prompt import prompt_text  # noqa: E402
from cartoqa.scoring import score_dataset  # noqa: E402


def mixed_predictions(items: list[dict[str, Any]]) -> dict[str, str]:
    """Own answer, another item's answer of the same task and request, empty: in turn."""
    by_kind: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for item in items:
        by_kind.setdefault((item["task"], str(item.get("request"))), []).append(item)
    out: dict[str, str] = {}
    for group in by_kind.values():
        for n, item in enumerate(group):
            if n % 3 == 0:
                out[item["id"]] = answer_as_text(item)
            elif n % 3 == 1:
                out[item["id"]] = answer_as_text(group[(n + 1) % len(group)])
            else:
                out[item["id"]] = ""
    return out


def headline(report: dict[str, Any]) -> dict[tuple[str, str], float | None]:
    """Every section metric's ``all`` value."""
    return {(key, name): m["all"] for key, s in report["sections"].items()
            for name, m in s["metrics"].items()}


def same(a: float | None, b: float | None) -> bool:
    """Equal metric values (None and NaN alike; 1e-9 relative)."""
    a_nan = a is None or (isinstance(a, float) and math.isnan(a))
    b_nan = b is None or (isinstance(b, float) and math.isnan(b))
    if a_nan or b_nan:
        return a_nan and b_nan
    assert a is not None and b is not None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def equal_counts(got: dict[Any, Any], want: dict[Any, Any]) -> tuple[int, int]:
    """How many of ``want``'s metrics ``got`` matches, of how many."""
    return sum(1 for k, v in want.items() if k in got and same(got[k], v)), len(want)


class Check:
    """Collect named pass/fail checks and metric equality counts for one table cell."""

    def __init__(self) -> None:
        self.checks: dict[str, bool] = {}
        self.equal: list[tuple[str, int, int]] = []
        self.notes: list[str] = []

    def ok(self, name: str, passed: bool) -> None:
        self.checks[name] = self.checks.get(name, True) and bool(passed)

    def row(self) -> dict[str, Any]:
        return {"checks": self.checks, "equal": self.equal, "notes": self.notes,
                "all_pass": all(self.checks.values())
                and all(a == b for _, a, b in self.equal)}


def check_hf(dataset: Path, out: Path, preds: dict[str, str], own: dict[Any, Any],
             work: Path) -> Check:
    import datasets
    from datasets import Image as HFImage
    from datasets import load_dataset

    from cartoqa.exports.hf import item_from_row

    check = Check()
    check.notes.append(f"datasets {datasets.__version__}")
    items = {it["id"]: it for it in read_items(dataset)}
    loaded = load_dataset(str(out), cache_dir=str(work / "hf-cache"))
    rows = 0
    seen: dict[str, dict[str, Any]] = {}
    for split, table in loaded.items():
        for decoded in table:  # every image decodes
            decoded["image"].load()
            for more in decoded["more_images"]:
                more.load()
        raw = table.cast_column("image", HFImage(decode=False))
        raw = raw.cast_column("more_images", datasets.Sequence(HFImage(decode=False)))
        for row in raw:
            item = item_from_row(row)
            files = [row["image"]["bytes"], *(m["bytes"] for m in row["more_images"])]
            want = [(dataset / p).read_bytes() for p in item_images(items[item["id"]])]
            check.ok("images equal the dataset's, in order", files == want)
            original = dict(items[item["id"]])
            if original.get("images") == [original["image"]]:  # a one-map list: image alone
                del original["images"]
            check.ok("rows read back into the items", item == original and item["task"] == split)
            seen[item["id"]] = item
            rows += 1
    check.ok("every item loads", rows == len(items) and set(seen) == set(items))
    shard_rows = 0
    for shard in sorted((out / "data").glob("*.parquet")):  # each file alone, no card
        shard_rows += len(datasets.Dataset.from_parquet(str(shard),
                                                        cache_dir=str(work / "hf-cache")))
    check.ok("every Parquet file loads on its own", shard_rows == len(items))
    path = work / "hf-predictions.jsonl"
    path.write_text("".join(json.dumps({"id": i, "response": preds[i]}) + "\n"
                            for i in seen), encoding="utf-8")
    got = headline(score_dataset(dataset, path))
    check.equal.append(("score of the rows' ids", *equal_counts(got, own)))
    return check


def check_vlmevalkit(dataset: Path, out: Path, preds: dict[str, str],
                     own: dict[Any, Any], work: Path) -> Check:
    from helpers import vlmevalkit_like as vlm

    check = Check()
    items = {it["id"]: it for it in read_items(dataset)}
    loaded: dict[str, Any] = {}
    rows = 0
    for tsv in sorted(out.glob("*.tsv")):
        try:
            data = vlm.load_benchmark(tsv)
        except NotImplementedError:
            check.ok("every file loads", False)
            check.notes.append(f"{tsv.name}: NotImplementedError in toliststr")
            continue
        check.ok("every file loads", True)
        loaded[tsv.stem] = data
        for (_, row), (files, text) in zip(data.iterrows(),
                                           vlm.prompt(data, work / "LMUData-images" / tsv.stem),
                                           strict=True):
            item = items[str(row["id"])]
            want = [(dataset / p).read_bytes() for p in item_images(item)]
            check.ok("images reach the prompt in order", [f.read_bytes() for f in files] == want)
            check.ok("prompt = system prompt + question", text == prompt_text(item))
            rows += 1
    check.ok("every item loads", rows == len(items))
    for fmt in ("xlsx", "tsv", "json"):
        folder = work / f"vlm-{fmt}" / "Model"
        written = [vlm.write_predictions(data, [preds[str(i)] for i in data["id"]], folder,
                                         "Model", stem, fmt) for stem, data in loaded.items()]
        for path in written:
            if "_MFS." in path.name:
                vlm.write_mcq_results(path)
        report = score_dataset(dataset, sorted(folder.iterdir()))
        check.ok("predictions read (no item missing)", report["n_missing"] == 0)
        check.equal.append((f"work folder, PRED_FORMAT={fmt}",
                            *equal_counts(headline(report), own)))
    return check


def _leaves(tree: dict[Any, Any]) -> dict[str, Any]:
    """The tasks of lmms-eval's nested task dict, by name."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_leaves(value))
        else:
            out[str(getattr(key, "group_name", key))] = value
    return out


def check_lmms_eval(datasets_: list[tuple[Path, Path, dict[str, str], dict[Any, Any]]],
                    include: Path, work: Path) -> dict[str, Check]:
    from importlib.metadata import version as installed

    from lmms_eval import evaluator
    from lmms_eval.api.instance import Instance
    from lmms_eval.api.model import lmms
    from lmms_eval.loggers import EvaluationTracker
    from lmms_eval.tasks import TaskManager, get_task_dict

    from cartoqa.exports.export import dataset_name
    from cartoqa.exports.hf import item_from_row
    from cartoqa.exports.lmms_eval import group_name
    from cartoqa.exports.lmms_eval_support import doc_to_text as cartoqa_text
    from cartoqa.scoring import sections

    version = installed("lmms_eval")
    by_doc: dict[tuple[str, int], str] = {}  # (task, doc_id) -> response
    manager = TaskManager(include_path=str(include))
    names = {}
    for s in sections():
        for m in s.metrics:
            names[f"{s.key.replace('/', '_')}_{m}"] = (s.key, m)
    out: dict[str, Check] = {}
    for dataset, _folder, preds, own in datasets_:
        check = Check()
        check.notes.append(f"lmms-eval {version}")
        items = {it["id"]: it for it in read_items(dataset)}
        group = group_name(dataset_name(dataset))
        check.ok("group found", group in manager.all_tasks)
        leaves = _leaves(get_task_dict([group], manager))
        tasks = sorted({it["task"] for it in items.values()})
        check.ok("every task found", sorted(leaves) == sorted(f"{group}_{t}" for t in tasks))
        got: dict[Any, Any] = {}
        docs_seen = 0
        for task_name, task in leaves.items():
            values: dict[str, list[Any]] = {}
            for doc_id, doc in enumerate(task.test_docs()):
                item = item_from_row(doc)
                by_doc[(task_name, doc_id)] = preds[item["id"]]
                visuals = task.doc_to_visual(doc)
                check.ok("every image shown, in order",
                         len(visuals) == len(item_images(items[item["id"]])))
                check.ok("doc_to_text = system prompt + question",
                         task.doc_to_text(doc) == cartoqa_text(doc))
                for metric, value in task.process_results(doc, [preds[item["id"]]]).items():
                    values.setdefault(metric, []).append(value)
                docs_seen += 1
            aggregations = task.aggregation()
            for metric, vals in values.items():
                if metric in names:
                    got[names[metric]] = aggregations[metric](vals)
        check.ok("every document loads", docs_seen == len(items))
        check.equal.append(("process_results + aggregation", *equal_counts(got, own)))
        out[str(dataset)] = check

    # simple_evaluate with a model answering from the predictions (by task and doc_id:
    # the request's arguments end with doc_id, task, split), and the sample writer
    class Answers(lmms):  # type: ignore[misc,valid-type]
        def generate_until(self, requests: list[Instance]) -> list[str]:
            return [by_doc[(req.args[4], req.args[3])] for req in requests]

        def loglikelihood(self, requests: list[Instance]) -> list[Any]:
            raise NotImplementedError

        def generate_until_multi_round(self, requests: list[Instance]) -> list[str]:
            raise NotImplementedError

    groups = [group_name(dataset_name(d)) for d, _f, _p, _o in datasets_]
    results = evaluator.simple_evaluate(model=Answers(), tasks=groups, task_manager=manager,
                                        log_samples=True, batch_size=1)
    # as lmms-eval's command line saves them (__main__: aggregated results, then samples)
    tracker = EvaluationTracker(output_path=str(work / "lmms-out"))
    tracker.general_config_tracker.model_name_sanitized = "answers"
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples,
                                    datetime_str="2026-01-01T00-00-00")
    for task_name in results["configs"]:
        tracker.save_results_samples(task_name=task_name, samples=samples[task_name])
    written = sorted((work / "lmms-out").rglob("*.jsonl"))
    for dataset, _folder, _preds, own in datasets_:
        group = group_name(dataset_name(dataset))
        mine = [p for p in written if f"_{group}_" in p.name]
        check = out[str(dataset)]
        if not mine:
            check.ok("sample logs written", False)
            continue
        first = json.loads(mine[0].read_text("utf-8").splitlines()[0])
        check.notes.append(f"sample log keys: {sorted(first)[:12]}")
        # the folder as a shell glob gives it: the aggregated results.json is left out
        aggregated = sorted((work / "lmms-out").rglob("*_results.json"))
        report = score_dataset(dataset, [*aggregated, *mine])
        check.ok("sample logs read (no item missing)", report["n_missing"] == 0)
        check.ok("results.json left out", bool(aggregated) and any(
            "aggregated results" in n for n in report.get("notes", [])))
        check.equal.append(("simple_evaluate sample logs -> cartoqa score",
                            *equal_counts(headline(report), own)))
        agg = results["results"]
        direct = {}
        for task_name, metrics in agg.items():
            if not task_name.startswith(f"{group}_"):
                continue
            for key, value in metrics.items():
                metric = key.split(",")[0]
                if metric in names:
                    direct[names[metric]] = value
        check.equal.append(("simple_evaluate results", *equal_counts(direct, own)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--formats", default="hf,vlmevalkit,lmms-eval")
    args = parser.parse_args(argv)
    formats = args.formats.split(",")
    args.work.mkdir(parents=True, exist_ok=True)
    table: dict[str, dict[str, Any]] = {}
    lmms_inputs = []
    for dataset in args.datasets:
        work = args.work / dataset.name
        work.mkdir(exist_ok=True)
        items = read_items(dataset)
        preds = mixed_predictions(items)
        own_path = work / "own.jsonl"
        own_path.write_text("".join(json.dumps({"id": i, "response": r}) + "\n"
                                    for i, r in preds.items()), encoding="utf-8")
        own = headline(score_dataset(dataset, own_path))  # SRN connectivity checked too
        table[dataset.name] = {}
        checks: dict[str, Callable[..., Check]] = {"hf": check_hf,
                                                  "vlmevalkit": check_vlmevalkit}
        for fmt in formats:
            out = args.work / "exports" / fmt / dataset.name
            if not out.exists():
                assert cartoqa_main(["export", str(dataset), "--format", fmt, str(out)]) == 0
            if fmt == "lmms-eval":
                lmms_inputs.append((dataset, out, preds, own))
                continue
            try:
                table[dataset.name][fmt] = checks[fmt](dataset, out, preds, own, work).row()
            except Exception:
                table[dataset.name][fmt] = {"error": traceback.format_exc()[-2000:],
                                            "all_pass": False}
    if lmms_inputs:
        try:
            cells = check_lmms_eval(lmms_inputs, args.work / "exports" / "lmms-eval",
                                    args.work)
            for dataset, *_ in lmms_inputs:
                table[dataset.name]["lmms-eval"] = cells[str(dataset)].row()
        except Exception:
            error = traceback.format_exc()[-3000:]
            for dataset, *_ in lmms_inputs:
                table[dataset.name]["lmms-eval"] = {"error": error, "all_pass": False}
    (args.work / "table.json").write_text(json.dumps(table, indent=1), encoding="utf-8")
    for name, cells in table.items():
        for fmt, cell in cells.items():
            equal = "; ".join(f"{what}: {a}/{b}" for what, a, b in cell.get("equal", []))
            failed = [k for k, v in cell.get("checks", {}).items() if not v]
            status = "PASS" if cell["all_pass"] else "FAIL"
            print(f"{name:10} {fmt:10} {status}  {len(cell.get('checks', {}))} checks"
                  f"{' failed: ' + ', '.join(failed) if failed else ''}  {equal}"
                  f"{'  ERROR ' + cell['error'].splitlines()[-1] if 'error' in cell else ''}")
    return 0 if all(c["all_pass"] for cells in table.values() for c in cells.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
