"""MML: the names of the two roads meeting at a marker.

A blue or red marker (alternating every three slots) stands on a junction where
exactly two named roads meet, at zoom 17-19 (rotating with the slot). Each road pair
is asked at most once (:func:`junctions_by_pair`). A scenario is kept only when both
names are written, whole and unhidden, along their roads in the view (asked of Mapnik:
:func:`cartoqa.tasks.common.roads.names_drawn`); a name Mapnik cannot write there
whatever the screenshot shows rejects the view before it is drawn
(:func:`cartoqa.tasks.common.roads.names_maybe_drawn`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import networkx as nx

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.errors import CartoqaError
from cartoqa.parsing import bulleted, parse_roads
from cartoqa.scoring.sections import aggregate_correct, measure_roads
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.mml_rules import other_road_near
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id, slot_rng, slot_stride
from cartoqa.tasks.common.drawing import MarkerSpec, draw_scene
from cartoqa.tasks.common.items import base_item, provenance
from cartoqa.tasks.common.roads import RoadIndex, mark_names, names_drawn, names_maybe_drawn
from cartoqa.tasks.common.rules import marker_on_screen, names_not_drawn
from cartoqa.tasks.common.sampling import permuted, pick
from cartoqa.tasks.common.views import (
    extract_bounds,
    fit_to_data,
    inside_extract,
    unfillable_zooms,
    view_around,
)
from groundtruth.junctions import road_names_at, two_road_junctions

NAME = "mml"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = True
ZOOMS = (17, 18, 19)
COLORS = ("blue", "red")
#: Road pairs tried per slot.
MAX_ATTEMPTS = 12
#: Junctions of one road pair tried (in a seeded order), and views (jittered
#: differently, so the names' labels fall elsewhere) tried per junction.
MAX_NODES_PER_PAIR = 3
MAX_VIEWS_PER_NODE = 2
#: Why candidates are rejected, as the build log counts them.
REJECT_REASONS = {
    "roads": "not exactly two named roads at the junction",
    "outside_extract": "view not 99% inside the extract's data",
    "marker": "marker off screen",
    "other_road": "another named road passes near the marker",
    "name_not_drawn": "a road name not written whole and unhidden along its road",
}
#: How far the marker may sit from the view centre (pixels, horizontally).
JITTER_PX = 380.0


@dataclass
class State:
    """Road pairs in a seeded order (each with its junctions), and the road index."""

    graph: nx.MultiDiGraph
    junctions: list[list[int]]
    roads: RoadIndex
    n_slots: int
    zooms: tuple[int, ...] = ZOOMS


def slot_plan(slot: int, zooms: tuple[int, ...] = ZOOMS) -> tuple[int, str]:
    """Zoom and marker colour of a slot (over the zooms the extract can fill).

    Examples
    --------
    >>> [slot_plan(s) for s in (0, 1, 3)]
    [(17, 'blue'), (18, 'blue'), (17, 'red')]
    """
    return zooms[slot % len(zooms)], COLORS[(slot // len(zooms)) % len(COLORS)]


def junctions_by_pair(graph: nx.MultiDiGraph, junctions: list[int]) -> list[list[int]]:
    """The junctions grouped by the pair of road names meeting there, pairs sorted by name.

    A pair is asked once per dataset: slots take different groups
    (:func:`cartoqa.tasks.common.sampling.pick`), so no two items share a road pair.
    """
    groups: dict[tuple[str, ...], list[int]] = {}
    for node in junctions:
        groups.setdefault(tuple(sorted(road_names_at(graph, node))), []).append(node)
    return [sorted(groups[pair]) for pair in sorted(groups)]


def prepare(ctx: BuildContext) -> State:
    """Find the junctions of exactly two named roads."""
    graph = ctx.graph()
    junctions = two_road_junctions(graph)
    if not junctions:
        raise CartoqaError(f"extract {ctx.extract.name} has no junction of two named roads",
                           fix="use an extract with named streets, or leave out mml")
    skipped = unfillable_zooms(ctx, NAME, ZOOMS)
    zooms = tuple(z for z in ZOOMS if z not in skipped)
    if not zooms:
        raise CartoqaError(f"extract {ctx.extract.name} is too small for a view at any zoom "
                           f"{ZOOMS[0]}-{ZOOMS[-1]}", fix="use a larger extract")
    return State(graph, permuted(junctions_by_pair(graph, junctions), ctx.seed, NAME),
                 RoadIndex(graph),
                 slot_stride(ctx.per_task, ITEMS_PER_SCENARIO), zooms)


def make_scenario(ctx: BuildContext, state: State, slot: int) -> Scenario | None:
    """One MML item."""
    zoom, color = slot_plan(slot, state.zooms)
    for attempt in range(MAX_ATTEMPTS):
        rng = slot_rng(ctx.seed, NAME, slot, attempt)
        group = pick(state.junctions, slot, attempt, state.n_slots)
        if group is None:
            break
        nodes = list(group)
        rng.shuffle(nodes)
        for node in nodes[:MAX_NODES_PER_PAIR]:
            for _ in range(MAX_VIEWS_PER_NODE):
                scenario = _try_junction(ctx, state, slot, attempt, node, zoom, color, rng)
                if scenario is not None:
                    return scenario
    return None


def _try_junction(ctx: BuildContext, state: State, slot: int, attempt: int, node: int,
                  zoom: int, color: str, rng: random.Random) -> Scenario | None:
    """The MML item with the marker on ``node``, or None when a reader could not answer."""
    lat, lon = state.graph.nodes[node]["y"], state.graph.nodes[node]["x"]
    names = road_names_at(state.graph, node)
    if len(names) != 2:
        ctx.reject(NAME, REJECT_REASONS["roads"])
        return None
    view = view_around([(lat, lon)], zoom, rng, jitter_px=JITTER_PX)
    view = fit_to_data(view, extract_bounds(ctx))
    marker = MarkerSpec(color, lat, lon, node)
    if not inside_extract(ctx, view):
        ctx.reject(NAME, REJECT_REASONS["outside_extract"])
        return None
    marker_px = view.to_view_px(lat, lon)
    if not marker_on_screen(marker_px):
        ctx.reject(NAME, REJECT_REASONS["marker"])
        return None
    others = state.roads.lines_px(view, [n for n in state.roads.lines if n not in names])
    if other_road_near(marker_px, [line for lines in others.values() for line in lines]):
        ctx.reject(NAME, REJECT_REASONS["other_road"])
        return None
    # A name that cannot be written whatever the screenshot shows rejects the view
    # before it is drawn (the same verdict as after: names_maybe_drawn).
    marked = mark_names(ctx, view, names, roads=state.roads)
    if names_not_drawn(names, names_maybe_drawn(view, marked, markers=[marker])):
        ctx.reject(NAME, REJECT_REASONS["name_not_drawn"])
        return None
    scene = draw_scene(ctx, view, markers=[marker])
    if names_not_drawn(names, names_drawn(ctx, scene, state.roads, names, markers=[marker],
                                          marked=marked)):
        ctx.reject(NAME, REJECT_REASONS["name_not_drawn"])
        return None
    image_name = f"{NAME}-{slot:04d}.png"
    prov = provenance(ctx, view, slot=slot, attempt=attempt, markers=[marker])
    item = base_item(item_id(NAME, slot), NAME, "roads", f"images/{image_name}",
                     prompt("mml_roads", color=color), {"roads": sorted(names)},
                     {"color": color, "zoom": zoom}, prov)
    return Scenario(items=[item], images={image_name: scene.png})


SPEC = TaskSpec(
    name=NAME,
    blurb="Marker location: the two named roads meeting at a marker.",
    requests=(
        RequestSpec(
            "roads",
            prompt="mml_roads",
            sample_prompt={"color": "blue"},
            answer_schema={
                "type": "object", "required": ["roads"], "additionalProperties": False,
                "properties": {"roads": {"type": "array",
                                         "items": {"type": "string", "minLength": 1},
                                         "minItems": 2, "maxItems": 2}},
            },
            parse=text_parser(parse_roads),
            answer_text=lambda answer: bulleted(answer["roads"]),
            metrics=("accuracy",),
            headline=("accuracy",),
            measure=measure_roads,
            aggregate=aggregate_correct,
            sample_answer={"roads": ["Mannerheimintie", "Aleksanterinkatu"]},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    mapnik_maps=("osm-carto", "road-names"),
    strata=("color", "zoom"),
    sample_strata={"color": "blue", "zoom": 18},
)
