"""Helpers the map tasks share: drawing a scene and checking it, road lines, provenance."""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.base import BuildContext, slot_rng
from cartoqa.tasks.prompts import system_prompt
from cartoqa.tasks.rules import RESERVED_BOXES
from cartoqa.visibility import (
    IntArray,
    decode_png,
    drawn_road_names,
    exclusion_mask,
    render_reference,
)
from groundtruth.projection import View
from groundtruth.routing import NoRouteError, Route, shortest_route

LatLon = tuple[float, float]
Line = list[tuple[float, float]]


@dataclass(frozen=True)
class MarkerSpec:
    """A marker to draw: colour, position and the graph node it stands on."""

    color: str
    lat: float
    lon: float
    node: int | None = None


@dataclass
class Drawn:
    """A rendered scene: the PNG, decoded screenshot and label-free reference."""

    view: View
    png: bytes
    screen: IntArray
    reference: IntArray
    drawn: dict[str, Any]


class RoadIndex:
    """Named road lines of a graph, for finding where a name could be written.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph; each undirected stretch is kept once.
    """

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        seen: set[tuple[int, int, int]] = set()
        self.lines: dict[str, list[list[LatLon]]] = {}
        for u, v, data in graph.edges(data=True):
            name = data.get("name")
            if not name:
                continue
            key = (min(u, v), max(u, v), int(data.get("osmid", 0)))
            if key in seen:
                continue
            seen.add(key)
            coords = [(lat, lon) for lon, lat in data["geometry"].coords]
            self.lines.setdefault(name, []).append(coords)

    def lines_px(self, view: View, names: Sequence[str]) -> dict[str, list[Line]]:
        """Lines of each name that touch the view, in view pixels (clipped loosely)."""
        s, w, n, e = view.bounds
        out: dict[str, list[Line]] = {}
        for name in names:
            lines = []
            for coords in self.lines.get(name, []):
                if all(lat < s or lat > n for lat, _ in coords) or \
                        all(lon < w or lon > e for _, lon in coords):
                    continue
                lines.append([view.to_view_px(lat, lon) for lat, lon in coords])
            out[name] = lines
        return out


def draw_scene(ctx: BuildContext, view: View, *, markers: Sequence[MarkerSpec] = (),
               path: Sequence[LatLon] | None = None) -> Drawn:
    """Render a view with markers and path, plus its label-free reference.

    Parameters
    ----------
    ctx : BuildContext
        The build context (renderer, tiles).
    view : View
        The view.
    markers : sequence of MarkerSpec
        Markers to draw.
    path : sequence of (lat, lon), optional
        A blue path.

    Returns
    -------
    Drawn
        PNG, arrays and the renderer's record of what was drawn.
    """
    from renderers.markers import Marker

    renderer = ctx.renderer()
    result = renderer.render(view, markers=[Marker(m.lat, m.lon, m.color) for m in markers],
                             path=list(path) if path else None)
    reference = render_reference(ctx.tiles(), view)
    return Drawn(view=view, png=result.png, screen=decode_png(result.png),
                 reference=decode_png(reference), drawn=result.drawn)


def scene_exclusion(view: View, markers: Sequence[MarkerSpec],
                    path: Sequence[LatLon] | None) -> Any:
    """Exclusion mask for markers, path and controls of a scene."""
    return exclusion_mask(
        view,
        marker_px=[view.to_view_px(m.lat, m.lon) for m in markers],
        path_px=[view.to_view_px(lat, lon) for lat, lon in (path or [])],
        boxes=RESERVED_BOXES,
    )


def names_drawn(drawn: Drawn, roads: RoadIndex, names: Sequence[str], *,
                markers: Sequence[MarkerSpec] = (),
                path: Sequence[LatLon] | None = None) -> set[str]:
    """Which of ``names`` are written along their roads in a drawn scene."""
    lines = roads.lines_px(drawn.view, names)
    return drawn_road_names(drawn.view, drawn.screen, drawn.reference, lines,
                            exclude=scene_exclusion(drawn.view, markers, path))


def view_around(points: Sequence[LatLon], zoom: int, rng: random.Random, *,
                jitter_px: float = 0.0) -> View:
    """A view at ``zoom`` centred on the pixel bounding box of ``points``, jittered."""
    probe = View(center=points[0], zoom=zoom, width=VIEW_WIDTH, height=VIEW_HEIGHT)
    pxs = [probe.to_view_px(lat, lon) for lat, lon in points]
    cx = (min(x for x, _ in pxs) + max(x for x, _ in pxs)) / 2
    cy = (min(y for _, y in pxs) + max(y for _, y in pxs)) / 2
    if jitter_px:
        cx += rng.uniform(-jitter_px, jitter_px)
        cy += rng.uniform(-jitter_px * VIEW_HEIGHT / VIEW_WIDTH,
                          jitter_px * VIEW_HEIGHT / VIEW_WIDTH)
    lat, lon = probe.to_latlon(cx, cy)
    return View(center=(round(lat, 7), round(lon, 7)), zoom=zoom, width=VIEW_WIDTH,
                height=VIEW_HEIGHT)


def inside_extract(ctx: BuildContext, view: View) -> bool:
    """Whether the view's centre lies inside the extract's bounds."""
    b = ctx.extract.bounds
    if b is None:
        return True
    s, w, n, e = b
    lat, lon = view.center
    return s <= lat <= n and w <= lon <= e


def provenance(ctx: BuildContext, view: View, *, slot: int, attempt: int,
               markers: Sequence[MarkerSpec] = (), path: Sequence[LatLon] | None = None,
               route_nodes: Sequence[int] | None = None, **extra: Any) -> dict[str, Any]:
    """The ``provenance`` record of an item."""
    rec: dict[str, Any] = {
        "extract": ctx.extract.name,
        "extract_sha256": ctx.extract.sha256,
        "seed": ctx.seed,
        "slot": slot,
        "attempt": attempt,
        "zoom": view.zoom,
        "center": [round(view.center[0], 7), round(view.center[1], 7)],
        "bounds": [round(v, 7) for v in view.bounds],
        "markers": [
            {"color": m.color, "lat": round(m.lat, 7), "lon": round(m.lon, 7),
             "px": [round(c, 2) for c in view.to_view_px(m.lat, m.lon)], "node": m.node}
            for m in markers
        ],
    }
    if path is not None:
        rec["path"] = [[round(lat, 7), round(lon, 7)] for lat, lon in path]
    if route_nodes is not None:
        rec["route_nodes"] = [int(n) for n in route_nodes]
    rec.update(extra)
    return rec


def base_item(item_id: str, task: str, request: str, image: str, question: str,
              answer: dict[str, Any], strata: dict[str, Any],
              prov: dict[str, Any]) -> dict[str, Any]:
    """Assemble one item in the dataset format."""
    return {
        "id": item_id,
        "task": task,
        "request": request,
        "image": image,
        "system_prompt": system_prompt(),
        "question": question,
        "options": None,
        "answer": answer,
        "strata": strata,
        "provenance": prov,
    }


def permuted(values: Sequence[Any], seed: int, *parts: object) -> list[Any]:
    """A seeded permutation of ``values`` (stable for the same seed and parts)."""
    out = list(values)
    slot_rng(seed, "perm", *parts).shuffle(out)
    return out


def pick(candidates: Sequence[Any], slot: int, attempt: int, n_slots: int, *,
         wrap: bool = False) -> Any | None:
    """Candidate for a slot's attempt: slots take disjoint stretches of the candidates.

    Attempt ``a`` of slot ``s`` takes candidate ``s + a * n_slots``, so no two slots
    share a candidate. Past the end, ``None`` (the extract has run out: the slot cannot
    be filled), or with ``wrap`` the sequence starts again (for tasks where a
    candidate is only a starting point, such as a route's origin).

    Examples
    --------
    >>> pick(list(range(100)), 3, 0, 10), pick(list(range(100)), 3, 1, 10)
    (3, 13)
    >>> pick(list(range(12)), 3, 1, 10) is None
    True
    >>> pick(list(range(12)), 3, 1, 10, wrap=True)
    1
    """
    index = slot + attempt * max(1, n_slots)
    if index < len(candidates):
        return candidates[index]
    return candidates[index % len(candidates)] if wrap and candidates else None


def pick_round(candidates: Sequence[Any], slot: int, attempt: int, n_slots: int, *,
               max_attempts: int) -> tuple[Any, int, int]:
    """Like :func:`pick` with ``wrap``, also saying which pass over the candidates it is.

    Returns ``(candidate, round, rounds)``: a candidate taken again in a later round
    must be used differently (e.g. a route origin with destinations ``round::rounds``
    of its sorted targets), so that no two slots make the same scenario.

    Examples
    --------
    >>> pick_round(list(range(12)), 3, 0, 10, max_attempts=3)
    (3, 0, 4)
    >>> pick_round(list(range(12)), 3, 1, 10, max_attempts=3)
    (1, 1, 4)
    """
    index = slot + attempt * max(1, n_slots)
    total = max(1, n_slots) * (max_attempts + 1)
    rounds = max(1, -(-total // len(candidates)))
    return candidates[index % len(candidates)], index // len(candidates), rounds


def random_route(graph: nx.MultiDiGraph, origin: int, rng: random.Random, *,
                 cutoff_m: float, min_m: float, round_: int, rounds: int,
                 destinations: Container[int] | None = None) -> Route | None:
    """The shortest route from ``origin`` to a destination drawn with ``rng``.

    The candidates are the nodes (other than ``origin``, and in ``destinations`` when
    given) at least ``min_m`` and at most ``cutoff_m`` road metres away, sorted; of
    those, a reused origin (``round_`` and ``rounds`` from :func:`pick_round`) takes
    only every ``rounds``-th from ``round_``, so that it gets other destinations.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The road graph (edge attribute ``length`` in metres).
    origin : int
        Start node.
    rng : random.Random
        Draws the destination (one ``randrange`` call, only when there is a candidate).
    cutoff_m : float
        Farthest destination, metres along the roads.
    min_m : float
        Nearest destination, metres along the roads.
    round_, rounds : int
        This pass over the origins and how many passes there are.
    destinations : container of int, optional
        The only nodes allowed as destination.

    Returns
    -------
    Route or None
        ``None`` when no node qualifies or the drawn one cannot be reached.
    """
    reach = nx.single_source_dijkstra_path_length(graph, origin, cutoff=cutoff_m,
                                                  weight="length")
    targets = sorted(n for n, d in reach.items()
                     if n != origin and d >= min_m
                     and (destinations is None or n in destinations))
    targets = targets[round_::rounds]
    if not targets:
        return None
    dest = targets[rng.randrange(len(targets))]
    try:
        return shortest_route(graph, origin, dest)
    except NoRouteError:
        return None
