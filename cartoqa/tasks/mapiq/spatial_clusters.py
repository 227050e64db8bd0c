"""MapIQ task 4, Spatial Clusters (local and global): groups of at least three
neighbouring states all in class 1 or all in class 5 (queen adjacency; on a hexbin
cartogram, tiles that share an edge).

Binary: is there a high (low) cluster in a scope? MCQ: which of these states belong to
a high (low) cluster? List: every state of such clusters. Local clusters use only the
zone's states.
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
    wants_nota,
    with_format,
)
from cartoqa.tasks.mapiq.requests import mapiq_spec
from groundtruth.thematic.clusters import clustered_regions, extreme_clusters

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("local", "global")

SPEC = mapiq_spec("mapiq_sc", "Spatial Clusters", ("binary", "mcq", "list"),
                  "MapIQ Spatial Clusters: class-1 or class-5 clusters.")


def _clustered(ctx: MapContext, zone: str | None, high: bool) -> list[str]:
    cls = ctx.k if high else 1
    found = extreme_clusters(ctx.classes, ctx.adjacency, k=ctx.k, scope=ctx.members(zone),
                             which=(cls,))
    return clustered_regions(found, cls)


def _kind(high: bool, ctx: MapContext) -> str:
    return (f"high-value (Class {ctx.k})" if high else "low-value (Class 1)")


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Spatial Clusters questions about one map."""
    out: list[Question] = []
    scopes: list[str | None] = [None, *ctx.zones()]

    # The quota says TRUE or FALSE: the scope and class are drawn among those that give it.
    asked_true = quota(ctx, "mapiq_sc", "binary", BINARY_STRATA) < 0.5
    found = {(z, h): _clustered(ctx, z, h) for z in scopes for h in (True, False)}
    fitting = [key for key, states in found.items() if bool(states) == asked_true]
    zone, high = pick(rng, fitting or list(found))
    clustered = found[(zone, high)]
    out.append(Question(
        "binary", "global" if zone is None else "local",
        with_format(f"Is there a {_kind(high, ctx)} spatial cluster in {scope_text(zone)}?",
                    "binary"),
        None, {"value": bool(clustered)}, ctx.members(zone), needs_zones=zone is not None,
        details={"zone": zone, "high": high}))

    # NOTA only as often as the quota asks: otherwise a scope and class with a cluster.
    target = quota(ctx, "mapiq_sc", "mcq")
    if wants_nota(target):
        fitting = [key for key, states in found.items()
                   if len(ctx.members(key[0])) - len(states) >= 4]
    else:
        fitting = [key for key, states in found.items() if states]
    zone, high = pick(rng, fitting or list(found))
    clustered = found[(zone, high)]
    members = ctx.members(zone)
    options, letters = mcq(rng, clustered, [m for m in members if m not in clustered],
                           target=target)
    out.append(Question(
        "mcq", "global" if zone is None else "local",
        with_format(f"Which of the following states belong to a {_kind(high, ctx)} spatial "
                    f"cluster in {scope_text(zone)}?", "mcq", options),
        options, {"letters": letters}, members, needs_zones=zone is not None,
        details={"zone": zone, "high": high}))

    choices = [(z, h) for z in scopes for h in (True, False) if _clustered(ctx, z, h)]
    if not choices:
        rejected["sc_list_no_cluster"] += 1
        return out
    zone, high = pick(rng, choices)
    out.append(Question(
        "list", "global" if zone is None else "local",
        with_format(f"List all states that belong to a {_kind(high, ctx)} spatial cluster "
                    f"in {scope_text(zone)}.", "list",
                    list_hint="Use two-letter state abbreviations."),
        None, {"items": _clustered(ctx, zone, high)}, ctx.members(zone),
        needs_zones=zone is not None, details={"zone": zone, "high": high}))
    return out
