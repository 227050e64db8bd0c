"""Road names in a drawn scene: the named road lines of a graph, and which are written.

Whether a name is written is asked of Mapnik (:mod:`cartoqa.visibility.written`), not
judged from dark ink, which traffic-signal icons also leave along a road.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.common.drawing import Drawn, LatLon, MarkerSpec, scene_exclusion
from cartoqa.visibility.pixels import ink_mask
from cartoqa.visibility.reference import render_marks
from cartoqa.visibility.written import (
    MARK_PAD_PX,
    Instance,
    MarkedName,
    judge_marked,
    marked_names,
    possibly_written,
    written_names,
)
from groundtruth.projection import View
from renderers.label_marks import MARK_SLOTS

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
        return {name: lines_in_view_px(view, self.lines.get(name, [])) for name in names}


def lines_in_view_px(view: View, lines: Sequence[Sequence[LatLon]]) -> list[Line]:
    """The lines (``(lat, lon)`` points) that may touch a view, in view pixels.

    A line is left out only when the box around its points misses the view (a loose,
    cheap cull): a straight segment that crosses the whole view with no point inside it
    is kept.

    Examples
    --------
    >>> v = View(center=(60.17, 24.94), zoom=17, width=100, height=100)
    >>> inside = [(60.17, 24.93), (60.17, 24.94)]       # ends at the centre
    >>> north = [(60.18, 24.93), (60.18, 24.95)]        # about 1.1 km north
    >>> across = [(60.16, 24.94), (60.18, 24.94)]       # from 1.1 km south to north
    >>> kept = lines_in_view_px(v, [inside, north, across])
    >>> [[(round(x), round(y)) for x, y in line] for line in kept]
    [[(-882, 50), (50, 50)], [(50, 1923), (50, -1824)]]
    """
    s, w, n, e = view.bounds
    out: list[Line] = []
    for coords in lines:
        lats = [lat for lat, _ in coords]
        lons = [lon for _, lon in coords]
        if max(lats) < s or min(lats) > n or max(lons) < w or min(lons) > e:
            continue
        out.append([view.to_view_px(lat, lon) for lat, lon in coords])
    return out


def mark_names(ctx: BuildContext, view: View, names: Sequence[str], *,
               roads: RoadIndex | None = None,
               lines: Mapping[str, Sequence[Line]] | None = None) -> dict[str, MarkedName]:
    """The labels Mapnik writes for ``names`` in a view, before the view is drawn.

    Mapnik draws the view's tiles again with the names in colours of their own
    (:func:`cartoqa.visibility.reference.render_marks`), :data:`MARK_SLOTS` names a
    render. With ``roads`` (or ``lines``: name -> lines in view pixels), a label counts
    only along the road of that name. Judged by :func:`names_maybe_drawn` before the
    screenshot and by :func:`name_instances` (``marked=``) after it.
    """
    if roads is not None:
        lines = roads.lines_px(view, names)
    out: dict[str, MarkedName] = {}
    unique = list(dict.fromkeys(names))
    for start in range(0, len(unique), MARK_SLOTS):
        chunk = unique[start:start + MARK_SLOTS]
        marks = render_marks(ctx.tiles(), view, chunk, pad=MARK_PAD_PX)
        out.update(marked_names(marks, chunk, pad=MARK_PAD_PX, lines=lines))
    return out


def names_maybe_drawn(view: View, marked: Mapping[str, MarkedName], *,
                      markers: Sequence[MarkerSpec] = (),
                      path: Sequence[LatLon] | None = None) -> set[str]:
    """Which marked names may still be written once the view is drawn, judged before
    the screenshot (:func:`cartoqa.visibility.written.possibly_written`, with the map
    controls' zones known before rendering, which a render only grows): a name left out
    here is not in :func:`names_drawn` of the drawn scene either, so a scenario that
    needs it can be rejected without its screenshot and reference render."""
    exclude = scene_exclusion(view, markers, path)
    return possibly_written(marked, pad=MARK_PAD_PX, exclude=exclude)


def name_instances(ctx: BuildContext, drawn: Drawn, names: Sequence[str], *,
                   roads: RoadIndex | None = None, markers: Sequence[MarkerSpec] = (),
                   path: Sequence[LatLon] | None = None,
                   lines: Mapping[str, Sequence[Line]] | None = None,
                   marked: Mapping[str, MarkedName] | None = None,
                   ) -> dict[str, list[Instance]]:
    """Each label of ``names`` in a drawn scene, judged (:mod:`cartoqa.visibility.written`).

    The labels are those of :func:`mark_names` (``marked``: already read for this view
    and these names, before the scene was drawn; else read now). With ``roads`` (or
    ``lines``: name -> lines in view pixels), a label counts only along the road of
    that name.
    """
    exclude = scene_exclusion(drawn.view, markers, path, reserved=drawn.reserved)
    ink = ink_mask(drawn.screen, drawn.reference)
    if roads is not None:
        lines = roads.lines_px(drawn.view, names)
    unique = list(dict.fromkeys(names))
    if marked is not None:
        return judge_marked({name: marked[name] for name in unique}, pad=MARK_PAD_PX,
                            ink=ink, exclude=exclude, lines=lines)
    out: dict[str, list[Instance]] = {}
    for start in range(0, len(unique), MARK_SLOTS):  # a chunk's labels at a time
        chunk = unique[start:start + MARK_SLOTS]
        out.update(judge_marked(mark_names(ctx, drawn.view, chunk, lines=lines),
                                pad=MARK_PAD_PX, ink=ink, exclude=exclude, lines=lines))
    return out


def names_drawn(ctx: BuildContext, drawn: Drawn, roads: RoadIndex, names: Sequence[str], *,
                markers: Sequence[MarkerSpec] = (),
                path: Sequence[LatLon] | None = None,
                marked: Mapping[str, MarkedName] | None = None) -> set[str]:
    """Which of ``names`` are written, whole and unhidden, along their roads in a scene
    (``marked``: their labels as :func:`mark_names` read them before drawing it)."""
    return written_names(name_instances(ctx, drawn, names, roads=roads, markers=markers,
                                        path=path, marked=marked))
