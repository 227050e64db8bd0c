"""MapWise count questions: how many regions fall in a legend class (discrete) or lie
above a tick value (continuous; only when no region sits near that tick, and only on
maps whose clear ticks give at least two different counts, so that the count is drawn
first among them and is not fixed by the map's design)."""

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

    def above_count(j: int) -> int:
        return sum(1 for c in ctx.values if ctx.shown(c) > bar.ticks[j])

    if len({above_count(j) for j in ticks}) < 2:
        # A map whose clear ticks all give one count (on a colour bar without printed
        # values, a tick is clear of every region mostly just below a lone high value:
        # 1 on 9 of 9 such maps, issue 29) would ask a count fixed by the design.
        skipped["count_one_answer"] += 1
        return []
    # every count the clear ticks give is as likely
    i = choose_by_answer(rng, ticks, above_count)
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
