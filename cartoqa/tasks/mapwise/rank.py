"""MapWise rank questions: order three or four regions by value. The regions are chosen
so that a reader can order them (different classes; or bar positions apart by the
comparison gap); the score is Kendall's tau-b (ties in a response are allowed)."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapwise_spec("mapwise_rank", "Rank", "rank",
                    "MapWise rank: order regions by value (Kendall's tau-b).")


def _classic(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> list[Question]:
    """One rank question about one map."""
    codes = ctx.codes
    n = rng.choice((3, 4))
    order = codes[:]
    rng.shuffle(order)
    chosen: list[str] = []
    for c in order:
        if all(ctx.distinct(c, o) for o in chosen):
            chosen.append(c)
        if len(chosen) == n:
            break
    if len(chosen) < 3:
        skipped["rank_too_few_distinct_regions"] += 1
        return []
    ranked = sorted(chosen, key=lambda c: -ctx.level(c))
    names = ", ".join(ctx.region(c) for c in sorted(chosen))
    return [Question(
        "rank", "order",
        ctx.ask(f"Rank these {ctx.words} by value, highest first: {names}.", "rank"),
        {"order": ranked, "levels": {c: ctx.level(c) for c in ranked}}, ranked)]


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """The rank questions about one map: the classic forms, then those of
    :mod:`cartoqa.tasks.mapwise.forms` that answer in this type."""
    return _classic(ctx, rng, skipped) + ask_forms(ctx, rng, skipped, "rank")
