"""Write a report folder: an overview page, one page per task, the images, the figures.

See ``docs/report.md``. Reading the dataset and scoring the predictions go through the
public APIs (:func:`cartoqa.dataset.reader.read_items`,
:func:`cartoqa.scoring.score_dataset`); this module only arranges what they return.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from cartoqa.dataset.reader import item_images, read_items, tasks_in
from cartoqa.errors import CartoqaError
from cartoqa.report import output
from cartoqa.report.items import answer_text, outcome
from cartoqa.report.overlay import overlay_shapes
from cartoqa.report.pages import overview_page, task_page
from cartoqa.scoring import groundtruth_checker, read_predictions, score_dataset

ImageMode = Literal["copy", "link", "reference"]

#: The ways a report can show the dataset's images (see :func:`write_report`).
IMAGE_MODES: tuple[str, ...] = ("copy", "link", "reference")

#: Items rendered per page of a task view.
PER_PAGE = 50


@dataclass
class ModelAnswers:
    """One predictions file, scored.

    Attributes
    ----------
    name : str
        The model's name in the report (the file name without ``.jsonl``).
    path : pathlib.Path
        The predictions file.
    score : dict
        Its score report (:func:`cartoqa.scoring.score_dataset`, with per-item rows).
    responses : dict
        Raw response per item id.
    """

    name: str
    path: Path
    score: dict[str, Any]
    responses: dict[str, str]
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class ReportSummary:
    """What :func:`write_report` wrote.

    Attributes
    ----------
    out : pathlib.Path
        The report folder; open ``index.html``.
    n_items, n_models : int
        Items and predictions files shown.
    files : list of str
        Files written (relative to ``out``).
    page_bytes, image_bytes, figure_bytes : int
        Bytes of the HTML pages, of the copied images, of the figures.
    seconds : float
        Wall time.
    n_images, linked_images : int
        Distinct images shown, and how many of them are hard links to the dataset's
        files (``--images link`` on the same file system: no extra space).
    notes : list of str
        What the reader should know (missing images, ...).
    """

    out: Path
    n_items: int
    n_models: int
    files: list[str]
    page_bytes: int
    image_bytes: int
    figure_bytes: int
    seconds: float
    n_images: int = 0
    linked_images: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        """Bytes of the whole report (pages, images, figures)."""
        return self.page_bytes + self.image_bytes + self.figure_bytes


def model_names(paths: Sequence[Path]) -> list[str]:
    """Names of predictions files in a report: the file name without ``.jsonl``.

    Repeated names get their folder's name prepended, then a number.

    Parameters
    ----------
    paths : sequence of pathlib.Path
        The predictions files.

    Returns
    -------
    list of str
        One unique name per file.

    Examples
    --------
    >>> model_names([Path("a/qwen.jsonl"), Path("b/qwen.jsonl"), Path("gpt.jsonl")])
    ['a/qwen', 'b/qwen', 'gpt']
    """
    stems = [p.name[: -len(".jsonl")] if p.name.endswith(".jsonl") else p.stem for p in paths]
    names = []
    for path, stem in zip(paths, stems, strict=True):
        names.append(stem if stems.count(stem) == 1 else f"{path.parent.name}/{stem}")
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "model"


def score_models(
    dataset: Path,
    predictions: Sequence[Path],
    *,
    check_connectivity: bool = True,
    extracts: Mapping[str, str] | None = None,
) -> list[ModelAnswers]:
    """Score every predictions file against the dataset.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    predictions : sequence of pathlib.Path
        Predictions files.
    check_connectivity : bool
        Check SRN routes on the road graph (see ``docs/scoring.md``).
    extracts : mapping, optional
        Extract files for connectivity, by name or SHA-256.

    Returns
    -------
    list of ModelAnswers
        In the order given.
    """
    checker = None
    if check_connectivity and predictions:
        checker, _ = groundtruth_checker(extracts)
    out = []
    for name, path in zip(model_names(predictions), predictions, strict=True):
        score = score_dataset(dataset, path, is_connected=checker,
                              check_connectivity=check_connectivity, extracts=extracts,
                              include_items=True)
        responses, _ = read_predictions(path)
        answers = ModelAnswers(name, path, score, responses)
        answers.rows = {str(r["id"]): r for r in score.get("items") or []}
        out.append(answers)
    return out


def _stratum_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _sort_key(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def count_items(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Items per task, per request and per stratum value (values as text).

    Parameters
    ----------
    items : sequence of mapping
        Dataset items.

    Returns
    -------
    dict
        ``{"by_task": {task: n}, "by_request": {task: {request: n}},
        "by_stratum": {task: {key: {value: n}}}}``, values in numeric-then-text order.

    Examples
    --------
    >>> counts = count_items([{"task": "mml", "request": "roads", "strata": {"zoom": 18}}])
    >>> counts["by_task"], counts["by_request"], counts["by_stratum"]
    ({'mml': 1}, {'mml': {'roads': 1}}, {'mml': {'zoom': {'18': 1}}})
    """
    by_task: dict[str, int] = {}
    by_request: dict[str, dict[str, int]] = {}
    by_stratum: dict[str, dict[str, dict[str, int]]] = {}
    for item in items:
        task = str(item.get("task"))
        by_task[task] = by_task.get(task, 0) + 1
        requests = by_request.setdefault(task, {})
        request = str(item.get("request"))
        requests[request] = requests.get(request, 0) + 1
        for key, value in (item.get("strata") or {}).items():
            values = by_stratum.setdefault(task, {}).setdefault(str(key), {})
            text = _stratum_text(value)
            values[text] = values.get(text, 0) + 1
    for task, keys in by_stratum.items():
        by_stratum[task] = {k: {v: keys[k][v] for v in sorted(keys[k], key=_sort_key)}
                            for k in keys}
    return {"by_task": by_task, "by_request": by_request, "by_stratum": by_stratum}


@dataclass
class _Images:
    """The images of the report: where each dataset image is shown from, and its size."""

    dataset: Path
    stage: Path
    out: Path
    mode: ImageMode
    info: dict[str, dict[str, Any]] = field(default_factory=dict)
    copied_bytes: int = 0
    linked: int = 0
    missing: list[str] = field(default_factory=list)

    def get(self, rel: str) -> dict[str, Any]:
        if rel in self.info:
            return self.info[rel]
        root = self.dataset.resolve()
        source = (root / rel).resolve()
        entry: dict[str, Any] = {"path": rel, "src": None, "w": 0, "h": 0}
        if source.is_relative_to(root) and source.is_file():
            try:
                with Image.open(source) as im:
                    entry["w"], entry["h"] = im.size
            except (OSError, ValueError):
                source = Path()
        else:
            source = Path()
        if source == Path():
            self.missing.append(rel)
        else:
            inside = source.relative_to(root).as_posix()
            if self.mode in ("copy", "link"):
                link = inside if inside.startswith("images/") else f"images/{inside}"
                dest = self.stage / link
                dest.parent.mkdir(parents=True, exist_ok=True)
                try:
                    if self.mode != "link":
                        raise OSError("copy")
                    os.link(source, dest)
                    self.linked += 1
                except OSError:
                    shutil.copyfile(source, dest)
                self.copied_bytes += dest.stat().st_size
            else:
                link = os.path.relpath(source, self.out.absolute()).replace(os.sep, "/")
            entry["src"] = urllib.parse.quote(link)
        self.info[rel] = entry
        return entry


def _task_rows(items: Sequence[Mapping[str, Any]], models: Sequence[ModelAnswers],
               images: _Images, systems: dict[str, int]) -> list[dict[str, Any]]:
    rows = []
    for item in items:
        item_id = str(item.get("id"))
        shown = [images.get(rel) for rel in item_images(item)]
        first = shown[0] if shown and shown[0]["src"] else None
        system = str(item.get("system_prompt") or "")
        sys_index = systems.setdefault(system, len(systems))
        answers = []
        for index, model in enumerate(models):
            row = model.rows.get(item_id)
            if row is None:  # an item scoring left out (an unscored task)
                row = {"valid": False, "reason": "not scored"}
            kind, why = outcome(row)
            parsed = answer_text(item, row.get("parsed")) if row.get("valid") else None
            answers.append({"m": index, "response": model.responses.get(item_id),
                            "parsed": parsed, "outcome": kind, "why": why,
                            "notes": list(row.get("notes") or [])})
        rows.append({
            "id": item_id,
            "request": str(item.get("request", "")),
            "strata": {str(k): _stratum_text(v) for k, v in (item.get("strata") or {}).items()},
            "images": [{k: v for k, v in e.items()} for e in shown],
            "sys": sys_index,
            "question": str(item.get("question", "")),
            "truth": answer_text(item, item.get("answer")),
            "overlay": overlay_shapes(item, (first["w"], first["h"])) if first else [],
            "answers": answers,
        })
    return rows


def page_name(task: str) -> str:
    """File name of a task's page.

    Examples
    --------
    >>> page_name("srn")
    'task-srn.html'
    """
    return f"task-{_slug(task)}.html"


def _read_manifest(dataset: Path) -> dict[str, Any]:
    try:
        data = json.loads((dataset / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_figures(models: Sequence[ModelAnswers], stage: Path) -> dict[str, dict[str, str]]:
    # imported here, not at start-up: loads matplotlib (~4 s)
    from cartoqa.scoring.plots import write_plots

    figures: dict[str, dict[str, str]] = {}
    for model in models:
        folder = stage / "figures" / _slug(model.name)
        for path in write_plots(model.score, folder):
            figures.setdefault(path.name, {})[model.name] = path.relative_to(stage).as_posix()
    return figures


def _bytes(folder: Path, prefix: str) -> int:
    base = folder / prefix
    if not base.exists():
        return 0
    return sum(p.stat().st_size for p in base.rglob("*") if p.is_file())


def write_report(
    dataset: str | Path,
    predictions: Sequence[str | Path] = (),
    *,
    out: str | Path,
    overwrite: bool = False,
    images: ImageMode = "copy",
    check_connectivity: bool = True,
    extracts: Mapping[str, str] | None = None,
) -> ReportSummary:
    """Write a static HTML report of a dataset and of models' answers to it.

    Parameters
    ----------
    dataset : str or pathlib.Path
        The dataset folder (``items.jsonl``, ``images/``, ``manifest.json``).
    predictions : sequence of str or pathlib.Path
        Predictions files (``{"id", "response"}`` per line), one per model.
    out : str or pathlib.Path
        The report folder: new, empty, or (with ``overwrite``) an earlier report.
    overwrite : bool
        Replace an earlier report in ``out`` (never anything else).
    images : {"copy", "link", "reference"}
        ``copy`` copies the images into ``out/images/``: the report moves and opens on
        its own. ``link`` puts hard links there instead where the file system allows
        (no extra space; the files are shared with the dataset, so never edit them in
        place), copies elsewhere. ``reference`` points at the dataset's files by
        relative path: the report stays small but must keep its place beside the
        dataset.
    check_connectivity : bool
        Check SRN routes on the road graph when scoring.
    extracts : mapping, optional
        Extract files for connectivity, by name or SHA-256.

    Returns
    -------
    ReportSummary
        What was written, its size and the time it took.

    Raises
    ------
    CartoqaError
        The dataset or a predictions file cannot be read, or ``out`` may not be
        written (see :func:`cartoqa.report.output.check_out_folder`).
    """
    start = time.perf_counter()
    dataset = Path(dataset)
    out = Path(out)
    paths = [Path(p) for p in predictions]
    if images not in IMAGE_MODES:
        raise CartoqaError(f"unknown image mode {images!r}",
                           fix=f"use one of {', '.join(IMAGE_MODES)}")
    output.check_out_folder(out, overwrite=overwrite)
    items = read_items(dataset, required=("id", "task"))
    if not items:
        raise CartoqaError(f"{dataset}/items.jsonl holds no items",
                           fix="pass a dataset folder written by `cartoqa build`")
    models = score_models(dataset, paths, check_connectivity=check_connectivity,
                          extracts=extracts)
    manifest = _read_manifest(dataset)
    stage = output.staging_folder(out)
    try:
        store = _Images(dataset, stage, out, images)
        tasks = tasks_in(items)
        nav = [{"task": t, "page": page_name(t)} for t in tasks]
        counts = count_items(items)
        systems: dict[str, int] = {}
        for task in tasks:
            task_items = [it for it in items if str(it.get("task")) == task]
            rows = _task_rows(task_items, models, store, systems)
            data = {
                "task": task, "page": page_name(task), "tasks": nav,
                "models": [m.name for m in models], "per_page": PER_PAGE,
                "requests": list(counts["by_request"].get(task, {})),
                "strata": {k: list(v) for k, v in counts["by_stratum"].get(task, {}).items()},
                "systems": list(systems), "items": rows,
            }
            (stage / page_name(task)).write_text(
                task_page(data, dataset_name=_dataset_name(dataset, manifest)), encoding="utf-8")
        figures = _write_figures(models, stage)
        notes = []
        if store.missing:
            notes.append(f"{len(store.missing)} image(s) missing from the dataset, e.g. "
                         f"{store.missing[0]}")
        (stage / "index.html").write_text(
            overview_page(
                dataset_name=_dataset_name(dataset, manifest), dataset_path=str(dataset),
                manifest=manifest, counts=counts, tasks=nav,
                models=[(m.name, str(m.path), m.score) for m in models], figures=figures,
                notes=notes, image_mode=images),
            encoding="utf-8")
        page_bytes = sum(p.stat().st_size for p in stage.glob("*.html"))
        figure_bytes = _bytes(stage, "figures")
        meta = {"dataset": str(dataset.absolute()), "predictions": [str(p) for p in paths],
                "images": images}
        files = output.finish(stage, out, meta, overwrite=overwrite)
    except BaseException:
        output.discard(stage)
        raise
    return ReportSummary(out=out, n_items=len(items), n_models=len(models), files=files,
                         page_bytes=page_bytes, image_bytes=store.copied_bytes,
                         figure_bytes=figure_bytes, seconds=time.perf_counter() - start,
                         n_images=len(store.info) - len(store.missing),
                         linked_images=store.linked, notes=notes)


def _dataset_name(dataset: Path, manifest: Mapping[str, Any]) -> str:
    name = manifest.get("name")
    if isinstance(name, str) and name:
        return name
    build = manifest.get("build")
    if isinstance(build, Mapping) and build.get("extract"):
        return f"{dataset.absolute().name} ({build['extract']})"
    return dataset.absolute().name
