"""MapIQ task 5, Determine Range (local): the range of classes in a zone.

Binary: do the classes of a zone run from X to Y? MCQ: which range? Single value: the
range of values, from the lower bound of the lowest class to the upper bound of the
highest class present (``Class a–Class b`` on maps without a legend).
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapiq.common import (
    BINARY_STRATA,
    MapContext,
    Question,
    extreme_classes,
    mcq,
    pick,
    quota,
    scope_text,
    with_format,
)
from cartoqa.tasks.mapiq.requests import mapiq_spec

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("local",)

SPEC = mapiq_spec("mapiq_dr", "Determine Range", ("binary", "mcq", "single"),
                  "MapIQ Determine Range: lowest to highest class in a zone.")


def _range_text(ctx: MapContext, lo: int, hi: int) -> str:
    return f"{ctx.class_text(lo)} to {ctx.class_text(hi)}"


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Determine Range questions about one map."""
    out: list[Question] = []
    pairs = [(a, b) for a in range(1, ctx.k + 1) for b in range(a, ctx.k + 1)]

    zone = pick(rng, ctx.zones())
    lo, hi = extreme_classes(ctx, zone)
    asked_true = quota(ctx, "mapiq_dr", "binary", BINARY_STRATA) < 0.5
    asked = (lo, hi) if asked_true else pick(rng, [p for p in pairs if p != (lo, hi)])
    out.append(Question(
        "binary", "local",
        with_format(f"Do the attribute classes of the states in {scope_text(zone)} range "
                    f"from {_range_text(ctx, *asked)}?", "binary"),
        None, {"value": asked == (lo, hi)}, ctx.members(zone), needs_zones=True,
        details={"zone": zone, "range": list(asked)}))

    zone = pick(rng, ctx.zones())
    lo, hi = extreme_classes(ctx, zone)
    wrong = [_range_text(ctx, *p) for p in pairs if p != (lo, hi)]
    options, letters = mcq(rng, [_range_text(ctx, lo, hi)], wrong,
                           target=quota(ctx, "mapiq_dr", "mcq"))
    out.append(Question(
        "mcq", "local",
        with_format(f"What is the range of attribute classes of the states in "
                    f"{scope_text(zone)}?", "mcq", options),
        options, {"letters": letters}, ctx.members(zone), needs_zones=True,
        details={"zone": zone}))

    zone = pick(rng, ctx.zones())
    lo, hi = extreme_classes(ctx, zone)
    if ctx.legend:
        a, b = ctx.classification.label_bounds[lo - 1][0], ctx.classification.label_bounds[
            hi - 1][1]
        text = f"{ctx.classification.labels[lo - 1].split('–')[0]}–" \
               f"{ctx.classification.labels[hi - 1].split('–')[1]}"
        what = ("What is the range of values of the states in "
                f"{scope_text(zone)}, from the lower bound of the lowest class present to the "
                "upper bound of the highest class present (as written in the legend)?")
        numbers = [a, b]
    else:
        text = f"Class {lo}–Class {hi}"
        what = (f"What is the range of attribute classes of the states in "
                f"{scope_text(zone)}, from the lowest to the highest class present?")
        numbers = [float(lo), float(hi)]
    out.append(Question(
        "single", "local", with_format(what, "single"), None,
        {"text": text, "numbers": numbers}, ctx.members(zone), needs_zones=True,
        details={"zone": zone}))
    return out
