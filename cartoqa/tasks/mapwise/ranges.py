"""MapWise range questions: the legend range a region's value falls in (the class range
on a discrete map; the two ticks around it on a colour bar, for regions clear of ticks)."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("local",)

SPEC = mapwise_spec("mapwise_range", "Range", "range",
                    "MapWise range: the legend interval holding a region's value.")


def _classic(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> list[Question]:
    """One range question about one map."""
    codes = ctx.codes
    if ctx.colour_bar is None:
        a = rng.choice(codes)
        cls = ctx.classes[a]
        lo, hi = ctx.classification.label_bounds[cls - 1]
        return [Question(
            "range", "class_range",
            ctx.ask(f"In which legend range does the value of {ctx.region(a)} fall?",
                        "range"),
            {"range": [lo, hi], "text": ctx.classification.labels[cls - 1].replace("–", " - "),
             "continuous": False}, [a])]
    clear = [c for c in codes if ctx.clear_of_ticks(c)]
    if not clear:
        skipped["range_no_clear_region"] += 1
        return []
    a = rng.choice(clear)
    lo, hi, text = ctx.bar_interval(a)
    return [Question(
        "range", "tick_interval",
        ctx.ask(f"Between which two adjacent labelled values of the colour bar does the "
                    f"value of {ctx.region(a)} lie?", "range"),
        {"range": [lo, hi], "text": text, "continuous": True}, [a])]


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """The range questions about one map: the classic forms, then those of
    :mod:`cartoqa.tasks.mapwise.forms` that answer in this type."""
    return _classic(ctx, rng, skipped) + ask_forms(ctx, rng, skipped, "range")
