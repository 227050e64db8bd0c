"""A print-style thematic map (FRIEDA's planning-document look), drawn with geopandas and
matplotlib from the extract's PostGIS tables.

FRIEDA's maps come from planning documents: land use and building use as pale fills
and hatches, roads as cased lines, water, a framed legend box, a neat line, a title, a
scale bar and a north arrow. The ``print`` style draws that map itself (no tiles, no
browser): :func:`load_print_layers` reads the areas and lines of the extract that
osm2pgsql imported for OSM-Carto (``planet_osm_polygon``, ``planet_osm_line``, the sea
in ``water_polygons``; EPSG:3857) once per process, :func:`classify_area` and
:func:`line_class` sort them into the legend's classes, and :func:`draw_print_map`
draws a view with geopandas on a matplotlib canvas of the image's size.

The geometry is the one every FRIEDA map uses: Web Mercator pixels of the
:class:`~groundtruth.projection.View` (the same origin, rounded as Leaflet rounds it),
turned ``angle_deg`` about the image's centre (:func:`renderers.overlays.rotate_px`), so
that :func:`renderers.overlays.screen_geometry` puts each overlay where it is drawn and
a distance in pixels times :meth:`View.meters_per_pixel` is the distance on the ground
(:func:`view_affine` is that mapping for EPSG:3857 coordinates, one affine transform).

Nothing on the basemap is named (the title is generic): only the legends name things,
so the style counts among the label-free ones a two-map question may use.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry.base import BaseGeometry

from groundtruth.projection import TILE_SIZE, WEB_MERCATOR_RADIUS_M, View
from renderers.osm_import import ensure_imported, psql
from renderers.overlays import (
    OVERLAY_FILL_OPACITY,
    OVERLAY_WEIGHT,
    POINT_RADIUS,
    Overlay,
    screen_geometry,
)

Box = tuple[float, float, float, float]

#: The style's name among :data:`renderers.map_styles.STYLES`.
PRINT_STYLE = "print"
#: ``(class, legend words, fill, hatch, hatch colour)`` of the area classes, in drawing
#: order (later ones over earlier ones) and legend order. Pale fills and grey hatches
#: (matplotlib hatch codes), far from the overlays' saturated red, blue, purple, orange
#: and cyan and from :data:`renderers.legend_layer.CATEGORY_STYLES`.
AREA_CLASSES: tuple[tuple[str, str, str, str, str], ...] = (
    ("residential", "Residential", "#f6f0d4", "", "#8c8060"),
    ("commercial", "Commercial and retail", "#f3ddd6", "////", "#9a7a70"),
    ("industrial", "Industry and railway land", "#e4e0e8", "xx", "#77707f"),
    ("public", "Public and education", "#e3e6ee", "--", "#6e7383"),
    ("green", "Parks, woods and green space", "#d6e8c6", "..", "#5e7f45"),
    ("water", "Water", "#b8d4e8", "", "#4f7fa8"),
)
#: Buildings: fill and outline (drawn over the land use, listed last in the legend); on a
#: map with a legend-category layer the fill is paler, further from every category's fill
#: (:data:`renderers.legend_layer.CATEGORY_STYLES`, read on the pixels by ``ring_share``).
BUILDING_FILL = "#d9d5cf"
BUILDING_FILL_UNDER_CATEGORIES = "#f0ece8"
BUILDING_EDGE = "#4a4a4a"
#: ``(class, casing width, inner width, inner colour)`` of the lines, pixels; a casing
#: of 0 draws the line alone.
LINE_CLASSES: tuple[tuple[str, float, float, str], ...] = (
    ("path", 0.0, 1.2, "#7a7a7a"),
    ("service", 4.0, 2.4, "#ffffff"),
    ("minor", 6.5, 4.5, "#ffffff"),
    ("secondary", 8.5, 6.5, "#fdf0d0"),
    ("major", 10.5, 8.5, "#fcafaf"),
    ("tram", 0.0, 1.4, "#3c3c3c"),
    ("rail", 0.0, 3.0, "#1e1e1e"),
    ("waterway", 0.0, 2.0, "#4f7fa8"),
)
ROAD_CASING = "#3a3a3a"
PAPER = "#ffffff"
#: The neat line: the frame drawn ``NEAT_INSET`` px inside the image's edge, and the
#: white margin outside it (nothing of the map is drawn there).
NEAT_INSET = 6
NEAT_WIDTH = 2
#: Generic titles (no place is named: a two-map question must not be answerable from
#: a title), picked per map from its centre.
TITLES: tuple[str, ...] = (
    "LAND USE PLAN", "EXISTING LAND USE", "PLANNING MAP: LAND AND BUILDINGS",
    "LOCAL PLAN: LAND USE", "DETAILED PLAN: SITE CONTEXT",
)
#: Title box: width and height, pixels; centred at the top.
TITLE_SIZE: tuple[float, float] = (430.0, 50.0)
#: The title's font size: the largest of this range that fits the box (a long title,
#: "PLANNING MAP: LAND AND BUILDINGS", ran past the box at 19 px: frieda27e), pixels;
#: and the room left clear inside each side of the box.
TITLE_FONT_PX: tuple[int, int] = (12, 19)
TITLE_PAD_PX = 10
#: The base legend (land use, water, buildings): at most this many rows, each this tall.
BASE_LEGEND_ROWS = 7
BASE_ROW_PX = 24
BASE_LEGEND_WIDTH = 270
#: The overlay legend (the drawn features) at the top right: row height, widest box.
LEGEND_ROW_PX = 22
LEGEND_MAX_WIDTH = 410.0
ATTRIBUTION = "Map data \u00a9 OpenStreetMap contributors (ODbL)"
_FONT_DIR = "/usr/share/fonts/truetype/dejavu/"


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf"
    try:
        return ImageFont.truetype(_FONT_DIR + name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def classify_area(tags: dict[str, str]) -> str | None:
    """The area class of an OSM area (:data:`AREA_CLASSES`), ``building``, or ``None``
    when the print map leaves it out.

    Parameters
    ----------
    tags : dict
        The columns OSM-Carto's import keeps (``landuse``, ``leisure``, ``natural``,
        ``amenity``, ``water``, ``waterway``, ``building``; empty when missing).

    Examples
    --------
    >>> classify_area({"building": "yes"}), classify_area({"leisure": "park"})
    ('building', 'green')
    >>> classify_area({"landuse": "retail"}), classify_area({"amenity": "school"})
    ('commercial', 'public')
    >>> classify_area({"natural": "water"}), classify_area({"tourism": "hotel"}) is None
    ('water', True)
    """
    def has(key: str, *values: str) -> bool:
        return tags.get(key, "") in values

    if tags.get("building", "") not in ("", "no"):
        return "building"
    if has("natural", "water", "bay") or tags.get("water") or \
            has("waterway", "riverbank", "dock", "canal") or has("landuse", "reservoir", "basin"):
        return "water"
    if has("leisure", "park", "garden", "playground", "nature_reserve", "dog_park") or \
            has("landuse", "grass", "meadow", "forest", "village_green", "recreation_ground",
                "cemetery", "allotments") or has("natural", "wood", "scrub", "grassland"):
        return "green"
    if has("amenity", "school", "university", "college", "kindergarten", "hospital") or \
            has("landuse", "education", "religious"):
        return "public"
    if has("landuse", "commercial", "retail"):
        return "commercial"
    if has("landuse", "residential"):
        return "residential"
    if has("landuse", "industrial", "railway", "construction", "brownfield", "garages"):
        return "industrial"
    return None


def line_class(tags: dict[str, str]) -> str | None:
    """The line class of an OSM way (:data:`LINE_CLASSES`), or ``None``.

    Tunnels and areas' outlines are left out.

    Examples
    --------
    >>> line_class({"highway": "primary"}), line_class({"highway": "residential"})
    ('major', 'minor')
    >>> line_class({"railway": "tram"}), line_class({"highway": "footway"})
    ('tram', 'path')
    >>> line_class({"highway": "primary", "tunnel": "yes"}) is None
    True
    """
    if tags.get("tunnel", "") not in ("", "no"):
        return None
    highway = tags.get("highway", "").removesuffix("_link")
    if highway in ("motorway", "trunk", "primary"):
        return "major"
    if highway in ("secondary", "tertiary"):
        return "secondary"
    if highway in ("residential", "unclassified", "living_street", "road"):
        return "minor"
    if highway in ("service", "pedestrian"):
        return "service"
    if highway in ("footway", "path", "cycleway", "steps", "track", "bridleway"):
        return "path"
    railway = tags.get("railway", "")
    if railway in ("rail", "light_rail", "narrow_gauge"):
        return "rail"
    if railway == "tram":
        return "tram"
    if tags.get("waterway", "") in ("stream", "river", "canal", "ditch", "drain"):
        return "waterway"
    return None


@dataclass
class PrintLayers:
    """The extract's areas and lines by class, in EPSG:3857 metres.

    Attributes
    ----------
    areas : dict
        Class (:data:`AREA_CLASSES` and ``building``) -> geometries.
    lines : dict
        Class (:data:`LINE_CLASSES`) -> geometries.
    """

    areas: dict[str, list[BaseGeometry]] = field(default_factory=dict)
    lines: dict[str, list[BaseGeometry]] = field(default_factory=dict)
    _trees: dict[str, shapely.STRtree] = field(default_factory=dict, repr=False)

    def near(self, group: str, key: str, window: BaseGeometry) -> list[BaseGeometry]:
        """The geometries of a class that meet ``window`` (EPSG:3857)."""
        geoms = (self.areas if group == "areas" else self.lines).get(key, [])
        if not geoms:
            return []
        tree_key = f"{group}:{key}"
        if tree_key not in self._trees:
            self._trees[tree_key] = shapely.STRtree(geoms)
        return [geoms[i] for i in self._trees[tree_key].query(window)]


_AREA_COLUMNS = ("landuse", "leisure", "natural", "amenity", "water", "waterway", "building")
_LINE_COLUMNS = ("highway", "railway", "waterway", "tunnel")


def _tag_sql(columns: Sequence[str]) -> str:
    return ", ".join(f"replace(coalesce(\"{c}\", ''), '|', '/')" for c in columns)


def parse_layer_rows(text: str, columns: Sequence[str], *, lines: bool
                     ) -> dict[str, list[BaseGeometry]]:
    """Sort ``psql -At`` rows (``wkb hex|tag|tag...``) into classes.

    Examples
    --------
    >>> from shapely.geometry import Point
    >>> row = shapely.to_wkb(Point(0, 0).buffer(1), hex=True) + "||park|||||"
    >>> sorted(parse_layer_rows(row, _AREA_COLUMNS, lines=False))
    ['green']
    """
    out: dict[str, list[BaseGeometry]] = {}
    for row in text.splitlines():
        parts = row.split("|")
        if len(parts) != len(columns) + 1 or not parts[0]:
            continue
        tags = dict(zip(columns, parts[1:], strict=True))
        key = line_class(tags) if lines else classify_area(tags)
        if key is None:
            continue
        geom = shapely.from_wkb(parts[0])
        if geom is not None and not geom.is_empty:
            out.setdefault(key, []).append(geom)
    return out


def load_print_layers(tiles: Any) -> PrintLayers:
    """Read the print map's layers from the extract's PostGIS database.

    Parameters
    ----------
    tiles : renderers.tiles.TileRenderer
        The extract's pipeline: its cluster is started and the extract imported (each
        once) as for its tiles.

    Returns
    -------
    PrintLayers
    """
    tiles.cluster.start()
    database = ensure_imported(tiles.cluster, tiles.extract)
    polys = psql(tiles.cluster, database,
                 f"SELECT encode(ST_AsBinary(way), 'hex'), {_tag_sql(_AREA_COLUMNS)} "
                 "FROM planet_osm_polygon ORDER BY way_area DESC NULLS LAST;")
    areas = parse_layer_rows(polys, _AREA_COLUMNS, lines=False)
    sea = psql(tiles.cluster, database,
               "SELECT encode(ST_AsBinary(way), 'hex') FROM water_polygons;")
    for row in sea.splitlines():
        if row.strip():
            areas.setdefault("water", []).insert(0, shapely.from_wkb(row.strip()))
    line_rows = psql(tiles.cluster, database,
                     f"SELECT encode(ST_AsBinary(way), 'hex'), {_tag_sql(_LINE_COLUMNS)} "
                     "FROM planet_osm_line ORDER BY z_order NULLS FIRST;")
    return PrintLayers(areas=areas, lines=parse_layer_rows(line_rows, _LINE_COLUMNS,
                                                           lines=True))


def view_affine(view: View, angle_deg: float) -> tuple[float, float, float, float, float, float]:
    """The affine map from EPSG:3857 metres to the turned image's pixels, as shapely's
    ``affine_transform`` takes it (``a, b, d, e, xoff, yoff``).

    The view's Web Mercator pixels (:meth:`View.to_view_px`, Leaflet's rounded origin)
    turned ``angle_deg`` clockwise about the image centre
    (:func:`renderers.overlays.rotate_px`).

    Examples
    --------
    >>> from renderers.overlays import rotate_px
    >>> v = View(center=(60.17, 24.94), zoom=17, width=1366, height=768)
    >>> a, b, d, e, xo, yo = view_affine(v, 30.0)
    >>> import pyproj
    >>> x, y = pyproj.Transformer.from_crs(4326, 3857, always_xy=True).transform(24.945, 60.171)
    >>> want = rotate_px(*v.to_view_px(60.171, 24.945), angle_deg=30.0, width=1366, height=768)
    >>> [abs(round(p - q, 6)) for p, q in zip((a * x + b * y + xo, d * x + e * y + yo), want)]
    [0.0, 0.0]
    """
    half = math.pi * WEB_MERCATOR_RADIUS_M
    k = TILE_SIZE * 2.0 ** view.zoom / (2.0 * half)
    ox, oy = view.origin_px
    cx, cy = view.width / 2.0, view.height / 2.0
    p = half * k - ox - cx
    q = half * k - oy - cy
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    return (k * c, k * s, k * s, -k * c, cx + p * c - q * s, cy + p * s + q * c)


def _window(view: View, affine: tuple[float, ...]) -> BaseGeometry:
    """The image in EPSG:3857 (the inverse of :func:`view_affine` on its corners)."""
    a, b, d, e, xo, yo = affine
    m = np.linalg.inv(np.array([[a, b], [d, e]]))
    corners = np.array([(0, 0), (view.width, 0), (view.width, view.height), (0, view.height)],
                       dtype=float) - np.array([xo, yo])
    return shapely.Polygon(corners @ m.T).buffer(50.0)


def _to_screen(geoms: Sequence[BaseGeometry], affine: tuple[float, ...]) -> list[BaseGeometry]:
    from shapely import affinity

    return [affinity.affine_transform(g, list(affine)) for g in geoms]


@dataclass(frozen=True)
class PrintFurniture:
    """Where the print map's furniture lies (image pixels)."""

    title: Box
    legend: Box | None
    base_legend: Box | None
    attribution: Box
    frame: tuple[Box, Box, Box, Box]


def frame_boxes(width: int, height: int) -> tuple[Box, Box, Box, Box]:
    """The four strips of the margin and neat line (top, right, bottom, left).

    Examples
    --------
    >>> frame_boxes(100, 50)[0]
    (0.0, 0.0, 100.0, 8.0)
    """
    t = float(NEAT_INSET + NEAT_WIDTH)
    w, h = float(width), float(height)
    return ((0.0, 0.0, w, t), (w - t, 0.0, w, h), (0.0, h - t, w, h), (0.0, 0.0, t, h))


def title_size(draw: ImageDraw.ImageDraw, title: str, width: float,
               sizes: tuple[int, int] = TITLE_FONT_PX) -> int:
    """The largest font size (bold, within ``sizes``) at which ``title`` is at most
    ``width`` pixels wide (the smallest size when none is).

    Parameters
    ----------
    draw : ImageDraw.ImageDraw
        Any drawing context (it measures the text).
    title : str
        The text.
    width : float
        Room, pixels.
    sizes : tuple of int, optional
        Smallest and largest font size, pixels.

    Returns
    -------
    int
    """
    lo, hi = sizes
    for size in range(hi, lo - 1, -1):
        if draw.textlength(title, font=_font(size, bold=True)) <= width:
            return size
    return lo


def draw_title(draw: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    """The title box: a white frame, the title fitted inside it (:func:`title_size`:
    :data:`TITLE_PAD_PX` clear of each side) and the subtitle."""
    draw.rectangle(box, fill="#ffffff", outline="#111111", width=2)
    cx = (box[0] + box[2]) / 2
    size = title_size(draw, title, box[2] - box[0] - 2 * TITLE_PAD_PX)
    draw.text((cx, box[1] + 17), title, fill="#111111", font=_font(size, bold=True),
              anchor="mm")
    draw.text((cx, box[1] + 38), "Existing situation (base map)",
              fill="#333333", font=_font(11), anchor="mm")


def title_box(width: int) -> Box:
    """The title's box, centred at the top.

    Examples
    --------
    >>> title_box(1366)
    (468.0, 14.0, 898.0, 64.0)
    """
    w, h = TITLE_SIZE
    x0 = (width - w) / 2.0
    return (x0, 14.0, x0 + w, 14.0 + h)


def base_legend_box(width: int, height: int, rows: int) -> Box:
    """The base legend's box: bottom right, above the attribution.

    Examples
    --------
    >>> base_legend_box(1366, 768, 3)
    (1078.0, 634.0, 1348.0, 738.0)
    """
    h = 32.0 + BASE_ROW_PX * rows
    bottom = height - 30.0
    return (width - 18.0 - BASE_LEGEND_WIDTH, bottom - h, width - 18.0, bottom)


def attribution_box(width: int, height: int) -> Box:
    """The attribution's box, bottom right inside the neat line.

    Examples
    --------
    >>> attribution_box(1366, 768)
    (1026.0, 742.0, 1356.0, 758.0)
    """
    t = NEAT_INSET + NEAT_WIDTH + 2
    return (width - t - 330.0, height - t - 16.0, float(width - t), float(height - t))


def print_boxes(width: int, height: int, n_features: int, *, base_legend: bool
                ) -> dict[str, Box]:
    """Generous estimates of the furniture's boxes before drawing (for choosing a view).

    Examples
    --------
    >>> sorted(print_boxes(1366, 768, 2, base_legend=True))[:4]
    ['attribution', 'base_legend', 'frame_bottom', 'frame_left']
    """
    boxes = {"title": title_box(width), "attribution": attribution_box(width, height)}
    for name, b in zip(("frame_top", "frame_right", "frame_bottom", "frame_left"),
                       frame_boxes(width, height), strict=True):
        boxes[name] = b
    if n_features:
        boxes["legend"] = (width - 14.0 - LEGEND_MAX_WIDTH, 12.0, width - 14.0,
                           12.0 + 16.0 + LEGEND_ROW_PX * n_features)
    if base_legend:
        boxes["base_legend"] = base_legend_box(width, height, BASE_LEGEND_ROWS)
    return boxes


def _hatch_plot(ax: Any, geoms: Sequence[BaseGeometry], fill: str, hatch: str,
                hatch_colour: str, edge: str | None = None, lw: float = 0.0) -> None:
    import geopandas as gpd

    series = gpd.GeoSeries(list(geoms))
    series.plot(ax=ax, facecolor=fill, edgecolor=edge or "none", linewidth=lw)
    if hatch:
        series.plot(ax=ax, facecolor="none", edgecolor=hatch_colour, linewidth=0.0,
                    hatch=hatch)


def _draw_body(layers: PrintLayers, view: View, angle_deg: float,
               overlays: Sequence[Overlay], *, thematic: bool) -> tuple[Image.Image, list[str]]:
    """The map body (land use, water, roads, buildings, overlays) and the area classes it
    shows.

    The print style's thinner hatch lines are set for this drawing only
    (``rc_context``): matplotlib's settings are global to the process, and a build that
    draws MapWise or MapIQ maps in the same process must get their own hatches.
    """
    import matplotlib

    with matplotlib.rc_context({"hatch.linewidth": 0.8}):
        return _draw_body_now(layers, view, angle_deg, overlays, thematic=thematic)


def _draw_body_now(layers: PrintLayers, view: View, angle_deg: float,
                   overlays: Sequence[Overlay], *, thematic: bool
                   ) -> tuple[Image.Image, list[str]]:
    """:func:`_draw_body` inside its settings."""
    import geopandas as gpd
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    w, h = view.width, view.height
    affine = view_affine(view, angle_deg)
    window = _window(view, affine)
    class _Canvas(FigureCanvasAgg):
        def draw_idle(self, *args: Any, **kwargs: Any) -> None:
            """GeoSeries.plot asks for a redraw after every layer: drawn once, below."""

    fig = Figure(figsize=(w / 72.0, h / 72.0), dpi=72)  # outside pyplot: nothing to close
    canvas = _Canvas(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.set_axis_off()
    fig.patch.set_facecolor(PAPER)
    shown: list[str] = []
    for key, _, fill, hatch, hatch_colour in AREA_CLASSES:
        if key == "water" or not thematic:
            continue
        geoms = _to_screen(layers.near("areas", key, window), affine)
        if geoms:
            shown.append(key)
            _hatch_plot(ax, geoms, fill, hatch, hatch_colour, edge=hatch_colour, lw=0.6)
    water = _to_screen(layers.near("areas", "water", window), affine)
    if water:
        shown.append("water")
        _, _, fill, hatch, hatch_colour = AREA_CLASSES[-1]
        _hatch_plot(ax, water, fill, hatch, hatch_colour, edge=hatch_colour, lw=1.0)
    # roads widen with the zoom (a street is wider on a larger-scale sheet)
    grow = min(2.5, max(0.6, 2.0 ** ((view.zoom - 17) * 0.7)))
    casing: list[tuple[list[BaseGeometry], float]] = []
    for key, cw, _, _ in LINE_CLASSES:
        geoms = _to_screen(layers.near("lines", key, window), affine)
        if geoms and cw:
            casing.append((geoms, cw * grow))
    for geoms, cw in casing:
        gpd.GeoSeries(geoms).plot(ax=ax, color=ROAD_CASING, linewidth=cw,
                                  capstyle="round", joinstyle="round")
    for key, cw, iw, colour in LINE_CLASSES:
        geoms = _to_screen(layers.near("lines", key, window), affine)
        if not geoms:
            continue
        series = gpd.GeoSeries(geoms)
        if key == "path":
            series.plot(ax=ax, color=colour, linewidth=iw, linestyle=(0, (4, 3)))
        elif key == "rail":
            series.plot(ax=ax, color=colour, linewidth=iw)
            series.plot(ax=ax, color="#ffffff", linewidth=iw - 1.6,
                        linestyle=(0, (6, 6)))
        else:
            series.plot(ax=ax, color=colour, linewidth=iw * grow if cw else iw,
                        capstyle="round", joinstyle="round")
    buildings = _to_screen(layers.near("areas", "building", window), affine)
    if buildings:
        shown.append("building")
        gpd.GeoSeries(buildings).plot(ax=ax, facecolor=BUILDING_FILL if thematic
                                      else BUILDING_FILL_UNDER_CATEGORIES,
                                      edgecolor=BUILDING_EDGE, linewidth=0.8)
    for o in overlays:
        g = screen_geometry(view, o, angle_deg=angle_deg)
        if o.kind == "polygon":
            gpd.GeoSeries([g]).plot(ax=ax, facecolor=o.hex, alpha=OVERLAY_FILL_OPACITY,
                                    edgecolor="none")
            gpd.GeoSeries([g]).plot(ax=ax, facecolor="none", edgecolor=o.hex,
                                    linewidth=OVERLAY_WEIGHT)
        elif o.kind == "line":
            gpd.GeoSeries([g]).plot(ax=ax, color=o.hex, linewidth=OVERLAY_WEIGHT + 1,
                                    capstyle="round", joinstyle="round")
    for o in overlays:  # dots last, over every line and outline
        if o.kind == "point":
            c = screen_geometry(view, o, angle_deg=angle_deg)
            ax.add_patch(Circle((c.x, c.y), POINT_RADIUS + 1, facecolor="#ffffff",
                                edgecolor="none", zorder=10))
            ax.add_patch(Circle((c.x, c.y), POINT_RADIUS - 1, facecolor=o.hex,
                                edgecolor="none", zorder=11))
    # geopandas may autoscale or set an aspect: the canvas is the image, pixel for pixel
    ax.set_aspect("auto")
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return Image.fromarray(rgba[..., :3].copy()), shown


def _legend_rows(shown: Sequence[str]) -> list[tuple[str, str, str, str]]:
    rows = [(words, fill, hatch, hc) for key, words, fill, hatch, hc in AREA_CLASSES
            if key in shown]
    if "building" in shown:
        rows.append(("Building", BUILDING_FILL, "", BUILDING_EDGE))
    return rows[:BASE_LEGEND_ROWS]


def _swatch(image: Image.Image, box: Box, fill: str, hatch: str, colour: str) -> None:
    """A legend swatch: the class's fill and hatch, drawn inside its box only."""
    x0, y0, x1, y1 = (round(v) for v in box)
    sw, sh = x1 - x0, y1 - y0
    tile = Image.new("RGB", (sw, sh), fill)
    d = ImageDraw.Draw(tile)
    if "/" in hatch or "x" in hatch:
        for k in range(-sh, sw, 5):
            d.line((k, sh, k + sh, 0), fill=colour)
    if "x" in hatch:
        for k in range(0, sw + sh, 5):
            d.line((k, sh, k - sh, 0), fill=colour)
    if "-" in hatch:
        for y in range(3, sh, 4):
            d.line((0, y, sw, y), fill=colour)
    if "." in hatch:
        for y in range(3, sh - 1, 4):
            for x in range(3, sw - 1, 4):
                d.point((x, y), fill=colour)
    image.paste(tile, (x0, y0))
    ImageDraw.Draw(image).rectangle((x0, y0, x1, y1), outline="#303030")


def _overlay_legend(draw: ImageDraw.ImageDraw, overlays: Sequence[Overlay], width: int
                    ) -> Box | None:
    if not overlays:
        return None
    font = _font(15, bold=True)
    text_w = max(draw.textlength(o.label, font=font) for o in overlays)
    w = 16.0 + 30.0 + text_w + 12.0
    if w > LEGEND_MAX_WIDTH:
        raise ValueError(f"a legend line {w:.0f} px wide does not fit the print map")
    x1, y0 = width - 14.0, 12.0
    box = (x1 - w, y0, x1, y0 + 16.0 + LEGEND_ROW_PX * len(overlays))
    draw.rectangle(box, fill="#ffffff", outline="#202020", width=2)
    for i, o in enumerate(overlays):
        y = box[1] + 8 + LEGEND_ROW_PX * i
        x = box[0] + 10
        if o.kind == "polygon":
            draw.rectangle((x, y + 3, x + 22, y + 17), outline=o.hex, width=3)
        elif o.kind == "line":
            draw.line((x, y + 10, x + 24, y + 10), fill=o.hex, width=4)
        else:
            draw.ellipse((x + 4, y + 2, x + 20, y + 18), fill=o.hex, outline="#ffffff", width=2)
        draw.text((x + 34, y + 1), o.label, fill="#111111", font=font)
    return box


def draw_print_map(layers: PrintLayers, view: View, angle_deg: float,
                   overlays: Sequence[Overlay], *, thematic: bool = True,
                   compress_level: int = -1) -> tuple[bytes, dict[str, Box]]:
    """Draw a print-style map: body, neat line, title, overlay legend, base legend and
    attribution (the scale bar and north arrow are drawn after, as on every FRIEDA map).

    Parameters
    ----------
    layers : PrintLayers
        The extract's layers.
    view : View
        The image's (unturned) view.
    angle_deg : float
        Where north points, clockwise from the top.
    overlays : sequence of Overlay
        The question's features, drawn over the map and named in the legend (top right).
    thematic : bool, optional
        Fill the land-use classes and list them in a base legend (bottom right); off when
        the map draws a question's own legend layer there.
    compress_level : int, optional
        The PNG's zlib level (-1: zlib's default; an image another step decodes at
        once may take 0, its pixels being the same).

    Returns
    -------
    (bytes, dict)
        The PNG and the boxes of ``title``, ``legend``, ``base_legend``, ``attribution``
        and the neat line's ``frame_*`` strips.

    Raises
    ------
    ValueError
        When the overlay legend is too wide for the map.
    """
    image, shown = _draw_body(layers, view, angle_deg, overlays, thematic=thematic)
    if image.size != (view.width, view.height):
        raise RuntimeError(f"the print canvas came out {image.size}, not "
                           f"{(view.width, view.height)}")
    w, h = image.size
    draw = ImageDraw.Draw(image)
    frame = frame_boxes(w, h)
    for x0, y0, x1, y1 in frame:  # the white margin
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill="#ffffff")
    draw.rectangle((NEAT_INSET, NEAT_INSET, w - 1 - NEAT_INSET, h - 1 - NEAT_INSET),
                   outline="#111111", width=NEAT_WIDTH)
    boxes: dict[str, Box] = dict(zip(("frame_top", "frame_right", "frame_bottom",
                                      "frame_left"), frame, strict=True))
    tb = title_box(w)
    title = TITLES[int(abs(view.center[0] * 1e4 + view.center[1] * 1e4)) % len(TITLES)]
    draw_title(draw, tb, title)
    boxes["title"] = tb
    legend = _overlay_legend(draw, overlays, w)
    if legend is not None:
        boxes["legend"] = legend
    rows = _legend_rows(shown) if thematic else []
    if rows:
        lb = base_legend_box(w, h, len(rows))
        draw.rectangle(lb, fill="#ffffff", outline="#111111", width=2)
        draw.text((lb[0] + 10, lb[1] + 7), "LEGEND", fill="#111111", font=_font(14, bold=True))
        for i, (words, fill, hatch, colour) in enumerate(rows):
            y = lb[1] + 28 + BASE_ROW_PX * i
            _swatch(image, (lb[0] + 10, y, lb[0] + 38, y + 16), fill, hatch, colour)
            draw.text((lb[0] + 46, y), words, fill="#111111", font=_font(13))
        boxes["base_legend"] = lb
    ab = attribution_box(w, h)
    draw.rectangle(ab, fill="#ffffff")
    draw.text((ab[2] - 4, (ab[1] + ab[3]) / 2), ATTRIBUTION, fill="#222222",
              font=_font(11), anchor="rm")
    boxes["attribution"] = ab
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue(), boxes
