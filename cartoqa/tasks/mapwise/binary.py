"""MapWise binary (Yes/No) questions: is one region higher than another; is a region in a
legend class (discrete) or above a tick value (continuous).

Each classic question is as likely to answer yes as no: the order of the two regions
compared is a coin flip, and the class (tick) question draws its answer first, then a
region and class (tick) among those that give it (issue 29: a guess of yes or of the
template's usual answer scores one half)."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapwise_spec("mapwise_binary", "Binary", "binary",
                    "MapWise Yes/No: compare two regions, or a region with a legend class.")


def _classic(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> list[Question]:
    """Two binary questions about one map."""
    out: list[Question] = []
    codes = ctx.codes
    pairs = [(a, b) for a in codes for b in codes if a < b and ctx.distinct(a, b)]
    if pairs:
        a, b = rng.choice(pairs)
        if rng.random() < 0.5:
            a, b = b, a
        out.append(Question(
            "binary", "higher_than",
            ctx.ask(f"Does {ctx.region(a)} have a higher value than {ctx.region(b)}?",
                        "binary"),
            {"value": ctx.level(a) > ctx.level(b)}, [a, b]))
    else:
        skipped["binary_no_distinct_pair"] += 1
    # each question below draws its answer first (yes or no, one half each), then a
    # region and class (tick) that give it: a guess of yes scores one half
    want = rng.random() < 0.5
    if ctx.colour_bar is None:
        a = rng.choice(codes)
        others = [c for c in range(1, ctx.classification.k + 1) if c != ctx.classes[a]]
        cls = ctx.classes[a] if want or not others else rng.choice(others)
        label = ctx.classification.labels[cls - 1]
        out.append(Question(
            "binary", "in_class",
            ctx.ask(f"Is {ctx.region(a)} shown in the legend class {label}?", "binary"),
            {"value": ctx.classes[a] == cls}, [a]))
    else:
        bar = ctx.colour_bar
        clear = [c for c in codes if ctx.clear_of_ticks(c)]
        inner = list(range(1, len(bar.ticks) - 1))
        if clear and inner:
            region_ticks = [(c, j) for c in clear for j in inner]
            a, i = rng.choice([(c, j) for c, j in region_ticks
                               if (ctx.shown(c) > bar.ticks[j]) == want] or region_ticks)
            out.append(Question(
                "binary", "above_tick",
                ctx.ask(f"Is the value of {ctx.region(a)} above {bar.tick_labels[i]}?",
                            "binary"),
                {"value": ctx.shown(a) > bar.ticks[i]}, [a]))
        else:
            skipped["binary_no_clear_region"] += 1
    return out


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """The binary questions about one map: the classic forms, then those of
    :mod:`cartoqa.tasks.mapwise.forms` that answer in this type."""
    return _classic(ctx, rng, skipped) + ask_forms(ctx, rng, skipped, "binary")
