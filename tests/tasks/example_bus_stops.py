"""Worked example of ``docs/build.md`` "Adding a task": the bus stops a zoom-18 map shows.

One module declares the whole task: how the build samples it (``prepare``,
``make_scenario``), what its items hold, how an answer is read and written and how it is
scored (``SPEC``). Its prompt is ``example_bus_stops.txt`` beside it. The item schema,
the parser, the scoring section (accuracy and RMSE), the card line, ``cartoqa validate``
and the exports all follow from ``SPEC``; nothing else in cartoqa is edited.

It is not shipped: the tests register it for their own run with
``TASK_MODULES["busstops"] = "example_bus_stops"`` (a shipped task would live in its
suite's package, ``cartoqa/tasks/cartomapqa/``, with its prompt in ``assets/prompts/``,
and get its line in ``cartoqa.declarations.suites.SUITES``). STMF already asks for the
count of every feature type, bus stops included, so the example adds nothing a dataset
lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.parsing import format_number, parse_count
from cartoqa.scoring.sections import aggregate_count, measure_count
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.feature_maps import feature_map
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id
from cartoqa.tasks.common.items import base_item, provenance

NAME = "busstops"
#: Zoom of the maps (STMF's feature maps are zoom 19).
ZOOM = 18
#: The catalogue type counted.
FEATURE_TYPE = "bus stop"
#: The question's template, beside this module (a shipped task keeps it in assets/prompts/
#: and names it, ``prompt="busstops_count"``).
PROMPT = str(Path(__file__).with_name("example_bus_stops.txt"))


def prepare(ctx: BuildContext) -> None:
    """Load the features once (the maps are made per slot)."""
    ctx.features()


def make_scenario(ctx: BuildContext, state: None, slot: int) -> Scenario | None:
    """One item: the bus stops that zoom-18 feature map ``slot`` shows.

    The map comes from :func:`cartoqa.tasks.cartomapqa.feature_maps.feature_map` (no symbol cut by
    an edge, no ambiguous type; what is drawn is counted by the visibility analysis). A
    map whose data holds a bus stop that the rendering does not show is left out: a
    reader could not tell.
    """
    fmap = feature_map(ctx, slot, zoom=ZOOM)
    if fmap is None:
        return None
    count = fmap.features.count(FEATURE_TYPE)
    if count == 0 and fmap.features.in_data(FEATURE_TYPE) > 0:
        return None
    item = base_item(item_id(NAME, slot), NAME, "count", f"images/{fmap.image}",
                     prompt(PROMPT), {"count": count},
                     {"zoom": fmap.view.zoom},
                     provenance(ctx, fmap.view, slot=slot, attempt=fmap.attempt))
    images = {} if ctx.image_exists(fmap.image) else {fmap.image: fmap.png}
    return Scenario(items=[item], images=images)


def answer_text(answer: Mapping[str, Any]) -> str:
    """The reference response: ``Answer: 3``."""
    return f"Answer: {format_number(answer['count'])}"


SPEC = TaskSpec(
    name=NAME,
    blurb="Bus stops (example task): how many bus stops a zoom-18 map shows.",
    requests=(
        RequestSpec(
            "count",
            answer_schema={
                "type": "object", "required": ["count"], "additionalProperties": False,
                "properties": {"count": {"type": "integer", "minimum": 0}},
            },
            parse=text_parser(parse_count),
            answer_text=answer_text,
            metrics=("accuracy", "rmse"),
            headline=("accuracy",),
            measure=measure_count,
            aggregate=aggregate_count,
            sample_answer={"count": 2},
            prompt=PROMPT,
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=(VIEW_WIDTH, VIEW_HEIGHT),
    strata=("zoom",),
    sample_strata={"zoom": ZOOM},
    suite="examples",
)
