"""The declaration of a FRIEDA task (one per relation): :func:`frieda_spec`.

Each relation's module (``cartoqa.tasks.frieda.border`` ...) declares
``SPEC = frieda_spec("border")``; the item schema, parsers, scoring sections, card and
exports are derived from it as for every task. Requests are FRIEDA's answer types:
``textual`` (border, equal, intersect, within), ``distance`` and ``cardinal``
(orientation), scored by :mod:`cartoqa.metrics.frieda` (a distance within 20%, a
direction or one of its two neighbours, names equal after normalisation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.metrics.frieda import parse_frieda
from cartoqa.parsing.cardinal import DIRECTIONS
from cartoqa.parsing.result import ParseResult
from cartoqa.parsing.writing import format_number
from cartoqa.scoring.sections import aggregate_correct, measure_frieda
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.frieda.build import (
    ANSWER_TYPE,
    FriedaState,
    make_scenario,
    prepare,
    prompt_values,
    task_name,
)

#: The suite FRIEDA's tasks are registered under.
SUITE = "frieda"

_BLURBS = {
    "border": "which drawn feature shares a boundary with a named area",
    "equal": "which of two outlined areas on a second map is the named area",
    "intersect": "which drawn feature partly overlaps a named area",
    "within": "which drawn feature lies entirely within a named area",
    "distance": "the straight-line distance between two named places, read with the "
                "scale bar",
    "orientation": "the compass direction of one named place from another, read with a "
                   "(possibly turned) compass",
}

_ANSWERS: dict[str, dict[str, Any]] = {
    "textual": {"type": {"const": "textual"},
                "names": {"type": "array", "items": {"type": "string", "minLength": 1},
                          "minItems": 1}},
    "distance": {"type": {"const": "distance"},
                 "meters": {"type": "number", "exclusiveMinimum": 0}},
    "cardinal": {"type": {"const": "cardinal"}, "direction": {"enum": list(DIRECTIONS)}},
}

_SAMPLES: dict[str, dict[str, Any]] = {
    "textual": {"type": "textual", "names": ["Vanha kirkkopuisto"]},
    "distance": {"type": "distance", "meters": 312.5},
    "cardinal": {"type": "cardinal", "direction": "south-west"},
}

_EXTRACT_FORMATS = {
    "textual": "the name exactly as the response gives it (or the letter A or B)",
    "distance": "one distance with its unit, e.g. 350 m",
    "cardinal": "one of the eight compass directions, e.g. north-east",
}


def answer_schema(kind: str) -> dict[str, Any]:
    """The JSON schema of an answer of one type (``textual``, ``distance``, ``cardinal``)."""
    props = _ANSWERS[kind]
    return {"type": "object", "required": list(props), "additionalProperties": False,
            "properties": props}


def reference_text(answer: Mapping[str, Any]) -> str:
    """An answer written the way the prompts ask for it.

    Examples
    --------
    >>> reference_text({"type": "distance", "meters": 312.5})
    'Answer: 312.5 m'
    >>> reference_text({"type": "textual", "names": ["A"]})
    'Answer: A'
    """
    kind = answer["type"]
    if kind == "distance":
        return f"Answer: {format_number(float(answer['meters']))} m"
    if kind == "cardinal":
        return f"Answer: {answer['direction']}"
    return "Answer: " + "; ".join(answer["names"])


def _parser(kind: str) -> Any:
    shape = {"type": kind, "names": []}

    def parse(item: Mapping[str, Any], text: str) -> ParseResult:
        return parse_frieda(shape, text, question=str(item.get("question") or ""))

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
    kind = ANSWER_TYPE[relation]

    def prepare_relation(ctx: BuildContext) -> FriedaState:
        return prepare(ctx, relation)

    return TaskSpec(
        name=task_name(relation),
        blurb=f"FRIEDA {relation}: {_BLURBS[relation]}.",
        requests=(RequestSpec(
            kind,
            prompt=f"frieda_{kind}",
            sample_prompt=prompt_values(kind, relation, "Which feature is it?"),
            answer_schema=answer_schema(kind),
            parse=_parser(kind),
            answer_text=reference_text,
            metrics=("accuracy",),
            headline=("accuracy",),
            measure=measure_frieda,
            aggregate=aggregate_correct,
            sample_answer=_SAMPLES[kind],
            extra_strata=(("maps", "setting"),),
            extract_format=_EXTRACT_FORMATS[kind],
        ),),
        prepare=prepare_relation,
        make_scenario=make_scenario,
        image_size=(VIEW_WIDTH, VIEW_HEIGHT),
        items_per_scenario=1,
        map_task=True,
        strata=("maps", "setting", "n_images"),
        sample_strata={"maps": "single", "setting": "direct", "n_images": 1},
        suite=SUITE,
        title=f"FRIEDA {relation}",
        provenance_required=("extract", "relation", "maps"),
        sample_provenance={"extract": "helsinki", "relation": relation, "maps": []},
    )
