"""Dispatch an export to its format module, writing the output atomically."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.dataset.many import combined_items, is_build_many
from cartoqa.dataset.reader import read_items
from cartoqa.errors import CartoqaError
from cartoqa.exports.answers import plain_answer
from cartoqa.exports.hf import write_hf
from cartoqa.exports.lmms_eval import group_name, write_lmms_eval
from cartoqa.exports.output import EXPORT_MARKER, atomic_folder
from cartoqa.exports.vlmevalkit import write_vlmevalkit

#: Format names ``cartoqa export --format`` accepts, with a one-line description.
FORMATS: dict[str, str] = {
    "hf": "Hugging Face datasets Parquet, one split per task, with a dataset card",
    "vlmevalkit": "VLMEvalKit TSV files, one per task (base64 images; A-E for MFS)",
    "lmms-eval": "an lmms-eval task folder (group cartoqa_<dataset>: YAML configs, utils.py "
                 "and Parquet data)",
}


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote.

    Attributes
    ----------
    out : pathlib.Path
        The output folder.
    fmt : str
        The format name.
    counts : dict
        Task to number of items.
    files : list of str
        Main files written, relative to ``out``.
    """

    out: Path
    fmt: str
    counts: dict[str, int]
    files: list[str]


def dataset_name(dataset: Path) -> str:
    """Return a dataset's name: the manifest's ``name`` when present, else the folder's.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.

    Returns
    -------
    str
        A name for cards and file prefixes.
    """
    manifest = dataset / "manifest.json"
    if manifest.is_file():
        try:
            data: Any = json.loads(manifest.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"]:
            return str(data["name"])
    return dataset.resolve().name or "cartoqa"


def safe_prefix(name: str) -> str:
    """Turn a dataset name into a file-name prefix (letters, digits, ``_``, ``-``).

    Parameters
    ----------
    name : str
        The dataset name.

    Returns
    -------
    str
        E.g. ``"CartoQA_helsinki"``.

    Examples
    --------
    >>> safe_prefix("helsinki z17-19")
    'CartoQA_helsinki_z17-19'
    """
    cleaned = "".join(c if c.isalnum() or c in "-_" else "_" for c in name).strip("_")
    return f"CartoQA_{cleaned}" if cleaned else "CartoQA"


def export_dataset(dataset: Path, out: Path, fmt: str, *, overwrite: bool = False
                   ) -> ExportResult:
    """Export ``dataset`` to ``out`` in format ``fmt``.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder, or the output folder of ``cartoqa build-many`` (all its
        cities as one dataset with a ``city`` column, see :mod:`cartoqa.dataset.many`).
    out : pathlib.Path
        The output folder (must not exist unless ``overwrite``).
    fmt : str
        One of :data:`FORMATS`.
    overwrite : bool
        Replace an existing ``out``.

    Returns
    -------
    ExportResult
        What was written.

    Raises
    ------
    CartoqaError
        Unknown format, a malformed dataset, or ``out`` exists.
    """
    if fmt not in FORMATS:
        raise CartoqaError(f"unknown export format {fmt!r}",
                           fix=f"use one of {', '.join(FORMATS)}")
    many = is_build_many(dataset)
    items = combined_items(dataset) if many else read_items(dataset)
    if not items:
        raise CartoqaError(f"{dataset} has no items", fix="build a dataset with items first")
    name = dataset_name(dataset)
    group = group_name(name)
    if many:
        cities = list(dict.fromkeys(str(item["city"]) for item in items))
        name = f"{name} ({len(cities)} cities: {', '.join(cities)})"
    counts: dict[str, int] = {}
    for item in items:
        counts[str(item["task"])] = counts.get(str(item["task"]), 0) + 1
    target, source = out.resolve(), dataset.resolve()
    if target == source or target.is_relative_to(source):
        raise CartoqaError("the export folder must be outside the dataset folder",
                           fix="choose another OUT")
    if source.is_relative_to(target):
        raise CartoqaError(f"the export folder {out} holds the dataset {dataset}",
                           fix="choose an OUT folder that does not contain the dataset")
    with atomic_folder(out, overwrite=overwrite) as folder:
        if fmt == "hf":
            write_hf(dataset, items, folder, name=name)
        elif fmt == "vlmevalkit":
            write_vlmevalkit(dataset, items, folder, name=safe_prefix(name),
                             answer_text=plain_answer)
        else:
            write_lmms_eval(dataset, items, folder, name=name, final_folder=out, group=group)
        files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                       if p.is_file() and p.name != EXPORT_MARKER)
    return ExportResult(out=out, fmt=fmt, counts=counts, files=files)
