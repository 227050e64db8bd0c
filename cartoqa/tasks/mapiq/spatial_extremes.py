"""MapIQ task 3, Spatial Extremes (local and global): the states with the highest or
lowest class in a zone or in the whole map.

Binary: is a state among the highest (lowest) in a scope? MCQ: which of these states
are? List: all of them. The extreme class is the highest (lowest) class present in the
scope.
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
    state_text,
    wants_nota,
    with_format,
)
from cartoqa.tasks.mapiq.requests import mapiq_spec

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("local", "global")

SPEC = mapiq_spec("mapiq_se", "Spatial Extremes", ("binary", "mcq", "list"),
                  "MapIQ Spatial Extremes: highest or lowest class.")

#: Longest list answer asked for (a longer one is re-drawn).
MAX_LIST = 12


def _scope(ctx: MapContext, rng: random.Random) -> tuple[str | None, str, str]:
    zone = None if rng.random() < 0.5 else pick(rng, ctx.zones())
    return zone, ("global" if zone is None else "local"), pick(rng, ["highest", "lowest"])


def _extremes(ctx: MapContext, zone: str | None, word: str) -> list[str]:
    lo, hi = extreme_classes(ctx, zone)
    want = hi if word == "highest" else lo
    return [s for s in ctx.members(zone) if ctx.classes[s] == want]


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Spatial Extremes questions about one map."""
    out: list[Question] = []

    # The quota says TRUE or FALSE; a scope whose states are all extreme cannot be FALSE.
    asked_true = quota(ctx, "mapiq_se", "binary", BINARY_STRATA) < 0.5
    for _ in range(8):
        zone, scale, word = _scope(ctx, rng)
        members = ctx.members(zone)
        ext = _extremes(ctx, zone, word)
        pool = ext if asked_true else [m for m in members if m not in ext]
        if pool:
            break
    s = pick(rng, pool or members)
    out.append(Question(
        "binary", scale,
        with_format(f"Is {state_text(s)} among the states with the {word} attribute class "
                    f"in {scope_text(zone)}?", "binary"),
        None, {"value": s in ext}, [s], needs_zones=zone is not None,
        details={"zone": zone, "direction": word, "state": s}))

    target = quota(ctx, "mapiq_se", "mcq")
    for _ in range(8):  # NOTA needs four states outside the extremes
        zone, scale, word = _scope(ctx, rng)
        members = ctx.members(zone)
        ext = _extremes(ctx, zone, word)
        if not wants_nota(target) or len(members) - len(ext) >= 4:
            break
    options, letters = mcq(rng, ext, [m for m in members if m not in ext], target=target)
    out.append(Question(
        "mcq", scale,
        with_format(f"Which of the following states have the {word} attribute class in "
                    f"{scope_text(zone)}?", "mcq", options),
        options, {"letters": letters}, members, needs_zones=zone is not None,
        details={"zone": zone, "direction": word}))

    for _ in range(8):
        zone, scale, word = _scope(ctx, rng)
        ext = _extremes(ctx, zone, word)
        if len(ext) <= MAX_LIST:
            out.append(Question(
                "list", scale,
                with_format(f"List all states with the {word} attribute class in "
                            f"{scope_text(zone)}.", "list",
                            list_hint="Use two-letter state abbreviations."),
                None, {"items": ext}, ctx.members(zone), needs_zones=zone is not None,
                details={"zone": zone, "direction": word}))
            break
    else:
        rejected["se_list_too_long"] += 1
    return out
