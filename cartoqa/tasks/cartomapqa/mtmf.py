"""MTMF: count and names of all 22 feature types on one zoom-19 map, answered as JSON.

Uses the same maps as STMF (:mod:`cartoqa.tasks.cartomapqa.feature_maps`): map ``j`` is the same
image in both tasks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.parsing import ParseResult, parse_multi
from cartoqa.parsing.map_names import item_map_names
from cartoqa.scoring.sections import aggregate_multi, measure_multi
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.feature_maps import counted_features, feature_map
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id
from cartoqa.tasks.common.items import base_item, provenance
from groundtruth.catalogue import feature_type_names

NAME = "mtmf"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = False


def question_values(types: list[str]) -> dict[str, object]:
    """The values that fill the MTMF question for these types (pure)."""
    example = {t: {"count": 0, "names": []} for t in types[:2]}
    example_text = json.dumps(example, ensure_ascii=False)[:-1] + ", ...}"
    return {"n_types": len(types), "type_list": "\n".join(f"- {t}" for t in types),
            "example": example_text}


def question(types: list[str]) -> str:
    """The MTMF question listing every type (pure)."""
    return prompt("mtmf_all", **question_values(types))


#: The question's values for the sample item's types (the registry's self-check).
QUESTION_VALUES_SAMPLE = question_values(["restaurant", "bank", "park"])


def prepare(ctx: BuildContext) -> Any:
    """Load the features and fix the type order (catalogue order)."""
    ctx.features()
    return feature_type_names()


def make_scenario(ctx: BuildContext, state: Any, slot: int) -> Scenario | None:
    """One MTMF item on map ``slot``."""
    fmap = feature_map(ctx, slot)
    if fmap is None:
        return None
    types: list[str] = list(state)
    vf = fmap.features
    answer = {"types": {t: {"count": vf.count(t), "names": vf.names(t)} for t in types}}
    prov = provenance(ctx, fmap.view, slot=slot, attempt=fmap.attempt,
                      counted=counted_features(vf, types), map_names=vf.written_names())
    item = base_item(item_id(NAME, slot), NAME, "all", f"images/{fmap.image}",
                     question(types), answer, {"zoom": fmap.view.zoom}, prov)
    images = {} if ctx.image_exists(fmap.image) else {fmap.image: fmap.png}
    return Scenario(items=[item], images=images)


def parse_answer(item: Mapping[str, Any], text: str) -> ParseResult:
    """Read the JSON object of a response, for the types the item asks about (the
    names the map writes, ``provenance.map_names``, tell ``A & B`` from one name)."""
    types = list(((item.get("answer") or {}).get("types") or {}).keys())
    return parse_multi(text, types=types, map_names=item_map_names(item))


def answer_text(answer: Mapping[str, Any]) -> str:
    """The reference response: the count and names per type, as fenced JSON."""
    body = {
        name: {"count": entry.get("count", 0), "names": list(entry.get("names") or [])}
        for name, entry in (answer.get("types") or {}).items()
    }
    return "```json\n" + json.dumps(body, ensure_ascii=False, indent=1) + "\n```"


SPEC = TaskSpec(
    name=NAME,
    blurb="Multi-type map features: count and names of all 22 types, as JSON.",
    requests=(
        RequestSpec(
            "all",
            prompt="mtmf_all",
            sample_prompt=QUESTION_VALUES_SAMPLE,
            example_elided=True,  # "{...two types..., ...}": the reader is to list all
            answer_schema={
                "type": "object", "required": ["types"],
                "properties": {
                    "types": {
                        "type": "object", "minProperties": 1,
                        "additionalProperties": {
                            "type": "object", "required": ["count", "names"],
                            "properties": {
                                "count": {"type": "integer", "minimum": 0},
                                "names": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    },
                },
            },
            parse=parse_answer,
            answer_text=answer_text,
            metrics=("rmse", "r2", "precision", "recall", "f1"),
            headline=("f1",),
            measure=measure_multi,
            aggregate=aggregate_multi,
            sample_answer={"types": {
                "restaurant": {"count": 2, "names": ["Savotta", "Ravintola Kuu"]},
                "bank": {"count": 1, "names": ["Nordea"]},
                "park": {"count": 0, "names": []},
            }},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    mapnik_maps=("osm-carto", "road-names"),
    strata=("zoom",),
    sample_strata={"zoom": 19},
)
