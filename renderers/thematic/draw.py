"""Draw one thematic map (choropleth, hexbin cartogram or proportional symbols) and
report what was drawn where.

Everything is laid out in pixel coordinates: the axes span the whole figure with
``x`` to the right and ``y`` down, so the reported positions are the PNG's pixel
coordinates (pixel ``(col, row)`` covers ``[col, col+1) x [row, row+1)``). The same
request gives byte-identical PNGs (Agg backend, no PNG metadata).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from renderers.thematic.design import (
    BASE_FILL,
    CIRCLE_EDGE,
    CIRCLE_FILL,
    CIRCLE_RADII,
    EDGE_COLOUR,
    NO_DATA_FILL,
    ColourBar,
    Design,
    text_colour,
)
from renderers.thematic.hexgrid import tile_centre, us_hex_layout

#: Image size in pixels (width, height) and resolution.
IMAGE_SIZE = (1100, 720)
DPI = 100
TITLE_BAND = 56  # pixels at the top kept for the title
CALLOUT_BAND = 120  # pixels at the east side kept for the callouts of small states
MARGIN = 16
#: On a map without region labels, a region whose largest part holds no disc of this
#: radius (pixels; a disc 10 pixels across, smaller than a callout's 14-pixel swatch) is
#: too small to see and is reported as ``hidden``.
HIDDEN_RADIUS = 5.0


@dataclass(frozen=True)
class MapRequest:
    """What to draw.

    Attributes
    ----------
    map_type : str
        ``"choropleth"``, ``"cartogram"`` or ``"proportional_symbol"``.
    title : str
        Map title (drawn unless the design drops it).
    classes : dict
        State code -> class 1..k; states drawn but missing here have no data.
    legend_labels : tuple of str
        Label of each class, class 1 first.
    geoms : dict
        State code -> geometry in a projected CRS (metres; y to the north).
    design : Design
        Colours, sizes and the variation's changes.
    colour_bar : ColourBar, optional
        A continuous legend (MapWise): each region is filled with the colour of its
        value in ``values`` and the legend is a colour bar; ``classes`` then only says
        which regions have data.
    values : dict, optional
        Region -> value, for a colour bar.
    annotations : dict, optional
        Region -> text written after its code on the map (value annotations).
    labels : dict, optional
        Region -> the code written on it, when not its own key (MapWise's name
        counterfactuals).
    """

    map_type: str
    title: str
    classes: dict[str, int]
    legend_labels: tuple[str, ...]
    geoms: dict[str, BaseGeometry] = field(repr=False)
    design: Design = field(default_factory=Design)
    colour_bar: ColourBar | None = None
    values: dict[str, float] | None = None
    annotations: dict[str, str] | None = None
    labels: dict[str, str] | None = None


@dataclass
class RenderedMap:
    """A drawn map.

    Attributes
    ----------
    png : bytes
        The image.
    report : dict
        What was drawn where (JSON-serialisable): ``size``, and per state ``cls``,
        ``probe`` (a pixel inside its fill, or ``None``), ``label`` (text, bbox
        ``[x0, y0, x1, y1]``, colour, ``leader``), ``leader_line`` (its two end points, for
        a label in a callout), ``swatch`` (bbox of a callout box in
        the class colour, for states too small to probe), ``circle`` (``centre``,
        ``radius``, ``rays``: directions in degrees whose boundary point no later
        circle or label covers); ``legend`` entries. On a map drawn without region
        labels (:attr:`~renderers.thematic.design.Design.region_labels` false) ``label``
        is ``None`` and ``hidden`` says whether the region is too small to see (its
        largest part holds no disc of :data:`HIDDEN_RADIUS`, or it has no probe pixel or
        hatch window of its own); the report's ``region_labels`` is then false.
    """

    png: bytes
    report: dict[str, Any]


def _largest(geom: BaseGeometry) -> Polygon:
    if isinstance(geom, MultiPolygon):
        return max(geom.geoms, key=lambda g: g.area)
    assert isinstance(geom, Polygon)
    return geom


def _to_pixels(geoms: Mapping[str, BaseGeometry], design: Design,
               frame: tuple[float, float, float, float]) -> dict[str, BaseGeometry]:
    """Flip as the design asks, then fit into ``frame`` (x0, y0, x1, y1) in pixels."""
    fx = -1.0 if design.flip_y else 1.0  # rotation about the Y axis mirrors east-west
    fy = -1.0 if design.flip_x else 1.0  # rotation about the X axis mirrors north-south
    flipped = {k: affinity.scale(g, fx, fy, origin=(0, 0)) for k, g in geoms.items()}
    boxes = [g.bounds for g in flipped.values()]
    minx, miny = min(b[0] for b in boxes), min(b[1] for b in boxes)
    maxx, maxy = max(b[2] for b in boxes), max(b[3] for b in boxes)
    x0, y0, x1, y1 = frame
    s = min((x1 - x0) / (maxx - minx), (y1 - y0) / (maxy - miny))
    ox = x0 + ((x1 - x0) - s * (maxx - minx)) / 2
    oy = y0 + ((y1 - y0) - s * (maxy - miny)) / 2
    # pixel x = ox + s (X - minx); pixel y = oy + s (maxy - Y)
    return {k: affinity.affine_transform(g, [s, 0, 0, -s, ox - s * minx, oy + s * maxy])
            for k, g in flipped.items()}


def _hexagons(codes: list[str], design: Design,
              frame: tuple[float, float, float, float]) -> dict[str, BaseGeometry]:
    layout = us_hex_layout()
    r = 1 / math.sqrt(3)  # circumradius of a pointy-top hexagon of width 1
    shapes = {}
    for code in codes:
        cx, cy = tile_centre(*layout[code])
        shapes[code] = Polygon([(cx + r * 0.97 * math.cos(math.radians(90 + 60 * i)),
                                 cy + r * 0.97 * math.sin(math.radians(90 + 60 * i)))
                                for i in range(6)])
    return _to_pixels(shapes, design, frame)


def _path(geom: BaseGeometry) -> Any:
    from matplotlib.path import Path

    verts: list[tuple[float, float]] = []
    codes: list[Any] = []
    polys = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            pts = list(ring.coords)
            verts.extend(pts)
            codes.extend([Path.MOVETO] + [Path.LINETO] * (len(pts) - 2) + [Path.CLOSEPOLY])
    return Path(verts, codes)


class _TextSizer:
    """Pixel width, height and descent of text, from the Agg renderer."""

    def __init__(self, fig: Any) -> None:
        self.renderer = fig.canvas.get_renderer()

    def size(self, text: str, points: float, weight: str = "bold") -> tuple[float, float]:
        from matplotlib.font_manager import FontProperties

        prop = FontProperties(family="DejaVu Sans", size=points, weight=weight)
        w, h, _ = self.renderer.get_text_width_height_descent(text, prop, ismath=False)
        return float(w), float(h)


def _bbox(cx: float, cy: float, w: float, h: float, pad: float = 1.0) -> list[float]:
    return [round(cx - w / 2 - pad, 2), round(cy - h / 2 - pad, 2),
            round(cx + w / 2 + pad, 2), round(cy + h / 2 + pad, 2)]


def draw_map(req: MapRequest) -> RenderedMap:
    """Draw the map; see :class:`RenderedMap` for what comes back.

    Parameters
    ----------
    req : MapRequest

    Returns
    -------
    RenderedMap
    """
    from matplotlib import patheffects
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PatchCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, PathPatch, Rectangle

    d = req.design
    width, height = IMAGE_SIZE
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=d.paper)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    sizer = _TextSizer(fig)

    east_left = d.flip_y  # the Atlantic side, where callouts go
    top = TITLE_BAND if d.title else MARGIN
    if d.callout_sides == 2:
        frame = (MARGIN + CALLOUT_BAND, top, width - MARGIN - CALLOUT_BAND, height - MARGIN)
    elif east_left:
        frame = (MARGIN + CALLOUT_BAND, top, width - MARGIN, height - MARGIN)
    else:
        frame = (MARGIN, top, width - MARGIN - CALLOUT_BAND, height - MARGIN)
    codes = sorted(req.geoms)
    if req.map_type == "cartogram":
        shapes = _hexagons(codes, d, (frame[0] + 40, frame[1], frame[2] - 40, frame[3]))
    else:
        shapes = _to_pixels(req.geoms, d, frame)

    def fill_of(code: str) -> str:
        if req.map_type == "proportional_symbol":
            return BASE_FILL
        cls = req.classes.get(code)
        if cls and req.colour_bar is not None and req.values is not None:
            return req.colour_bar.colour(req.values[code])
        if cls and d.hatches:
            return "#ffffff"
        return d.colours[cls - 1] if cls else NO_DATA_FILL

    patches = [PathPatch(_path(shapes[c])) for c in codes]
    edge = "#bdbdbd" if req.map_type == "proportional_symbol" else EDGE_COLOUR
    if d.hatches:
        edge = "#000000"
    ax.add_collection(PatchCollection(
        patches, facecolors=[fill_of(c) for c in codes], edgecolors=edge,
        linewidths=0.6, antialiased=True))
    if d.hatches:  # black-and-white: one hatched patch per region with data
        for c in codes:
            if req.classes.get(c):
                ax.add_patch(PathPatch(_path(shapes[c]), facecolor="none", edgecolor="#000000",
                                       linewidth=0.0, hatch=d.hatches[req.classes[c] - 1]))
        # borders cased in white, so that regions of a dense hatch stay apart
        for colour, width_ in (("#ffffff", 2.4), ("#000000", 0.7)):
            ax.add_collection(PatchCollection(
                [PathPatch(_path(shapes[c])) for c in codes], facecolors="none",
                edgecolors=colour, linewidths=width_, antialiased=True))
    notes = (req.annotations or {}) if d.region_labels else {}
    shown = req.labels or {}
    text_of = {c: f"{shown.get(c, c)}\n{notes[c]}" if c in notes else shown.get(c, c)
               for c in codes}

    def label_wh(c: str) -> tuple[float, float]:
        """Width and height of a region's label (two lines when annotated)."""
        sizes = [sizer.size(t, d.label_size) for t in text_of[c].split("\n")]
        return max(w for w, _ in sizes), sum(h for _, h in sizes) + 2.0 * (len(sizes) - 1)

    states: dict[str, dict[str, Any]] = {}
    label_pts: dict[str, tuple[float, float]] = {}
    inscribed: dict[str, float] = {}
    for c in codes:
        poly = _largest(shapes[c])
        p = polylabel(poly, tolerance=0.5)
        label_pts[c] = (p.x, p.y)
        inscribed[c] = poly.exterior.distance(p)

    # Small states: the label and its marker (a swatch in the class colour, or the
    # state's circle) go to a callout column on the Atlantic side, with a leader line.
    prop = req.map_type == "proportional_symbol"
    lw, lh = sizer.size("MM", d.label_size)
    small = [c for c in codes if req.map_type != "cartogram"
             and inscribed[c] < max(lw / 2, lh / 2) + 3]
    if notes:  # longer labels: a region is small when its label box does not fit inside
        small = []
        for c in codes:
            tw, th = label_wh(c)
            inner = _largest(shapes[c]).simplify(1.0).buffer(-(math.hypot(tw, th) / 2 + 2))
            if inner.is_empty or req.map_type == "cartogram":
                small.append(c)
            else:  # the label goes where its whole box fits inside the region
                p = polylabel(_largest(inner), tolerance=0.5)
                label_pts[c] = (p.x, p.y)
    # Without region labels (MapWise's wo_annotations maps) nothing goes to a callout:
    # a region whose largest part holds no disc of HIDDEN_RADIUS is too small to see
    # without one, and is reported as hidden (questions that need it are not asked).
    hidden = ({c for c in codes if inscribed[c] < HIDDEN_RADIUS}
              if not d.region_labels else set())
    if not d.region_labels:
        small = []
    radius = {c: CIRCLE_RADII[req.classes[c] - 1] for c in codes if prop and c in req.classes}
    # With callouts on both sides (maps of India and China) a small region's callout
    # goes to the nearer side, so that its leader line crosses little of the map.
    callouts: dict[str, tuple[float, float]] = {}
    markers: dict[str, tuple[float, float, float]] = {}  # centre x, centre y, half size
    sign_of: dict[str, float] = {}  # marker beside the text, towards the map
    for left in (True, False):
        order = sorted((c for c in small
                        if (label_pts[c][0] < width / 2 if d.callout_sides == 2
                            else east_left) == left), key=lambda k: label_pts[k][1])
        halves = [max(label_wh(c)[1] / 2 + 4, radius.get(c, 7.0) + 2) for c in order]
        ys: list[float] = []
        for i, c in enumerate(order):  # top down, each below the one before
            y = label_pts[c][1]
            ys.append(y if i == 0 else max(y, ys[-1] + halves[i - 1] + halves[i]))
        limit = height - MARGIN
        for i in range(len(order) - 1, -1, -1):  # bottom up, back inside the image
            cap = (limit - halves[i] if i == len(order) - 1
                   else ys[i + 1] - halves[i + 1] - halves[i])
            ys[i] = min(ys[i], cap)
        for c, y in zip(order, ys, strict=True):
            tw, _ = label_wh(c)
            if d.callout_sides == 1 and not notes:  # MapIQ's column
                x = float(MARGIN + 14 if left else width - MARGIN - 14)
            else:  # text flush with the image edge
                x = float(MARGIN + 4 + tw / 2 if left else width - MARGIN - 4 - tw / 2)
            mr = radius.get(c, 7.0)
            callouts[c] = (x, y)
            sign_of[c] = 1.0 if left else -1.0
            markers[c] = (x + sign_of[c] * (tw / 2 + 6 + mr), y, mr)
    leaders: list[BaseGeometry] = []
    # A label inside its region moves off the leader lines of callouts, so that no leader
    # crosses another region's label: to the pole of inaccessibility of what is left of
    # its region once the leaders, widened by half the label's diagonal, are cut out.
    # First each leader starts from the point of its region nearest its old start whose
    # straight line to the marker crosses no label inside the map (when there is one).
    inner_boxes = {k: box(*_bbox(*label_pts[k], *label_wh(k), pad=3.0))
                   for k in codes if k not in callouts}
    for c in callouts:
        end = (markers[c][0] + sign_of[c] * markers[c][2], markers[c][1])
        others = [b for k, b in inner_boxes.items() if k != c]
        if not any(LineString([label_pts[c], end]).intersects(b) for b in others):
            continue
        region = shapes[c].buffer(-1.0)
        if region.is_empty:
            continue
        x0, y0, x1, y1 = region.bounds
        step = max(1.0, min(x1 - x0, y1 - y0) / 12)
        start: tuple[float, float, float] | None = None
        ox, oy = label_pts[c]
        gx = x0
        while gx <= x1:
            gy = y0
            while gy <= y1:
                if region.contains(Point(gx, gy)) and not any(
                        LineString([(gx, gy), end]).intersects(b) for b in others):
                    dist = math.hypot(gx - ox, gy - oy)
                    if start is None or dist < start[0]:
                        start = (dist, gx, gy)
                gy += step
            gx += step
        if start is not None:
            label_pts[c] = (start[1], start[2])
    leader_lines = [LineString([label_pts[c], (markers[c][0] + sign_of[c] * markers[c][2],
                                               markers[c][1])]) for c in callouts]
    if leader_lines:
        from shapely.ops import unary_union

        all_leaders = unary_union(leader_lines)
        for c in codes:
            if c in callouts:
                continue
            tw, th = label_wh(c)
            reach = math.hypot(tw, th) / 2 + 2.0
            if box(*_bbox(*label_pts[c], tw, th, pad=2.0)).distance(all_leaders) > 1.0:
                continue
            room = _largest(shapes[c]).buffer(-reach).difference(all_leaders.buffer(reach))
            pieces = [g for g in getattr(room, "geoms", [room])
                      if isinstance(g, Polygon) and not g.is_empty]
            if pieces:
                p = polylabel(max(pieces, key=lambda g: g.area), tolerance=0.5)
                label_pts[c] = (p.x, p.y)
                continue
            # No room clear by the diagonal: the free spot nearest the old one where the
            # label's box fits inside the region and keeps 2 pixels off every leader.
            inside = _largest(shapes[c]).buffer(-2.0)
            x0, y0, x1, y1 = inside.bounds
            best: tuple[float, float, float] | None = None
            ox, oy = label_pts[c]
            for gx in range(int(x0), int(x1) + 1, 2):
                for gy in range(int(y0), int(y1) + 1, 2):
                    lb = box(*_bbox(gx, gy, tw, th, pad=2.0))
                    if inside.contains(lb) and lb.distance(all_leaders) > 2.0:
                        dist = math.hypot(gx - ox, gy - oy)
                        if best is None or dist < best[0]:
                            best = (dist, float(gx), float(gy))
            if best is not None:
                label_pts[c] = (best[1], best[2])

    circles: dict[str, tuple[float, float, float]] = {}
    for c, rad in radius.items():
        circles[c] = (markers[c][0], markers[c][1], rad) if c in markers else (*label_pts[c], rad)
    for c in sorted(circles, key=lambda k: (-circles[k][2], k)):  # large first
        cx_, cy_, cr = circles[c]
        ax.add_artist(Circle((cx_, cy_), cr, facecolor=CIRCLE_FILL, edgecolor=CIRCLE_EDGE,
                            linewidth=1.0, zorder=3))

    label_boxes: dict[str, list[float]] = {}
    for c in codes:
        in_callout = c in callouts
        lx, ly = callouts[c] if in_callout else label_pts[c]
        tw, th = label_wh(c)
        if c in circles and not in_callout:  # above its circle, which stays unobstructed
            ly = circles[c][1] - circles[c][2] - th / 2 - 2
            if ly - th / 2 - 2 < top:  # no room above (a map turned upside down): below
                ly = circles[c][1] + circles[c][2] + th / 2 + 2
        info: dict[str, Any] = {"cls": req.classes.get(c), "probe": None, "swatch": None}
        if not d.region_labels:
            info["label"] = None
            info["hidden"] = c in hidden
            states[c] = info
            continue
        halo = (prop or bool(d.hatches)) and not in_callout
        colour = "#000000" if (in_callout or halo) else text_colour(fill_of(c))
        if in_callout:
            mx, my, mr = markers[c]
            sign = sign_of[c]
            leaders.append(LineString([label_pts[c], (mx + sign * mr, my)]).buffer(2.0))
            info["leader_line"] = [[round(label_pts[c][0], 2), round(label_pts[c][1], 2)],
                                   [round(mx + sign * mr, 2), round(my, 2)]]
            ax.plot([label_pts[c][0], mx + sign * mr], [label_pts[c][1], my],
                    color="#525252", linewidth=0.7,
                    zorder=2.5)  # under the circles, whose edges it must not touch
            if not prop:
                sw = [mx - 7, my - 7, mx + 7, my + 7]
                cls_c = req.classes.get(c)
                hatch = d.hatches[cls_c - 1] if d.hatches and cls_c else None
                ax.add_artist(Rectangle((sw[0], sw[1]), 14, 14, facecolor=fill_of(c),
                                        hatch=hatch or None,
                                        edgecolor="#000000" if hatch else "#525252",
                                        linewidth=0.7, zorder=4))
                info["swatch"] = [round(v, 2) for v in sw]
                if hatch is not None:
                    info["swatch_window"] = [int(mx) - 4, int(my) - 4, int(mx) + 4, int(my) + 4]
        text = ax.text(lx, ly, text_of[c], ha="center", va="center", fontsize=d.label_size,
                       fontweight="bold", family="DejaVu Sans", color=colour, zorder=5)
        if halo:
            text.set_path_effects([patheffects.withStroke(linewidth=2.0, foreground="white")])
        label_boxes[c] = _bbox(lx, ly, tw, th, pad=2.0 if halo else 1.0)
        if halo and d.hatches and not prop:  # a halo alone is lost in the dense hatches
            x0, y0, x1, y1 = label_boxes[c]
            ax.add_artist(Rectangle((x0, y0), x1 - x0, y1 - y0,
                                    facecolor="#ffffff", edgecolor="none", linewidth=0.0,
                                    zorder=4.5))
        info["label"] = {"text": text_of[c], "bbox": label_boxes[c], "colour": colour,
                         "leader": in_callout}
        states[c] = info

    # Fill probes: a pixel well inside the state's fill, away from its label.
    if req.map_type != "proportional_symbol":
        for c in codes:
            area = _largest(shapes[c]).buffer(-3.0)
            for line in leaders:  # leader lines of small regions cross some fills
                if line.intersects(area):
                    area = area.difference(line)
            if c in label_boxes and c not in callouts:
                area = area.difference(box(*label_boxes[c]).buffer(2.0))
            if not area.is_empty and area.area > 4:
                p = area.representative_point()
                states[c]["probe"] = [int(p.x), int(p.y)]
            elif not d.region_labels:  # no pixel of its own fill to see
                states[c]["hidden"] = True
            inner = area.buffer(-4.0) if not area.is_empty else area
            if d.hatches and not inner.is_empty and inner.area > 4:  # a window of the hatch
                p = inner.representative_point()
                states[c]["window"] = [int(p.x) - 4, int(p.y) - 4, int(p.x) + 4, int(p.y) + 4]
            elif d.hatches and not d.region_labels:  # too small to show its pattern
                states[c]["hidden"] = True
            states[c]["fill"] = fill_of(c)
    for c, (x, y, r) in circles.items():
        later = [k for k in circles if circles[k][2] < r or (circles[k][2] == r and k > c)]
        rays = []
        for deg in range(0, 360, 15):
            bx = x + (r + 1.5) * math.cos(math.radians(deg))
            by = y + (r + 1.5) * math.sin(math.radians(deg))
            covered = any(_segment_distance((x, y), (bx, by), circles[k][:2])
                          <= circles[k][2] + 2.5 for k in later)
            in_text = any(b[0] - 1.5 <= bx <= b[2] + 1.5 and b[1] - 1.5 <= by <= b[3] + 1.5
                          for b in label_boxes.values())
            if not covered and not in_text:
                rays.append(deg)
        states[c]["circle"] = {"centre": [round(x, 2), round(y, 2)], "radius": r, "rays": rays}

    obstacles = [*shapes.values(), *(box(*states[c]["label"]["bbox"]) for c in callouts)]
    if not d.legend:
        legend: list[dict[str, Any]] = []
    elif req.colour_bar is not None:
        legend = _draw_colour_bar(ax, req.colour_bar, d, width, height, obstacles,
                                  no_data=bool(set(req.geoms) - set(req.classes)))
    else:
        legend = _draw_legend(ax, sizer, req, d, width, height, obstacles)
    if d.title:
        ax.text(width / 2, TITLE_BAND / 2, req.title, ha="center", va="center", fontsize=15,
                family="DejaVu Sans", color="#000000")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, facecolor=d.paper,
                metadata={"Software": None})
    report = {"size": [width, height], "map_type": req.map_type, "states": states,
              "legend": legend, "colours": list(d.colours), "paper": d.paper,
              "hatches": list(d.hatches) if d.hatches else None,
              "colour_bar": req.colour_bar.card() if req.colour_bar else None,
              "region_labels": d.region_labels}
    return RenderedMap(png=buf.getvalue(), report=report)


def _segment_distance(a: tuple[float, float], b: tuple[float, float],
                      p: tuple[float, float]) -> float:
    """Distance from point ``p`` to the segment ``a``-``b``."""
    ax_, ay = a
    dx, dy = b[0] - ax_, b[1] - ay
    t = max(0.0, min(1.0, ((p[0] - ax_) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax_ + t * dx, ay + t * dy))


def _draw_legend(ax: Any, sizer: _TextSizer, req: MapRequest, d: Design, width: int,
                 height: int, obstacles: list[BaseGeometry]) -> list[dict[str, Any]]:
    """Draw the legend in a corner; return its entries with their bboxes."""
    from matplotlib.patches import Circle, Rectangle

    circles = req.map_type == "proportional_symbol"
    # label, fill, circle radius, class index (None: the no-data entry)
    entries: list[tuple[str, str | None, float, int | None]] = []
    for i, lab in enumerate(req.legend_labels):
        entries.append((lab, None if circles else d.colours[i],
                        CIRCLE_RADII[min(i, len(CIRCLE_RADII) - 1)], i))
    if d.legend_reversed:
        entries.reverse()
    if set(req.geoms) - set(req.classes):
        # No data: a grey swatch on choropleths and cartograms; no circle on symbol maps.
        entries.append(("No data (no circle)" if circles else "No data",
                        None if circles else NO_DATA_FILL, 0.0, None))
    sw = 16 * d.legend_scale
    gap = 6 * d.legend_scale
    sizes = [sizer.size(e[0], d.legend_font, weight="normal") for e in entries]
    mark = [2 * e[2] if circles and e[2] else sw for e in entries]
    rows_h = [max(m, s[1]) + gap for m, s in zip(mark, sizes, strict=True)]
    col_w = [m + 6 + s[0] + 2 * gap for m, s in zip(mark, sizes, strict=True)]
    if d.legend_horizontal:
        total_w, total_h = sum(col_w), max(rows_h)
    else:
        total_w, total_h = max(col_w), sum(rows_h)
    # The preferred corner first, then the others; the first that covers no state wins
    # (rotated maps move the empty corners), else the one covering least.
    top = (TITLE_BAND if d.title else MARGIN) + 4
    corners = {
        "lower right": (width - MARGIN - total_w, height - MARGIN - total_h),
        "lower left": (MARGIN + 4, height - MARGIN - total_h),
        "upper left": (MARGIN + 4, top),
        "upper right": (width - MARGIN - total_w, top),
    }
    order = [d.legend_loc] + [k for k in corners if k != d.legend_loc]
    best: tuple[float, float, float] | None = None
    for key in order:
        x, y = corners[key]
        frame = box(x - 4, y - 4, x + total_w + 4, y + total_h + 4)
        overlap = sum(o.intersection(frame).area for o in obstacles if o.intersects(frame))
        if best is None or overlap < best[0]:
            best = (overlap, x, y)
        if overlap == 0:
            break
    assert best is not None
    x0, y0 = best[1], best[2]
    out: list[dict[str, Any]] = []
    cx, cy = x0, y0
    for (lab, fill, r, idx), (tw, _th), m, rh, cw in zip(entries, sizes, mark, rows_h, col_w,
                                                          strict=True):
        mid = cy + rh / 2
        if circles and r:
            ax.add_artist(Circle((cx + m / 2, mid), r, facecolor=CIRCLE_FILL,
                                edgecolor=CIRCLE_EDGE, linewidth=1.0, zorder=6))
        elif fill is not None:
            hatch = (d.hatches[idx] if d.hatches and idx is not None and idx < len(d.hatches)
                     else None)
            ax.add_artist(Rectangle((cx, mid - sw / 2), sw, sw,
                                    facecolor="#ffffff" if hatch is not None else fill,
                                    hatch=hatch or None, edgecolor="#525252",
                                    linewidth=0.6, zorder=6))
        ax.text(cx + m + 6, mid, lab, ha="left", va="center", fontsize=d.legend_font,
                family="DejaVu Sans", color="#000000", zorder=6)
        out.append({"label": lab, "bbox": [round(cx, 2), round(cy, 2),
                                           round(cx + m + 6 + tw, 2), round(cy + rh, 2)]})
        if d.legend_horizontal:
            cx += cw
        else:
            cy += rh
    return out


def _legend_corner(d: Design, width: int, height: int, w: float, h: float,
                   obstacles: list[BaseGeometry]) -> tuple[float, float, float]:
    """The corner (top-left point) of a ``w`` x ``h`` legend covering the least map, and
    the area it covers there."""
    top = (TITLE_BAND if d.title else MARGIN) + 4
    corners = {
        "lower right": (width - MARGIN - w, height - MARGIN - h),
        "lower left": (MARGIN + 4, height - MARGIN - h),
        "upper left": (MARGIN + 4, top),
        "upper right": (width - MARGIN - w, top),
    }
    best: tuple[float, float, float] | None = None
    for key in [d.legend_loc] + [k for k in corners if k != d.legend_loc]:
        x, y = corners[key]
        frame = box(x - 4, y - 4, x + w + 4, y + h + 4)
        overlap = sum(o.intersection(frame).area for o in obstacles if o.intersects(frame))
        if best is None or overlap < best[2]:
            best = (x, y, overlap)
        if overlap == 0:
            break
    assert best is not None
    return best


def _draw_colour_bar(ax: Any, bar: ColourBar, d: Design, width: int, height: int,
                     obstacles: list[BaseGeometry],
                     no_data: bool = False) -> list[dict[str, Any]]:
    """A colour bar with tick labels, vertical (low at the bottom) where a corner is free,
    else horizontal (low on the left) where that covers less map; its entries. With
    ``no_data`` a grey "No data" swatch follows the bar (below it)."""
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Rectangle

    thick, length = 16 * d.legend_scale, 200 * d.legend_scale
    label_w = 7.5 * d.legend_font * max(len(t) for t in bar.tick_labels)
    label_h = 1.6 * d.legend_font
    extra = 26 * d.legend_scale if no_data else 0.0  # the "No data" row
    vx, vy, v_over = _legend_corner(d, width, height, max(thick + 8 + label_w, 90.0),
                                    length + 16 + extra, obstacles)
    long = 1.3 * length  # room between tick labels
    hx, hy, h_over = _legend_corner(d, width, height, long + label_w,
                                    thick + 6 + label_h + extra, obstacles)
    vertical = v_over <= h_over
    cmap = ListedColormap([bar.colour_at(t) for t in np.linspace(0, 1, 256)])
    if vertical:
        x0, y0 = vx, vy + 8
        ramp = np.linspace(1.0, 0.0, 256).reshape(-1, 1)
        extent = (x0, x0 + thick, y0 + length, y0)
        w, h = thick, length
    else:
        length = long
        x0, y0 = hx + label_w / 2, hy
        ramp = np.linspace(0.0, 1.0, 256).reshape(1, -1)
        extent = (x0, x0 + length, y0 + thick, y0)
        w, h = length, thick
    ax.imshow(ramp, cmap=cmap, vmin=0, vmax=1, extent=extent, interpolation="nearest",
              zorder=6, aspect="auto")
    ax.add_artist(Rectangle((x0, y0), w, h, facecolor="none", edgecolor="#525252",
                            linewidth=0.6, zorder=7))
    out = []
    for tick, lab in zip(bar.ticks, bar.tick_labels, strict=True):
        t = (tick - bar.vmin) / (bar.vmax - bar.vmin)
        if vertical:
            y = y0 + length * (1 - t)
            ax.plot([x0 + thick, x0 + thick + 4], [y, y], color="#000000", linewidth=0.8,
                    zorder=7)
            ax.text(x0 + thick + 6, y, lab, ha="left", va="center", fontsize=d.legend_font,
                    family="DejaVu Sans", color="#000000", zorder=7)
            out.append({"label": lab, "tick": tick, "y": round(y, 2)})
        else:
            x = x0 + length * t
            ax.plot([x, x], [y0 + thick, y0 + thick + 4], color="#000000", linewidth=0.8,
                    zorder=7)
            ax.text(x, y0 + thick + 5, lab, ha="center", va="top", fontsize=d.legend_font,
                    family="DejaVu Sans", color="#000000", zorder=7)
            out.append({"label": lab, "tick": tick, "x": round(x, 2)})
    if no_data:
        sw = 14 * d.legend_scale
        nx = x0 if vertical else x0 - label_w / 2
        ny = (y0 + length + 10) if vertical else (y0 + thick + 6 + label_h + 6)
        ax.add_artist(Rectangle((nx, ny), sw, sw, facecolor=NO_DATA_FILL,
                                edgecolor="#525252", linewidth=0.6, zorder=7))
        ax.text(nx + sw + 6, ny + sw / 2, "No data", ha="left", va="center",
                fontsize=d.legend_font, family="DejaVu Sans", color="#000000", zorder=7)
        out.append({"label": "No data", "bbox": [round(nx, 2), round(ny, 2),
                                                 round(nx + sw + 60, 2), round(ny + sw, 2)]})
    return out


@lru_cache(maxsize=16)
def hatch_reference(hatch: str, paper: str = "#ffffff") -> bytes:
    """A PNG of the whole image area filled with one hatch, drawn as maps draw it.

    Agg tiles a hatch from the image origin, so a window inside a hatched region equals
    the same window of this reference: the pixel check compares them.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    width, height = IMAGE_SIZE
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=paper)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    ax.add_patch(Rectangle((-10, -10), width + 20, height + 20, facecolor="#ffffff",
                           edgecolor="#000000", linewidth=0.0, hatch=hatch or None))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, facecolor=paper, metadata={"Software": None})
    return buf.getvalue()
