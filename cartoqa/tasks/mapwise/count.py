"""MapWise count questions: how many regions fall in a legend class (discrete) or lie
above a tick value (continuous; only when no region sits near that tick)."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.common.sampling import choose_by_answer
from cartoqa.tasks.mapwise.common import (
    MapwiseContext,
    Question,
)
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapwise_spec("mapwise_count", "Count", "count",
                    "MapWise count: regions in a class or above a value.")


def clear_ticks(ctx: MapwiseContext) -> list[int]:
    """Inner ticks of the colour bar that no region's value sits near."""
    assert ctx.colour_bar is not None
    bar = ctx.colour_bar
    return [i for i in range(1, len(bar.ticks) - 1)
            if all(ctx.clear_of_tick(c, bar.ticks[i]) for c in ctx.values)]


def _classic(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> list[Question]:
    """One count question about one map."""
    if ctx.colour_bar is None:
        cls = rng.randint(1, ctx.classification.k)
        members = sorted(c for c in ctx.classes if ctx.classes[c] == cls)
        label = ctx.classification.labels[cls - 1]
        return [Question(
            "count", "in_class",
            ctx.ask(f"How many {ctx.words} are shown in the legend class {label}?",
                        "count"), {"count": len(members)}, members)]
    ticks = clear_ticks(ctx)
    if not ticks:
        skipped["count_no_clear_tick"] += 1
        return []
    bar = ctx.colour_bar
    # every count the clear ticks give is as likely (most give 1: a tick is clear of
    # every region mostly just below a lone high value)
    i = choose_by_answer(rng, ticks,
                         lambda j: sum(1 for c in ctx.values if ctx.shown(c) > bar.ticks[j]))
    above = sorted(c for c in ctx.values if ctx.shown(c) > bar.ticks[i])
    return [Question(
        "count", "above_tick",
        ctx.ask(f"How many {ctx.words} have a value above {bar.tick_labels[i]}?",
                    "count"), {"count": len(above)}, above)]


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """The count questions about one map: the classic forms, then those of
    :mod:`cartoqa.tasks.mapwise.forms` that answer in this type."""
    return _classic(ctx, rng, skipped) + ask_forms(ctx, rng, skipped, "count")
