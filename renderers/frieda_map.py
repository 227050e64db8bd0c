"""FRIEDA map images: the OSM-Carto map with named overlays, a legend, a scale bar and a
compass rose, optionally turned so that north is not up.

:class:`FriedaMapRenderer` renders a square page (side
:func:`renderers.compass.frame_side` of the image, so that any turn fills the image)
with :class:`~renderers.map_render.MapRenderer` and a square
:class:`~renderers.browser.Browser`, turns it with
:func:`renderers.compass.compose_turned` and draws the compass rose
(:func:`renderers.compass.draw_compass`). :class:`FriedaMap` reports, for each
overlay, the share of it visible on the image and clear of the legend, controls and
compass (:func:`renderers.overlays.visible_share`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from shapely.geometry.base import BaseGeometry

from groundtruth.projection import View
from renderers.browser import Browser
from renderers.compass import compass_box, compose_turned, draw_north, frame_side
from renderers.legend_layer import DrawnCategory, draw_categories
from renderers.map_render import MapRenderer, TileSource
from renderers.map_styles import STYLES, StyledTiles
from renderers.overlays import (
    OVERLAY_WEIGHT,
    POINT_RADIUS,
    Overlay,
    overlay_from_geometry,
    screen_geometry,
    visible_share,
)
from renderers.png_pixels import near_colour, rgb_pixels
from renderers.print_map import PRINT_STYLE, PrintLayers, draw_print_map, load_print_layers
from renderers.scale_bars import draw_scale_bar

Box = tuple[float, float, float, float]

#: Image size of every FRIEDA map (CSS pixels, as the other tasks).
IMAGE_WIDTH = 1366
IMAGE_HEIGHT = 768
#: The unit of a ``print`` map's scale bar when the question asks none (a planning
#: document always carries one bar), and the bar's inset inside the neat line.
PRINT_DEFAULT_UNIT = "m"
PRINT_BAR_INSET = 16.0
#: Largest RGB distance of a pixel that shows an overlay's colour: its outline seen
#: through another polygon's 18% fill still counts (about 50), a building or the
#: base map drawn over it does not.
PIXEL_COLOUR_TOLERANCE = 60.0


def _probe_mask(geometry: BaseGeometry, kind: str, width: int, height: int) -> np.ndarray:
    """Pixels where an overlay must show its colour when nothing covers it: the middle
    of a polygon's outline or a line (1 px each side of the drawn centre line), or the
    disc of a dot (all but its rim)."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    if kind == "point":
        c = geometry.centroid
        r = POINT_RADIUS - 2
        draw.ellipse((c.x - r, c.y - r, c.x + r, c.y + r), fill=1)
        return np.asarray(image, dtype=bool)
    lines = geometry.boundary if kind == "polygon" else geometry
    parts = list(getattr(lines, "geoms", [lines]))
    for part in parts:
        coords = list(part.coords)
        if len(coords) >= 2:
            draw.line(coords, fill=1, width=max(1, OVERLAY_WEIGHT - 2))
    return np.asarray(image, dtype=bool)


#: zlib level of the PNGs passed from one drawing step of :meth:`FriedaMapRenderer.render`
#: to the next (turned map, thematic layer, scale bar; each decoded at once by the next
#: step): 0, no compression, since only their pixels matter; the finished map
#: (:func:`renderers.compass.draw_north`) keeps zlib's default. Encoding those steps at
#: the default level took 15% of a small build's time (frieda29e); the finished PNGs are
#: byte for byte the same.
STEP_PNG_LEVEL = 0

#: Pixels of room around the image when the probe pixels are drawn (parts of an overlay
#: off the image count as not visible).
_PAD = 400


def pixel_visible_share(png: bytes, geometry: BaseGeometry, kind: str, hex_colour: str
                        ) -> float:
    """The share of an overlay's probe pixels (:func:`_probe_mask`) that show its colour
    on the image: what a reader sees of it once the legend, the compass, other overlays
    and the image's edges have taken their part.

    Parameters
    ----------
    png : bytes
        The finished map.
    geometry : shapely geometry
        The overlay in image pixels (:func:`renderers.overlays.screen_geometry`).
    kind : str
        ``polygon``, ``line`` or ``point``.
    hex_colour : str
        The overlay's colour, ``#rrggbb``.

    Returns
    -------
    float
        In ``[0, 1]``; 0 when the overlay has no probe pixel.
    """
    from shapely import affinity

    rgb = rgb_pixels(png)  # decoded once per finished map
    h, w = rgb.shape[:2]
    probe = _probe_mask(affinity.translate(geometry, _PAD, _PAD), kind,
                        w + 2 * _PAD, h + 2 * _PAD)
    total = int(probe.sum())
    if not total:
        return 0.0
    inside = probe[_PAD:_PAD + h, _PAD:_PAD + w]
    rows, cols = np.flatnonzero(inside.any(axis=1)), np.flatnonzero(inside.any(axis=0))
    if not len(rows):
        return 0.0
    # the colour test on the probe's bounding box only (the same pixels counted)
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    target = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    close = near_colour(rgb[y0:y1, x0:x1], target, PIXEL_COLOUR_TOLERANCE)
    return float((inside[y0:y1, x0:x1] & close).sum() / total)


@dataclass
class FriedaMap:
    """One rendered FRIEDA map.

    Attributes
    ----------
    png : bytes
        The image, :data:`IMAGE_WIDTH` x :data:`IMAGE_HEIGHT`.
    view : View
        The (unturned) view of the image: centre, zoom, size.
    angle_deg : float
        Where north points, clockwise from the top of the image.
    controls : dict
        Boxes of ``legend``, ``scale_bar``, ``attribution`` and ``compass`` in the image.
    scale_bar : dict
        The metric and imperial scale bars as Leaflet drew them (``label``,
        ``meters``, ``width_px``, ...).
    visible : list of float
        Per overlay, the share on the image and clear of every control (geometry).
    pixel_visible : list of float
        Per overlay, the share of its outline (or dot) that shows its colour on the
        finished image (:func:`pixel_visible_share`): what other overlays hide counts.
    style : str
        The basemap style (:data:`renderers.map_styles.STYLES`).
    drawn : dict
        The renderer's record of the square page.
    """

    png: bytes
    view: View
    angle_deg: float
    controls: dict[str, Box]
    scale_bar: dict[str, Any]
    visible: list[float] = field(default_factory=list)
    drawn: dict[str, Any] = field(default_factory=dict)
    pixel_visible: list[float] = field(default_factory=list)
    style: str = "carto"
    categories: list[str] = field(default_factory=list)
    north: str = "rose"


def _thematic(png: bytes, view: View, angle_deg: float,
              categories: Sequence[tuple[str, Sequence[BaseGeometry]]],
              overlays: Sequence[Overlay], boxes: dict[str, Box],
              compress_level: int = -1) -> tuple[bytes, Box]:
    """Draw a thematic layer and its legend on a turned map (overlays drawn again on top)."""
    drawn = [DrawnCategory(name, tuple(
        screen_geometry(view, overlay_from_geometry(name, "red", g), angle_deg=angle_deg)
        for g in geoms)) for name, geoms in categories]
    dots = []
    lines = []
    for o in overlays:
        g = screen_geometry(view, o, angle_deg=angle_deg)
        if o.kind == "point":
            dots.append((g.centroid.x, g.centroid.y, o.hex))
        else:  # outlines and lines drawn again over the layer
            lines.append((g, o.hex))
    foot = boxes["attribution"][1] if "attribution" in boxes else IMAGE_HEIGHT - 20.0
    return draw_categories(png, drawn, dots, bottom=foot, keep=list(boxes.values()),
                           lines=lines, compress_level=compress_level)


def bar_meters(scale_bar: dict[str, Any]) -> float:
    """The ground length of the bar a reader measures with: the one-unit bar
    (``bar``) or Leaflet's metric one (0 when none was drawn).

    Examples
    --------
    >>> bar_meters({"bar": {"meters": 160.9}}), bar_meters({"metric": {"meters": 50}})
    (160.9, 50.0)
    """
    bar = scale_bar.get("bar") or scale_bar.get("metric") or {}
    return float(bar.get("meters") or 0.0)


class FriedaMapRenderer:
    """Render FRIEDA maps over a tile source with a square headless Chromium.

    Parameters
    ----------
    tiles : TileSource
        The tile pipeline (a :class:`renderers.tiles.TileRenderer`: the ``print`` style
        reads its PostGIS tables).
    assets_dir : pathlib.Path
        Folder with the local Leaflet files.
    print_layers : PrintLayers, optional
        The ``print`` style's layers (read from ``tiles``' database on first need when
        not given).
    """

    def __init__(self, tiles: TileSource, *, assets_dir: Path,
                 print_layers: PrintLayers | None = None) -> None:
        self.side = frame_side(IMAGE_WIDTH, IMAGE_HEIGHT)
        self._browser = Browser(width=self.side, height=self.side)
        self._tiles = tiles
        self._assets_dir = assets_dir
        self._renderers: dict[str, MapRenderer] = {}
        self._print_layers = print_layers

    def _print(self) -> PrintLayers:
        if self._print_layers is None:
            self._print_layers = load_print_layers(self._tiles)
        return self._print_layers

    def _renderer(self, style: str) -> MapRenderer:
        if style not in STYLES:
            raise ValueError(f"unknown map style {style!r}; choose one of {', '.join(STYLES)}")
        if style not in self._renderers:
            source = self._tiles if style == "carto" else StyledTiles(self._tiles, style)
            if isinstance(source, StyledTiles):
                source.tile_dir.mkdir(parents=True, exist_ok=True)
            self._renderers[style] = MapRenderer(source, assets_dir=self._assets_dir,
                                                 browser=self._browser)
        return self._renderers[style]

    def render(self, center: tuple[float, float], zoom: int, overlays: Sequence[Overlay], *,
               angle_deg: float = 0.0, style: str = "carto",
               categories: Sequence[tuple[str, Sequence[BaseGeometry]]] = (),
               north: str = "rose", scale_unit: str = "") -> FriedaMap:
        """Render one map.

        Parameters
        ----------
        center : (lat, lon)
            Centre of the image.
        zoom : int
            15-19.
        overlays : sequence of Overlay
            Features drawn and named in the legend.
        angle_deg : float, optional
            Where north points, clockwise from the top.
        style : str, optional
            The basemap (:data:`renderers.map_styles.STYLES`).
        categories : sequence of (str, sequence of geometry), optional
            A thematic layer: each legend category and its ``(lon, lat)`` areas, filled
            and hatched under the dots, named in a legend box at the bottom right
            (:func:`renderers.legend_layer.draw_categories`; box ``category_legend``).
        north : str, optional
            The north indicator (:data:`renderers.compass.NORTH_DESIGNS`).
        scale_unit : str, optional
            ``""``: Leaflet's scale bars (metres and feet); ``m``, ``km``, ``ft`` or
            ``mi``: one bar in that unit (:func:`renderers.scale_bars.draw_scale_bar`),
            recorded as ``scale_bar["bar"]``. A ``print`` map always draws one bar
            (:data:`PRINT_DEFAULT_UNIT` when none is asked).

        Returns
        -------
        FriedaMap
        """
        view = View(center=center, zoom=zoom, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
        drawn: dict[str, Any]
        if style == PRINT_STYLE:
            png, boxes = draw_print_map(self._print(), view, angle_deg, overlays,
                                        thematic=not categories,
                                        compress_level=STEP_PNG_LEVEL)
            drawn, scale, inset = {"style": PRINT_STYLE}, {}, PRINT_BAR_INSET
            scale_unit = scale_unit or PRINT_DEFAULT_UNIT
        else:
            square = View(center=center, zoom=zoom, width=self.side, height=self.side)
            result = self._renderer(style).render(square, overlays=overlays)
            kept = ("legend", "attribution") + (() if scale_unit else ("scale_bar",))
            keep = {k: v for k, v in result.controls.items() if k in kept}
            png, boxes = compose_turned(result.png, angle_deg, width=IMAGE_WIDTH,
                                        height=IMAGE_HEIGHT, controls=keep,
                                        compress_level=STEP_PNG_LEVEL)
            drawn, inset = result.drawn, 6.0
            scale = dict(result.drawn.get("scale_bar") or {})
        if categories:
            png, boxes["category_legend"] = _thematic(png, view, angle_deg, categories,
                                                      overlays, boxes,
                                                      compress_level=STEP_PNG_LEVEL)
        if scale_unit:
            png, bar, boxes["scale_bar"] = draw_scale_bar(png, scale_unit,
                                                          view.meters_per_pixel(), inset=inset,
                                                          compress_level=STEP_PNG_LEVEL)
            scale = {"bar": bar}
        png = draw_north(png, angle_deg, north)
        boxes["compass"] = compass_box(IMAGE_WIDTH, IMAGE_HEIGHT)
        blocked = list(boxes.values())
        screens = [screen_geometry(view, o, angle_deg=angle_deg) for o in overlays]
        visible = [visible_share(g, width=IMAGE_WIDTH, height=IMAGE_HEIGHT, blocked=blocked)
                   for g in screens]
        pixels = [pixel_visible_share(png, g, o.kind, o.hex)
                  for g, o in zip(screens, overlays, strict=True)]
        return FriedaMap(png=png, view=view, angle_deg=angle_deg, controls=boxes,
                         scale_bar=scale, visible=visible,
                         drawn=drawn, pixel_visible=pixels, style=style,
                         categories=[c for c, _ in categories], north=north)

    def close(self) -> None:
        """Close the square browser."""
        for renderer in self._renderers.values():
            renderer.close()
        self._browser.close()
