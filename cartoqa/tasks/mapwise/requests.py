"""MapWise's task declarations: :func:`mapwise_spec`, and its six answer types as requests.

MapWise (Mukhopadhyay et al., §4) scores each answer type its own way: binary and count
by exact match, single word by recall over the regions that tie for the answer, lists by
precision and recall, ranges by :func:`cartoqa.metrics.mapwise.range_score` (exact; 0.5
for an overlapping range on a colour bar) and rankings by Kendall's tau-b
(:func:`cartoqa.metrics.mapwise.rank_score`). Each type is declared once here, as a
:class:`~cartoqa.declarations.spec.RequestSpec`; a task module's ``SPEC`` names the one it asks.
Every section is also reported by country crossed with legend kind.
"""

from __future__ import annotations

from typing import Any

from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.metrics.mapwise import range_score, rank_score, single_word_score
from cartoqa.metrics.sets import prf_from_counts
from cartoqa.parsing.mapwise import (
    mapwise_answer_text,
    parse_count_answer,
    parse_range_answer,
    parse_rank,
    parse_region,
    parse_region_list,
)
from cartoqa.scoring.sections import aggregate_correct, aggregate_prf
from cartoqa.tasks.common.thematic.requests import (
    aggregate_mean,
    answer_schema,
    answer_writer,
    binary_request,
    thematic_spec,
)

#: The suite (``TaskSpec.suite``, the key of :data:`cartoqa.declarations.suites.SUITES`).
SUITE = "mapwise"

#: Strata every MapWise item carries.
STRATA: tuple[str, ...] = ("country", "legend", "style", "counterfactual", "question_type",
                           "family", "prompt_mode")

#: Provenance keys every MapWise item carries (no extract, no zoom: a country, a table
#: and a style).
PROVENANCE: tuple[str, ...] = ("suite", "seed", "country", "variable", "style",
                               "counterfactual", "boundaries")

#: Strata reported crossed in every MapWise section.
EXTRA_STRATA: tuple[tuple[str, ...], ...] = (("country", "legend"),)



def _measure_count(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"correct": float(record.value["count"]) == float(record.answer.get("count", -1))}


def _measure_region(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"recall": single_word_score(list(record.answer.get("accepted") or []),
                                        list(record.value["regions"]))}


def _measure_region_list(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth, predicted = set(record.answer.get("items") or []), set(record.value["items"])
    scores = prf_from_counts(len(truth & predicted), len(predicted - truth),
                             len(truth - predicted))
    return {"precision": scores.precision, "recall": scores.recall, "f1": scores.f1}


def _measure_range(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth = [float(x) for x in record.answer.get("range") or []]
    return {"range_score": range_score(truth, record.value["range"],
                                       bool(record.answer.get("continuous")))}


def _measure_rank(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    levels = {k: float(v) for k, v in (record.answer.get("levels") or {}).items()}
    ranks = {k: float(v) for k, v in record.value["ranks"].items() if k in levels}
    return {"tau_b": rank_score(levels, ranks)}


#: The answer types, by request name.
REQUESTS: dict[str, RequestSpec] = {
    "binary": binary_request(mapwise_answer_text, EXTRA_STRATA),
    "single": RequestSpec(
        name="single",
        answer_schema=answer_schema(["accepted", "text"], {
            "accepted": {"type": "array", "minItems": 1, "items": {"type": "string"}},
            "text": {"type": "string"}}),
        parse=parse_region,
        answer_text=answer_writer(mapwise_answer_text, "single"),
        metrics=("recall",), headline=("recall",),
        measure=_measure_region, aggregate=aggregate_mean("recall"),
        extra_strata=EXTRA_STRATA,
        sample_answer={"accepted": ["BR", "UP"], "text": "Bihar"},
    ),
    "count": RequestSpec(
        name="count",
        answer_schema=answer_schema(["count"], {"count": {"type": "integer", "minimum": 0}}),
        parse=text_parser(parse_count_answer),
        answer_text=answer_writer(mapwise_answer_text, "count"),
        metrics=("accuracy",), headline=("accuracy",),
        measure=_measure_count, aggregate=aggregate_correct,
        extra_strata=EXTRA_STRATA,
        sample_answer={"count": 4},
    ),
    "list": RequestSpec(
        name="list",
        answer_schema=answer_schema(["items"], {"items": {
            "type": "array", "items": {"type": "string", "minLength": 1}}}),
        parse=parse_region_list,
        answer_text=answer_writer(mapwise_answer_text, "list"),
        metrics=("precision", "recall", "f1"), headline=("precision", "recall"),
        measure=_measure_region_list, aggregate=aggregate_prf,
        extra_strata=EXTRA_STRATA,
        sample_answer={"items": ["MH", "UP"]},
    ),
    "range": RequestSpec(
        name="range",
        answer_schema=answer_schema(["range", "text", "continuous"], {
            "range": {"type": "array", "minItems": 2, "maxItems": 2,
                      "items": {"type": "number"}},
            "text": {"type": "string"},
            "continuous": {"type": "boolean"}}),
        parse=parse_range_answer,
        answer_text=answer_writer(mapwise_answer_text, "range"),
        metrics=("range_score",), headline=("range_score",),
        measure=_measure_range, aggregate=aggregate_mean("range_score"),
        extra_strata=EXTRA_STRATA,
        sample_answer={"range": [1000.0, 2000.0], "text": "1k - 2k", "continuous": False},
    ),
    "rank": RequestSpec(
        name="rank",
        answer_schema=answer_schema(["order", "levels"], {
            "order": {"type": "array", "minItems": 2, "items": {"type": "string"}},
            "levels": {"type": "object"}}),
        parse=parse_rank,
        answer_text=answer_writer(mapwise_answer_text, "rank"),
        metrics=("tau_b",),
        measure=_measure_rank, aggregate=aggregate_mean("tau_b"),
        extra_strata=EXTRA_STRATA,
        sample_answer={"order": ["MH", "UP", "BR"], "levels": {"MH": 3, "UP": 2, "BR": 1}},
    ),
}


def mapwise_spec(name: str, title: str, request: str, blurb: str) -> TaskSpec:
    """Return the declaration of one MapWise task (one answer type).

    Parameters
    ----------
    name : str
        Task name in items (``"mapwise_rank"``).
    title : str
        MapWise's name of the answer type (``"Rank"``).
    request : str
        The answer type it asks, a key of :data:`REQUESTS`.
    blurb : str
        One line for dataset cards.

    Returns
    -------
    TaskSpec
        Suite ``"mapwise"``, its request from :data:`REQUESTS`, the MapWise strata and
        provenance; built by :func:`cartoqa.tasks.mapwise.build.build_mapwise_dataset`
        (its ``prepare`` and ``make_scenario`` refuse: no OSM extract builds it).
    """
    return thematic_spec(
        suite=SUITE, label="MapWise", name=name, title=title, blurb=blurb,
        requests=(REQUESTS[request],), strata=STRATA,
        sample_strata={"country": "india", "legend": "discrete", "style": "discrete_light",
                       "counterfactual": False, "question_type": request,
                       "template": request, "family": "classic", "prompt_mode": "direct",
                       "missing_data": False, "theme": "population",
                       "generated_data": False},
        provenance_required=PROVENANCE,
        sample_provenance={"suite": SUITE, "seed": 0, "country": "india",
                           "variable": "population", "style": "discrete_light",
                           "counterfactual": False, "boundaries": "sample boundaries"},
    )
