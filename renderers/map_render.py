"""Render a map view to a PNG and report what was drawn where.

:class:`MapRenderer` ties the parts together: it makes sure the view's tiles exist
(with a one-tile margin), writes the Leaflet page (:mod:`renderers.page`) to a
temporary file, has the long-lived :class:`~renderers.browser.Browser` load it over
``file://`` (or, when the browser already shows a map page, swap the new map into it:
:func:`renderers.page.view_update`), screenshots it as soon as every tile has loaded,
and reads back from Leaflet where it put each marker, path vertex, the scale bar and
the other map controls (:attr:`RenderResult.controls`). The positions computed by
:mod:`groundtruth.projection` are checked against Leaflet's own to half a pixel, so
what the result reports is what the image shows.
"""

from __future__ import annotations

import itertools
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol
from urllib.parse import unquote
from urllib.request import url2pathname

from groundtruth.projection import View, path_length_px
from renderers.browser import Browser
from renderers.errors import RenderError
from renderers.markers import MARKER_COLORS, Marker
from renderers.overlays import Overlay
from renderers.page import build_map_html, view_update
from renderers.scratch import private_tempdir

__all__ = [
    "MAX_ZOOM",
    "MIN_ZOOM",
    "MapRenderer",
    "Marker",
    "RenderResult",
    "TileSource",
    "control_boxes",
    "describe_drawing",
    "parse_scale_label",
]

#: Zoom levels the renderer draws (CartoMapQA's range).
MIN_ZOOM = 15
MAX_ZOOM = 19
#: Largest allowed gap, on either axis, between our projection and Leaflet's placement
#: (pixels): Leaflet rounds marker positions to whole pixels.
PIXEL_TOLERANCE = 0.5

#: Metres in one unit of each scale-bar label unit.
SCALE_UNITS_M: dict[str, float] = {"m": 1.0, "km": 1000.0, "ft": 0.3048, "mi": 1609.344}

_SCALE_LABEL = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(m|km|ft|mi)\s*$")

#: True once the page has loaded and every tile image carries ``leaflet-tile-loaded``
#: (or failed: ``cartoqa-tile-error``, reported after the screenshot).
READY_JS = """
var tiles = document.querySelectorAll("img.leaflet-tile");
return document.readyState === "complete" && window.cartoqaMap !== undefined
    && tiles.length > 0
    && Array.prototype.every.call(tiles, function (t) {
        return t.classList.contains("leaflet-tile-loaded")
            || t.classList.contains("cartoqa-tile-error");
    });
"""

#: Reads back from Leaflet what it drew (container pixels are CSS pixels from top-left).
PROBE_JS = """
var map = window.cartoqaMap;
var zoom = map.getZoom();
var origin = map.getPixelOrigin();
function exact(ll) {
    var p = map.project(ll, zoom);
    return [p.x - origin.x, p.y - origin.y];
}
function placed(ll) {
    var p = map.latLngToContainerPoint(ll);
    return [p.x, p.y];
}
var size = map.getSize();
var center = map.getCenter();
var b = map.getBounds();
var markers = window.cartoqaMarkers.map(function (m) {
    return {exact: exact(m.getLatLng()), placed: placed(m.getLatLng())};
});
var path = null;
if (window.cartoqaPath) {
    path = window.cartoqaPath.getLatLngs().map(function (ll) {
        return {exact: exact(ll), placed: placed(ll)};
    });
}
var scale = Array.prototype.map.call(
    document.querySelectorAll(".leaflet-control-scale-line"), function (e) {
        var r = e.getBoundingClientRect();
        return {label: e.textContent, box: [r.left, r.top, r.width, r.height]};
    });
var attribution = document.querySelector(".leaflet-control-attribution");
function controlBox(selector) {
    var e = document.querySelector(selector);
    if (!e) { return null; }
    var r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
}
return {
    size: [size.x, size.y],
    zoom: zoom,
    center: [center.lat, center.lng],
    bounds: [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()],
    pixel_origin: [origin.x, origin.y],
    markers: markers,
    path: path,
    scale: scale,
    attribution: attribution ? attribution.textContent : null,
    controls: {
        zoom: controlBox(".leaflet-control-zoom"),
        scale_bar: controlBox(".leaflet-control-scale"),
        attribution: controlBox(".leaflet-control-attribution"),
        legend: controlBox(".cartoqa-legend")
    },
    tiles: document.querySelectorAll("img.leaflet-tile").length,
    tile_errors: window.cartoqaTileErrors
};
"""


class TileSource(Protocol):
    """What the renderer needs from a tile pipeline (``renderers.tiles.TileRenderer``)."""

    @property
    def url_template(self) -> str:
        """Leaflet URL template of the tiles, e.g. ``file:///…/{z}/{x}/{y}.png``."""
        ...

    @property
    def style_version(self) -> str:
        """Identifies the map style the tiles were drawn with."""
        ...

    def ensure_tiles(
        self, tiles: Iterable[tuple[int, int, int]], progress: bool = False
    ) -> None:
        """Render whichever of these ``(z, x, y)`` tiles are not cached yet."""
        ...


@dataclass(frozen=True)
class RenderResult:
    """A rendered view and what was drawn in it.

    Attributes
    ----------
    png : bytes
        The screenshot, exactly ``view.width`` x ``view.height`` pixels.
    drawn : dict
        JSON-ready description (see :func:`describe_drawing`).
    view : groundtruth.projection.View
        The view drawn.
    html : str
        The page that was screenshot.
    controls : dict
        Where Leaflet drew each map control, measured in the page: control name
        (``"zoom"``, ``"scale_bar"``, ``"attribution"``) -> ``(x0, y0, x1, y1)`` in view
        pixels; only the controls on the map (see :func:`control_boxes`).
    """

    png: bytes
    drawn: dict[str, Any]
    view: View
    html: str
    controls: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)


def parse_scale_label(label: str) -> tuple[float, str]:
    """Split a Leaflet scale-bar label into its number and unit.

    Parameters
    ----------
    label : str
        Text such as ``"50 m"``, ``"1 km"``, ``"200 ft"`` or ``"1 mi"``.

    Returns
    -------
    tuple
        ``(value, unit)``.

    Raises
    ------
    RenderError
        If the label is not a number and one of ``m km ft mi``.

    Examples
    --------
    >>> parse_scale_label("50 m")
    (50.0, 'm')
    >>> parse_scale_label("1 mi")
    (1.0, 'mi')
    """
    match = _SCALE_LABEL.match(label)
    if not match:
        raise RenderError(f"unexpected scale bar label {label!r}",
                          "report this as a bug in renderers.map_render")
    return float(match.group(1)), match.group(2)


def control_boxes(probe: dict[str, Any]) -> dict[str, tuple[float, float, float, float]]:
    """The map controls' boxes from what :data:`PROBE_JS` measured in the page.

    Parameters
    ----------
    probe : dict
        The probe's result; its ``controls`` maps a control name to
        ``[left, top, right, bottom]`` (CSS pixels from the map's top-left corner) or
        ``None`` when the page has no such control.

    Returns
    -------
    dict
        Control name -> ``(x0, y0, x1, y1)``, for the controls drawn with a size.

    Examples
    --------
    >>> control_boxes({"controls": {"zoom": None, "scale_bar": [10, 722.5, 91, 758],
    ...                             "attribution": [1130, 750, 1366, 768]}})
    {'scale_bar': (10.0, 722.5, 91.0, 758.0), 'attribution': (1130.0, 750.0, 1366.0, 768.0)}
    >>> control_boxes({})
    {}
    """
    out: dict[str, tuple[float, float, float, float]] = {}
    for name, box in (probe.get("controls") or {}).items():
        if box is None:
            continue
        x0, y0, x1, y1 = (float(v) for v in box)
        if x1 > x0 and y1 > y0:
            out[name] = (x0, y0, x1, y1)
    return out


def _check_close(
    what: str, ours: Sequence[float], leaflet: Sequence[float], tolerance: float
) -> None:
    gap = max(abs(ours[0] - leaflet[0]), abs(ours[1] - leaflet[1]))
    if gap > tolerance + 1e-9:
        raise RenderError(
            f"{what}: projection says ({ours[0]:.2f}, {ours[1]:.2f}) but Leaflet drew it at "
            f"({leaflet[0]:.2f}, {leaflet[1]:.2f})",
            "report this as a bug in renderers.map_render",
        )


def describe_drawing(
    view: View,
    *,
    markers: Sequence[Marker],
    path: Sequence[tuple[float, float]] | None,
    probe: dict[str, Any],
    tolerance: float = PIXEL_TOLERANCE,
) -> dict[str, Any]:
    """Combine the view's projection with what Leaflet reports into the ``drawn`` record.

    Parameters
    ----------
    view : groundtruth.projection.View
        The view drawn.
    markers : sequence of Marker
        The markers, in page order.
    path : sequence of (lat, lon) or None
        The path's vertices.
    probe : dict
        What :data:`PROBE_JS` returned from the page.
    tolerance : float, optional
        Largest allowed difference (pixels, on either axis) between our position of a
        marker or vertex and Leaflet's.

    Returns
    -------
    dict
        ``width``, ``height``, ``center`` ``[lat, lon]``, ``zoom``, ``bounds``
        ``[south, west, north, east]``, ``pixel_origin``, ``meters_per_pixel`` (at the
        centre), ``markers`` (each ``color``, ``lat``, ``lon``, ``px`` — the tip from
        :meth:`View.to_view_px` — and ``leaflet_px`` — where Leaflet put it, rounded
        to whole pixels), ``path`` (``latlon``, ``px``, ``leaflet_px``, ``length_px``;
        or ``None``), ``scale_bar`` (``metric`` and ``imperial``: ``label``,
        ``value``, ``unit``, ``meters``, ``width_px``, ``box`` ``[left, top, width,
        height]``) and ``attribution``.

    Raises
    ------
    RenderError
        If Leaflet's view or placements disagree with the projection.
    """
    if list(probe["size"]) != [view.width, view.height] or int(probe["zoom"]) != view.zoom:
        raise RenderError(
            f"Leaflet drew a {probe['size']} map at zoom {probe['zoom']}, "
            f"not {view.width}x{view.height} at zoom {view.zoom}",
            "report this as a bug in renderers.page",
        )
    if [float(v) for v in probe["pixel_origin"]] != list(view.origin_px):
        raise RenderError(
            f"Leaflet's pixel origin {probe['pixel_origin']} differs from {view.origin_px}",
            "report this as a bug in groundtruth.projection",
        )
    if len(probe["markers"]) != len(markers):
        raise RenderError("the page lost a marker", "report this as a bug in renderers.page")

    marker_records = []
    for i, (marker, seen) in enumerate(zip(markers, probe["markers"], strict=True)):
        px = view.to_view_px(marker.lat, marker.lon)
        _check_close(f"marker {i} ({marker.color})", px, seen["exact"], tolerance)
        _check_close(f"marker {i} ({marker.color})", px, seen["placed"], tolerance)
        marker_records.append(
            {
                "color": marker.color,
                "lat": marker.lat,
                "lon": marker.lon,
                "px": [px[0], px[1]],
                "leaflet_px": [float(seen["placed"][0]), float(seen["placed"][1])],
            }
        )

    path_record: dict[str, Any] | None = None
    if path is not None:
        seen_path = probe["path"] or []
        if len(seen_path) != len(path):
            raise RenderError("the page lost a path vertex",
                              "report this as a bug in renderers.page")
        vertices = []
        for i, ((lat, lon), seen) in enumerate(zip(path, seen_path, strict=True)):
            px = view.to_view_px(lat, lon)
            _check_close(f"path vertex {i}", px, seen["exact"], tolerance)
            vertices.append([px[0], px[1]])
        path_record = {
            "latlon": [[lat, lon] for lat, lon in path],
            "px": vertices,
            "leaflet_px": [[float(s["placed"][0]), float(s["placed"][1])] for s in seen_path],
            "length_px": path_length_px(list(path), view.zoom),
        }

    bars: dict[str, Any] = {}
    for line in probe["scale"]:
        value, unit = parse_scale_label(line["label"])
        kind = "metric" if unit in ("m", "km") else "imperial"
        bars[kind] = {
            "label": line["label"].strip(),
            "value": value,
            "unit": unit,
            "meters": value * SCALE_UNITS_M[unit],
            "width_px": float(line["box"][2]),
            "box": [float(v) for v in line["box"]],
        }
    south, west, north, east = view.bounds
    return {
        "width": view.width,
        "height": view.height,
        "center": [view.center[0], view.center[1]],
        "zoom": view.zoom,
        "bounds": [south, west, north, east],
        "pixel_origin": list(view.origin_px),
        "meters_per_pixel": view.meters_per_pixel(),
        "markers": marker_records,
        "path": path_record,
        "scale_bar": bars,
        "attribution": probe.get("attribution"),
    }


class MapRenderer:
    """Draw map views over a tile source with one long-lived headless Chromium.

    Parameters
    ----------
    tiles : TileSource
        The tile pipeline (``renderers.tiles.TileRenderer``): its ``url_template``,
        ``style_version`` and ``ensure_tiles``.
    assets_dir : pathlib.Path
        Folder with ``leaflet/leaflet.js`` and ``leaflet/leaflet.css``.
    browser : Browser, optional
        A browser to share; when omitted the renderer starts (and closes) its own.

    Examples
    --------
    >>> with MapRenderer(tiles, assets_dir=web) as renderer:  # doctest: +SKIP
    ...     result = renderer.render(View(center=(60.1699, 24.9384), zoom=17),
    ...                              markers=[Marker(60.1699, 24.9384, "red")])
    ...     Path("view.png").write_bytes(result.png)
    """

    def __init__(
        self, tiles: TileSource, *, assets_dir: Path, browser: Browser | None = None
    ) -> None:
        self.tiles = tiles
        self.assets_dir = Path(assets_dir)
        self._own_browser = browser is None
        self.browser = browser if browser is not None else Browser()
        self._workdir = private_tempdir("page")
        self._counter = itertools.count()
        # When the browser runs as another user it loads these over the DevTools pipe.
        self.browser.allow(self._workdir, self.assets_dir / "leaflet")
        tile_root = self.tiles.url_template.split("{", 1)[0]
        if tile_root.startswith("file:///"):
            self.browser.allow(Path(url2pathname(unquote(tile_root[len("file://"):]))))

    def render(
        self,
        view: View,
        *,
        markers: Sequence[Marker] = (),
        path: Sequence[tuple[float, float]] | None = None,
        overlays: Sequence[Overlay] = (),
    ) -> RenderResult:
        """Render one view.

        Parameters
        ----------
        view : groundtruth.projection.View
            Centre, zoom (15-19) and size.
        markers : sequence of Marker, optional
            Pins, drawn with their tips on the points; each must lie inside the view.
        path : sequence of (lat, lon), optional
            A blue polyline (at least two vertices, all inside the view).
        overlays : sequence of Overlay, optional
            Named features drawn over the map with a legend
            (:func:`renderers.page.build_map_html`); the legend's box is reported in
            :attr:`RenderResult.controls` as ``"legend"``.

        Returns
        -------
        RenderResult
            The PNG and the record of what was drawn.

        Raises
        ------
        RenderError
            For a zoom outside 15-19, a marker or vertex outside the view, missing
            Leaflet files or Chromium, or a tile that failed to load.
        """
        if not (MIN_ZOOM <= view.zoom <= MAX_ZOOM) or int(view.zoom) != view.zoom:
            raise RenderError(f"zoom {view.zoom} is not supported",
                              f"use a whole zoom from {MIN_ZOOM} to {MAX_ZOOM}")
        for marker in markers:
            if marker.color not in MARKER_COLORS:  # Marker validates; guard plain look-alikes
                raise RenderError(f"unknown marker colour {marker.color!r}")
            if not view.contains(marker.lat, marker.lon):
                raise RenderError(
                    f"{marker.color} marker at ({marker.lat}, {marker.lon}) is outside the view",
                    "move the view centre or lower the zoom",
                )
        if path is not None:
            for lat, lon in path:
                if not view.contains(lat, lon):
                    raise RenderError(f"path vertex ({lat}, {lon}) is outside the view",
                                      "move the view centre or lower the zoom")

        self.tiles.ensure_tiles(view.tiles(margin_tiles=1))
        html = build_map_html(
            view,
            tile_url_template=self.tiles.url_template,
            assets_dir=self.assets_dir,
            markers=markers,
            path=path,
            url_of=self.browser.url_for,
            overlays=overlays,
        )
        page = self._workdir / f"view-{next(self._counter)}.html"
        page.write_text(html, encoding="utf-8")
        try:
            png, probe = self.browser.capture(page.as_uri(), ready_js=READY_JS,
                                              probe_js=PROBE_JS, update=view_update(html))
        finally:
            page.unlink(missing_ok=True)
        if probe["tile_errors"]:
            raise RenderError(
                f"{len(probe['tile_errors'])} tile(s) failed to load, e.g. "
                f"z/x/y {probe['tile_errors'][0]}",
                "check the tile cache folder; delete it to re-render",
            )
        drawn = describe_drawing(view, markers=markers, path=path, probe=probe)
        drawn["tiles"] = {
            "url_template": self.tiles.url_template,
            "style_version": self.tiles.style_version,
            "count": int(probe["tiles"]),
        }
        return RenderResult(png=png, drawn=drawn, view=view, html=html,
                            controls=control_boxes(probe))

    def close(self) -> None:
        """Close the browser if this renderer started it, and remove the page folder."""
        if self._own_browser:
            self.browser.close()
        shutil.rmtree(self._workdir, ignore_errors=True)

    def __enter__(self) -> MapRenderer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
