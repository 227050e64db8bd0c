"""The declaration of a FRIEDA task (one per relation): :func:`frieda_spec`.

Each relation's module (``cartoqa.tasks.frieda.border`` ...) declares
``SPEC = frieda_spec("border")``; the item schema, parsers, scoring sections, card and
exports are derived from it as for every task. Requests are FRIEDA's answer types
(:data:`cartoqa.tasks.frieda.build.REQUESTS`): ``textual`` (a name or a list of names),
``count``, ``distance`` and ``cardinal``, scored by :mod:`cartoqa.metrics.frieda` (a
distance within 20%, a direction or one of its two neighbours, names equal after
normalisation, the same count).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.metrics.frieda import parse_frieda
from cartoqa.parsing.cardinal import DIRECTIONS
from cartoqa.parsing.map_names import item_map_names
from cartoqa.parsing.numbers import METRES_PER_UNIT
from cartoqa.parsing.result import ParseResult
from cartoqa.parsing.writing import format_number
from cartoqa.scoring.sections import aggregate_correct, measure_frieda
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.frieda.build import (
    REQUESTS,
    FriedaState,
    make_scenario,
    prepare,
    prompt_values,
    task_name,
)

#: The suite FRIEDA's tasks are registered under.
SUITE = "frieda"

_BLURBS = {
    "border": "which drawn features (one, a list, how many) share a boundary with a named "
              "area",
    "equal": "which of two outlined areas on a second map is the named area, and which "
             "legend category the area covering the same ground on a second map is "
             "shaded as",
    "intersect": "which drawn features (one, a list, how many) partly overlap a named area",
    "within": "which drawn features (one, a list, how many) lie entirely within a named "
              "area",
    "distance": "the straight-line distance between two named places (on one map or "
                "across two), read with the scale bars, and which of three places is "
                "closest or furthest",
    "orientation": "the compass direction of one named place from another (on one map or "
                   "across two), read with (possibly turned) compasses",
}

_ANSWERS: dict[str, dict[str, Any]] = {
    "textual": {"type": {"const": "textual"},
                "names": {"type": "array", "items": {"type": "string", "minLength": 1},
                          "minItems": 1}},
    "distance": {"type": {"const": "distance"},
                 "meters": {"type": "number", "exclusiveMinimum": 0},
                 # the unit of the map's scale bar, asked for (optional: metres)
                 "unit": {"enum": ["m", "km", "ft", "mi"]}},
    "cardinal": {"type": {"const": "cardinal"}, "direction": {"enum": list(DIRECTIONS)}},
    "count": {"type": {"const": "count"}, "count": {"type": "integer", "minimum": 0}},
}

_SAMPLES: dict[str, dict[str, Any]] = {
    "textual": {"type": "textual", "names": ["Vanha kirkkopuisto"]},
    "distance": {"type": "distance", "meters": 312.5},
    "cardinal": {"type": "cardinal", "direction": "south-west"},
    "count": {"type": "count", "count": 2},
}

_EXTRACT_FORMATS = {
    "textual": "the name exactly as the response gives it (or the letter A or B)",
    "distance": "one distance with its unit, e.g. 350 m",
    "cardinal": "one of the eight compass directions, e.g. north-east",
    "count": "one whole number, e.g. 2",
}


def answer_schema(kind: str) -> dict[str, Any]:
    """The JSON schema of an answer of one type (``textual``, ``distance``, ``cardinal``,
    ``count``)."""
    props = _ANSWERS[kind]
    return {"type": "object", "required": [k for k in props if k != "unit"],
            "additionalProperties": False,
            "properties": props}


def reference_text(answer: Mapping[str, Any]) -> str:
    """An answer written the way the prompts ask for it.

    Examples
    --------
    >>> reference_text({"type": "distance", "meters": 312.5})
    'Answer: 312.5 m'
    >>> reference_text({"type": "distance", "meters": 304.8, "unit": "ft"})
    'Answer: 1000 ft'
    >>> reference_text({"type": "textual", "names": ["A"]})
    'Answer: A'
    """
    kind = answer["type"]
    if kind == "distance":
        unit = str(answer.get("unit") or "m")
        value = float(answer["meters"]) / METRES_PER_UNIT[unit]
        return f"Answer: {format_number(round(value, 3))} {unit}"
    if kind == "cardinal":
        return f"Answer: {answer['direction']}"
    if kind == "count":
        return f"Answer: {int(answer['count'])}"
    return "Answer: " + "; ".join(answer["names"])


_ASKED_UNIT = re.compile(r"\banswer\s+in\s+(?P<unit>metres|meters|kilometres|kilometers|feet|"
                         r"miles|m|km|ft|mi)\b", re.IGNORECASE)
_UNIT_OF_WORD = {"metres": "m", "meters": "m", "kilometres": "km", "kilometers": "km",
                 "feet": "ft", "miles": "mi"}


def asked_unit(item: Mapping[str, Any]) -> str:
    """The unit a distance question asks its answer in (``Answer in miles, ...``), else
    the item's ``answer.unit``, else metres: a bare number is read in it.

    Examples
    --------
    >>> asked_unit({"question": "How far apart ...? Answer in miles, the scale bar's unit."})
    'mi'
    >>> asked_unit({"question": "How far?", "answer": {"unit": "ft"}}), asked_unit({})
    ('ft', 'm')
    """
    m = _ASKED_UNIT.search(str(item.get("question") or ""))
    if m:
        word = m.group("unit").lower()
        return _UNIT_OF_WORD.get(word, word)
    answer = item.get("answer")
    unit = answer.get("unit") if isinstance(answer, Mapping) else None
    return str(unit) if unit in METRES_PER_UNIT else "m"


def _parser(kind: str) -> Any:
    shape = {"type": kind, "names": []}

    def parse(item: Mapping[str, Any], text: str) -> ParseResult:
        asked = {**shape, "unit": asked_unit(item)} if kind == "distance" else shape
        return parse_frieda(asked, text, question=str(item.get("question") or ""),
                            map_names=item_map_names(item))

    parse.__name__ = f"parse_frieda_{kind}"
    parse.__doc__ = f"Read a FRIEDA {kind} answer (cartoqa.metrics.frieda.parse_frieda)."
    return parse


def frieda_spec(relation: str) -> TaskSpec:
    """The declaration of the FRIEDA task of one relation.

    Parameters
    ----------
    relation : str
        One of :data:`cartoqa.tasks.frieda.build.RELATIONS`.

    Returns
    -------
    TaskSpec
    """
    def prepare_relation(ctx: BuildContext) -> FriedaState:
        return prepare(ctx, relation)

    return TaskSpec(
        name=task_name(relation),
        blurb=f"FRIEDA {relation}: {_BLURBS[relation]}.",
        requests=tuple(RequestSpec(
            kind,
            prompt=f"frieda_{kind}",
            sample_prompt=prompt_values(kind, relation, "Which feature is it?"),
            # the answer line is a placeholder (``Answer: <number> <unit>``) so that
            # copying it scores nothing (tests/tasks/test_frieda_leaks.py)
            example_elided=True,
            answer_schema=answer_schema(kind),
            parse=_parser(kind),
            answer_text=reference_text,
            metrics=("accuracy",),
            headline=("accuracy",),
            measure=measure_frieda,
            aggregate=aggregate_correct,
            sample_answer=_SAMPLES[kind],
            extra_strata=(("maps", "setting"), ("template", "maps"), ("legend", "maps")),
            extract_format=_EXTRACT_FORMATS[kind],
            # the relation's first request keeps the task's name as its section
            section=task_name(relation) if kind == REQUESTS[relation][0] else None,
        ) for kind in REQUESTS[relation]),
        prepare=prepare_relation,
        make_scenario=make_scenario,
        image_size=(VIEW_WIDTH, VIEW_HEIGHT),
        items_per_scenario=1,
        map_task=True,
        mapnik_maps=("osm-carto",),
        strata=("maps", "setting", "n_images", "template", "answer_type", "legend"),
        sample_strata={"maps": "single", "setting": "direct", "n_images": 1,
                       "template": "one", "answer_type": "text", "legend": "none"},
        suite=SUITE,
        title=f"FRIEDA {relation}",
        provenance_required=("extract", "relation", "maps"),
        sample_provenance={"extract": "helsinki", "relation": relation, "maps": []},
    )
