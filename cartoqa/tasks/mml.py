"""MML: the names of the two roads meeting at a marker.

A blue or red marker (alternating every three slots) stands on a junction where
exactly two named roads meet, at zoom 17-19 (rotating with the slot). A scenario is
kept only when both names are written somewhere in the view.
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
from cartoqa.tasks.rules import marker_on_screen, names_not_drawn
from cartoqa.tasks.sampling import permuted, pick
from cartoqa.tasks.views import inside_extract, view_around
from groundtruth.junctions import road_names_at, two_road_junctions

NAME = "mml"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = True
ZOOMS = (17, 18, 19)
COLORS = ("blue", "red")
#: Junctions tried per slot.
MAX_ATTEMPTS = 12
#: How far the marker may sit from the view centre (pixels, horizontally).
JITTER_PX = 380.0


@dataclass
class State:
    """Junction candidates in a seeded order, and the road index."""

    graph: nx.MultiDiGraph
    junctions: list[int]
    roads: RoadIndex
    n_slots: int


def slot_plan(slot: int) -> tuple[int, str]:
    """Zoom and marker colour of a slot.

    Examples
    --------
    >>> [slot_plan(s) for s in (0, 1, 3)]
    [(17, 'blue'), (18, 'blue'), (17, 'red')]
    """
    return ZOOMS[slot % len(ZOOMS)], COLORS[(slot // len(ZOOMS)) % len(COLORS)]


def prepare(ctx: BuildContext) -> State:
    """Find the junctions of exactly two named roads."""
    graph = ctx.graph()
    junctions = two_road_junctions(graph)
    if not junctions:
        raise CartoqaError(f"extract {ctx.extract.name} has no junction of two named roads",
                           fix="use an extract with named streets, or leave out mml")
    return State(graph, permuted(junctions, ctx.seed, NAME), RoadIndex(graph),
                 slot_stride(ctx.per_task, ITEMS_PER_SCENARIO))


def make_scenario(ctx: BuildContext, state: State, slot: int) -> Scenario | None:
    """One MML item."""
    zoom, color = slot_plan(slot)
    for attempt in range(MAX_ATTEMPTS):
        rng = slot_rng(ctx.seed, NAME, slot, attempt)
        node = pick(state.junctions, slot, attempt, state.n_slots)
        if node is None:
            break
        lat, lon = state.graph.nodes[node]["y"], state.graph.nodes[node]["x"]
        names = road_names_at(state.graph, node)
        if len(names) != 2:
            continue
        view = view_around([(lat, lon)], zoom, rng, jitter_px=JITTER_PX)
        marker = MarkerSpec(color, lat, lon, node)
        if not inside_extract(ctx, view) or not marker_on_screen(view.to_view_px(lat, lon)):
            continue
        scene = draw_scene(ctx, view, markers=[marker])
        if names_not_drawn(names, names_drawn(scene, state.roads, names, markers=[marker])):
            continue
        image_name = f"{NAME}-{slot:04d}.png"
        prov = provenance(ctx, view, slot=slot, attempt=attempt, markers=[marker])
        item = base_item(item_id(NAME, slot), NAME, "roads", f"images/{image_name}",
                         prompt("mml_roads", color=color), {"roads": sorted(names)},
                         {"color": color, "zoom": zoom}, prov)
        return Scenario(items=[item], images={image_name: scene.png})
    return None
