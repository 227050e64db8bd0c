"""MapIQ task 2, Pairwise Point Comparisons (local): is one state's class higher than
another's?

Binary: is A's class higher than B's? MCQ: which states have a higher class than A?
List: the states of A's zone with a higher class than A.
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

SPEC = mapiq_spec("mapiq_ppc", "Pairwise Point Comparisons", ("binary", "mcq", "list"),
                  "MapIQ Pairwise Point Comparisons: compare two states' classes.")


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Pairwise Point Comparison questions about one map."""
    states = sorted(ctx.classes)
    c = ctx.classes
    out: list[Question] = []

    a = pick(rng, states)
    b = pick(rng, [s for s in states if s != a and c[s] != c[a]])
    higher = rng.random() < 0.5
    word = "higher" if higher else "lower"
    truth = c[a] > c[b] if higher else c[a] < c[b]
    if truth != (quota(ctx, "mapiq_ppc", "binary", BINARY_STRATA) < 0.5):
        a, b, truth = b, a, not truth  # the quota's answer: the same pair, swapped
    out.append(Question(
        "binary", "local",
        with_format(f"Is the attribute class of {state_text(a)} {word} than that of "
                    f"{state_text(b)}?", "binary"),
        None, {"value": truth}, [a, b], details={"states": [a, b], "direction": word}))

    a = pick(rng, [s for s in states if 1 < c[s] < ctx.k] or states)
    above = [s for s in states if c[s] > c[a]]
    rest = [s for s in states if s != a and c[s] <= c[a]]
    options, letters = mcq(rng, above, rest, target=quota(ctx, "mapiq_ppc", "mcq"))
    out.append(Question(
        "mcq", "local",
        with_format(f"Which of the following states have a higher attribute class than "
                    f"{state_text(a)}?", "mcq", options),
        options, {"letters": letters}, [a, *[v for v in options.values() if v in c]],
        details={"state": a}))

    candidates = []
    for zone in ctx.zones():
        members = ctx.members(zone)
        top = max(c[m] for m in members)
        candidates += [(zone, m) for m in members if c[m] < top]
    if not candidates:
        rejected["ppc_list_no_higher_state"] += 1
        return out
    zone, a = pick(rng, candidates)
    members = ctx.members(zone)
    truth_list = [m for m in members if c[m] > c[a]]
    out.append(Question(
        "list", "local",
        with_format(f"List all states in {scope_text(zone)} with a higher attribute class "
                    f"than {state_text(a)}.", "list",
                    list_hint="Use two-letter state abbreviations."),
        None, {"items": truth_list}, members, needs_zones=True,
        details={"zone": zone, "state": a}))
    return out
