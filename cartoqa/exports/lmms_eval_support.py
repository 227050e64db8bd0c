"""The functions an exported lmms-eval task calls (its ``utils.py`` forwards here).

lmms-eval loads each split of the Parquet export and calls, per document (row):
``doc_to_visual`` (the images), ``doc_to_text`` (the prompt), ``doc_to_target`` (the
reference answer as text) and ``process_results`` (scores one generation); then the
config's aggregation (``aggregate_score``) turns the per-document values into one
number with cartoqa's metrics.
"""

from __future__ import annotations

from typing import Any

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.declarations.dispatch import parse_response
from cartoqa.exports.hf import item_from_row
from cartoqa.exports.prompt import prompt_text
from cartoqa.metrics import get_metric
from cartoqa.scoring import groundtruth_checker, score_predictions, sections
from cartoqa.scoring.core import section_of


def doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    """Return the document's images as a list of RGB PIL images, in order.

    Parameters
    ----------
    doc : dict
        One row of the export, with ``image`` (and the ``more_images`` of a multi-map
        item) decoded (PIL images) or raw (``{"bytes": ..., "path": ...}``).

    Returns
    -------
    list of PIL.Image.Image
        The map image, then the item's further maps.
    """
    import io

    from PIL import Image

    out = []
    for image in [doc["image"], *(doc.get("more_images") or [])]:
        if isinstance(image, dict):
            image = Image.open(io.BytesIO(image["bytes"]))
        out.append(image.convert("RGB"))
    return out


def doc_to_text(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None
                ) -> str:
    """Return the prompt: the system prompt, a blank line, then the question.

    lmms-eval has no system message for most models, so the item's system prompt
    leads the text (:func:`cartoqa.exports.prompt.prompt_text`, the text of the
    VLMEvalKit export's ``question`` column too). ``pre_prompt`` and ``post_prompt``
    from the config wrap it.

    Parameters
    ----------
    doc : dict
        One row of the export.
    lmms_eval_specific_kwargs : dict, optional
        May hold ``pre_prompt`` and ``post_prompt``.

    Returns
    -------
    str
        The prompt text.

    Examples
    --------
    >>> doc_to_text({"system_prompt": "Be exact.", "question": "How many?"},
    ...             {"pre_prompt": "", "post_prompt": " Answer:"})
    'Be exact.\\n\\nHow many? Answer:'
    """
    kwargs = lmms_eval_specific_kwargs or {}
    body = prompt_text(doc)
    return f"{kwargs.get('pre_prompt', '')}{body}{kwargs.get('post_prompt', '')}"


def doc_to_target(doc: dict[str, Any]) -> str:
    """Return the reference answer as text.

    Parameters
    ----------
    doc : dict
        One row of the export.

    Returns
    -------
    str
        The ground truth written as a model would answer
        (:func:`cartoqa.scoring.answer_as_text`).
    """
    return answer_as_text(item_from_row(doc))


def higher_is_better(metric: str) -> bool:
    """Return the direction of a metric, from the metric registry.

    Parameters
    ----------
    metric : str
        A metric name in :data:`cartoqa.metrics.METRICS`.

    Returns
    -------
    bool
        ``True`` when a higher value is better.

    Examples
    --------
    >>> higher_is_better("rmse_m"), higher_is_better("step_accuracy")
    (False, True)
    """
    return get_metric(metric).higher_is_better


def metric_name(section_key: str, metric: str) -> str:
    """Return the lmms-eval metric name of a cartoqa section metric.

    Parameters
    ----------
    section_key : str
        A scoring section, e.g. ``"stmf/count"``.
    metric : str
        One of its metrics, e.g. ``"rmse"``.

    Returns
    -------
    str
        E.g. ``"stmf_count_rmse"``.

    Examples
    --------
    >>> metric_name("stmf/count", "rmse")
    'stmf_count_rmse'
    """
    return f"{section_key.replace('/', '_')}_{metric}"


def task_metrics(task: str) -> list[tuple[str, str]]:
    """Return the ``(section key, metric)`` pairs ``cartoqa score`` reports for a task.

    Parameters
    ----------
    task : str
        A cartoqa task.

    Returns
    -------
    list of tuple of str
        In report order, e.g. ``[("rle", "rmse_m"), ("rle", "mae_m"), ...]``.
    """
    return [(s.key, m) for s in sections() if s.task == task for m in s.metrics]


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """Score one generation: the values lmms-eval passes on to the aggregations.

    Parameters
    ----------
    doc : dict
        One row of the export.
    results : list of str
        The model's generations (the first is used).

    Returns
    -------
    dict
        ``cartoqa_valid``: 1.0 when cartoqa's parser read the answer, else 0.0; and for
        each metric of the item's scoring section, the pair ``{"item", "response"}``
        that :func:`aggregate` scores together with the other documents.
    """
    item = item_from_row(doc)
    response = str(results[0]) if results else ""
    out: dict[str, Any] = {
        "cartoqa_valid": 1.0 if parse_response(item, response).valid else 0.0,
    }
    section = section_of(item)
    if section is not None:
        payload = {"item": item, "response": response}
        for metric in section.metrics:
            out[metric_name(section.key, metric)] = payload
    return out


def aggregate(results: list[dict[str, Any]], section_key: str, metric: str) -> float:
    """Apply one of cartoqa's metrics to the scored documents of a section.

    Invalid answers count as wrong (the report's ``all`` variant), as in
    ``cartoqa score``. A section that uses the connectivity check (SRN) gets the road
    graph when ``groundtruth`` can load the items' extract; its connectivity is NaN
    otherwise.

    Parameters
    ----------
    results : list of dict
        The ``{"item", "response"}`` pairs from :func:`process_results`.
    section_key : str
        The scoring section, e.g. ``"stmf/count"``.
    metric : str
        The metric, e.g. ``"rmse"``.

    Returns
    -------
    float
        The metric (NaN when undefined, e.g. r2 on constant truth).
    """
    items = [r["item"] for r in results]
    predictions = {str(r["item"]["id"]): str(r["response"]) for r in results}
    uses_graph = any(s.uses_connectivity for s in sections() if s.key == section_key)
    checker = groundtruth_checker()[0] if uses_graph else None
    report = score_predictions(items, predictions, is_connected=checker, include_items=False)
    value = report["sections"].get(section_key, {}).get("metrics", {}).get(metric, {})
    number = value.get("all") if isinstance(value, dict) else None
    return float("nan") if number is None else float(number)
