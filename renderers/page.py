"""The map page: a Folium/Leaflet map of one view over local tiles, with only local assets.

Folium's default page pulls Leaflet, jQuery, Bootstrap, Font Awesome and
awesome-markers from CDNs, which are unreachable offline. :func:`build_map_html`
links only the local Leaflet files (``<assets_dir>/leaflet/leaflet.js`` and
``leaflet.css``); markers are inline SVG pins (:mod:`renderers.markers`), so nothing
else is needed. The page also exposes, for the browser to read back after loading,
``window.cartoqaMap`` (the Leaflet map), ``window.cartoqaMarkers`` (the markers in
the order given), ``window.cartoqaPath`` (the polyline or ``null``) and
``window.cartoqaTileErrors`` (``[z, x, y]`` of tiles that failed to load; their
``<img>`` gets the class ``cartoqa-tile-error``, as Leaflet marks only loaded tiles).

:func:`view_update` turns such a page into a script that shows its view in a browser
that already holds a map page with the same head (the same Leaflet files): the old
map is removed and the new one is built by the page's own script, in the same
document, so Leaflet is not fetched, parsed and compiled again for every view, and
tiles the document has already decoded are not fetched again. The pixels are those of
a fresh page (``tests/renderers/test_map_render.py`` compares them).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from branca.element import MacroElement
from jinja2 import Template

from groundtruth.projection import View
from renderers.browser import LOCAL_ORIGIN
from renderers.errors import RenderError
from renderers.folium_without_pandas import folium
from renderers.markers import PIN_ANCHOR, PIN_HEIGHT, PIN_WIDTH, Marker, pin_svg
from renderers.overlays import OVERLAY_FILL_OPACITY, OVERLAY_WEIGHT, POINT_RADIUS, Overlay

#: Attribution shown on every map (OSM data is ODbL).
OSM_ATTRIBUTION = "© OpenStreetMap contributors"
#: Colour and width (CSS pixels) of the path polyline.
PATH_COLOR = "#1f63e0"
PATH_WEIGHT = 5

#: ``src``/``href`` attributes and CSS ``url(...)`` values that reach the network.
_REMOTE_LINK = re.compile(
    r"""(?:\b(?:src|href)\s*=\s*["']?|url\(\s*["']?)\s*((?:https?:)?//[^"'\s)>]+)""",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class LeafletAssets:
    """Local Leaflet files.

    Attributes
    ----------
    js, css : pathlib.Path
        ``leaflet.js`` and ``leaflet.css``.
    """

    js: Path
    css: Path


def leaflet_assets(assets_dir: Path) -> LeafletAssets:
    """Find the local Leaflet files under a web-assets folder.

    Parameters
    ----------
    assets_dir : pathlib.Path
        Folder holding ``leaflet/leaflet.js`` and ``leaflet/leaflet.css``.

    Returns
    -------
    LeafletAssets
        Absolute paths of both files.

    Raises
    ------
    RenderError
        If either file is missing.
    """
    folder = Path(assets_dir).resolve() / "leaflet"
    assets = LeafletAssets(js=folder / "leaflet.js", css=folder / "leaflet.css")
    for path in (assets.js, assets.css):
        if not path.is_file():
            raise RenderError(
                f"the local Leaflet file {path} is missing",
                "run scripts/install.sh (it copies Leaflet 1.9.4 there) "
                "or set CARTOQA_WEB_ASSETS to a folder holding leaflet/leaflet.js",
            )
    return assets


def remote_links(html: str) -> list[str]:
    """Return every ``src``/``href``/``url()`` in a page that points at the network.

    Links to the browser's private origin (:data:`renderers.browser.LOCAL_ORIGIN`),
    which the browser answers itself from local files, do not count.

    Parameters
    ----------
    html : str
        A page.

    Returns
    -------
    list of str
        The offending URLs (``http://``, ``https://`` or protocol-relative ``//``).

    Examples
    --------
    >>> remote_links('<script src="https://static.example.org/x.js"></script>')
    ['https://static.example.org/x.js']
    >>> remote_links('<link href="file:///tmp/leaflet.css"/> <a>https://text.only</a>')
    []
    >>> remote_links('<script src="http://cartoqa.invalid/tmp/leaflet.js"></script>')
    []
    """
    return [link for link in _REMOTE_LINK.findall(html)
            if not link.startswith(LOCAL_ORIGIN + "/")]


class _PageHooks(MacroElement):
    """Script run after every layer is added: exposes the map's parts to the browser."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
            window.cartoqaMap = {{ this._parent.get_name() }};
            window.cartoqaMarkers = [{{ this.marker_names|join(", ") }}];
            window.cartoqaPath = {{ this.path_name }};
            window.cartoqaTileErrors = [];
            {{ this.tile_name }}.on("tileerror", function (e) {
                e.tile.classList.add("cartoqa-tile-error");
                window.cartoqaTileErrors.push([e.coords.z, e.coords.x, e.coords.y]);
            });
            {{ this._parent.get_name() }}.attributionControl.setPrefix("Leaflet");
        {% endmacro %}
        """
    )

    def __init__(self, *, tile_name: str, marker_names: list[str], path_name: str | None) -> None:
        super().__init__()
        self._name = "CartoqaPageHooks"
        self.tile_name = tile_name
        self.marker_names = marker_names
        self.path_name = path_name or "null"


class _Legend(MacroElement):
    """A Leaflet control at the top right naming each overlay beside its colour."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
            var legend = L.control({position: "topright"});
            legend.onAdd = function () {
                var div = L.DomUtil.create("div", "cartoqa-legend");
                div.style.cssText = "background: white; padding: 6px 9px; "
                    + "font: bold 14px/1.35 sans-serif; color: #111; "
                    + "border: 1px solid #555; border-radius: 4px;";
                div.innerHTML = {{ this.html|tojson }};
                return div;
            };
            legend.addTo({{ this._parent.get_name() }});
        {% endmacro %}
        """
    )

    def __init__(self, overlays: Sequence[Overlay]) -> None:
        super().__init__()
        self._name = "CartoqaLegend"
        rows = []
        for o in overlays:
            if o.kind == "polygon":
                swatch = (f'<span style="display:inline-block;width:18px;height:12px;'
                          f'border:3px solid {o.hex};background:{o.hex}33;'
                          f'vertical-align:middle;margin-right:6px"></span>')
            elif o.kind == "line":
                swatch = (f'<span style="display:inline-block;width:22px;height:0;'
                          f'border-top:4px solid {o.hex};vertical-align:middle;'
                          f'margin-right:6px"></span>')
            else:
                swatch = (f'<span style="display:inline-block;width:13px;height:13px;'
                          f'border-radius:50%;background:{o.hex};border:2px solid white;'
                          f'box-shadow:0 0 0 1px #333;vertical-align:middle;'
                          f'margin-right:6px"></span>')
            label = (o.label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
            rows.append(f"<div>{swatch}{label}</div>")
        self.html = "".join(rows)


def _add_overlay(fmap: folium.Map, overlay: Overlay) -> None:
    if overlay.kind == "polygon":
        folium.Polygon(
            [[list(p) for p in ring] for ring in overlay.parts], color=overlay.hex,
            weight=OVERLAY_WEIGHT, opacity=1.0, fill=True, fill_color=overlay.hex,
            fill_opacity=OVERLAY_FILL_OPACITY, smooth_factor=0, interactive=False,
        ).add_to(fmap)
    elif overlay.kind == "line":
        for part in overlay.parts:
            folium.PolyLine([list(p) for p in part], color=overlay.hex, weight=OVERLAY_WEIGHT + 1,
                            opacity=0.95, smooth_factor=0, interactive=False).add_to(fmap)
    else:
        folium.CircleMarker(list(overlay.parts[0][0]), radius=POINT_RADIUS, color="#ffffff",
                            weight=2, fill=True, fill_color=overlay.hex, fill_opacity=1.0,
                            interactive=False).add_to(fmap)


def build_map_html(
    view: View,
    *,
    tile_url_template: str,
    assets_dir: Path,
    markers: Sequence[Marker] = (),
    path: Sequence[tuple[float, float]] | None = None,
    attribution: str = OSM_ATTRIBUTION,
    zoom_control: bool = False,
    max_native_zoom: int = 19,
    url_of: Callable[[str], str] | None = None,
    overlays: Sequence[Overlay] = (),
) -> str:
    """Return the HTML of a Leaflet map of a view, with markers, a path and a scale bar.

    The map is ``view.width`` x ``view.height`` CSS pixels at the page's top-left
    corner, centred on ``view.center`` at ``view.zoom``, with animations off, Leaflet's
    scale bar (metres and feet) at the bottom left and the attribution at the bottom
    right.

    Parameters
    ----------
    view : groundtruth.projection.View
        Centre, zoom and size.
    tile_url_template : str
        Leaflet tile URL with ``{z}``, ``{x}``, ``{y}`` (a ``file://`` template).
    assets_dir : pathlib.Path
        Folder with ``leaflet/leaflet.js`` and ``leaflet/leaflet.css``.
    markers : sequence of Marker, optional
        Pins drawn with their tips on the points, in this order.
    path : sequence of (lat, lon), optional
        Vertices of a polyline drawn under the markers (at least two).
    attribution : str, optional
        Attribution text (keep the OSM credit).
    zoom_control : bool, optional
        Show Leaflet's +/- buttons at the top left (off by default).
    max_native_zoom : int, optional
        Highest zoom the tiles exist at.
    url_of : callable, optional
        Maps each ``file://`` URI (the Leaflet files, the tile template) to the URL the
        page uses, e.g. :meth:`renderers.browser.Browser.url_for`; identity by default.
    overlays : sequence of Overlay, optional
        Named features drawn over the tiles (polygons, lines, dots), with a legend
        (class ``cartoqa-legend``) at the top right naming each in its colour.

    Returns
    -------
    str
        A complete HTML page whose only asset links are the local Leaflet files.

    Raises
    ------
    RenderError
        If the Leaflet files are missing or the path has fewer than two vertices.
    """
    assets = leaflet_assets(assets_dir)
    if path is not None and len(path) < 2:
        raise RenderError("a path needs at least two vertices", "give LAT,LON;LAT,LON[;...]")
    fmap = folium.Map(
        location=list(view.center),
        width=view.width,
        height=view.height,
        tiles=None,
        zoom_start=view.zoom,
        control_scale=True,
        zoom_control=zoom_control,
        fade_animation=False,
        zoom_animation=False,
        marker_zoom_animation=False,
    )
    # Instance attributes: folium's class-level lists are shared and must stay untouched.
    def link(uri: str) -> str:
        return url_of(uri) if url_of is not None else uri

    fmap.default_js = [("leaflet", link(assets.js.as_uri()))]
    fmap.default_css = [("leaflet_css", link(assets.css.as_uri()))]

    tiles = folium.TileLayer(
        tiles=link(tile_url_template),
        attr=attribution,
        name="osm-carto",
        max_zoom=max_native_zoom,
        max_native_zoom=max_native_zoom,
        no_wrap=True,
    )
    tiles.add_to(fmap)

    for overlay in overlays:
        _add_overlay(fmap, overlay)
    if overlays:
        _Legend(overlays).add_to(fmap)

    path_name: str | None = None
    if path is not None:
        line = folium.PolyLine(
            [list(p) for p in path],
            color=PATH_COLOR,
            weight=PATH_WEIGHT,
            opacity=1.0,
            smooth_factor=0,
            interactive=False,
        )
        line.add_to(fmap)
        path_name = line.get_name()

    marker_names: list[str] = []
    for marker in markers:
        icon = folium.DivIcon(
            html=pin_svg(marker.color),
            icon_size=(PIN_WIDTH, PIN_HEIGHT),
            icon_anchor=PIN_ANCHOR,
            class_name="cartoqa-pin",
        )
        pin = folium.Marker([marker.lat, marker.lon], icon=icon, interactive=False)
        pin.add_to(fmap)
        marker_names.append(pin.get_name())

    _PageHooks(
        tile_name=tiles.get_name(), marker_names=marker_names, path_name=path_name
    ).add_to(fmap)
    html: str = fmap.get_root().render()
    leaks = remote_links(html)
    if leaks:  # a folium upgrade added a CDN link: fail loudly rather than render offline junk
        raise RenderError(
            "the map page links network assets: " + ", ".join(leaks),
            "report this as a bug in renderers.page",
        )
    return html


#: The parts of a page that :func:`build_map_html` writes: ``<head>`` (Leaflet links,
#: the map's ``<style>`` blocks), ``<body>`` (the map's container) and one script after
#: the body that builds the map.
_PAGE_PARTS = re.compile(
    r"\A<!DOCTYPE html>\s*<html>\s*<head>(?P<head>.*?)</head>\s*"
    r"<body>(?P<body>.*?)</body>\s*<script>(?P<script>.*?)</script>\s*</html>\s*\Z",
    re.DOTALL,
)
_STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.DOTALL)
#: Global names a page's script declares (folium's ``var map_<hex> = ...``).
_GLOBAL_VAR = re.compile(r"^\s*var\s+([A-Za-z_$][\w$]*)\s*=", re.MULTILINE)

#: Runs in a page that shows a map: removes that map, its ``<style>`` blocks and the
#: globals its script declared, then adds the new page's styles and container and runs
#: its script (an indirect ``eval``, so its ``var`` declarations are globals as in a
#: page's ``<script>``).
_UPDATE_JS = """(function (styles, body, script, names) {
    if (window.cartoqaMap) { window.cartoqaMap.remove(); }
    (window.cartoqaGlobals || []).forEach(function (name) { delete window[name]; });
    document.querySelectorAll("head > style").forEach(function (e) { e.remove(); });
    styles.forEach(function (css) {
        var style = document.createElement("style");
        style.textContent = css;
        document.head.appendChild(style);
    });
    window.cartoqaMap = undefined;
    window.cartoqaGlobals = names;
    document.body.innerHTML = body;
    (0, eval)(script);
    return true;
})(%s, %s, %s, %s)"""


@dataclass(frozen=True)
class ViewUpdate:
    """How to show a map page's view in a browser that holds a page like it.

    Attributes
    ----------
    key : str
        Identifies the page's head without its ``<style>`` blocks (the Leaflet files
        and settings): the script may run only in a document whose page had this key.
    script : str
        A JavaScript expression that replaces the map of that document with this one.
    """

    key: str
    script: str


def view_update(html: str) -> ViewUpdate:
    """Split a page of :func:`build_map_html` into the key and script of its update.

    Parameters
    ----------
    html : str
        A complete page written by :func:`build_map_html`.

    Returns
    -------
    ViewUpdate
        The page's key and the script that shows its view in place.

    Raises
    ------
    RenderError
        If the page is not shaped as :func:`build_map_html` writes it (a folium
        upgrade changed it): no update is guessed.

    Examples
    --------
    >>> page = ('<!DOCTYPE html><html><head><script src="l.js"></script>'
    ...         '<style>#m {width: 9px}</style></head><body><div id="m"></div></body>'
    ...         '<script>var m = 1;</script></html>')
    >>> update = view_update(page)
    >>> '["#m {width: 9px}"]' in update.script, '["m"]' in update.script
    (True, True)
    >>> view_update(page.replace("<style>#m {width: 9px}</style>", "")).key == update.key
    True
    """
    parts = _PAGE_PARTS.match(html)
    if parts is None or "<script" in parts["body"] or "</script" in parts["script"]:
        raise RenderError("the map page is not shaped as renderers.page writes it",
                          "report this as a bug in renderers.page")
    head = parts["head"]
    styles = _STYLE_BLOCK.findall(head)
    fixed_head = _STYLE_BLOCK.sub("", head)
    key = hashlib.sha256(" ".join(fixed_head.split()).encode("utf-8")).hexdigest()
    script = _UPDATE_JS % (json.dumps(styles), json.dumps(parts["body"]),
                           json.dumps(parts["script"]),
                           json.dumps(_GLOBAL_VAR.findall(parts["script"])))
    return ViewUpdate(key=key, script=script)
