"""MapIQ task 1, Retrieve Value (local): the attribute class of a state.

Binary: is the class of a state X? MCQ: which class (four classes and NOTA)? List: the
states of a zone in class X. Single value: the class of a state, as its legend range.
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapiq.common import (
    BINARY_STRATA,
    MapContext,
    Question,
    mcq,
    pick,
    quota,
    scope_text,
    state_text,
    with_format,
)
from cartoqa.tasks.mapiq.requests import mapiq_spec

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("local",)

SPEC = mapiq_spec("mapiq_rv", "Retrieve Value", ("binary", "mcq", "list", "single"),
                  "MapIQ Retrieve Value: the attribute class of a state.")


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The four Retrieve Value questions about one map."""
    states = sorted(ctx.classes)
    out: list[Question] = []

    s = pick(rng, states)
    cls = ctx.classes[s]
    asked_true = quota(ctx, "mapiq_rv", "binary", BINARY_STRATA) < 0.5
    asked_cls = cls if asked_true else pick(rng, [c for c in range(1, ctx.k + 1)
                                                          if c != cls])
    out.append(Question(
        "binary", "local",
        with_format(f"Is the attribute class of {state_text(s)} "
                    f"{ctx.class_text(asked_cls)}?", "binary"),
        None, {"value": asked_cls == cls}, [s], details={"state": s, "class": asked_cls}))

    s = pick(rng, states)
    cls = ctx.classes[s]
    others = [ctx.class_text(c) for c in range(1, ctx.k + 1) if c != cls]
    options, letters = mcq(rng, [ctx.class_text(cls)], others,
                           target=quota(ctx, "mapiq_rv", "mcq"))
    out.append(Question(
        "mcq", "local",
        with_format(f"What is the attribute class of {state_text(s)}?", "mcq", options),
        options, {"letters": letters}, [s], details={"state": s}))

    zone = pick(rng, ctx.zones())
    members = ctx.members(zone)
    cls = ctx.classes[pick(rng, members)]
    truth = [m for m in members if ctx.classes[m] == cls]
    out.append(Question(
        "list", "local",
        with_format(f"List all states in {scope_text(zone)} whose attribute class is "
                    f"{ctx.class_text(cls)}.", "list",
                    list_hint="Use two-letter state abbreviations."),
        None, {"items": truth}, members, needs_zones=True,
        details={"zone": zone, "class": cls}))

    s = pick(rng, states)
    cls = ctx.classes[s]
    out.append(Question(
        "single", "local",
        with_format(f"What is the attribute class of {state_text(s)}?", "single"),
        None, {"text": ctx.class_text(cls), "numbers": ctx.class_numbers(cls)}, [s],
        details={"state": s}))
    return out
