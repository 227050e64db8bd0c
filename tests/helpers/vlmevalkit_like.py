"""What VLMEvalKit does with a benchmark TSV, and how it writes its predictions.

VLMEvalKit does not install from PyPI in a usable form, so the tests reproduce the
behaviour of its loader and writers that an export meets, as read in its repository
(open-compass/VLMEvalKit at e8e78f05, 2026-08-18; behaviour only, no code taken):

* ``vlmeval/smp/file.py`` ``load``: a ``.tsv`` is ``pandas.read_csv(path, sep="\\t")``
  (an empty cell is NaN); ``dump``: ``.xlsx`` through ``pandas.ExcelWriter`` with the
  ``xlsxwriter`` engine (``strings_to_formulas`` off), ``.tsv`` through
  ``DataFrame.to_csv(sep="\\t", index=False, quoting=csv.QUOTE_ALL)``, ``.json`` as
  ``json.dump`` of ``DataFrame.to_dict("records")`` with ``indent=4``; the prediction
  file is ``<work_dir>/<model>_<dataset>.<PRED_FORMAT>`` (``xlsx`` by default).
* ``vlmeval/smp/misc.py`` ``toliststr``: a string ``[...]`` is evaluated as a list, any
  other string is a one-element list, a list stays, anything else (NaN) raises
  ``NotImplementedError``.
* ``vlmeval/dataset/image_base.py`` ``ImageBaseDataset.__init__``: rows without an image
  are dropped, ``index`` becomes text, every ``image`` and (when the column exists)
  every ``image_path`` goes through ``toliststr`` and is unwrapped when it has one
  element; ``dump_image``: a list of images is written under the names of the
  ``image_path`` list (else ``<index>_<i>.png``), one image under its ``image_path``
  string (else ``<index>.png``); ``build_prompt``: the images in order, then the
  ``question`` text.
* ``vlmeval/inference.py`` ``infer_data_job``: the loaded table plus a ``prediction``
  column, the ``image`` column dropped, dumped to the prediction file.
* ``vlmeval/dataset/image_mcq.py`` ``evaluate``: derived files named after the
  prediction file, e.g. ``<model>_<dataset>_exact_matching_result.xlsx`` (the table
  plus ``hit``) and ``<model>_<dataset>_acc.csv``.
"""

from __future__ import annotations

import ast
import base64
import csv
import json
from pathlib import Path
from typing import Any

import pandas as pd


def toliststr(value: Any) -> list[str]:
    """A cell as a list of strings, or ``NotImplementedError`` as VLMEvalKit raises."""
    if isinstance(value, str) and len(value) > 1 and value[0] == "[" and value[-1] == "]":
        return [str(x) for x in ast.literal_eval(value)]
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(x) for x in value]
    raise NotImplementedError


def load_benchmark(tsv: Path) -> pd.DataFrame:
    """Load a benchmark TSV as ``ImageBaseDataset`` does (images still base64)."""
    data = pd.read_csv(tsv, sep="\t")
    data = data[~pd.isna(data["image"])].copy()
    data["index"] = [str(x) for x in data["index"]]
    images = [toliststr(str(x)) for x in data["image"]]
    data["image"] = [x[0] if len(x) == 1 else x for x in images]
    if "image_path" in data:
        paths = [toliststr(x) for x in data["image_path"]]
        data["image_path"] = [x[0] if len(x) == 1 else x for x in paths]
    if all(str(x).lstrip("-").isdigit() for x in data["index"]):
        data["index"] = [int(x) for x in data["index"]]
    return data


def dump_image(line: dict[str, Any], img_root: Path) -> list[Path]:
    """Write a row's images as ``dump_image`` does; return their paths in prompt order."""
    img_root.mkdir(parents=True, exist_ok=True)
    if isinstance(line["image"], list):
        names = line["image_path"] if "image_path" in line else [
            f"{line['index']}_{i}.png" for i in range(len(line["image"]))]
        targets = []
        for data, name in zip(line["image"], names, strict=False):
            path = img_root / name
            if not path.exists():
                path.write_bytes(base64.b64decode(data))
            targets.append(path)
        return targets
    if "image_path" in line:
        assert isinstance(line["image_path"], str)
        path = img_root / line["image_path"]
    else:
        path = img_root / f"{line['index']}.png"
    if not path.exists():
        path.write_bytes(base64.b64decode(line["image"]))
    return [path]


def prompt(data: pd.DataFrame, img_root: Path) -> list[tuple[list[Path], str]]:
    """Every row's prompt as ``build_prompt`` makes it: its image files, then its text."""
    return [(dump_image(dict(row), img_root), str(row["question"]))
            for _, row in data.iterrows()]


def write_predictions(data: pd.DataFrame, predictions: list[str], work_dir: Path,
                      model: str, dataset: str, fmt: str = "xlsx") -> Path:
    """Write the prediction file ``infer_data_job`` writes (``PRED_FORMAT=fmt``)."""
    table = data.copy()
    table["prediction"] = predictions
    table.pop("image")
    work_dir.mkdir(parents=True, exist_ok=True)
    return dump(table, work_dir / f"{model}_{dataset}.{fmt}")


def dump(table: pd.DataFrame, path: Path) -> Path:
    """Write a table as VLMEvalKit's ``dump`` does for the file's extension."""
    suffix = path.suffix.lstrip(".")
    if suffix == "xlsx":
        with pd.ExcelWriter(path, engine="xlsxwriter",
                            engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
            table.to_excel(w, index=False)
    elif suffix == "tsv":
        table.to_csv(path, sep="\t", index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
    elif suffix == "csv":
        table.to_csv(path, index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
    elif suffix == "json":
        with path.open("w", encoding="utf-8") as fh:
            json.dump(table.to_dict("records"), fh, indent=4, ensure_ascii=False,
                      default=lambda v: v.item() if hasattr(v, "item") else str(v))
    else:
        raise ValueError(suffix)
    return path


def write_mcq_results(prediction_file: Path) -> list[Path]:
    """Write the files VLMEvalKit's exact-matching MCQ evaluation leaves beside it."""
    table = (pd.read_excel(prediction_file) if prediction_file.suffix == ".xlsx"
             else pd.read_csv(prediction_file, sep="\t") if prediction_file.suffix == ".tsv"
             else pd.DataFrame(json.loads(prediction_file.read_text("utf-8"))))
    table["hit"] = [int(str(p).strip()[:1] == str(a)) for p, a in
                    zip(table["prediction"], table["answer"], strict=True)]
    stem = prediction_file.with_suffix("")
    result = dump(table, Path(f"{stem}_exact_matching_result{prediction_file.suffix}"))
    acc = Path(f"{stem}_acc.csv")
    pd.DataFrame({"split": ["none"], "Overall": [table["hit"].mean()]}).to_csv(acc,
                                                                              index=False)
    return [result, acc]
