"""``cartoqa export``: Parquet round trip through ``datasets``, VLMEvalKit TSV, lmms-eval."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import pytest
import yaml
from helpers.modules import load_module
from PIL import Image

from cartoqa.cli import main
from cartoqa.dataset.reader import read_items
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.exports.answers import plain_answer
from cartoqa.exports.hf import item_from_row, shard_plan, strip_front_matter
from cartoqa.exports.lmms_eval import CONFIG_KEYS

#: Metrics where a lower value is better (what the exported configs must say).
LOWER_IS_BETTER = frozenset({"rmse", "mae", "rmse_m", "mae_m", "mape"})

TASKS = ["mfs", "stmf", "mtmf", "rle", "mml", "srn"]

#: Keys of an lmms-eval task config, as documented in lmms-eval's docs/task_guide.md.
LMMS_EVAL_DOCUMENTED_KEYS = {
    "task", "group", "task_alias", "tag", "dataset_path", "dataset_name",
    "dataset_kwargs", "test_split", "training_split", "validation_split",
    "fewshot_split", "process_docs", "doc_to_messages", "doc_to_visual", "doc_to_text",
    "doc_to_target", "doc_to_choice", "num_fewshot", "batch_size", "metric_list",
    "output_type", "generation_kwargs", "metadata", "process_results",
    "lmms_eval_specific_kwargs", "include",
}

#: VLMEvalKit's documented TSV columns (docs/en/Development.md).
VLMEVALKIT_COLUMNS = {"index", "image", "image_path", "question", "hint", "answer",
                      "category", "l2-category", "split", "A", "B", "C", "D", "E"}


@pytest.fixture
def hf_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep ``datasets`` offline and its cache inside the test folder."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    return tmp_path / "hf-cache"


def _export(dataset: Path, out: Path, fmt: str) -> None:
    assert main(["export", str(dataset), "--format", fmt, str(out)]) == 0


def test_hf_parquet_round_trip(dataset: Path, tmp_path: Path, hf_env: Path) -> None:
    from datasets import Image as HFImage
    from datasets import load_dataset

    out = tmp_path / "hf"
    _export(dataset, out, "hf")
    loaded = load_dataset(str(out), cache_dir=str(hf_env))
    assert list(loaded) == TASKS
    originals = read_items(dataset)
    seen: list[dict[str, Any]] = []
    for split in TASKS:
        decoded = loaded[split][0]["image"]
        assert isinstance(decoded, Image.Image) and decoded.size == (8, 6)
        raw = loaded[split].cast_column("image", HFImage(decode=False))
        for row in raw:
            item = item_from_row(row)
            assert item["task"] == split
            assert row["image"]["bytes"] == (dataset / item["image"]).read_bytes()
            seen.append(item)
    by_id = {item["id"]: item for item in seen}
    assert len(by_id) == len(seen) == len(originals)
    for original in originals:
        assert by_id[original["id"]] == original

    card = (out / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    assert header["configs"] == [{
        "config_name": "default",
        "data_files": [{"split": t, "path": f"data/{t}-*"} for t in TASKS],
    }]
    assert header["license"] == "odbl"
    assert "© OpenStreetMap contributors" in card
    assert "## Source dataset card" in card and "Synthetic cartoqa dataset" in card


#: Feature types ``datasets`` 3.0 knows (``datasets.features.features._FEATURE_TYPES``
#: of 3.0-3.6; 4.0 added ``List``, which 3.x refuses: "Feature type 'List' not found").
DATASETS_3_FEATURE_TYPES = {"Value", "ClassLabel", "Translation",
                            "TranslationVariableLanguages", "LargeList", "Sequence",
                            "Array2D", "Array3D", "Array4D", "Array5D", "Audio", "Image",
                            "Video"}


def _feature_types(spec: Any) -> set[str]:
    if isinstance(spec, dict):
        own = {str(spec["_type"])} if "_type" in spec else set()
        return own.union(*(_feature_types(v) for v in spec.values()))
    if isinstance(spec, list):
        return set().union(*(_feature_types(v) for v in spec))
    return set()


def test_hf_parquet_reads_as_a_plain_parquet_dataset(dataset: Path, tmp_path: Path,
                                                      hf_env: Path) -> None:
    """Each shard loads on its own (no card), with types every allowed ``datasets`` knows."""
    import json

    import pyarrow.parquet as pq
    from datasets import Dataset

    out = tmp_path / "hf"
    _export(dataset, out, "hf")
    for shard in sorted((out / "data").glob("*.parquet")):
        meta = json.loads(pq.read_schema(shard).metadata[b"huggingface"])
        types = _feature_types(meta["info"]["features"])
        assert "Image" in types and types <= DATASETS_3_FEATURE_TYPES, (shard.name, types)
        rows = Dataset.from_parquet(str(shard), cache_dir=str(hf_env))
        assert type(rows.features["more_images"]).__name__ in ("List", "Sequence")
        assert all(isinstance(r["image"], Image.Image) for r in rows)


def test_vlmevalkit_tsv_columns_and_values(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "vlm"
    _export(dataset, out, "vlmevalkit")
    files = sorted(p.name for p in out.iterdir() if p.name != ".cartoqa-export")
    assert files == sorted(f"CartoQA_synthetic_{t.upper()}.tsv" for t in TASKS)
    items = {item["id"]: item for item in read_items(dataset)}
    for task in TASKS:
        frame = pd.read_csv(out / f"CartoQA_synthetic_{task.upper()}.tsv", sep="\t",
                            keep_default_na=False)
        documented = {"index", "image", "question", "answer", "category", "l2-category"}
        assert documented <= set(frame.columns)
        options = {"A", "B", "C", "D", "E"} & set(frame.columns)
        assert options == ({"A", "B", "C", "D", "E"} if task == "mfs" else set())
        assert set(frame.columns) - VLMEVALKIT_COLUMNS == {"id", "task", "request"}
        assert list(frame["index"]) == list(range(len(frame)))
        for _, row in frame.iterrows():
            item = items[row["id"]]
            assert base64.b64decode(row["image"]) == (dataset / item["image"]).read_bytes()
            assert row["question"] == f"{item['system_prompt']}\n\n{item['question']}"
            if task == "mfs":
                assert row["answer"] == item["answer"]["letter"]
                assert {k: row[k] for k in "ABCDE"} == item["options"]
                assert row["category"] == item["strata"]["category"]
            else:
                assert str(row["answer"]) == plain_answer(item)
                assert row["category"] == item["request"]


def _yaml_loader() -> type[yaml.SafeLoader]:
    class Loader(yaml.SafeLoader):
        pass

    def function(loader: yaml.SafeLoader, node: yaml.Node) -> dict[str, str]:
        return {"!function": str(loader.construct_scalar(node))}

    Loader.add_constructor("!function", function)
    return Loader


def _load_utils(folder: Path) -> ModuleType:
    return load_module("cartoqa_export_utils", folder / "utils.py")


def test_lmms_eval_task_folder(dataset: Path, tmp_path: Path, hf_env: Path) -> None:
    from datasets import load_dataset

    out = tmp_path / "lmms"
    _export(dataset, out, "lmms-eval")
    loader = _yaml_loader()
    group = yaml.load((out / "cartoqa_synthetic.yaml").read_text(), Loader=loader)
    assert group == {"group": "cartoqa_synthetic",
                     "task": [f"cartoqa_synthetic_{t}" for t in TASKS]}
    utils = _load_utils(out)
    items = {item["id"]: item for item in read_items(dataset)}
    for task in TASKS:
        config = yaml.load((out / f"cartoqa_synthetic_{task}.yaml").read_text(),
                           Loader=loader)
        assert set(config) == set(CONFIG_KEYS)
        assert set(config) <= LMMS_EVAL_DOCUMENTED_KEYS
        assert config["task"] == f"cartoqa_synthetic_{task}"
        assert config["output_type"] == "generate_until"
        assert config["generation_kwargs"]["temperature"] == 0
        functions = [config[k]["!function"] for k in
                     ("doc_to_visual", "doc_to_text", "doc_to_target", "process_results")]
        functions += [m["aggregation"]["!function"] for m in config["metric_list"]
                      if isinstance(m["aggregation"], dict)]
        for ref in functions:
            module, name = ref.split(".")
            assert module == "utils" and callable(getattr(utils, name))
        assert Path(config["dataset_path"]) == (out / "hf").resolve()
        docs = load_dataset(config["dataset_path"], split=config["test_split"],
                            cache_dir=str(hf_env))
        assert len(docs) == sum(1 for i in items.values() if i["task"] == task)
        perfect: dict[str, list[Any]] = {}
        wrong: dict[str, list[Any]] = {}
        for doc in docs:
            item = items[doc["id"]]
            visuals = utils.doc_to_visual(doc)
            assert len(visuals) == 1 and visuals[0].mode == "RGB"
            assert visuals[0].size == (8, 6)
            text = utils.doc_to_text(doc, config["lmms_eval_specific_kwargs"]["default"])
            assert text == f"{item['system_prompt']}\n\n{item['question']}"
            assert utils.doc_to_target(doc) == answer_as_text(item)
            for store, response in ((perfect, answer_as_text(item)), (wrong, "")):
                for metric, value in utils.process_results(doc, [response]).items():
                    store.setdefault(metric, []).append(value)
        # lmms-eval aggregates each metric's values with the config's aggregation.
        assert set(perfect) == {m["metric"] for m in config["metric_list"]}
        for entry in config["metric_list"]:
            name = entry["metric"]
            if name == "cartoqa_valid":
                assert entry["aggregation"] == "mean"
                assert perfect[name] == [1.0] * len(docs) and wrong[name] == [0.0] * len(docs)
                continue
            aggregate = getattr(utils, entry["aggregation"]["!function"].split(".")[1])
            lower = entry["higher_is_better"] is False
            assert lower == any(name.endswith(f"_{m}") for m in LOWER_IS_BETTER)
            best = aggregate(perfect[name])
            if name.endswith(("_r2", "_connectivity")) and best != best:
                continue  # undefined on constant truth / no road graph for synthetic items
            assert best == pytest.approx(0.0 if lower else 1.0), (task, name)
            worst = aggregate(wrong[name])
            assert (worst > 0.0) if lower else (worst <= 0.0), (task, name, worst)


def test_shard_plan_and_front_matter() -> None:
    assert shard_plan([5, 5, 5], max_bytes=10) == [range(0, 2), range(2, 3)]
    assert shard_plan([11, 1], max_bytes=10) == [range(0, 1), range(1, 2)]
    assert shard_plan([1] * 4, max_bytes=10) == [range(0, 4)]
    assert strip_front_matter("---\nx: 1\n---\n# T\n") == "# T\n"
    assert strip_front_matter("# T\n---\n") == "# T\n---\n"


def test_existing_output_and_missing_image_are_user_errors(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exists"
    out.mkdir()
    assert main(["export", str(dataset), "--format", "hf", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    (dataset / "images" / "rle-0001.png").unlink()
    target = tmp_path / "never"
    assert main(["export", str(dataset), "--format", "vlmevalkit", str(target)]) == 2
    assert "image images/rle-0001.png of item rle-0001 is missing" in capsys.readouterr().err
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []


def test_overwrite_replaces_output(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "vlm"
    assert main(["export", str(dataset), "-f", "vlmevalkit", str(out)]) == 0
    assert oct(out.stat().st_mode & 0o777) == oct(0o777 & ~_umask())  # not 0700
    (out / "stale.txt").write_text("old")
    assert main(["export", str(dataset), "-f", "vlmevalkit", str(out), "--overwrite"]) == 0
    assert not (out / "stale.txt").exists()
    assert len(list(out.glob("*.tsv"))) == 6


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_overwrite_refuses_what_is_not_an_export(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A folder of the user's own files is never replaced.
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "thesis.tex").write_text("precious")
    assert main(["export", str(dataset), "-f", "hf", str(notes), "--overwrite"]) == 2
    assert "not an earlier cartoqa export" in capsys.readouterr().err
    assert (notes / "thesis.tex").read_text() == "precious"
    # The parent of the dataset (which holds it and other files) is refused too.
    assert main(["export", str(dataset), "-f", "hf", str(dataset.parent), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "holds the dataset" in err
    assert (dataset / "items.jsonl").is_file()
    # "." as OUT: one line, no traceback, no partial folder left behind.
    monkeypatch.chdir(notes)
    assert main(["export", str(dataset), "--format", "hf", ".", "--overwrite"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert sorted(p.name for p in notes.iterdir()) == ["thesis.tex"]
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
