"""MTMF: count and names of all 22 feature types on one zoom-19 map, answered as JSON.

Uses the same maps as STMF (:mod:`cartoqa.tasks.feature_maps`): map ``j`` is the same
image in both tasks.
"""

from __future__ import annotations

import json
from typing import Any

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.base import BuildContext, Scenario, item_id
from cartoqa.tasks.feature_maps import counted_features, feature_map
from cartoqa.tasks.items import base_item, provenance
from cartoqa.tasks.prompts import prompt
from groundtruth.catalogue import feature_type_names

NAME = "mtmf"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = False


def question(types: list[str]) -> str:
    """The MTMF question listing every type (pure)."""
    example = {t: {"count": 0, "names": []} for t in types[:2]}
    example_text = json.dumps(example, ensure_ascii=False)[:-1] + ", ...}"
    return prompt("mtmf_all", n_types=len(types),
                  type_list="\n".join(f"- {t}" for t in types), example=example_text)


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
                      counted=counted_features(vf, types))
    item = base_item(item_id(NAME, slot), NAME, "all", f"images/{fmap.image}",
                     question(types), answer, {"zoom": fmap.view.zoom}, prov)
    images = {} if ctx.image_exists(fmap.image) else {fmap.image: fmap.png}
    return Scenario(items=[item], images=images)
