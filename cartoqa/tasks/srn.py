"""SRN: the shortest drivable route from a blue to a red marker, as steps.

Both markers stand on junctions; the route is the shortest drivable one (one-way
streets respected) and lies wholly inside the view, at zoom 17-19 (rotating with the
slot). Every road of the route must be named and its name written in the view; every
action must be clear of the thresholds between actions
(:func:`groundtruth.turns.actions_are_clear`), and no route at most
:data:`ALTERNATIVE_SLACK` longer may have other steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from cartoqa.errors import CartoqaError
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.base import BuildContext, Scenario, item_id, slot_rng, slot_stride
from cartoqa.tasks.drawing import MarkerSpec, draw_scene
from cartoqa.tasks.items import base_item, provenance
from cartoqa.tasks.prompts import prompt
from cartoqa.tasks.roads import RoadIndex, names_drawn
from cartoqa.tasks.rules import marker_on_screen, markers_overlap, names_not_drawn, path_inside
from cartoqa.tasks.sampling import permuted, pick_round
from cartoqa.tasks.views import inside_extract, view_around
from groundtruth.projection import meters_per_pixel, path_length_px
from groundtruth.routing import random_route
from groundtruth.turns import (
    UNNAMED_ROAD,
    actions_are_clear,
    route_legs,
    route_steps,
    steps_are_unambiguous,
)

NAME = "srn"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = True
ZOOMS = (17, 18, 19)
#: Origins tried per slot.
MAX_ATTEMPTS = 30
#: Route legs (road stretches) a question may have.
MIN_LEGS, MAX_LEGS = 2, 5
#: Shortest route on screen (pixels).
MIN_ROUTE_PX = 200.0
#: A route is rejected when another route at most this much longer (relative) has
#: different steps.
ALTERNATIVE_SLACK = 0.05


@dataclass
class State:
    """Junctions in a seeded order, and the road index."""

    graph: nx.MultiDiGraph
    junctions: list[int]
    roads: RoadIndex
    n_slots: int


def prepare(ctx: BuildContext) -> State:
    """Find junctions whose roads are all named."""
    graph = ctx.graph()
    junctions = []
    for node, count in sorted(graph.nodes(data="street_count")):
        if (count or 0) < 3:
            continue
        names = [d.get("name") for _, _, d in graph.out_edges(node, data=True)]
        names += [d.get("name") for _, _, d in graph.in_edges(node, data=True)]
        if names and all(names):
            junctions.append(node)
    if not junctions:
        raise CartoqaError(f"extract {ctx.extract.name} has no junction of named roads",
                           fix="use an extract with named streets, or leave out srn")
    return State(graph, permuted(junctions, ctx.seed, NAME), RoadIndex(graph),
                 slot_stride(ctx.per_task, ITEMS_PER_SCENARIO))


def make_scenario(ctx: BuildContext, state: State, slot: int) -> Scenario | None:
    """One SRN item."""
    zoom = ZOOMS[slot % len(ZOOMS)]
    graph = state.graph
    junction_set = set(state.junctions)
    for attempt in range(MAX_ATTEMPTS):
        rng = slot_rng(ctx.seed, NAME, slot, attempt)
        origin, round_, rounds = pick_round(state.junctions, slot, attempt, state.n_slots,
                                           max_attempts=MAX_ATTEMPTS)
        mpp = meters_per_pixel(graph.nodes[origin]["y"], zoom)
        route = random_route(graph, origin, rng, cutoff_m=1.4 * 1366 * mpp,
                             min_m=MIN_ROUTE_PX * mpp, round_=round_, rounds=rounds,
                             destinations=junction_set)
        if route is None:
            continue
        steps = route_steps(graph, route)
        legs = (len(steps) - 2) // 2
        roads = sorted(set(steps[2:-1:2]))
        if not (MIN_LEGS <= legs <= MAX_LEGS) or UNNAMED_ROAD in roads:
            continue
        # A reader must be able to tell each action, and no nearly-as-short route may
        # have other steps (both would make the question unfair).
        if not actions_are_clear(route_legs(graph, route)):
            continue
        if not steps_are_unambiguous(graph, route, within=ALTERNATIVE_SLACK):
            continue
        path = list(route.coords)
        if path_length_px(path, zoom) < MIN_ROUTE_PX:
            continue
        view = view_around(path, zoom, rng, jitter_px=40.0)
        markers = [MarkerSpec("blue", path[0][0], path[0][1], route.origin),
                   MarkerSpec("red", path[-1][0], path[-1][1], route.destination)]
        mpx = [view.to_view_px(m.lat, m.lon) for m in markers]
        if not inside_extract(ctx, view):
            continue
        if not path_inside([view.to_view_px(lat, lon) for lat, lon in path]):
            continue
        if not all(marker_on_screen(p) for p in mpx) or markers_overlap(mpx):
            continue
        scene = draw_scene(ctx, view, markers=markers)
        if names_not_drawn(roads, names_drawn(ctx, scene, state.roads, roads, markers=markers)):
            continue
        image_name = f"{NAME}-{slot:04d}.png"
        prov = provenance(ctx, view, slot=slot, attempt=attempt, markers=markers, path=path,
                          route_nodes=route.nodes, length_m=round(route.length_m, 1))
        item = base_item(item_id(NAME, slot), NAME, "route", f"images/{image_name}",
                         prompt("srn_route"), {"steps": steps},
                         {"zoom": zoom, "n_steps": legs}, prov)
        return Scenario(items=[item], images={image_name: scene.png})
    return None
