"""Road names in a drawn scene: the named road lines of a graph, and which are written."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from cartoqa.tasks.drawing import Drawn, LatLon, MarkerSpec, scene_exclusion
from cartoqa.visibility import drawn_road_names
from groundtruth.projection import View

Line = list[tuple[float, float]]


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


def names_drawn(drawn: Drawn, roads: RoadIndex, names: Sequence[str], *,
                markers: Sequence[MarkerSpec] = (),
                path: Sequence[LatLon] | None = None) -> set[str]:
    """Which of ``names`` are written along their roads in a drawn scene."""
    lines = roads.lines_px(drawn.view, names)
    return drawn_road_names(drawn.view, drawn.screen, drawn.reference, lines,
                            exclude=scene_exclusion(drawn.view, markers, path,
                                                    reserved=drawn.reserved))
