"""Export a dataset as an lmms-eval task folder.

Layout of the output folder (``<group>`` is ``cartoqa_<dataset name>``, see
:func:`group_name`, so that the exports of several datasets live side by side in one
``--include_path``)::

    <group>.yaml             group ``<group>`` listing the task configs
    <group>_<task>.yaml      one config per task (``task``, ``dataset_path``,
                             ``test_split``, ``output_type``, ``doc_to_visual``,
                             ``doc_to_text``, ``doc_to_target``, ``process_results``,
                             ``metric_list``, ``generation_kwargs``, ``metadata``)
    utils.py                 the functions the configs name with ``!function``; they
                             call :mod:`cartoqa.exports.lmms_eval_support`, i.e.
                             cartoqa's parsers and metrics (install cartoqa beside
                             lmms-eval)
    hf/                      the Hugging Face Parquet export (see :mod:`.hf`)

``dataset_path`` is the absolute path of ``hf/`` at export time: export again (or
edit it) after moving the folder. Run with
``lmms-eval --include_path OUT --tasks <group> ...`` (e.g. ``cartoqa_helsinki``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cartoqa.dataset.reader import tasks_in
from cartoqa.exports.hf import write_hf
from cartoqa.exports.lmms_eval_support import higher_is_better, metric_name, task_metrics

#: Prefix of every group and task name.
GROUP = "cartoqa"

#: The metric ``process_results`` returns for every document: share of parsed answers.
VALID_METRIC = "cartoqa_valid"

#: Keys lmms-eval documents for a task config (docs/task_guide.md), that we write.
CONFIG_KEYS: tuple[str, ...] = (
    "task", "dataset_path", "test_split", "output_type", "doc_to_visual", "doc_to_text",
    "doc_to_target", "process_results", "generation_kwargs", "metric_list",
    "lmms_eval_specific_kwargs", "metadata",
)

_UTILS_HEAD = '''"""lmms-eval task functions for a cartoqa export (written by ``cartoqa export``).

Each function hands over to cartoqa, which parses the model's answer and computes the
metrics exactly as ``cartoqa score`` does. Install cartoqa in lmms-eval's environment.
"""

from cartoqa.exports import lmms_eval_support as _cartoqa


def doc_to_visual(doc):
    return _cartoqa.doc_to_visual(doc)


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return _cartoqa.doc_to_text(doc, lmms_eval_specific_kwargs)


def doc_to_target(doc):
    return _cartoqa.doc_to_target(doc)


def process_results(doc, results):
    return _cartoqa.process_results(doc, results)
'''


def utils_py(pairs: Sequence[tuple[str, str]]) -> str:
    """Return the task folder's ``utils.py``.

    It holds the forwarding functions and one aggregation function per metric
    (lmms-eval passes an aggregation only the values, not the metric's name).

    Parameters
    ----------
    pairs : sequence of tuple of str
        ``(section key, metric)`` pairs to aggregate.

    Returns
    -------
    str
        Python source.
    """
    parts = [_UTILS_HEAD]
    for section_key, metric in pairs:
        parts.append(
            f"\n\ndef agg_{metric_name(section_key, metric)}(results):\n"
            f"    return _cartoqa.aggregate(results, {section_key!r}, {metric!r})\n"
        )
    return "".join(parts)


def group_name(dataset: str) -> str:
    """Return the lmms-eval group name of a dataset's export: ``cartoqa_<dataset>``.

    lmms-eval keeps one group (and one task) per name across every folder of its
    ``--include_path``, so the name carries the dataset's: the exports of a street
    dataset and of a FRIEDA dataset, or of two cities, run side by side.

    Parameters
    ----------
    dataset : str
        The dataset's name (its folder's name, or the manifest's ``name``).

    Returns
    -------
    str
        Lower-case letters, digits and ``_``.

    Examples
    --------
    >>> group_name("helsinki-z17 (2026)")
    'cartoqa_helsinki_z17_2026'
    >>> group_name("CartoQA")
    'cartoqa'
    >>> group_name("---")
    'cartoqa'
    """
    slug = "".join(c if c.isascii() and c.isalnum() else "_" for c in dataset.lower())
    slug = "_".join(part for part in slug.split("_") if part)
    if slug == GROUP or slug.startswith(f"{GROUP}_"):
        return slug
    return f"{GROUP}_{slug}" if slug else GROUP


def task_name(task: str, group: str = GROUP) -> str:
    """Return the lmms-eval task name of a cartoqa task in a group.

    Parameters
    ----------
    task : str
        A cartoqa task, e.g. ``"rle"``.
    group : str, optional
        The group (:func:`group_name`).

    Returns
    -------
    str
        E.g. ``"cartoqa_helsinki_rle"``.

    Examples
    --------
    >>> task_name("srn", "cartoqa_helsinki")
    'cartoqa_helsinki_srn'
    """
    return f"{group}_{task}"


def task_yaml(task: str, *, data_path: Path, group: str = GROUP,
              max_new_tokens: int = 1024) -> str:
    """Return one task's lmms-eval YAML config.

    Parameters
    ----------
    task : str
        The cartoqa task (also the split name of the Parquet export).
    data_path : pathlib.Path
        The Parquet export folder (written as an absolute path).
    group : str, optional
        The group the task belongs to (:func:`group_name`).
    max_new_tokens : int
        Generation cap.

    Returns
    -------
    str
        The YAML text (with lmms-eval's ``!function`` tags).
    """
    path = json.dumps(str(data_path.resolve()))
    metric_lines: list[str] = []
    for section_key, metric in task_metrics(task):
        name = metric_name(section_key, metric)
        metric_lines += [
            f"  - metric: {name}",
            f"    aggregation: !function utils.agg_{name}",
            f"    higher_is_better: {'true' if higher_is_better(metric) else 'false'}",
        ]
    metric_lines += [
        f"  - metric: {VALID_METRIC}",
        "    aggregation: mean",
        "    higher_is_better: true",
    ]
    return "\n".join([
        f"task: {task_name(task, group)}",
        f"dataset_path: {path}",
        f"test_split: {task}",
        "output_type: generate_until",
        "doc_to_visual: !function utils.doc_to_visual",
        "doc_to_text: !function utils.doc_to_text",
        "doc_to_target: !function utils.doc_to_target",
        "process_results: !function utils.process_results",
        "generation_kwargs:",
        f"  max_new_tokens: {int(max_new_tokens)}",
        "  temperature: 0",
        "  do_sample: false",
        "metric_list:",
        *metric_lines,
        "lmms_eval_specific_kwargs:",
        "  default:",
        '    pre_prompt: ""',
        '    post_prompt: ""',
        "metadata:",
        "  version: 0.1",
        "",
    ])


def group_yaml(tasks: Sequence[str], group: str = GROUP) -> str:
    """Return the group config that runs every task.

    Parameters
    ----------
    tasks : sequence of str
        The cartoqa tasks present.
    group : str, optional
        The group's name (:func:`group_name`).

    Returns
    -------
    str
        YAML text.
    """
    lines = [f"group: {group}", "task:"] + [f"  - {task_name(t, group)}" for t in tasks]
    return "\n".join(lines) + "\n"


def write_lmms_eval(dataset: Path, items: Sequence[dict[str, Any]], folder: Path, *,
                    name: str, final_folder: Path, group: str = GROUP) -> list[str]:
    """Write the task folder into ``folder`` (which will be renamed to ``final_folder``).

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    items : sequence of dict
        Its items.
    folder : pathlib.Path
        An existing, empty folder being written.
    name : str
        Pretty name for the data card.
    final_folder : pathlib.Path
        Where the folder will end up (``dataset_path`` points into it).
    group : str, optional
        The lmms-eval group (:func:`group_name` of the dataset's name).

    Returns
    -------
    list of str
        The lmms-eval task names written.
    """
    data = folder / "hf"
    data.mkdir()
    write_hf(dataset, items, data, name=name)
    tasks = tasks_in(list(items))
    for task in tasks:
        (folder / f"{task_name(task, group)}.yaml").write_text(
            task_yaml(task, data_path=final_folder / "hf", group=group), encoding="utf-8")
    (folder / f"{group}.yaml").write_text(group_yaml(tasks, group), encoding="utf-8")
    pairs = [pair for task in tasks for pair in task_metrics(task)]
    (folder / "utils.py").write_text(utils_py(pairs), encoding="utf-8")
    return [task_name(task, group) for task in tasks]
