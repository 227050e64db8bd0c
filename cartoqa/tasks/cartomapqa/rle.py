"""RLE: the real length of a blue path between two blue markers (metres and feet).

A scenario draws a drivable route between two graph nodes as a blue path with a blue
marker at each end, at zoom 15-19 (rotating with the slot over the zooms the extract
can fill, :func:`cartoqa.tasks.common.views.unfillable_zooms`), with Leaflet's scale bar.
Its difficulty (simple or complex, alternating every five slots) follows the rule in
:func:`cartoqa.tasks.cartomapqa.rle_rules.rle_difficulty`, with turns counted from the path's
geometry (:func:`cartoqa.tasks.common.rules.path_turns`: bearing changes, U-turns included),
not from changes of road name. A path that overlaps itself or doubles back
(:func:`cartoqa.tasks.common.rules.path_doubles_back`: up one carriageway and back down the
other) is rejected, and so is one with a U-turn (``u_turns`` of
:func:`~cartoqa.tasks.common.rules.path_turns`, however far apart its two stretches run) or
one that nearly repeats one already accepted
(:func:`near_duplicate`), and so is one along a road drawn as a tunnel
(:func:`~cartoqa.tasks.cartomapqa.rle_rules.through_tunnel`: the blue path would hide
it). Two items per scenario: the answer in metres and in feet.
Rejected candidates are counted by reason (:data:`REJECT_REASONS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.errors import CartoqaError
from cartoqa.parsing import ParseResult, format_number, parse_length
from cartoqa.scoring.sections import aggregate_length, measure_length
from cartoqa.settings import MAX_ZOOM, MIN_ZOOM, VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.rle_rules import rle_difficulty, rle_near_duplicate, through_tunnel
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id, slot_rng, slot_stride
from cartoqa.tasks.common.drawing import MarkerSpec, draw_scene
from cartoqa.tasks.common.items import base_item, provenance
from cartoqa.tasks.common.rules import (
    makes_u_turn,
    marker_on_screen,
    markers_overlap,
    path_doubles_back,
    path_inside,
    path_turns,
)
from cartoqa.tasks.common.sampling import permuted, pick_round
from cartoqa.tasks.common.views import (
    extract_bounds,
    fit_to_data,
    inside_extract,
    unfillable_zooms,
    view_around,
)
from groundtruth.projection import latlon_to_global_px, meters_per_pixel, path_length_px
from groundtruth.routing import random_route

NAME = "rle"
ITEMS_PER_SCENARIO = 2
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = True
ZOOMS = tuple(range(MIN_ZOOM, MAX_ZOOM + 1))
DIFFICULTIES = ("simple", "complex")
#: Origins tried per slot.
MAX_ATTEMPTS = 40
#: Shortest path drawn, on screen (pixels).
MIN_PATH_PX = 150.0
#: One international foot in metres (an item's answer in feet, back in metres).
FOOT_M = 0.3048
#: Units of the two items and how the question names them.
UNITS = {"m": "metres", "ft": "feet"}
#: Example numbers shown in the answer-format line.
EXAMPLES = {"m": "120", "ft": "390"}
#: Why candidates are rejected, as the build log counts them.
REJECT_REASONS = {
    "no_route": "no destination junction in range, or no legal route to it",
    "short": "path too short on screen",
    "doubles_back": "path overlaps itself or doubles back",
    "u_turn": "path makes a U-turn (back along a parallel carriageway or round a block)",
    "difficulty": "path is not of the slot's difficulty",
    "outside_extract": "view not 99% inside the extract's data",
    "path_outside": "path leaves the view",
    "markers": "marker off screen or markers overlap",
    "scale_bar": "scale bar not drawn in both units",
    "tunnel": "path runs through a tunnel (drawn over, it hides the road it follows)",
}


@dataclass
class State:
    """Origins to try (graph nodes, in a seeded order)."""

    graph: nx.MultiDiGraph
    origins: list[int]
    n_slots: int
    zooms: tuple[int, ...] = ZOOMS


def slot_plan(slot: int, zooms: tuple[int, ...] = ZOOMS) -> tuple[int, str]:
    """Zoom and difficulty of a slot: zooms rotate every slot, difficulty every round.

    ``zooms`` are the zooms the extract can fill
    (:func:`cartoqa.tasks.common.views.unfillable_zooms`).

    Examples
    --------
    >>> slot_plan(0), slot_plan(4), slot_plan(5)
    ((15, 'simple'), (19, 'simple'), (15, 'complex'))
    >>> slot_plan(2, (17, 18, 19)), slot_plan(3, (17, 18, 19))
    ((19, 'simple'), (17, 'complex'))
    """
    return zooms[slot % len(zooms)], DIFFICULTIES[(slot // len(zooms)) % len(DIFFICULTIES)]


def prepare(ctx: BuildContext) -> State:
    """Order the candidate origins (junctions) with the seed."""
    graph = ctx.graph()
    nodes = sorted(n for n, c in graph.nodes(data="street_count") if (c or 0) >= 3)
    if not nodes:
        raise CartoqaError(f"extract {ctx.extract.name} has no road junctions for RLE",
                           fix="use an extract with a street network")
    skipped = unfillable_zooms(ctx, NAME, ZOOMS)
    zooms = tuple(z for z in ZOOMS if z not in skipped)
    if not zooms:
        raise CartoqaError(f"extract {ctx.extract.name} is too small for a view at any zoom "
                           f"{ZOOMS[0]}-{ZOOMS[-1]}", fix="use a larger extract")
    return State(graph, permuted(nodes, ctx.seed, NAME),
                 slot_stride(ctx.per_task, ITEMS_PER_SCENARIO), zooms)


def make_scenario(ctx: BuildContext, state: State, slot: int) -> Scenario | None:
    """Two RLE items (metres, feet) for one path."""
    zoom, difficulty = slot_plan(slot, state.zooms)
    graph = state.graph

    def reject(key: str) -> None:
        ctx.reject(NAME, REJECT_REASONS[key])

    for attempt in range(MAX_ATTEMPTS):
        rng = slot_rng(ctx.seed, NAME, slot, attempt)
        origin, round_, rounds = pick_round(state.origins, slot, attempt, state.n_slots,
                                           max_attempts=MAX_ATTEMPTS)
        mpp = meters_per_pixel(graph.nodes[origin]["y"], zoom)
        route = random_route(graph, origin, rng, cutoff_m=1.3 * (VIEW_WIDTH * mpp),
                             min_m=MIN_PATH_PX * mpp, round_=round_, rounds=rounds)
        if route is None:
            reject("no_route")
            continue
        path = list(route.coords)
        px_len = path_length_px(path, zoom)
        if px_len < MIN_PATH_PX:
            reject("short")
            continue
        if path_doubles_back([latlon_to_global_px(lat, lon, zoom) for lat, lon in path]):
            reject("doubles_back")
            continue
        if makes_u_turn(path):
            reject("u_turn")
            continue
        turns, u_turns = path_turns(path)
        if rle_difficulty(turns, px_len) != difficulty:
            reject("difficulty")
            continue
        view = view_around(path, zoom, rng, jitter_px=60.0)
        view = fit_to_data(view, extract_bounds(ctx))
        if not inside_extract(ctx, view):
            reject("outside_extract")
            continue
        markers = [MarkerSpec("blue", path[0][0], path[0][1], route.origin),
                   MarkerSpec("blue", path[-1][0], path[-1][1], route.destination)]
        mpx = [view.to_view_px(m.lat, m.lon) for m in markers]
        if not path_inside([view.to_view_px(lat, lon) for lat, lon in path]):
            reject("path_outside")
            continue
        if not all(marker_on_screen(p) for p in mpx) or markers_overlap(mpx):
            reject("markers")
            continue
        if through_tunnel(graph, route.edges):
            reject("tunnel")
            continue
        scene = draw_scene(ctx, view, markers=markers, path=path)
        scale = scene.drawn.get("scale_bar") or {}
        if not (scale.get("metric") and scale.get("imperial")):
            reject("scale_bar")
            continue
        image_name = f"{NAME}-{slot:04d}.png"
        prov = provenance(ctx, view, slot=slot, attempt=attempt, markers=markers, path=path,
                          route_nodes=route.nodes, difficulty=difficulty, turns=turns,
                          u_turns=u_turns, path_px=round(px_len, 1))
        values = {"m": round(route.length_m, 1), "ft": round(route.length_ft, 1)}
        items = [
            base_item(item_id(NAME, slot, unit), NAME, "length", f"images/{image_name}",
                      prompt("rle_length", unit=unit, unit_name=UNITS[unit],
                             example=EXAMPLES[unit]),
                      {"value": values[unit], "unit": unit},
                      {"difficulty": difficulty, "unit": unit, "zoom": zoom}, prov)
            for unit in ("m", "ft")
        ]
        return Scenario(items=items, images={image_name: scene.png})
    return None


def parse_answer(item: Mapping[str, Any], text: str) -> ParseResult:
    """Read a length, converted to the unit the item asks for."""
    unit = str((item.get("answer") or {}).get("unit", "m"))
    return parse_length(text, unit=unit if unit in ("m", "ft") else "m")


def answer_text(answer: Mapping[str, Any]) -> str:
    """The reference response: ``Answer: 523.4 m``."""
    return f"Answer: {format_number(answer['value'])} {answer.get('unit', 'm')}"


def near_duplicate(item: Mapping[str, Any], earlier: Mapping[str, Any]) -> bool:
    """Whether two RLE paths ask the same question.

    See :func:`~cartoqa.tasks.cartomapqa.rle_rules.rle_near_duplicate`: metre lengths
    within :data:`~cartoqa.tasks.cartomapqa.rle_rules.NEAR_DUPLICATE_LENGTH_REL`, ends
    within :data:`~cartoqa.tasks.common.rules.NEAR_DUPLICATE_M` either way round; the
    build turns the later one down."""
    def metres(it: Mapping[str, Any]) -> float:
        answer = it["answer"]
        return float(answer["value"]) * (FOOT_M if answer["unit"] == "ft" else 1.0)

    def path(it: Mapping[str, Any]) -> list[tuple[float, float]]:
        return [(float(lat), float(lon)) for lat, lon in it["provenance"]["path"]]

    return rle_near_duplicate(metres(item), path(item), metres(earlier), path(earlier))


SPEC = TaskSpec(
    name=NAME,
    blurb="Route length estimation: length of a blue path between two blue markers.",
    requests=(
        RequestSpec(
            "length",
            prompt="rle_length",
            sample_prompt={"unit": "m", "unit_name": UNITS["m"], "example": EXAMPLES["m"]},
            answer_schema={
                "type": "object", "required": ["value", "unit"], "additionalProperties": False,
                "properties": {"value": {"type": "number", "exclusiveMinimum": 0},
                               "unit": {"enum": list(UNITS)}},
            },
            parse=parse_answer,
            answer_text=answer_text,
            metrics=("rmse_m", "mae_m", "mape", "r2"),
            measure=measure_length,
            aggregate=aggregate_length,
            extra_strata=(("difficulty", "unit"),),
            sample_answer={"value": 523.4, "unit": "m"},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    mapnik_maps=("osm-carto",),
    strata=("difficulty", "unit", "zoom"),
    sample_strata={"difficulty": "simple", "unit": "m", "zoom": 17},
    near_duplicate=near_duplicate,
)
