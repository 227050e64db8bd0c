"""MapWise single-word questions: which region has the highest (lowest) value, in the
whole country or among a region's neighbours. Regions that look the same as the
extreme (same class; or not distinct from it on a colour bar) are each accepted; when
more than :data:`MAX_ACCEPTED` would be, the other extreme is asked, or none."""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapwise.common import MapwiseContext, Question, with_format
from cartoqa.tasks.mapwise.requests import mapwise_spec

#: The scales of its questions (MapWise's global / local).
SCALES: tuple[str, ...] = ("global", "local")

#: Most regions a single-word answer may accept: a question that almost any region answers
#: ("which is lowest?" where 48 of 49 states look the same) tests nothing.
MAX_ACCEPTED = 10

SPEC = mapwise_spec("mapwise_single", "Single word", "single",
                    "MapWise single word: the region with the highest or lowest value.")


def _answer(ctx: MapwiseContext, pool: list[str], highest: bool) -> list[str]:
    best = (max if highest else min)(pool, key=lambda c: (ctx.level(c), c))
    return sorted(set(ctx.ties_with(best)) & set(pool))


def make_questions(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> list[Question]:
    """Two single-word questions about one map."""
    out: list[Question] = []
    codes = sorted(ctx.values)
    highest = rng.random() < 0.5
    for way in (highest, not highest):  # the other extreme when this one ties too widely
        accepted = _answer(ctx, codes, way)
        if len(accepted) <= MAX_ACCEPTED:
            word = "highest" if way else "lowest"
            out.append(Question(
                "single", "extreme",
                with_format(f"Which {ctx.word} of {ctx.where} has the {word} value?",
                            "single"),
                {"accepted": accepted, "text": ctx.regions[accepted[0]].name}, accepted))
            break
    else:
        skipped["single_too_many_ties"] += 1
    hubs = [c for c in codes if len(ctx.adjacency.get(c, ())) >= 3]
    if hubs:
        hub = rng.choice(hubs)
        pool = sorted(ctx.adjacency[hub])
        highest = rng.random() < 0.5
        word = "highest" if highest else "lowest"
        accepted = _answer(ctx, pool, highest)
        out.append(Question(
            "single", "neighbour_extreme",
            with_format(f"Among the {ctx.words} that share a border with {ctx.region(hub)}, "
                        f"which has the {word} value?", "single"),
            {"accepted": accepted, "text": ctx.regions[accepted[0]].name}, [hub, *pool]))
    else:
        skipped["single_no_region_with_3_neighbours"] += 1
    return out
