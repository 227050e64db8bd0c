"""MapWise single-word questions: which region has the highest (lowest) value, in the
whole country or among a region's neighbours. Regions that look the same as the
extreme (same class; or not distinct from it on a colour bar) are each accepted; when
more than :data:`MAX_ACCEPTED` would be, the other extreme is asked, or none."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.forms import ask_forms
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global", "local")

#: Most regions a single-word answer may accept: a question that almost any region answers
#: ("which is lowest?" where 48 of 49 states look the same) tests nothing.
MAX_ACCEPTED = 10

SPEC = mapwise_spec("mapwise_single", "Single word", "single",
                    "MapWise single word: the region with the highest or lowest value.")


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """Two single-word questions about one map."""
    out: list[Question] = []
    codes = ctx.codes
    highest = rng.random() < 0.5
    for way in (highest, not highest):  # the other extreme when this one ties too widely
        accepted = ctx.extreme(codes, way)
        if accepted is not None and len(accepted) <= MAX_ACCEPTED:
            word = "highest" if way else "lowest"
            out.append(Question(
                "single", "extreme",
                ctx.ask(f"Which {ctx.word} of {ctx.where} has the {word} value?", "single"),
                {"accepted": accepted, "text": ctx.regions[accepted[0]].name}, accepted))
            break
    else:
        skipped["single_too_many_ties"] += 1
    # Neighbours without data are drawn as no data: they are left out of the pool, and
    # a question whose every candidate is accepted tests nothing.
    options = []
    for hub in codes:
        pool = ctx.neighbours(hub)
        if len(pool) < 3:
            continue
        for way in (True, False):
            accepted = ctx.extreme(pool, way)
            if accepted is not None and len(accepted) < len(pool):
                options.append((hub, pool, way, accepted))
    if options:
        hub, pool, highest, accepted = rng.choice(options)
        word = "highest" if highest else "lowest"
        with_data = " with data" if len(pool) < len(ctx.adjacency.get(hub, ())) else ""
        out.append(Question(
            "single", "neighbour_extreme",
            ctx.ask(f"Among the {ctx.words}{with_data} that share a border with "
                    f"{ctx.region(hub)}, which has the {word} value?", "single"),
            {"accepted": accepted, "text": ctx.regions[accepted[0]].name}, [hub, *pool]))
    else:
        skipped["single_no_clear_neighbour_extreme"] += 1
    out += ask_forms(ctx, rng, skipped, "single")
    return out
