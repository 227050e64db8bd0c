"""Feature maps: views for STMF and MTMF (the same maps serve both tasks), zoom 19 by
default.

Map number ``j`` at a zoom is a pure function of the seed, the extract, the zoom and
``j``: map ``j`` takes its own cell of a grid over the extract (:func:`map_cells`, so
no two maps are near-duplicates), its centre is drawn at random inside that cell,
nudged so that no map symbol sits on the edge of the view, rendered, and kept only
when every catalogue type is unambiguous on the image (no icon cut by an edge, no
icon that no data feature explains, no label running off the view).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.common.base import BuildContext, slot_rng
from cartoqa.tasks.common.drawing import Drawn, draw_scene, scene_exclusion
from cartoqa.tasks.common.roads import lines_in_view_px, name_instances
from cartoqa.tasks.common.sampling import permuted
from cartoqa.visibility import ViewFeatures, analyse_view
from cartoqa.visibility.geometry import lines_px, rings_px
from cartoqa.visibility.screen import EDGE_BAND_PX, RESERVED_BOXES, near_edge, within_band
from groundtruth.catalogue import load_catalogue
from groundtruth.projection import View, global_px_to_latlon, latlon_to_global_px

#: Zoom of the STMF/MTMF maps (the default of every function here).
FEATURE_MAP_ZOOM = 19
#: Random centres tried for one map before the slot is given up.
MAX_MAP_ATTEMPTS = 12
#: Nudges tried per centre to move symbols off the view's edges.
MAX_NUDGES = 12
#: A map must show at least this many catalogue features.
MIN_DRAWN_FEATURES = 3
#: Map centres lie in a grid of cells at least this share of a view wide and high ...
MAP_CELL_FRACTION = 0.5
#: ... and keep this share of their cell from each of its sides; so two maps' centres
#: are at least this share of a view apart horizontally or vertically (no near-duplicates).
MAP_CELL_MARGIN = 0.25
MAP_MIN_SEPARATION = 2 * MAP_CELL_MARGIN * MAP_CELL_FRACTION
#: Why drawn candidate maps (shared by STMF and MTMF, logged as "maps") are rejected.
MAP_REJECT_REASONS = {
    "ambiguous": "a type a reader may count otherwise (edge, unexplained or unclear icon, "
                 "label cut)",
    "few": "fewer catalogue features drawn than the minimum",
    "line_name_cut": "the name of a road, stream or icon shows only cut at the edge or "
                     "hidden",
    "unlabelled_line": "a road or stream without its name written meets another of its "
                       "type (a reader may count it as part of that one or not)",
    "split_area": "a park is cut by a street drawn across it into parts a reader may count "
                  "as separate parks",
}
#: A street drawn across a park cuts it this wide (half width, view pixels; OSM-Carto
#: draws a residential street about 17 px wide at zoom 19) ...
AREA_SPLIT_HALF_WIDTH_PX = 5.0
#: ... and a part of it on screen counts as a green area of its own when at least this
#: large (square pixels: about 60 x 60 px, 9 x 9 m at zoom 19).
AREA_PART_MIN_PX2 = 3600.0


@dataclass
class FeatureMap:
    """One accepted feature map (its zoom is ``view.zoom``)."""

    slot: int
    attempt: int
    view: View
    image: str
    png: bytes
    features: ViewFeatures


def counted_features(features: ViewFeatures, types: Sequence[str]) -> list[dict[str, Any]]:
    """The features an answer counts, for the item's provenance (``counted``).

    Parameters
    ----------
    features : ViewFeatures
        What the map shows.
    types : sequence of str
        The feature types the item asks about.

    Returns
    -------
    list of dict
        ``{"type", "name", "px"}`` per counted feature: ``name`` is the legible name or
        ``None``, ``px`` its anchor in view pixels (drawn by ``cartoqa report``).
    """
    return [
        {"type": t, "name": s.feature.name if s.name_legible and s.feature.name else None,
         "px": [round(s.px[0], 1), round(s.px[1], 1)]}
        for t in types for s in features.drawn(t)
    ]


def image_name(slot: int, zoom: int = FEATURE_MAP_ZOOM) -> str:
    """File name of map ``slot``'s image at a zoom.

    Examples
    --------
    >>> image_name(7)
    'map19-0007.png'
    >>> image_name(7, zoom=18)
    'map18-0007.png'
    """
    return f"map{zoom}-{slot:04d}.png"


def _symbols_clear_of_edges(view: View, symbol_px: list[tuple[float, float]]) -> bool:
    """Whether no symbol near the view lies on its edge band or by a control's zone.

    The band is a little wider than the analysis's (:data:`EDGE_BAND_PX` + 2), so that a
    symbol a few pixels off its data position is not judged on the edge afterwards.
    """
    band = EDGE_BAND_PX + 2
    return not any(
        within_band(x, y, width=view.width, height=view.height, margin=band)
        and near_edge(x, y, width=view.width, height=view.height, margin=band,
                      boxes=RESERVED_BOXES)
        for x, y in symbol_px)


def map_cells(bounds: tuple[float, float, float, float], zoom: int, *,
              width: int = VIEW_WIDTH, height: int = VIEW_HEIGHT,
              ) -> list[tuple[float, float, float, float]]:
    """The cells a map's centre may lie in: a grid over the centres that keep the view inside.

    Cells are at least :data:`MAP_CELL_FRACTION` of a view in each direction; a map's
    centre keeps :data:`MAP_CELL_MARGIN` of its cell from every side, so two maps in
    different cells have centres at least ``2 * MAP_CELL_MARGIN * MAP_CELL_FRACTION`` of
    a view (a third) apart horizontally or vertically (:data:`MAP_MIN_SEPARATION`).

    Returns
    -------
    list of (x0, y0, x1, y1)
        Global pixel boxes at ``zoom`` where a centre may lie, row by row; empty when
        the extract is smaller than one view.

    Examples
    --------
    A region of centres 2.2 views wide and 1 view high has 4 x 2 cells (half a view
    each, at least); the first row:

    >>> from groundtruth.projection import global_px_to_latlon
    >>> n, w = global_px_to_latlon(1000.0, 1000.0, 10)
    >>> s, e = global_px_to_latlon(1000.0 + 3.2 * 300, 1000.0 + 2 * 100, 10)
    >>> cells = map_cells((s, w, n, e), 10, width=300, height=100)
    >>> len(cells), [(round(x0), round(x1)) for x0, _, x1, _ in cells[:4]]
    (8, [(1191, 1274), (1356, 1439), (1521, 1604), (1686, 1769)])
    """
    s, w, n, e = bounds
    gx0, gy0 = latlon_to_global_px(n, w, zoom)
    gx1, gy1 = latlon_to_global_px(s, e, zoom)
    x0, x1 = gx0 + width / 2, gx1 - width / 2
    y0, y1 = gy0 + height / 2, gy1 - height / 2
    if x1 <= x0 or y1 <= y0:
        return []
    cols = max(1, int((x1 - x0) // (MAP_CELL_FRACTION * width)))
    rows = max(1, int((y1 - y0) // (MAP_CELL_FRACTION * height)))
    cw, ch = (x1 - x0) / cols, (y1 - y0) / rows
    mx, my = MAP_CELL_MARGIN * cw, MAP_CELL_MARGIN * ch
    return [(x0 + i * cw + mx, y0 + j * ch + my, x0 + (i + 1) * cw - mx, y0 + (j + 1) * ch - my)
            for j in range(rows) for i in range(cols)]


def candidate_view(ctx: BuildContext, slot: int, attempt: int, *,
                   zoom: int = FEATURE_MAP_ZOOM) -> View | None:
    """A geometric candidate view for a map slot's attempt, or None (pure of rendering).

    Map ``slot`` draws its centre in one of its own two cells (:func:`map_cells`, those
    where a view may show :data:`MIN_DRAWN_FEATURES` symbols, in a seeded order: cells
    ``slot`` and ``slot + stride``, stride half their number, alternating by attempt),
    so no two maps are near-duplicates; past the stride there is no map.
    Only the symbol types OSM-Carto draws at ``zoom`` are kept off the edges.
    """
    bounds = ctx.extract.bounds
    if bounds is None:
        return None
    key = ("map_cells", zoom)
    if key not in ctx.shared:
        drawn_types = {ft.name for ft in load_catalogue() if ft.kind == "symbol"
                       and ft.drawn_at(zoom)}
        symbols = [f for f in ctx.features() if f.feature_type in drawn_types]
        # the symbols' global pixels, kept with the cells: every view of every attempt
        # shifts them
        gpx = [latlon_to_global_px(f.lat, f.lon, zoom) for f in symbols]
        # cells where no view can show MIN_DRAWN_FEATURES symbols are left out
        viable = [c for c in map_cells(bounds, zoom)
                  if sum(1 for x, y in gpx
                         if c[0] - VIEW_WIDTH / 2 <= x <= c[2] + VIEW_WIDTH / 2
                         and c[1] - VIEW_HEIGHT / 2 <= y <= c[3] + VIEW_HEIGHT / 2)
                  >= MIN_DRAWN_FEATURES]
        ctx.shared[key] = (permuted(viable, ctx.seed, f"map{zoom}-cells"), gpx)
    cells: list[tuple[float, float, float, float]]
    symbols_px: list[tuple[float, float]]
    cells, symbols_px = ctx.shared[key]
    # map `slot` owns cells `slot` and `slot + stride` (its attempts alternate between
    # them), so no two maps share a cell and a cell hard to map does not sink the slot
    stride = (len(cells) + 1) // 2
    if slot >= stride:
        return None
    index = slot + (attempt % 2) * stride
    cx0, cy0, cx1, cy1 = cells[index if index < len(cells) else slot]
    rng = slot_rng(ctx.seed, f"map{zoom}", slot, attempt)
    gx, gy = rng.uniform(cx0, cx1), rng.uniform(cy0, cy1)
    for _ in range(MAX_NUDGES):
        lat, lon = global_px_to_latlon(gx, gy, zoom)
        view = View(center=(round(lat, 7), round(lon, 7)), zoom=zoom,
                    width=VIEW_WIDTH, height=VIEW_HEIGHT)
        ox, oy = view.origin_px  # View.to_view_px, for every symbol at once
        pxs = [(x - ox, y - oy) for x, y in symbols_px]
        inside = sum(1 for x, y in pxs if 0 <= x <= view.width and 0 <= y <= view.height)
        if inside < MIN_DRAWN_FEATURES:
            return None
        if _symbols_clear_of_edges(view, pxs):
            return view
        gx = min(cx1, max(cx0, gx + rng.uniform(-40, 40)))
        gy = min(cy1, max(cy0, gy + rng.uniform(-40, 40)))
    return None


def written_line_names(ctx: BuildContext, scene: Drawn, vf: ViewFeatures) -> None:
    """Decide the names of the drawn lines (primary roads, streams, rivers) with Mapnik.

    Each drawn, named line's name is legible when Mapnik writes it whole, unhidden and
    along the line in the view (:func:`cartoqa.tasks.common.roads.name_instances`), not when
    dark ink lies along it (traffic-signal icons); a name shown only cut at the edge or
    hidden marks the line's label as cut (its type is then ambiguous for names).
    """
    named = {name: ss for name, ss in vf.by_type.items() if vf.kinds.get(name) == "line"}
    lines: dict[str, list[list[tuple[float, float]]]] = {}
    for ss in named.values():
        for s in ss:
            if s.drawn and s.feature.name:
                lines.setdefault(s.feature.name, []).extend(
                    lines_px(scene.view, s.feature.geometry))
    if not lines:
        return
    judged = name_instances(ctx, scene, sorted(lines), lines=lines,
                            markers=(), path=None)
    for name, ss in named.items():
        for i, s in enumerate(ss):
            if not (s.drawn and s.feature.name):
                continue
            parts = judged.get(s.feature.name, [])
            written = any(p.reason is None for p in parts)
            cut = not written and any(p.reason in ("cut", "hidden") for p in parts)
            vf.by_type[name][i] = replace(s, name_legible=written, label_cut=cut)


#: A point's label (:func:`written_point_names`) is its own when Mapnik writes it with
#: its top at most this far below the icon's centre (OSM-Carto's ``dy`` is 9-13 px;
#: labels pushed further by collisions are not read as the icon's) ...
POINT_LABEL_MAX_DROP_PX = 34.0
#: ... and its centre within this many pixels of the icon's column (labels are centred).
POINT_LABEL_MAX_OFFSET_PX = 9.0
#: The words of one label may be found apart (a gap wider than the mark join): the
#: pieces whose top lies in the drop window and that reach within this many pixels of
#: the icon's column make up the label under it.
POINT_LABEL_HALF_WIDTH_PX = 60.0


def label_belongs_to_icon(box: tuple[int, int, int, int], icon: tuple[float, float]) -> bool:
    """Whether a label with ``box`` ``(x0, y0, x1, y1)`` is written under ``icon``.

    Examples
    --------
    >>> label_belongs_to_icon((30, 110, 70, 122), (50.0, 100.0))   # 10 px below, centred
    True
    >>> label_belongs_to_icon((30, 140, 70, 152), (50.0, 100.0))   # 40 px below
    False
    >>> label_belongs_to_icon((45, 110, 85, 122), (50.0, 100.0))   # centred 15 px off
    False
    """
    x0, y0, x1, _ = box
    cx, cy = icon
    return (cy <= y0 <= cy + POINT_LABEL_MAX_DROP_PX
            and abs((x0 + x1) / 2 - cx) <= POINT_LABEL_MAX_OFFSET_PX)


def label_pieces_under_icon(boxes: Sequence[tuple[int, int, int, int]],
                            icon: tuple[float, float]) -> list[int]:
    """Indices of the label pieces that lie where the label under ``icon`` would be.

    Examples
    --------
    >>> label_pieces_under_icon([(1068, 203, 1090, 213), (1093, 203, 1112, 210),
    ...                          (1068, 260, 1090, 270)], (1090.0, 192.0))
    [0, 1]
    """
    cx, cy = icon
    return [i for i, (x0, y0, x1, _) in enumerate(boxes)
            if cy <= y0 <= cy + POINT_LABEL_MAX_DROP_PX
            and x0 <= cx + POINT_LABEL_HALF_WIDTH_PX and x1 >= cx - POINT_LABEL_HALF_WIDTH_PX]


def union_box(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """The smallest box holding ``boxes``.

    Examples
    --------
    >>> union_box([(1068, 203, 1090, 213), (1093, 203, 1112, 210)])
    (1068, 203, 1112, 213)
    """
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def written_point_names(ctx: BuildContext, scene: Drawn, vf: ViewFeatures) -> None:
    """Decide the names under the drawn icons with Mapnik (the oracle MML and SRN use).

    The label ink under an icon may be another icon's (a café's cup under a
    restaurant's knife and fork passed for the restaurant's name). So each drawn icon
    of a type labelled with its ``name`` is legible only when Mapnik writes that name
    whole, unhidden and on the screenshot, centred under the icon (the pieces of its
    label there, :func:`label_pieces_under_icon`, all pass and together are centred:
    :func:`label_belongs_to_icon`); a label there that is cut or hidden marks it cut
    (the type is then ambiguous for names). Types labelled with another tag (ATMs:
    ``operator``) keep the ink judgement.
    """
    by_name = {ft.name: ft for ft in load_catalogue()}
    todo: list[tuple[str, int]] = []
    for ftype, ss in vf.by_type.items():
        if vf.kinds.get(ftype, "symbol") != "symbol":
            continue
        ft = by_name.get(ftype)
        if ft is not None and ft.label_tag != "name":
            continue
        todo.extend((ftype, i) for i, s in enumerate(ss) if s.drawn and s.feature.name)
    if not todo:
        return
    names = sorted({str(vf.by_type[t][i].feature.name) for t, i in todo})
    judged = name_instances(ctx, scene, names, markers=(), path=None)
    for ftype, i in todo:
        s = vf.by_type[ftype][i]
        icon = s.icon_px or s.px
        parts = judged.get(str(s.feature.name), [])
        near = [parts[k] for k in label_pieces_under_icon([p.box for p in parts], icon)]
        good = [p.box for p in near if p.reason is None]
        written = bool(good) and len(good) == len(near) and label_belongs_to_icon(
            union_box(good), icon)
        cut = not written and any(p.reason in ("cut", "hidden") for p in near)
        vf.by_type[ftype][i] = replace(s, name_legible=written, label_cut=cut)


def area_parts_on_screen(area_px: Sequence[Sequence[tuple[float, float]]],
                         streets_px: Sequence[Sequence[tuple[float, float]]], *,
                         width: int = VIEW_WIDTH, height: int = VIEW_HEIGHT) -> int:
    """How many separate parts a reader sees of one green area (its outer rings in view
    pixels) once the streets drawn across it (lines in view pixels) cut it.

    Only parts of at least :data:`AREA_PART_MIN_PX2` count (slivers along the edge and
    between a street and a fence are not parks of their own).

    Examples
    --------
    >>> park = [[(0, 0), (600, 0), (600, 300), (0, 300)]]
    >>> area_parts_on_screen(park, [])
    1
    >>> area_parts_on_screen(park, [[(300, -50), (300, 400)]])   # a street across it
    2
    >>> area_parts_on_screen(park, [[(5, -50), (5, 400)]])       # along its edge: a sliver
    1
    """
    from shapely.geometry import LineString, Polygon, box
    from shapely.ops import unary_union

    polys = [Polygon(r) for r in area_px if len(r) >= 3]
    if not polys:
        return 0
    shape = unary_union([p.buffer(0) for p in polys]).intersection(box(0, 0, width, height))
    cuts = [LineString(line).buffer(AREA_SPLIT_HALF_WIDTH_PX)
            for line in streets_px if len(line) >= 2]
    if cuts:
        shape = shape.difference(unary_union(cuts))
    parts = list(getattr(shape, "geoms", [shape]))
    return sum(1 for part in parts if part.area >= AREA_PART_MIN_PX2)


def _streets_px(ctx: BuildContext, view: View) -> list[list[tuple[float, float]]]:
    """The drivable streets of the road graph near a view, in view pixels."""
    key = ("street_lines",)
    if key not in ctx.shared:
        graph = ctx.graph()
        seen: set[tuple[int, int]] = set()
        lines = []
        for u, v, data in graph.edges(data=True):
            if (min(u, v), max(u, v)) in seen or "geometry" not in data:
                continue
            seen.add((min(u, v), max(u, v)))
            lines.append([(lat, lon) for lon, lat in data["geometry"].coords])
        ctx.shared[key] = lines
    return lines_in_view_px(view, ctx.shared[key])


def area_split_by_streets(ctx: BuildContext, view: View, vf: ViewFeatures) -> bool:
    """Whether a drawn park (as a reader groups them) shows as several parts on screen,
    cut by streets drawn across it (:func:`area_parts_on_screen`): a reader may count
    each part as a park (map19-0019 of seed 20261130: Kaisaniemenpuisto on both sides
    of Läntinen Teatterikuja, counted 1)."""
    # imported here: loads scipy and osmium (~3 s), which scoring (it reads this SPEC) never needs
    from cartoqa.visibility.sightings import reader_groups

    streets: list[list[tuple[float, float]]] | None = None
    for ftype, kind in vf.kinds.items():
        if kind != "area":
            continue
        for group in reader_groups(vf.drawn(ftype), kind):
            rings = [r for sg in group for r in rings_px(view, sg.feature.geometry)[0]]
            if streets is None:
                streets = _streets_px(ctx, view)
            if area_parts_on_screen(rings, streets) > 1:
                return True
    return False


def feature_map(ctx: BuildContext, slot: int, *,
                zoom: int = FEATURE_MAP_ZOOM) -> FeatureMap | None:
    """Map number ``slot`` at ``zoom`` (shared by STMF and MTMF; cached in the context).

    Parameters
    ----------
    ctx : BuildContext
        The build context.
    slot : int
        The map's number.
    zoom : int, optional
        The maps' zoom (:data:`FEATURE_MAP_ZOOM`); maps at other zooms are other maps,
        with their own centres and image names.

    Returns
    -------
    FeatureMap or None
        None when no acceptable map was found in :data:`MAX_MAP_ATTEMPTS` tries.
    """
    key = ("feature_map", zoom, slot)
    if key in ctx.shared:
        cached: FeatureMap | None = ctx.shared[key]
        return cached
    found: FeatureMap | None = None
    for attempt in range(MAX_MAP_ATTEMPTS):
        view = candidate_view(ctx, slot, attempt, zoom=zoom)
        if view is None:
            continue
        scene = draw_scene(ctx, view)
        vf = analyse_view(view, scene.screen, scene.reference, ctx.features(),
                          exclude=scene_exclusion(view, [], None, reserved=scene.reserved),
                          reserved=scene.reserved)
        if any(vf.ambiguous(t, names=True) for t in vf.by_type):
            ctx.reject("maps", MAP_REJECT_REASONS["ambiguous"])
            continue
        if sum(vf.count(t) for t in vf.by_type) < MIN_DRAWN_FEATURES:
            ctx.reject("maps", MAP_REJECT_REASONS["few"])
            continue
        written_line_names(ctx, scene, vf)
        written_point_names(ctx, scene, vf)
        if any(vf.ambiguous(t, names=True) for t in vf.by_type):
            ctx.reject("maps", MAP_REJECT_REASONS["line_name_cut"])
            continue
        if any(vf.unlabelled_line_meets_another(t) for t in vf.by_type):
            ctx.reject("maps", MAP_REJECT_REASONS["unlabelled_line"])
            continue
        if area_split_by_streets(ctx, view, vf):
            ctx.reject("maps", MAP_REJECT_REASONS["split_area"])
            continue
        found = FeatureMap(slot, attempt, view, image_name(slot, zoom), scene.png, vf)
        break
    ctx.shared[key] = found
    return found
