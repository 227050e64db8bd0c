"""MapIQ task 6, Regional Comparisons (global): does one zone generally have higher
classes than another?

"Generally higher" is a higher mean class of the zone's states; pairs whose means
differ by less than :data:`MIN_GAP` (0.75) classes are never asked: at 0.5 a pair rests
on a few states one class apart, too little for "generally higher".
Binary: is zone A generally higher (lower) than zone B? MCQ: which zones are generally
higher than zone A? List: the zones generally lower than zone A.
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapiq.common import MapContext, Question, mcq, pick, with_format
from cartoqa.tasks.mapiq.requests import mapiq_spec
from groundtruth.thematic.zones import zone_mean_class

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapiq_spec("mapiq_rc", "Regional Comparisons", ("binary", "mcq", "list"),
                  "MapIQ Regional Comparisons: which zone is generally higher.")

#: Smallest difference of mean classes that a question may rest on.
MIN_GAP = 0.75


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Regional Comparison questions about one map."""
    zones = ctx.zones()
    mean = {z: zone_mean_class(ctx.classes, ctx.zoning, z) for z in zones}
    out: list[Question] = []
    clear = [(a, b) for a in zones for b in zones if a != b and abs(mean[a] - mean[b]) >= MIN_GAP]
    everyone = sorted(ctx.classes)
    if not clear:
        rejected["rc_zones_too_close"] += 3
        return out
    a, b = pick(rng, clear)
    higher = rng.random() < 0.5
    word = "higher" if higher else "lower"
    out.append(Question(
        "binary", "global",
        with_format(f"Does the {a} zone generally have a {word} attribute class than the {b} "
                    "zone?", "binary"),
        None, {"value": mean[a] > mean[b] if higher else mean[a] < mean[b]}, everyone,
        needs_zones=True, details={"zones": [a, b], "direction": word}))

    # MCQ and list need a zone clearly apart from every other zone.
    apart = [z for z in zones if all(abs(mean[z] - mean[o]) >= MIN_GAP for o in zones if o != z)]
    if apart:
        z = pick(rng, apart)
        others = [o for o in zones if o != z]
        above = [f"{o} zone" for o in others if mean[o] > mean[z]]
        below = [f"{o} zone" for o in others if mean[o] < mean[z]]
        options, letters = mcq(rng, above, below, n=len(others), nota_chance=0.0)
        out.append(Question(
            "mcq", "global",
            with_format(f"Which of the following zones generally have a higher attribute "
                        f"class than the {z} zone?", "mcq", options),
            options, {"letters": letters}, everyone, needs_zones=True, details={"zone": z}))
    else:
        rejected["rc_mcq_zones_too_close"] += 1
    apart_down = [z for z in apart if any(mean[o] < mean[z] for o in zones)]
    if apart_down:
        z = pick(rng, apart_down)
        out.append(Question(
            "list", "global",
            with_format(f"List all zones that generally have a lower attribute class than "
                        f"the {z} zone.", "list", list_hint="Use zone names."),
            None, {"items": [o for o in zones if o != z and mean[o] < mean[z]]}, everyone,
            needs_zones=True, details={"zone": z}))
    else:
        rejected["rc_list_zones_too_close"] += 1
    return out
