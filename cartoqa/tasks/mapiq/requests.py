"""MapIQ's task declarations: :func:`mapiq_spec`, and its four question types as requests.

Every MapIQ task asks some of the same four question types (MapIQ's Table 2), read,
written and scored the same way whatever the task: binary and single value by accuracy,
multiple choice and lists by per-response F1. A task's ``SPEC`` lists the ones it asks
(:func:`cartoqa.tasks.mapiq.common.mapiq_spec`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.parsing.mapiq import (
    mapiq_answer_text,
    numbers_match,
    parse_items,
    parse_letters,
    parse_single,
)
from cartoqa.parsing.result import ParseResult
from cartoqa.scoring.sections import aggregate_correct, aggregate_f1, set_f1
from cartoqa.tasks.common.thematic.requests import (
    answer_schema,
    answer_writer,
    binary_request,
    thematic_spec,
)
from cartoqa.tasks.mapiq.common import NOTA

#: The suite (``TaskSpec.suite``, the key of :data:`cartoqa.declarations.suites.SUITES`).
SUITE = "mapiq"

#: Strata every MapIQ item carries.
STRATA: tuple[str, ...] = ("map_type", "question_type", "theme", "variation", "scale")

#: Provenance keys every MapIQ item carries (no extract, no zoom: a table and a design).
PROVENANCE: tuple[str, ...] = ("suite", "seed", "variable", "map_type", "variation")


def _parse_letters(item: Mapping[str, Any], text: str) -> ParseResult:
    options = item.get("options")
    return parse_letters(text, options if isinstance(options, Mapping) else None, item)


def _measure_single(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth = [float(x) for x in record.answer.get("numbers") or []]
    return {"correct": numbers_match(truth, record.value["numbers"])}


def _measure_letters(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    predicted = list(record.value["letters"])
    options = record.item.get("options") or {}
    nota = [k for k, v in options.items() if v == NOTA]
    if len(predicted) > 1 and any(k in predicted for k in nota):
        return {"f1": 0.0}  # "None of the above" beside another option contradicts itself
    return {"f1": set_f1(list(record.answer.get("letters") or []), predicted)}


def _measure_items(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"f1": set_f1(list(record.answer.get("items") or []), list(record.value["items"]))}


#: The question types, by request name.
REQUESTS: dict[str, RequestSpec] = {
    "binary": binary_request(mapiq_answer_text),
    "mcq": RequestSpec(
        name="mcq",
        answer_schema=answer_schema(["letters"], {"letters": {
            "type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^[a-h]$"}}}),
        parse=_parse_letters,
        answer_text=answer_writer(mapiq_answer_text, "mcq"),
        metrics=("f1",), headline=("f1",),
        measure=_measure_letters, aggregate=aggregate_f1,
        sample_answer={"letters": ["a", "c"]},
    ),
    "list": RequestSpec(
        name="list",
        answer_schema=answer_schema(["items"], {"items": {
            "type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}}),
        parse=text_parser(parse_items),
        answer_text=answer_writer(mapiq_answer_text, "list"),
        metrics=("f1",), headline=("f1",),
        measure=_measure_items, aggregate=aggregate_f1,
        sample_answer={"items": ["TX", "CA"]},
    ),
    "single": RequestSpec(
        name="single",
        answer_schema=answer_schema(["text", "numbers"], {
            "text": {"type": "string"},
            "numbers": {"type": "array", "minItems": 1, "maxItems": 2,
                        "items": {"type": "number"}}}),
        parse=parse_single,
        answer_text=answer_writer(mapiq_answer_text, "single"),
        metrics=("accuracy",), headline=("accuracy",),
        measure=_measure_single, aggregate=aggregate_correct,
        sample_answer={"text": "99.9–163", "numbers": [99.9, 163.0]},
    ),
}


def mapiq_spec(name: str, title: str, requests: tuple[str, ...], blurb: str) -> TaskSpec:
    """Return the declaration of one MapIQ task.

    Parameters
    ----------
    name : str
        Task name in items (``"mapiq_rv"``).
    title : str
        MapIQ's name of the task (``"Retrieve Value"``); the prompts quote it.
    requests : tuple of str
        The question types it asks (MapIQ's Table 2), keys of :data:`REQUESTS`.
    blurb : str
        One line for dataset cards.

    Returns
    -------
    TaskSpec
        Suite ``"mapiq"``, its requests from :data:`REQUESTS`, the MapIQ strata and
        provenance; built by :func:`cartoqa.tasks.mapiq.build.build_mapiq_dataset`
        (its ``prepare`` and ``make_scenario`` refuse: no OSM extract builds it).
    """
    return thematic_spec(
        suite=SUITE, label="MapIQ", name=name, title=title, blurb=blurb,
        requests=tuple(REQUESTS[r] for r in requests), strata=STRATA,
        sample_strata={"map_type": "choropleth", "question_type": requests[0],
                       "theme": "crime", "variation": "baseline", "scale": "local",
                       "generated_data": False},
        sample_options={"a": "1–2", "b": "3–4", "c": "5–6", "d": "None of the above"},
        provenance_required=PROVENANCE,
        sample_provenance={"suite": SUITE, "seed": 0, "variable": "violent_crime",
                           "map_type": "choropleth", "variation": "baseline"},
    )
