"""MapWise list questions: the regions of a legend class (discrete), or above a tick value
(continuous); at most :data:`MAX_ITEMS` regions, so that a list can be read off."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.count import clear_ticks
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapwise_spec("mapwise_list", "List", "list",
                    "MapWise list: the regions of a class or above a value.")

#: Longest list asked for.
MAX_ITEMS = 10


def _classic(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> list[Question]:
    """One list question about one map."""
    if ctx.colour_bar is None:
        options = []
        for cls in range(1, ctx.classification.k + 1):
            members = sorted(c for c in ctx.classes if ctx.classes[c] == cls)
            if len(members) <= MAX_ITEMS:
                options.append((cls, members))
        if not options:
            skipped["list_classes_too_large"] += 1
            return []
        cls, members = rng.choice(options)
        label = ctx.classification.labels[cls - 1]
        return [Question(
            "list", "in_class",
            ctx.ask(f"Which {ctx.words} are shown in the legend class {label}?",
                        "list"), {"items": members}, members)]
    bar = ctx.colour_bar
    choices = []
    for i in clear_ticks(ctx):
        above = sorted(c for c in ctx.values if ctx.shown(c) > bar.ticks[i])
        if 1 <= len(above) <= MAX_ITEMS:
            choices.append((i, above))
    if not choices:
        skipped["list_no_clear_tick"] += 1
        return []
    i, above = rng.choice(choices)
    return [Question(
        "list", "above_tick",
        ctx.ask(f"Which {ctx.words} have a value above {bar.tick_labels[i]}?", "list"),
        {"items": above}, above)]


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """The list questions about one map: the classic forms, then those of
    :mod:`cartoqa.tasks.mapwise.forms` that answer in this type."""
    return _classic(ctx, rng, skipped) + ask_forms(ctx, rng, skipped, "list")
