"""SRN: the shortest drivable route from a blue to a red marker, as steps.

Both markers stand on junctions; the route is the shortest legal one (one-way
streets, turn restrictions, access and barriers: :mod:`groundtruth.routing`) and lies
wholly inside the view, at zoom 17-19 (rotating with the slot). A scenario is kept
only when a careful reader derives the same answer from the picture:

* the legal route is also the shortest route when turn restrictions, access signs and
  barriers are ignored (OSM-Carto draws one-way arrows, not turn restrictions), see
  :func:`cartoqa.tasks.cartomapqa.srn_rules.reader_route_differs`;
* no route at most :data:`ALTERNATIVE_SLACK` longer (ignoring those rules too) has
  other steps, and every action is clear of the thresholds between actions
  (:func:`groundtruth.turns.actions_are_clear`);
* every leg is at least :data:`~cartoqa.tasks.cartomapqa.srn_rules.MIN_LEG_PX` long on screen and
  none turns back on itself (its heading winds by at least
  :data:`~cartoqa.tasks.common.rules.PATH_UTURN_MIN_DEG`,
  :func:`cartoqa.tasks.common.rules.path_winding_deg`: a loop the steps do not say), no
  action junction lies under a marker pin, and neither marker stands on a dual
  carriageway (:func:`cartoqa.tasks.cartomapqa.srn_rules.on_dual_carriageway`);
* no road of the route is drawn inside a pedestrian area, where it reads as part of
  the square (:func:`cartoqa.tasks.cartomapqa.srn_rules.in_pedestrian_area`), nor is
  destination-only (:func:`cartoqa.tasks.cartomapqa.srn_rules.tag_only_access`);
* one-way streets count only where an arrow is seen in the picture
  (:func:`drawn_reader_graph`);
* every road of the route is named and its name written in the view;
* it is no near-duplicate of an SRN item already accepted (:func:`near_duplicate`).

Rejected candidates are counted by reason (:data:`REJECT_REASONS`) and logged by the
build.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.errors import CartoqaError
from cartoqa.parsing import parse_route
from cartoqa.scoring.sections import aggregate_route, measure_route
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.srn_rules import (
    READER_VIEW_MARGIN_PX,
    in_pedestrian_area,
    junction_use_limit,
    marker_road_use_limit,
    marker_roads,
    on_dual_carriageway,
    one_way_stretches,
    overused_junctions,
    reader_graph,
    reader_route_differs,
    reused_marker_roads,
    short_legs,
    srn_near_duplicate,
    srn_same_content,
    steps_under_markers,
    tag_only_access,
)
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id, slot_rng, slot_stride
from cartoqa.tasks.common.drawing import MarkerSpec, draw_scene
from cartoqa.tasks.common.items import base_item, provenance
from cartoqa.tasks.common.roads import RoadIndex, mark_names, names_drawn, names_maybe_drawn
from cartoqa.tasks.common.rules import (
    PATH_UTURN_MIN_DEG,
    marker_on_screen,
    markers_overlap,
    names_not_drawn,
    path_inside,
    path_winding_deg,
)
from cartoqa.tasks.common.sampling import permuted
from cartoqa.tasks.common.views import (
    extract_bounds,
    fit_to_data,
    inside_extract,
    unfillable_zooms,
    view_around,
)
from cartoqa.visibility.geometry import lines_px
from cartoqa.visibility.oneway import ARROW_FILL, arrow_masks, arrow_visible
from groundtruth.osmnx_graph import ensure_road_graph
from groundtruth.pedestrian_areas import edges_inside, pedestrian_areas
from groundtruth.projection import meters_per_pixel, path_length_px
from groundtruth.routing import NoRouteError, shortest_route
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
#: Most (origin, destination) pairs one slot tries: its whole stretch of the pair
#: pool (:func:`pair_pool`) up to this many.
MAX_ATTEMPTS = 120
#: Route legs (road stretches) a question may have.
MIN_LEGS, MAX_LEGS = 2, 5
#: Shortest route on screen (pixels).
MIN_ROUTE_PX = 200.0
#: A route is rejected when another route at most this much longer (relative) has
#: different steps.
ALTERNATIVE_SLACK = 0.05
#: Why candidates are rejected, as the build log counts them.
REJECT_REASONS = {
    "no_route": "no legal route to the destination",
    "legs": "route has too few or too many legs",
    "unnamed": "route uses an unnamed road",
    "dual_carriageway": "marker on a dual carriageway",
    "dual_carriageway_junction": "junction on a dual carriageway left out as a marker",
    "reader_route": "answer changes if turn restrictions/access/barriers are ignored",
    "tag_only_access": "route uses a destination-only road (a tag the map does not draw)",
    "pedestrian_area": "route drives on a road drawn inside a pedestrian area (read as "
                       "part of the square)",
    "undrawn_oneway": "answer changes if one-way streets without a visible arrow are "
                      "taken as two-way",
    "reader_ambiguous": "with undrawn one-ways two-way, a nearly-as-short route has "
                        "other steps",
    "unclear_action": "an action near a threshold",
    "ambiguous": "a nearly-as-short route has other steps",
    "short": "route too short on screen",
    "short_leg": "a leg shorter than the minimum on screen",
    "leg_turns_back": "a leg turns back on itself (a loop its step does not say)",
    "outside_extract": "view not 99% inside the extract's data",
    "path_outside": "route leaves the view",
    "markers": "marker off screen or markers overlap",
    "step_under_marker": "a step hidden under a marker",
    "name_not_drawn": "a road name not written in the view",
    "marker_reused": "a marker on the junction and road of an accepted item's marker "
                     "(repeats that item's start or end)",
}


@dataclass
class State:
    """Candidate routes per zoom in a seeded order, the road index, the reader's graph."""

    graph: nx.MultiDiGraph
    junctions: list[int]
    roads: RoadIndex
    n_slots: int
    naive: nx.MultiDiGraph
    zooms: tuple[int, ...] = ZOOMS
    pairs: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    #: Edges drawn inside a pedestrian area (:func:`groundtruth.pedestrian_areas.edges_inside`).
    pedestrian_edges: frozenset[tuple[int, int, int]] = frozenset()
    #: :func:`on_dual_carriageway` of the nodes asked so far (a scan of every edge each:
    #: asked of both ends of every candidate route, it took a tenth of a build).
    dual: dict[int, bool] = field(default_factory=dict)

    def on_dual_carriageway(self, node: int) -> bool:
        """:func:`on_dual_carriageway` of ``node`` in :attr:`graph`, computed once."""
        if node not in self.dual:
            self.dual[node] = on_dual_carriageway(self.graph, node)
        return self.dual[node]


def route_window_m(graph: nx.MultiDiGraph, origin: int, zoom: int) -> tuple[float, float]:
    """Nearest and farthest destination (road metres) of a route from ``origin``."""
    mpp = meters_per_pixel(graph.nodes[origin]["y"], zoom)
    return MIN_ROUTE_PX * mpp, 1.4 * VIEW_WIDTH * mpp


def pair_pool(graph: nx.MultiDiGraph, junctions: list[int], zoom: int,
              ) -> list[tuple[int, int]]:
    """Every ``(origin, destination)`` of junctions a route at ``zoom`` may join, sorted.

    The destination lies in the distance window of :func:`route_window_m` along the
    roads (one-way streets respected). Pairs that can never pass (no destination in
    range) are left out here, before sampling, rather than spending slot attempts.
    """
    road = ensure_road_graph(graph)
    allowed = set(junctions)
    pairs: list[tuple[int, int]] = []
    for origin in sorted(allowed):
        low, high = route_window_m(graph, origin, zoom)
        reach = nx.single_source_dijkstra_path_length(road, origin, cutoff=high,
                                                      weight="length")
        pairs.extend((origin, n) for n, d in sorted(reach.items())
                     if n != origin and d >= low and n in allowed)
    return pairs


def _leg_path(graph: nx.MultiDiGraph, edges: tuple[tuple[int, int, int], ...],
              ) -> list[tuple[float, float]]:
    """``(lat, lon)`` along a leg's edges."""
    out: list[tuple[float, float]] = []
    for edge in edges:
        coords = [(lat, lon) for lon, lat in graph.edges[edge]["geometry"].coords]
        out.extend(coords if not out else coords[1:])
    return out


def prepare(ctx: BuildContext) -> State:
    """Find junctions whose roads are all named, off dual carriageways."""
    graph = ctx.graph()
    junctions = []
    for node, count in sorted(graph.nodes(data="street_count")):
        if (count or 0) < 3:
            continue
        names = [d.get("name") for _, _, d in graph.out_edges(node, data=True)]
        names += [d.get("name") for _, _, d in graph.in_edges(node, data=True)]
        if names and all(names):
            junctions.append(node)
    # a pin on one carriageway of a dual carriageway is ambiguous: such junctions are
    # never markers (counted once each, before sampling)
    dual = [n for n in junctions if on_dual_carriageway(graph, n)]
    for _ in dual:
        ctx.reject(NAME, REJECT_REASONS["dual_carriageway_junction"])
    candidates, dual_set = list(junctions), set(dual)
    junctions = [n for n in junctions if n not in dual_set]
    if not junctions:
        raise CartoqaError(f"extract {ctx.extract.name} has no junction of named roads",
                           fix="use an extract with named streets, or leave out srn")
    skipped = unfillable_zooms(ctx, NAME, ZOOMS)
    zooms = tuple(z for z in ZOOMS if z not in skipped)
    if not zooms:
        raise CartoqaError(f"extract {ctx.extract.name} is too small for a view at any zoom "
                           f"{ZOOMS[0]}-{ZOOMS[-1]}", fix="use a larger extract")
    pairs = {z: permuted(pair_pool(graph, junctions, z), ctx.seed, NAME, z) for z in zooms}
    return State(graph, permuted(junctions, ctx.seed, NAME), RoadIndex(graph),
                 slot_stride(ctx.per_task, ITEMS_PER_SCENARIO), ctx.naive_graph(), zooms,
                 pairs, frozenset(edges_inside(graph, pedestrian_areas(ctx.extract))),
                 {n: n in dual_set for n in candidates})


def slot_pairs(state: State, slot: int) -> tuple[int, list[tuple[int, int]]]:
    """The zoom of a slot and the pairs it tries, in order.

    Slots rotate over the zooms; the ``k``-th slot of a zoom takes pairs
    ``k, k + stride, k + 2 stride, ...`` of that zoom's pool first (``stride`` being the
    most slots a zoom can get), so slots start on pairs of their own; then, lest a thin
    slice (a 40-item build leaves a zoom-19 slot 15 of central Helsinki's 404 pairs)
    fail the slot, the other slots' pairs, each slice from its end (the pairs its own
    slot reaches last), up to :data:`MAX_ATTEMPTS`. A pair two slots both take is
    caught as a near-duplicate (:func:`near_duplicate`: the same two junctions). The
    pairs depend only on the seed, the extract and the slot.

    Examples
    --------
    >>> import networkx as nx
    >>> st = State(nx.MultiDiGraph(), [], None, 6, nx.MultiDiGraph(), (17, 18),
    ...            {17: [(0, i) for i in range(8)], 18: []})
    >>> [b for _, b in slot_pairs(st, 2)[1]]     # own slice 1, 4, 7; then 5, 2; 6, 3, 0
    [1, 4, 7, 5, 2, 6, 3, 0]
    >>> slot_pairs(st, 1)
    (18, [])
    """
    n_zooms = len(state.zooms)
    zoom = state.zooms[slot % n_zooms]
    stride = -(-state.n_slots // n_zooms)
    pool = state.pairs.get(zoom, [])
    own = slot // n_zooms
    order = list(pool[own::stride])
    for d in range(1, stride):
        order.extend(reversed(pool[(own + d) % stride::stride]))
        if len(order) >= MAX_ATTEMPTS:
            break
    return zoom, order[:MAX_ATTEMPTS]


def make_scenario(ctx: BuildContext, state: State, slot: int, *,
                  avoid: Callable[[Mapping[str, Any]], str | None] | None = None,
                  after: int = -1) -> Scenario | None:
    """One SRN item: the first of the slot's pairs (after attempt ``after``) whose route
    passes every rule, skipping routes for which ``avoid`` (given the candidate's
    answer and provenance: steps, markers, route nodes, junctions) gives a reason
    (counted with it), before anything is drawn."""
    zoom, pairs = slot_pairs(state, slot)
    graph = state.graph

    def reject(key: str) -> None:
        ctx.reject(NAME, REJECT_REASONS[key])

    for attempt, (origin, destination) in enumerate(pairs):
        if attempt <= after:
            continue
        rng = slot_rng(ctx.seed, NAME, slot, attempt)
        try:
            route = shortest_route(graph, origin, destination)
        except NoRouteError:
            reject("no_route")
            continue
        steps = route_steps(graph, route)
        legs = (len(steps) - 2) // 2
        roads = sorted(set(steps[2:-1:2]))
        if not (MIN_LEGS <= legs <= MAX_LEGS):
            reject("legs")
            continue
        if UNNAMED_ROAD in roads:
            reject("unnamed")
            continue
        if any(state.on_dual_carriageway(n) for n in (route.origin, route.destination)):
            reject("dual_carriageway")
            continue
        if tag_only_access(graph, route.edges):
            reject("tag_only_access")
            continue
        if in_pedestrian_area(route.edges, state.pedestrian_edges):
            reject("pedestrian_area")
            continue
        # The picture shows one-way arrows but not turn restrictions, access signs or
        # barriers: the legal answer must be the one a reader derives without them.
        try:
            naive = shortest_route(state.naive, route.origin, route.destination)
        except NoRouteError:
            naive = None
        naive_steps = route_steps(state.naive, naive) if naive is not None else None
        if reader_route_differs(steps, route.length_m, naive_steps,
                                naive.length_m if naive is not None else None):
            reject("reader_route")
            continue
        # A reader must be able to tell each action, and no nearly-as-short route may
        # have other steps (both would make the question unfair).
        route_legs_ = route_legs(graph, route)
        junctions = [route.origin, *[leg.start_node for leg in route_legs_[1:]],
                     route.destination]
        if avoid is not None:
            ends = [route.coords[0], route.coords[-1]]
            repeat = avoid({"answer": {"steps": steps},
                            "provenance": {"markers": [{"lat": lat, "lon": lon}
                                                       for lat, lon in ends],
                                           "route_nodes": list(route.nodes),
                                           "junctions": junctions}})
            if repeat is not None:
                ctx.reject(NAME, repeat)
                continue
        if not actions_are_clear(route_legs_):
            reject("unclear_action")
            continue
        assert naive is not None
        if not steps_are_unambiguous(state.naive, naive, within=ALTERNATIVE_SLACK):
            reject("ambiguous")
            continue
        path = list(route.coords)
        if path_length_px(path, zoom) < MIN_ROUTE_PX:
            reject("short")
            continue
        leg_paths = [_leg_path(graph, leg.edges) for leg in route_legs_]
        leg_px = [path_length_px(p, zoom) for p in leg_paths]
        if short_legs(leg_px):
            reject("short_leg")
            continue
        if any(abs(path_winding_deg(p)) >= PATH_UTURN_MIN_DEG for p in leg_paths):
            reject("leg_turns_back")
            continue
        view = view_around(path, zoom, rng, jitter_px=40.0)
        view = fit_to_data(view, extract_bounds(ctx))
        markers = [MarkerSpec("blue", path[0][0], path[0][1], route.origin),
                   MarkerSpec("red", path[-1][0], path[-1][1], route.destination)]
        mpx = [view.to_view_px(m.lat, m.lon) for m in markers]
        if not inside_extract(ctx, view):
            reject("outside_extract")
            continue
        if not path_inside([view.to_view_px(lat, lon) for lat, lon in path]):
            reject("path_outside")
            continue
        if not all(marker_on_screen(p) for p in mpx) or markers_overlap(mpx):
            reject("markers")
            continue
        step_px = [view.to_view_px(graph.nodes[leg.start_node]["y"],
                                   graph.nodes[leg.start_node]["x"])
                   for leg in route_legs_[1:]]
        if steps_under_markers(step_px, mpx):
            reject("step_under_marker")
            continue
        # a name that cannot be written whatever the screenshot shows rejects the
        # route before its view is drawn (the same verdict as after: names_maybe_drawn)
        marked = mark_names(ctx, view, roads, roads=state.roads)
        if names_not_drawn(roads, names_maybe_drawn(view, marked, markers=markers)):
            reject("name_not_drawn")
            continue
        scene = draw_scene(ctx, view, markers=markers)
        if names_not_drawn(roads, names_drawn(ctx, scene, state.roads, roads, markers=markers,
                                              marked=marked)):
            reject("name_not_drawn")
            continue
        # One-way streets count for the reader only where an arrow is seen.
        reader = drawn_reader_graph(state.naive, scene)
        try:
            seen = shortest_route(reader, route.origin, route.destination)
        except NoRouteError:
            seen = None
        if reader_route_differs(steps, route.length_m,
                                route_steps(reader, seen) if seen is not None else None,
                                seen.length_m if seen is not None else None):
            reject("undrawn_oneway")
            continue
        assert seen is not None
        if not steps_are_unambiguous(reader, seen, within=ALTERNATIVE_SLACK):
            reject("reader_ambiguous")
            continue
        image_name = f"{NAME}-{slot:04d}.png"
        prov = provenance(ctx, view, slot=slot, attempt=attempt, markers=markers, path=path,
                          route_nodes=route.nodes, length_m=round(route.length_m, 1),
                          junctions=junctions,
                          min_leg_px=round(min(leg_px), 1))
        item = base_item(item_id(NAME, slot), NAME, "route", f"images/{image_name}",
                         prompt("srn_route"), {"steps": steps},
                         {"zoom": zoom, "n_steps": legs}, prov)
        return Scenario(items=[item], images={image_name: scene.png})
    return None


def drawn_reader_graph(naive: nx.MultiDiGraph, scene: Any) -> nx.MultiDiGraph:
    """The graph a reader of ``scene`` sees
    (:func:`~cartoqa.tasks.cartomapqa.srn_rules.reader_graph`): the nodes in the view
    (:data:`READER_VIEW_MARGIN_PX`), one-way stretches with no arrow visible in the
    picture (:func:`cartoqa.visibility.oneway.arrow_visible`)
    open both ways."""
    view = scene.view
    m = READER_VIEW_MARGIN_PX
    nodes = []
    for n, d in naive.nodes(data=True):
        x, y = view.to_view_px(d["y"], d["x"])
        if -m <= x <= view.width + m and -m <= y <= view.height + m:
            nodes.append(n)
    inside = set(nodes)
    oneways = [(u, v, k) for u, v, k, one in naive.edges(keys=True, data="oneway")
               if one and u in inside and v in inside]
    stretches = [(stretch, ARROW_FILL.get(str(naive.edges[stretch[0]].get("highway"))))
                 for stretch in one_way_stretches(naive, oneways)]
    masks = arrow_masks(scene.screen, scene.reference,
                        sorted({colour for _, colour in stretches if colour is not None}))
    undrawn: list[tuple[int, int, int]] = []
    for stretch, colour in stretches:
        if colour is not None:
            lines = [line for e in stretch for line in lines_px(view, naive.edges[e]["geometry"])]
            if arrow_visible(masks[colour], lines):
                continue
        undrawn.extend(stretch)
    return reader_graph(naive, nodes, undrawn)


def near_duplicate(item: Mapping[str, Any], earlier: Mapping[str, Any]) -> bool:
    """Whether two SRN items ask the same question.

    See :func:`~cartoqa.tasks.cartomapqa.srn_rules.srn_near_duplicate` (the same steps,
    origins and destinations each within
    :data:`~cartoqa.tasks.common.rules.NEAR_DUPLICATE_M`) and, by content wherever
    they stand, :func:`~cartoqa.tasks.cartomapqa.srn_rules.srn_same_content` (the same
    steps, or the same marker junctions either way round); the build turns the later
    one down."""
    def ends(it: Mapping[str, Any]) -> list[tuple[float, float]]:
        return [(float(m["lat"]), float(m["lon"])) for m in it["provenance"]["markers"]]

    def pair(it: Mapping[str, Any]) -> tuple[int, int] | None:
        nodes = it["provenance"].get("route_nodes")
        return (int(nodes[0]), int(nodes[-1])) if nodes else None

    a, b = pair(item), pair(earlier)
    return (srn_near_duplicate(item["answer"]["steps"], ends(item),
                               earlier["answer"]["steps"], ends(earlier))
            or srn_same_content(item["answer"]["steps"], a or (-1, -1),
                                earlier["answer"]["steps"], b or (-2, -2)))


def overused(item: Mapping[str, Any], accepted: Sequence[Mapping[str, Any]],
             planned: int | None = None) -> bool | str:
    """Whether a new SRN item reuses places of the accepted items: True when its
    junctions (markers and actions) already appear in as many accepted items as a
    build of ``planned`` items allows
    (:func:`~cartoqa.tasks.cartomapqa.srn_rules.junction_use_limit`: 2, or 10 % of the
    items when that is more; without ``planned``, of the build so far); the reason
    ``REJECT_REASONS["marker_reused"]`` when a marker stands on the junction and road
    of an accepted item's marker
    (:func:`~cartoqa.tasks.cartomapqa.srn_rules.reused_marker_roads`, limit
    :func:`~cartoqa.tasks.cartomapqa.srn_rules.marker_road_use_limit`); else False."""
    def junctions(it: Mapping[str, Any]) -> list[int]:
        return [int(j) for j in it["provenance"].get("junctions", ())]

    def markers(it: Mapping[str, Any]) -> list[tuple[int, str]]:
        nodes = it["provenance"].get("route_nodes")
        if not nodes:
            return []
        return marker_roads(it["answer"]["steps"], int(nodes[0]), int(nodes[-1]))

    most = junction_use_limit(planned) if planned else None
    if overused_junctions(junctions(item), [junctions(e) for e in accepted], most=most):
        return True
    limit = marker_road_use_limit(planned if planned else len(accepted) + 1)
    if reused_marker_roads(markers(item), [markers(e) for e in accepted], most=limit):
        return REJECT_REASONS["marker_reused"]
    return False


def remake_avoiding(ctx: BuildContext, state: State, slot: int,
                    avoid: Callable[[Mapping[str, Any]], str | None],
                    after: int) -> Scenario | None:
    """The slot's next acceptable SRN item after attempt ``after`` that ``avoid`` lets
    through (:func:`make_scenario`): the build asks for it when the slot's first one
    repeats an accepted item (:func:`near_duplicate`, :func:`overused`), so a slot is
    not lost to one repeat."""
    return make_scenario(ctx, state, slot, avoid=avoid, after=after)


SPEC = TaskSpec(
    name=NAME,
    blurb="Shortest route navigation: steps from the blue to the red marker.",
    requests=(
        RequestSpec(
            "route",
            prompt="srn_route",
            answer_schema={
                "type": "object", "required": ["steps"], "additionalProperties": False,
                "properties": {"steps": {"type": "array", "minItems": 3,
                                         "prefixItems": [{"const": "blue"}],
                                         "items": {"type": "string", "minLength": 1}}},
            },
            parse=text_parser(parse_route),
            answer_text=lambda answer: json.dumps(list(answer["steps"]), ensure_ascii=False),
            metrics=("exact_route", "step_accuracy", "connectivity"),
            headline=("exact_route", "step_accuracy", "connectivity"),
            measure=measure_route,
            aggregate=aggregate_route,
            uses_connectivity=True,
            sample_answer={"steps": ["blue", "turn left", "Mannerheimintie", "turn right",
                                     "Lönnrotinkatu", "red"]},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    mapnik_maps=("osm-carto", "road-names"),
    strata=("zoom", "n_steps"),
    sample_strata={"zoom": 18, "n_steps": 2},
    near_duplicate=near_duplicate,
    overused=overused,
    remake_avoiding=remake_avoiding,
)
