"""The parts of task declarations both thematic suites use.

MapIQ (:mod:`cartoqa.tasks.mapiq.requests`) and MapWise
(:mod:`cartoqa.tasks.mapwise.requests`) declare their question types as
:class:`~cartoqa.declarations.spec.RequestSpec` and their tasks as
:class:`~cartoqa.declarations.spec.TaskSpec`. What is the same in both is here: the answer
schema shape, the reference-answer writer, the binary (yes/no) question type, a mean
aggregation, and :func:`thematic_spec`, the ``TaskSpec`` of a task built by a suite's own
builder rather than from an OSM extract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.declarations.spec import Aggregate, RequestSpec, TaskSpec
from cartoqa.errors import CartoqaError
from cartoqa.parsing.mapiq import parse_binary_of_item
from cartoqa.scoring.sections import _mean_measure, aggregate_correct
from renderers.thematic.draw import IMAGE_SIZE


def answer_schema(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an answer object with exactly these properties.

    Examples
    --------
    >>> answer_schema(["value"], {"value": {"type": "boolean"}})["additionalProperties"]
    False
    """
    return {"type": "object", "required": required, "additionalProperties": False,
            "properties": properties}


def answer_writer(write: Callable[[Mapping[str, Any]], str],
                  request: str) -> Callable[[Mapping[str, Any]], str]:
    """The reference-answer text of one request: ``write({"request": ..., "answer": ...})``.

    Examples
    --------
    >>> w = answer_writer(lambda item: f"{item['request']}:{item['answer']['n']}", "count")
    >>> w({"n": 3}), w.__name__
    ('count:3', 'answer_text_count')
    """
    def answer_text(answer: Mapping[str, Any]) -> str:
        return write({"request": request, "answer": answer})

    answer_text.__name__ = f"answer_text_{request}"
    return answer_text


def measure_binary(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Exact match of a yes/no answer."""
    return {"correct": bool(record.value["value"]) == bool(record.answer.get("value"))}


def aggregate_mean(key: str) -> Aggregate:
    """Aggregation that reports the mean of one per-response measure."""
    def aggregate(records: list[Record]) -> tuple[dict[str, dict[str, Any]], list[str]]:
        return {key: _mean_measure(records, key)}, []

    aggregate.__name__ = f"aggregate_mean_{key}"
    return aggregate


def binary_request(write: Callable[[Mapping[str, Any]], str],
                   extra_strata: tuple[tuple[str, ...], ...] = ()) -> RequestSpec:
    """The yes/no question type: ``{"value": true}``, read by ``parse_binary_of_item``, scored by
    accuracy (both suites ask it the same way)."""
    return RequestSpec(
        name="binary",
        answer_schema=answer_schema(["value"], {"value": {"type": "boolean"}}),
        parse=parse_binary_of_item,
        answer_text=answer_writer(write, "binary"),
        metrics=("accuracy",), headline=("accuracy",),
        measure=measure_binary, aggregate=aggregate_correct,
        extra_strata=extra_strata,
        sample_answer={"value": True},
    )


def _refuse(label: str, suite: str) -> Callable[..., Any]:
    def not_by_extract(*args: Any) -> Any:
        raise CartoqaError(f"{label} tasks are not built from an OSM extract",
                           fix=f"build them with `cartoqa build --suite {suite}`")

    return not_by_extract


def thematic_spec(*, suite: str, label: str, name: str, title: str, blurb: str,
                  requests: tuple[RequestSpec, ...], strata: tuple[str, ...],
                  sample_strata: dict[str, Any], provenance_required: tuple[str, ...],
                  sample_provenance: dict[str, Any],
                  sample_options: dict[str, str] | None = None) -> TaskSpec:
    """The declaration of one task of a thematic suite.

    Parameters
    ----------
    suite : str
        The suite (``TaskSpec.suite``), whose builder makes the task's items.
    label : str
        The suite's name in messages (``"MapIQ"``).
    name, title, blurb : str
        Task name in items, the paper's name of the task, one line for dataset cards.
    requests : tuple of RequestSpec
        The question types it asks.
    strata, sample_strata, provenance_required, sample_provenance, sample_options
        As :class:`~cartoqa.declarations.spec.TaskSpec`.

    Returns
    -------
    TaskSpec
        Thematic-map images (:data:`renderers.thematic.draw.IMAGE_SIZE`), no map task of
        the street-map kind; ``prepare`` and ``make_scenario`` refuse with one line (no
        OSM extract builds it).
    """
    refuse = _refuse(label, suite)
    return TaskSpec(
        name=name, blurb=blurb, requests=requests,
        prepare=refuse, make_scenario=refuse,
        image_size=IMAGE_SIZE, map_task=False, suite=suite, title=title,
        strata=strata, sample_strata=sample_strata, sample_options=sample_options,
        provenance_required=provenance_required, sample_provenance=sample_provenance,
    )
