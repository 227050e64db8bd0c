"""Turn-by-turn directions in CartoMapQA's SRN format, and the connectivity check.

A route becomes ``["blue", action, road, action, road, ..., "red"]``: consecutive
edges of one road merge into one step, and each action comes from the bearing of the
road geometry over the last :data:`BEARING_SAMPLE_M` metres before the junction and
the first :data:`BEARING_SAMPLE_M` metres after it (not from straight lines between
junctions): the edges' ``end_bearing`` and ``start_bearing`` from
:func:`groundtruth.graph.load_road_graph`, which follow the OSM way past a short
edge. The vehicle starts facing the top of the map (north), so the first action is
relative to north. The signed turn angle ``delta`` (degrees, positive
clockwise) gives

* ``|delta| <= STRAIGHT_MAX_DEG``: ``continue straight``
* ``|delta| >= UTURN_MIN_DEG``: ``make a U-turn and continue straight``
* otherwise ``turn right`` for ``delta > 0`` and ``turn left`` for ``delta < 0``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

from groundtruth.bearings import (
    BEARING_SAMPLE_M,
    INITIAL_HEADING_DEG,
    bearing_deg,
    end_bearing,
    start_bearing,
)
from groundtruth.osmnx_graph import ensure_road_graph
from groundtruth.routing import Route, close_alternatives, route_from_nodes

__all__ = [
    "ACTIONS",
    "ACTION_MARGIN_DEG",
    "BEARING_SAMPLE_M",
    "CONTINUE_STRAIGHT",
    "DESTINATION_LABEL",
    "INITIAL_HEADING_DEG",
    "ORIGIN_LABEL",
    "STRAIGHT_MAX_DEG",
    "TURN_LEFT",
    "TURN_RIGHT",
    "UNNAMED_ROAD",
    "UTURN_MIN_DEG",
    "U_TURN",
    "Leg",
    "actions_are_clear",
    "bearing_deg",
    "classify_turn",
    "end_bearing",
    "normalize_label",
    "road_label",
    "route_legs",
    "route_steps",
    "start_bearing",
    "steps_are_unambiguous",
    "steps_connect",
    "turn_angle",
]

Edge = tuple[int, int, int]

#: Largest absolute turn angle (degrees) still called ``continue straight``.
STRAIGHT_MAX_DEG = 30.0
#: Smallest absolute turn angle (degrees) called a U-turn.
UTURN_MIN_DEG = 150.0

CONTINUE_STRAIGHT = "continue straight"
TURN_LEFT = "turn left"
TURN_RIGHT = "turn right"
U_TURN = "make a U-turn and continue straight"
#: The four SRN actions, exactly as CartoMapQA spells them.
ACTIONS: tuple[str, ...] = (CONTINUE_STRAIGHT, U_TURN, TURN_LEFT, TURN_RIGHT)
#: Label used in steps for a road without a ``name`` tag.
UNNAMED_ROAD = "unnamed road"
#: First and last element of a steps list.
ORIGIN_LABEL = "blue"
DESTINATION_LABEL = "red"



def turn_angle(heading_in: float, heading_out: float) -> float:
    """Signed change of heading in degrees, in ``(-180, 180]``; positive is clockwise.

    Parameters
    ----------
    heading_in : float
        Heading before the junction, degrees clockwise from north.
    heading_out : float
        Heading after the junction.

    Returns
    -------
    float
        ``heading_out - heading_in`` wrapped to ``(-180, 180]``.

    Examples
    --------
    >>> turn_angle(350.0, 10.0)
    20.0
    >>> turn_angle(90.0, 0.0)
    -90.0
    >>> turn_angle(0.0, 180.0)
    180.0
    """
    delta = (heading_out - heading_in) % 360.0
    return delta - 360.0 if delta > 180.0 else delta


def classify_turn(delta_deg: float) -> str:
    """The SRN action for a signed turn angle (see the module docstring).

    Parameters
    ----------
    delta_deg : float
        Signed turn angle, positive clockwise (to the right).

    Returns
    -------
    str
        One of :data:`ACTIONS`.

    Examples
    --------
    >>> classify_turn(12.0), classify_turn(-75.0), classify_turn(75.0), classify_turn(170.0)
    ('continue straight', 'turn left', 'turn right', 'make a U-turn and continue straight')
    """
    magnitude = abs(delta_deg)
    if magnitude <= STRAIGHT_MAX_DEG:
        return CONTINUE_STRAIGHT
    if magnitude >= UTURN_MIN_DEG:
        return U_TURN
    return TURN_RIGHT if delta_deg > 0 else TURN_LEFT


def road_label(name: str | None) -> str:
    """The road name used in steps: the ``name`` tag, or :data:`UNNAMED_ROAD`.

    Parameters
    ----------
    name : str or None
        An edge's ``name`` attribute.

    Returns
    -------
    str

    Examples
    --------
    >>> road_label("Mannerheimintie"), road_label(None)
    ('Mannerheimintie', 'unnamed road')
    """
    return name if name else UNNAMED_ROAD


def normalize_label(text: str) -> str:
    """Case- and whitespace-insensitive form of a road name or action, for comparison.

    Parameters
    ----------
    text : str
        A road name or an action.

    Returns
    -------
    str
        Case-folded, with runs of whitespace as one space and none at the ends.

    Examples
    --------
    >>> normalize_label("  Turn   LEFT ")
    'turn left'
    """
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Leg:
    """One step of directions: an action at a junction, then a stretch of one road.

    Attributes
    ----------
    action : str
        One of :data:`ACTIONS`.
    road : str
        Road name (or :data:`UNNAMED_ROAD`).
    turn_deg : float
        Signed turn angle that gave the action (positive clockwise).
    edges : tuple of (u, v, key)
        Consecutive edges travelled on this road.
    """

    action: str
    road: str
    turn_deg: float
    edges: tuple[Edge, ...]

    @property
    def start_node(self) -> int:
        """Junction where the action happens."""
        return self.edges[0][0]

    @property
    def end_node(self) -> int:
        """Node where the road is left (or the destination)."""
        return self.edges[-1][1]


def _edge_bearings(graph: nx.MultiDiGraph) -> Callable[[Edge], tuple[float, float]]:
    """``edge -> (start bearing, end bearing)``: the graph's ``start_bearing`` and
    ``end_bearing`` attributes, or computed from the edge's own geometry (memoised) for
    graphs built elsewhere."""
    cache: dict[Edge, tuple[float, float]] = {}

    def get(edge: Edge) -> tuple[float, float]:
        if edge not in cache:
            data = graph.edges[edge]
            if "start_bearing" in data and "end_bearing" in data:
                cache[edge] = (data["start_bearing"], data["end_bearing"])
            else:
                geom = data["geometry"]
                cache[edge] = (start_bearing(geom), end_bearing(geom))
        return cache[edge]

    return get


def route_legs(graph: nx.MultiDiGraph, route: Route | Sequence[int]) -> list[Leg]:
    """Split a route into legs of one road each, with the action that starts each leg.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph the route runs on.
    route : Route or sequence of int
        A :class:`~groundtruth.routing.Route` or its node path.

    Returns
    -------
    list of Leg
        Empty for a route of a single node.
    """
    graph = ensure_road_graph(graph)
    if not isinstance(route, Route):
        route = route_from_nodes(graph, route)
    bearings = _edge_bearings(graph)
    legs: list[Leg] = []
    heading = INITIAL_HEADING_DEG
    current: list[Edge] = []
    action, road, delta = "", "", 0.0
    for edge in route.edges:
        label = road_label(graph.edges[edge]["name"])
        if current and label == road:
            current.append(edge)
        else:
            if current:
                legs.append(Leg(action, road, delta, tuple(current)))
                heading = bearings(current[-1])[1]
            delta = turn_angle(heading, bearings(edge)[0])
            action, road, current = classify_turn(delta), label, [edge]
    if current:
        legs.append(Leg(action, road, delta, tuple(current)))
    return legs


def route_steps(graph: nx.MultiDiGraph, route: Route | Sequence[int]) -> list[str]:
    """A route as CartoMapQA SRN steps ``["blue", action, road, ..., "red"]``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph the route runs on.
    route : Route or sequence of int
        A :class:`~groundtruth.routing.Route` or its node path.

    Returns
    -------
    list of str
        ``"blue"``, then an action and a road name per leg, then ``"red"``.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> from groundtruth.routing import shortest_route
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> route_steps(g, shortest_route(g, 21, 23))
    ['blue', 'turn right', 'Middle Street', 'red']
    """
    graph = ensure_road_graph(graph)
    steps = [ORIGIN_LABEL]
    for leg in route_legs(graph, route):
        steps.extend((leg.action, leg.road))
    steps.append(DESTINATION_LABEL)
    return steps


_ACTION_KEYS = frozenset(normalize_label(a) for a in ACTIONS)


def _parse_steps(steps: Sequence[str]) -> list[tuple[str, str]] | None:
    """``[(action, road), ...]`` from a steps list, or None when it is malformed."""
    if len(steps) < 2 or any(not isinstance(s, str) for s in steps):
        return None
    if normalize_label(steps[0]) != ORIGIN_LABEL or normalize_label(steps[-1]) != DESTINATION_LABEL:
        return None
    middle = list(steps[1:-1])
    if len(middle) % 2:
        return None
    pairs = [(normalize_label(a), normalize_label(r)) for a, r in zip(middle[::2], middle[1::2],
                                                                        strict=True)]
    if any(a not in _ACTION_KEYS for a, _ in pairs):
        return None
    return pairs


def steps_connect(
    graph: nx.MultiDiGraph, steps: Sequence[str], origin: int, destination: int
) -> bool:
    """Whether steps describe a connected drivable path from origin to destination.

    The SRN connectivity metric. Starting at ``origin`` facing north, each
    ``(action, road)`` pair must leave the current junction on an edge of that road
    whose turn, computed as in :func:`route_steps`, is that action; the vehicle then
    follows that road (any of its drivable edges, never turning straight back along
    the edge it came on) to any later junction, where the next pair applies. The
    steps connect when the last road reaches ``destination``. Road names and actions
    are compared ignoring case and repeated spaces; unnamed roads are
    :data:`UNNAMED_ROAD`.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph.
    steps : sequence of str
        ``["blue", action, road, ..., "red"]``.
    origin, destination : int
        Graph nodes of the blue and red markers.

    Returns
    -------
    bool
        False for malformed steps (wrong ends, an odd number of middle items, an
        unknown action) and for nodes not in the graph.

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> steps_connect(g, ["blue", "turn right", "Middle Street", "red"], 21, 23)
    True
    >>> steps_connect(g, ["blue", "turn left", "Middle Street", "red"], 23, 21)
    False
    """
    graph = ensure_road_graph(graph)
    pairs = _parse_steps(steps)
    if pairs is None or origin not in graph or destination not in graph:
        return False
    if not pairs:
        return origin == destination
    bearings = _edge_bearings(graph)
    # a state is (node, edge arrived by); the edge is None at the origin
    states: set[tuple[int, Edge | None]] = {(origin, None)}
    for action, road in pairs:
        entered: list[Edge] = []
        for node, arrived in states:
            heading = INITIAL_HEADING_DEG if arrived is None else bearings(arrived)[1]
            for edge in graph.out_edges(node, keys=True):
                if normalize_label(road_label(graph.edges[edge]["name"])) != road:
                    continue
                turn = classify_turn(turn_angle(heading, bearings(edge)[0]))
                if normalize_label(turn) == action:
                    entered.append(edge)
        reached: set[Edge] = set(entered)
        frontier = list(entered)
        while frontier:
            u, v, k = frontier.pop()
            way = graph.edges[u, v, k]["osmid"]
            for nxt in graph.out_edges(v, keys=True):
                if nxt in reached:
                    continue
                if nxt[1] == u and graph.edges[nxt]["osmid"] == way:
                    continue  # straight back along the same stretch of road
                if normalize_label(road_label(graph.edges[nxt]["name"])) == road:
                    reached.add(nxt)
                    frontier.append(nxt)
        states = {(e[1], e) for e in reached}
        if not states:
            return False
    return any(node == destination for node, _ in states)


def steps_are_unambiguous(graph: nx.MultiDiGraph, route: Route, *,
                          within: float = 0.05) -> bool:
    """Whether no other route at most ``within`` longer has different steps.

    A shortest route whose steps differ from those of a nearly-as-short route makes an
    unfair SRN question; scenario samplers can skip those. The candidates are
    :func:`groundtruth.routing.close_alternatives`.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph.
    route : Route
        Usually a shortest route.
    within : float, optional
        Relative slack in length.

    Returns
    -------
    bool

    Examples
    --------
    >>> from groundtruth.assets import asset_path
    >>> from groundtruth.graph import load_road_graph
    >>> from groundtruth.routing import shortest_route
    >>> g = load_road_graph(asset_path("osm", "grid.osm"))
    >>> steps_are_unambiguous(g, shortest_route(g, 12, 32))
    True
    >>> steps_are_unambiguous(g, shortest_route(g, 11, 22))  # round either side of a block
    False
    """
    graph = ensure_road_graph(graph)
    steps = route_steps(graph, route)
    return all(route_steps(graph, alt) == steps
               for alt in close_alternatives(graph, route, within=within))


#: A turn angle closer than this (degrees) to :data:`STRAIGHT_MAX_DEG` or
#: :data:`UTURN_MIN_DEG` could be read either way by a person looking at the map.
ACTION_MARGIN_DEG = 10.0


def actions_are_clear(legs: Sequence[Leg], *, margin_deg: float = ACTION_MARGIN_DEG) -> bool:
    """Whether every action of a route is far enough from the thresholds between actions.

    A turn of 32 degrees is ``turn left`` by the rule but looks like ``continue
    straight``; scenario samplers skip routes with such a step.

    Parameters
    ----------
    legs : sequence of Leg
        The route's legs (:func:`route_legs`).
    margin_deg : float, optional
        Least distance in degrees between ``|turn_deg|`` and each threshold.

    Returns
    -------
    bool
        ``True`` when no leg's angle lies within ``margin_deg`` of
        :data:`STRAIGHT_MAX_DEG` or :data:`UTURN_MIN_DEG`.

    Examples
    --------
    >>> clear = Leg(TURN_LEFT, "A", -90.0, ((1, 2, 0),))
    >>> near_straight = Leg(TURN_RIGHT, "B", 35.0, ((2, 3, 0),))
    >>> near_uturn = Leg(U_TURN, "C", -155.0, ((3, 4, 0),))
    >>> actions_are_clear([clear]), actions_are_clear([clear, near_straight])
    (True, False)
    >>> actions_are_clear([near_uturn]), actions_are_clear([near_uturn], margin_deg=4.0)
    (False, True)
    """
    for leg in legs:
        magnitude = abs(leg.turn_deg)
        if (abs(magnitude - STRAIGHT_MAX_DEG) < margin_deg
                or abs(magnitude - UTURN_MIN_DEG) < margin_deg):
            return False
    return True
