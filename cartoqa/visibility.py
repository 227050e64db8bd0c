"""Which map features a rendered view actually shows, decided from its pixels.

OSM-Carto hides icons and labels by zoom rules and by collisions, so the features in
the data are not the features on the image. This module compares two renderings of
the same view:

* the **screenshot** the item uses (tiles, markers, path, controls), and
* a **reference** drawn by Mapnik for the same pixels with every label and icon layer
  switched off (:data:`OVERLAY_LAYERS`).

Where the two differ, something was written on the map: the *ink mask*. Then

* a **symbol** (icon) is drawn when the OSM-Carto icon, rasterised by Mapnik from
  ``symbols/*.svg`` in its style colour, matches the ink of that colour around the
  feature's pixel (intersection over union of the shapes, best over a few pixels of
  shift, at least :data:`ICON_MIN_IOU`). Icons of the type found anywhere else in the
  view (no feature of the data explains them) make the type *ambiguous*;
* its **name** is legible when ink of the style's label colour lies under the icon;
* a **road name** is drawn when enough dark ink lies along the road's line;
* a **line** (stream, river, primary road) or **area** (park) is drawn when its style
  colour covers enough of its geometry in the reference image.

The pixel tests are pure functions of arrays; only :func:`render_reference` and the
template rasteriser touch Mapnik.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.signal import fftconvolve
from shapely.geometry import LineString, MultiLineString, MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from groundtruth.catalogue import FeatureType, load_catalogue
from groundtruth.features import Feature
from groundtruth.projection import View

if TYPE_CHECKING:
    from renderers.tiles import TileRenderer

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int16]

#: OSM-Carto layers that hold labels and icons (switched off in the reference image).
OVERLAY_LAYERS: frozenset[str] = frozenset({
    "country-names", "capital-names", "state-names", "placenames-medium",
    "placenames-small", "stations", "junctions", "bridge-text", "county-names",
    "amenity-points", "amenity-line", "roads-text-ref-low-zoom", "roads-text-ref",
    "roads-area-text-name", "roads-text-name", "paths-text-name", "railways-text-name",
    "roads-text-ref-minor", "text-poly-low-zoom", "text-line", "text-point",
    "building-text", "addresses", "water-lines-text", "ferry-routes-text", "admin-text",
    "protected-areas-text", "amenity-low-priority", "text-low-priority",
})

#: Label colour OSM-Carto 5.7 uses for the names under icons of each icon colour
#: (``TextSymbolizer fill`` in style.xml).
LABEL_COLOURS: dict[str, str] = {
    "#ac39ac": "#993399",  # shops
    "#bf0000": "#bf0000",  # health
    "#c77400": "#ae6500",  # gastronomy
    "#734a08": "#734a08",  # amenity brown
    "#0c8416": "#0c8416",  # leisure
    "#0092da": "#0066ff",  # transport
}
#: Label colour of area and line types.
AREA_LABEL_COLOURS: dict[str, str] = {"park": "#0c8416", "stream": "#4d80b3",
                                      "river": "#4d80b3"}
#: Types whose ``name`` OSM-Carto never writes (toilets get no label; ATMs are
#: labelled with their ``operator``, not their name).
UNLABELLED_TYPES: frozenset[str] = frozenset({"public toilet", "ATM"})

#: A pixel is ink where screenshot and reference differ by more than this (0-255).
INK_MIN_DIFF = 40
#: Largest RGB distance of a pixel from a paint-over-background mix (see blend_mask).
BLEND_MAX_RESIDUAL = 30.0
#: Least coverage of an icon pixel (the templates keep pixels at least half covered).
ICON_MIN_ALPHA = 0.5
#: Least coverage of a faint icon (drawn at reduced opacity for restricted access).
ICON_FAINT_ALPHA = 0.15
#: Least coverage of a label pixel.
LABEL_MIN_ALPHA = 0.4
#: Minimum intersection-over-union of icon template and ink for "drawn".
ICON_MIN_IOU = 0.6
#: Minimum IoU for an icon no data feature explains to count against the type.
ORPHAN_MIN_IOU = 0.85
#: How far (pixels) an icon may sit from the feature's projected pixel.
ICON_SEARCH_PX = 4
#: Unexplained icon detections closer than this to an undetected feature are
#: attributed to it (OSM-Carto anchors areas differently from the data's anchor).
ICON_ATTRIBUTE_PX = 30.0
#: Two icon detections closer than this (pixels) are the same icon.
ICON_SAME_PX = 7.0
#: Features whose pixel is this close to an edge (inside or out) may be cut off.
EDGE_BAND_PX = 9.0
#: Box under an icon searched for its label: half width, top and bottom offsets.
LABEL_HALF_WIDTH_PX = 45
LABEL_TOP_PX = 8
LABEL_BOTTOM_PX = 34
#: Label pixels needed in the first text line under an icon for the name to be legible.
LABEL_MIN_PIXELS = 12
#: Rows of the first text line, measured from the icon centre (OSM-Carto ``dy`` 9-13).
LABEL_LINE_PX = (8, 22)
#: A label is centred under its icon: its ink's mean column may be off by this much.
LABEL_MAX_OFFSET_PX = 9.0
#: Blank columns a label may have inside it (spaces between words).
LABEL_MAX_GAP_PX = 5
#: Road labels: dark ink (every channel below this) within this distance of the line.
ROAD_TEXT_MAX_CHANNEL = 100
ROAD_TEXT_RADIUS_PX = 6
#: Dark ink pixels per character of the name needed to call a road name drawn.
ROAD_TEXT_PIXELS_PER_CHAR = 4.0
#: Fraction of a line's samples that must show its colour for the line to be drawn.
LINE_MIN_COVERAGE = 0.3
#: Pixels of park colour needed for a park to be drawn.
AREA_MIN_PIXELS = 600
#: Width of one character of an area label (pixels, OSM-Carto sizes 10-15).
AREA_LABEL_CHAR_PX = 9.0
#: Half height of the box around an area's anchor searched for its label.
AREA_LABEL_HALF_HEIGHT_PX = 22.0
#: Label pixels per character for a line or area name.
AREA_TEXT_PIXELS_PER_CHAR = 5.0


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Sighting:
    """One data feature in a view and what the rendering shows of it.

    Attributes
    ----------
    feature : groundtruth.features.Feature
        The feature.
    px : tuple of float
        Its anchor in view pixels.
    drawn : bool
        Whether the rendering shows it.
    name_legible : bool
        Whether its name is written on the map (False for unnamed features).
    edge : bool
        Whether it lies so close to an edge that a reader may see part of it.
    label_cut : bool
        Whether its label would run over an edge of the view (partly readable).
    icon_px : tuple of float or None
        Where its icon was found (symbols only).
    score : float
        Evidence for ``drawn`` (icon IoU, line coverage or area pixels).
    """

    feature: Feature
    px: tuple[float, float]
    drawn: bool
    name_legible: bool
    edge: bool
    label_cut: bool
    score: float
    icon_px: tuple[float, float] | None = None


@dataclass
class ViewFeatures:
    """What a view shows of every catalogue type.

    Attributes
    ----------
    by_type : dict
        Type name -> sightings of the type's data features in (or near) the view.
    orphans : dict
        Type name -> icon detections no data feature explains.
    """

    by_type: dict[str, list[Sighting]] = field(default_factory=dict)
    orphans: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def drawn(self, feature_type: str) -> list[Sighting]:
        """Sightings of the type that the rendering shows (fully on screen)."""
        return [s for s in self.by_type.get(feature_type, []) if s.drawn and not s.edge]

    def count(self, feature_type: str) -> int:
        """How many features of the type a reader sees."""
        return len(self.drawn(feature_type))

    def names(self, feature_type: str) -> list[str]:
        """Distinct legible names of the type, sorted."""
        return sorted({s.feature.name for s in self.drawn(feature_type)
                       if s.name_legible and s.feature.name})

    def unnamed(self, feature_type: str) -> int:
        """Drawn features of the type whose name a reader cannot read."""
        return sum(1 for s in self.drawn(feature_type)
                   if not (s.name_legible and s.feature.name))

    def in_data(self, feature_type: str) -> int:
        """Features of the type in or near the view in the data (drawn or not)."""
        return len(self.by_type.get(feature_type, []))

    def ambiguous(self, feature_type: str, *, names: bool = False) -> bool:
        """Whether a reader might see something the answer does not count.

        True when a feature of the type lies on an edge of the view (partly drawn),
        or an icon of the type is seen that no feature explains; with ``names``, also
        when a drawn feature's label runs over an edge.
        """
        if self.orphans.get(feature_type):
            return True
        sightings = self.by_type.get(feature_type, [])
        if any(s.edge for s in sightings):
            return True
        return names and any(s.label_cut and s.drawn for s in sightings)


# --------------------------------------------------------------------------- pixels
def decode_png(png: bytes) -> IntArray:
    """Decode PNG bytes to an ``(h, w, 3)`` int16 RGB array (alpha over white)."""
    with Image.open(io.BytesIO(png)) as im:
        rgba = im.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        rgb = Image.alpha_composite(white, rgba).convert("RGB")
        return np.asarray(rgb, dtype=np.int16)


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` to an RGB tuple.

    Examples
    --------
    >>> hex_rgb("#0092da")
    (0, 146, 218)
    """
    c = colour.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def colour_mask(image: IntArray, colour: str, tolerance: float, *,
                where: BoolArray | None = None) -> BoolArray:
    """Pixels within ``tolerance`` (RGB Euclidean distance) of a colour.

    Parameters
    ----------
    image : array
        ``(h, w, 3)`` RGB.
    colour : str
        ``"#rrggbb"``.
    tolerance : float
        Largest distance that matches.
    where : array of bool, optional
        Only these pixels are tested (the rest are False); much faster for sparse masks.

    Examples
    --------
    >>> im = np.array([[[0, 146, 218], [255, 255, 255]]], np.int16)
    >>> colour_mask(im, "#0092da", 10).tolist()
    [[True, False]]
    """
    ref = np.array(hex_rgb(colour), dtype=np.int32)
    if where is None:
        d = image.astype(np.int32) - ref
        return np.asarray(np.einsum("ijk,ijk->ij", d, d) <= tolerance * tolerance)
    out = np.zeros(image.shape[:2], dtype=bool)
    ys, xs = np.nonzero(where)
    d = image[ys, xs].astype(np.int32) - ref
    out[ys, xs] = np.einsum("ij,ij->i", d, d) <= tolerance * tolerance
    return out


def blend_mask(screen: IntArray, background: IntArray, colour: str, *, where: BoolArray,
               min_alpha: float, max_residual: float = BLEND_MAX_RESIDUAL) -> BoolArray:
    """Ink pixels that are ``colour`` painted over ``background`` with some coverage.

    Anti-aliased glyphs and icon edges mix the paint with what is under it: a pixel
    ``p`` over background ``b`` is ``b + a (c - b)`` for paint ``c`` and coverage
    ``a``. A pixel matches when its best ``a`` is at least ``min_alpha`` and it lies
    within ``max_residual`` of that mix.

    Parameters
    ----------
    screen, background : array
        ``(h, w, 3)`` RGB images.
    colour : str
        The paint, ``"#rrggbb"``.
    where : array of bool
        Pixels to test (the ink mask).
    min_alpha : float
        Least coverage that counts.
    max_residual : float
        Largest distance (RGB) from the mix.

    Examples
    --------
    >>> bg = np.full((1, 3, 3), 240, np.int16)
    >>> sc = bg.copy(); sc[0, 0] = (174, 101, 0); sc[0, 1] = (207, 170, 120)
    >>> sc[0, 2] = (30, 30, 30)
    >>> blend_mask(sc, bg, "#ae6500", where=np.ones((1, 3), bool), min_alpha=0.4).tolist()
    [[True, True, False]]
    """
    out = np.zeros(screen.shape[:2], dtype=bool)
    ys, xs = np.nonzero(where)
    if len(ys) == 0:
        return out
    p = screen[ys, xs].astype(np.float64)
    b = background[ys, xs].astype(np.float64)
    d = np.array(hex_rgb(colour), dtype=np.float64) - b
    denom = np.maximum(np.einsum("ij,ij->i", d, d), 1.0)
    a = np.einsum("ij,ij->i", p - b, d) / denom
    resid = p - b - a[:, None] * d
    ok = (a >= min_alpha) & (a <= 1.25) & (np.einsum("ij,ij->i", resid, resid)
                                           <= max_residual * max_residual)
    out[ys, xs] = ok
    return out


def halo_background(reference: IntArray) -> IntArray:
    """What label text is painted over: OSM-Carto's 60 % white halo on the map."""
    return np.asarray(np.round(0.4 * reference + 0.6 * 255.0), dtype=np.int16)


def ink_mask(screen: IntArray, reference: IntArray, *, min_diff: int = INK_MIN_DIFF,
             exclude: BoolArray | None = None) -> BoolArray:
    """Pixels where the screenshot differs from the label-free reference.

    Parameters
    ----------
    screen, reference : array
        ``(h, w, 3)`` RGB images of the same view.
    min_diff : int
        Largest channel difference that still counts as "the same".
    exclude : array of bool, optional
        Pixels to leave out (markers, path, controls).

    Returns
    -------
    array of bool
        ``(h, w)`` ink mask.

    Examples
    --------
    >>> a = np.zeros((2, 2, 3), np.int16); b = a.copy(); b[0, 1] = 200
    >>> ink_mask(b, a).tolist()
    [[False, True], [False, False]]
    """
    diff = np.abs(screen - reference).max(axis=2) > min_diff
    if exclude is not None:
        diff &= ~exclude
    return np.asarray(diff)


def dark_ink(screen: IntArray, ink: BoolArray) -> BoolArray:
    """Ink pixels dark in every channel (black and dark-grey text such as road names)."""
    out = np.zeros(ink.shape, dtype=bool)
    ys, xs = np.nonzero(ink)
    out[ys, xs] = screen[ys, xs].max(axis=1) <= ROAD_TEXT_MAX_CHANNEL
    return out


def iou_map(mask: BoolArray, template: BoolArray) -> NDArray[np.float64]:
    """Intersection over union of ``template`` with ``mask`` at every placement.

    Element ``[y, x]`` compares the template with the mask window whose top-left
    corner is ``(x, y)``; placements running off the mask are not computed
    (the result is ``(H - h + 1, W - w + 1)``).

    Examples
    --------
    >>> m = np.zeros((4, 4), bool); m[1:3, 1:3] = True
    >>> float(iou_map(m, np.ones((2, 2), bool))[1, 1])
    1.0
    """
    t = template.astype(np.float64)
    m = mask.astype(np.float64)
    inter = fftconvolve(m, t[::-1, ::-1], mode="valid")
    window = fftconvolve(m, np.ones_like(t), mode="valid")
    union = t.sum() + window - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return np.clip(np.round(out, 6), 0.0, 1.0)


def find_icons(mask: BoolArray, template: BoolArray, *, min_iou: float = ICON_MIN_IOU,
               search: int = ICON_SEARCH_PX,
               centres: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float, float]]:
    """Icon placements in a colour-ink mask: ``(x, y, iou)`` of the icon centres.

    The template is tried around each given centre and around the centre of each
    group of mask pixels (pixels up to two apart are grouped, as icons have gaps),
    up to ``search`` pixels off, and kept where its intersection over union with the
    mask reaches ``min_iou``. Strongest first, at least half an icon apart.

    Examples
    --------
    >>> t = np.zeros((5, 5), bool); t[1:4, 2] = True; t[2, 1:4] = True  # a plus sign
    >>> m = np.zeros((20, 20), bool); m[8:13, 4:9] = t
    >>> [(x, y) for x, y, _ in find_icons(m, t)]
    [(6.5, 10.5)]
    """
    h, w = template.shape
    if not mask.any():
        return []
    grouped = ndimage.binary_dilation(mask, structure=np.ones((3, 3), bool))
    labels, _n = ndimage.label(grouped, structure=np.ones((3, 3), bool))
    need = 0.4 * float(template.sum())
    tries: list[tuple[float, float]] = list(centres)
    for idx, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is None:
            continue
        blob = (labels[sl] == idx) & mask[sl]
        if blob.sum() < need or blob.shape[0] > 3 * h + 2 or blob.shape[1] > 3 * w + 2:
            continue
        tries.append(((sl[1].start + sl[1].stop) / 2.0, (sl[0].start + sl[0].stop) / 2.0))
    padded = np.pad(mask, search + max(h, w))
    off = search + max(h, w)
    found: list[tuple[float, float, float]] = []
    for cx, cy in tries:
        x0 = round(cx - w / 2.0) - search
        y0 = round(cy - h / 2.0) - search
        if x0 + w + 2 * search < 0 or y0 + h + 2 * search < 0 or \
                x0 > mask.shape[1] or y0 > mask.shape[0]:
            continue
        crop = padded[y0 + off:y0 + off + h + 2 * search, x0 + off:x0 + off + w + 2 * search]
        if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
            continue
        scores = iou_map(crop, template)
        k = int(np.argmax(scores))
        best = float(scores.flat[k])
        if best >= min_iou:
            dy, dx = divmod(k, scores.shape[1])
            found.append((x0 + dx + w / 2.0, y0 + dy + h / 2.0, best))
    found.sort(key=lambda t: -t[2])
    out: list[tuple[float, float, float]] = []
    for x, y, sc in found:
        if all(abs(x - ox) >= w / 2 or abs(y - oy) >= h / 2 for ox, oy, _ in out):
            out.append((x, y, sc))
    return out


def label_under_icon(label_ink: BoolArray, cx: float, cy: float) -> bool:
    """Whether a label is written centred under an icon at ``(cx, cy)``.

    The first text line must hold at least :data:`LABEL_MIN_PIXELS` label pixels whose
    mean column is within :data:`LABEL_MAX_OFFSET_PX` of the icon's (labels of nearby
    features sit off-centre).

    Examples
    --------
    >>> m = np.zeros((60, 100), bool); m[22:30, 40:61] = True  # text centred at x=50
    >>> label_under_icon(m, 50.0, 12.0), label_under_icon(m, 80.0, 12.0)
    (True, False)
    """
    h, w = label_ink.shape
    x0 = max(0, int(cx - 3 * LABEL_HALF_WIDTH_PX))
    x1 = min(w, int(cx + 3 * LABEL_HALF_WIDTH_PX) + 1)
    y0 = max(0, int(cy + LABEL_LINE_PX[0]))
    y1 = min(h, int(cy + LABEL_LINE_PX[1]) + 1)
    if x0 >= x1 or y0 >= y1:
        return False
    columns = label_ink[y0:y1, x0:x1].sum(axis=0)
    run = _run_at(columns, round(cx) - x0, max_gap=LABEL_MAX_GAP_PX)
    if run is None:
        return False
    a, b = run
    if int(columns[a:b].sum()) < LABEL_MIN_PIXELS:
        return False
    return abs((a + b - 1) / 2.0 + x0 - cx) <= LABEL_MAX_OFFSET_PX


def _run_at(columns: NDArray[np.int64], at: int, *, max_gap: int) -> tuple[int, int] | None:
    """The run of inked columns (gaps up to ``max_gap`` bridged) nearest column ``at``."""
    inked = np.nonzero(columns > 0)[0]
    if len(inked) == 0:
        return None
    runs: list[tuple[int, int]] = []
    start = prev = int(inked[0])
    for c in inked[1:]:
        c = int(c)
        if c - prev > max_gap + 1:
            runs.append((start, prev + 1))
            start = c
        prev = c
    runs.append((start, prev + 1))
    return min(runs, key=lambda r: 0 if r[0] <= at < r[1] else min(abs(at - r[0]),
                                                                      abs(at - r[1] + 1)))


def count_in_box(mask: BoolArray, x0: float, y0: float, x1: float, y1: float) -> int:
    """True pixels of ``mask`` inside a box (clipped to the image)."""
    h, w = mask.shape
    a, b = max(0, math.floor(x0)), min(w, math.ceil(x1))
    c, d = max(0, math.floor(y0)), min(h, math.ceil(y1))
    if a >= b or c >= d:
        return 0
    return int(mask[c:d, a:b].sum())


def line_mask(shape: tuple[int, int], lines: Iterable[Sequence[tuple[float, float]]],
              *, radius: float) -> BoolArray:
    """Pixels within about ``radius`` of polylines given in view pixels."""
    im = Image.new("L", (shape[1], shape[0]), 0)
    draw = ImageDraw.Draw(im)
    width = max(1, round(2 * radius + 1))
    for line in lines:
        pts = [(float(x), float(y)) for x, y in line]
        if len(pts) >= 2:
            draw.line(pts, fill=255, width=width, joint="curve")
        for x, y in pts:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
    return np.asarray(im) > 0


def polygon_mask(shape: tuple[int, int], rings: Iterable[Sequence[tuple[float, float]]],
                 holes: Iterable[Sequence[tuple[float, float]]] = ()) -> BoolArray:
    """Pixels inside polygons given in view pixels."""
    im = Image.new("L", (shape[1], shape[0]), 0)
    draw = ImageDraw.Draw(im)
    for ring in rings:
        if len(ring) >= 3:
            draw.polygon([(float(x), float(y)) for x, y in ring], fill=255)
    for ring in holes:
        if len(ring) >= 3:
            draw.polygon([(float(x), float(y)) for x, y in ring], fill=0)
    return np.asarray(im) > 0


def text_pixels_along(dark_ink: BoolArray, lines: Iterable[Sequence[tuple[float, float]]],
                      *, radius: float = ROAD_TEXT_RADIUS_PX) -> int:
    """Dark ink pixels within ``radius`` of polylines (view pixels)."""
    near = line_mask(dark_ink.shape, lines, radius=radius)
    return int((dark_ink & near).sum())


def name_drawn_along(text_pixels: int, name: str, *,
                     per_char: float = ROAD_TEXT_PIXELS_PER_CHAR) -> bool:
    """Whether enough text ink lies along a road for its name to be written there.

    Examples
    --------
    >>> name_drawn_along(80, "Annankatu"), name_drawn_along(10, "Annankatu")
    (True, False)
    """
    chars = sum(1 for c in name if not c.isspace())
    return text_pixels >= per_char * max(chars, 3)


# --------------------------------------------------------------------------- geometry
def _project(view: View, coords: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """``(lon, lat)`` vertices to view pixels."""
    return [view.to_view_px(lat, lon) for lon, lat in coords]


def _lines_px(view: View, geom: BaseGeometry) -> list[list[tuple[float, float]]]:
    if isinstance(geom, LineString):
        return [_project(view, geom.coords)]
    if isinstance(geom, MultiLineString):
        return [_project(view, g.coords) for g in geom.geoms]
    if isinstance(geom, (Polygon, MultiPolygon)):
        polys = [geom] if isinstance(geom, Polygon) else list(geom.geoms)
        return [_project(view, p.exterior.coords) for p in polys]
    return []


def _rings_px(view: View, geom: BaseGeometry
              ) -> tuple[list[list[tuple[float, float]]], list[list[tuple[float, float]]]]:
    polys = [geom] if isinstance(geom, Polygon) else (
        list(geom.geoms) if isinstance(geom, MultiPolygon) else [])
    outer = [_project(view, p.exterior.coords) for p in polys]
    inner = [_project(view, r.coords) for p in polys for r in p.interiors]
    return outer, inner


def _view_box_lonlat(view: View, margin_px: float) -> BaseGeometry:
    north, west = view.to_latlon(-margin_px, -margin_px)
    south, east = view.to_latlon(view.width + margin_px, view.height + margin_px)
    return box(west, south, east, north)


# --------------------------------------------------------------------------- templates
@cache
def icon_template(feature_type: str) -> BoolArray | None:
    """The OSM-Carto icon of a symbol type as Mapnik draws it: a boolean ink mask.

    Returns
    -------
    array of bool or None
        Pixels covered at least half by the icon, cropped; ``None`` for line and area
        types or when the SVG is missing.
    """
    ft = _catalogue()[feature_type]
    svg = ft.icon_path()
    if svg is None or not svg.is_file():
        return None
    from renderers.mfs.symbols import draw_symbol

    size = 48
    image = draw_symbol(svg, ft.color, size=size, scale=1.0, background=None)
    with Image.open(io.BytesIO(bytes(image.to_string("png32")))) as im:
        alpha = np.asarray(im.convert("RGBA"))[:, :, 3]
    ink = alpha >= 128
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return None
    # keep the template centred on the point: crop symmetrically around the centre
    half_w = int(max(size / 2 - xs.min(), xs.max() + 1 - size / 2))
    half_h = int(max(size / 2 - ys.min(), ys.max() + 1 - size / 2))
    c = size // 2
    return np.asarray(ink[c - half_h:c + half_h, c - half_w:c + half_w])


@cache
def _catalogue() -> dict[str, FeatureType]:
    return {ft.name: ft for ft in load_catalogue()}


# --------------------------------------------------------------------------- analysis
def exclusion_mask(view: View, *, marker_px: Sequence[tuple[float, float]] = (),
                   path_px: Sequence[tuple[float, float]] = (),
                   boxes: Sequence[tuple[float, float, float, float]] = ()) -> BoolArray:
    """Pixels covered by markers, the path and controls (never feature ink).

    Parameters
    ----------
    view : View
        The view.
    marker_px : sequence of (x, y)
        Pin tips.
    path_px : sequence of (x, y)
        Path vertices.
    boxes : sequence of (x0, y0, x1, y1)
        Control boxes (scale bar, attribution).
    """
    from cartoqa.tasks.rules import marker_box

    shape = (view.height, view.width)
    im = Image.new("L", (view.width, view.height), 0)
    draw = ImageDraw.Draw(im)
    for px in marker_px:
        x0, y0, x1, y1 = marker_box(px)
        draw.rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 5), fill=255)
    for b in boxes:
        draw.rectangle(b, fill=255)
    mask = np.asarray(im) > 0
    if len(path_px) >= 2:
        mask = mask | line_mask(shape, [path_px], radius=6)
    return np.asarray(mask)


def analyse_view(view: View, screen: IntArray, reference: IntArray,
                 features: Sequence[Feature], *, exclude: BoolArray | None = None,
                 ) -> ViewFeatures:
    """Decide which catalogue features of a view the rendering shows.

    Parameters
    ----------
    view : View
        The view both images show.
    screen, reference : array
        ``(h, w, 3)`` screenshot and label-free reference (see :func:`decode_png`).
    features : sequence of Feature
        All catalogue features of the extract.
    exclude : array of bool, optional
        Pixels covered by markers, path and controls (:func:`exclusion_mask`).

    Returns
    -------
    ViewFeatures
        Sightings per type, and unexplained icons.
    """
    ink = ink_mask(screen, reference, exclude=exclude)
    dark = dark_ink(screen, ink)
    near = _view_box_lonlat(view, EDGE_BAND_PX + 2)
    cat = _catalogue()
    result = ViewFeatures()
    colour_inks: dict[str, BoolArray] = {}
    symbols_first = sorted(cat.items(), key=lambda kv: kv[1].kind != "symbol")
    poi_ink: BoolArray | None = None
    for name, ft in symbols_first:
        feats = [f for f in features if f.feature_type == name]
        if ft.kind == "symbol":
            feats = [f for f in feats if _near_view(view, f)]
        else:
            feats = [f for f in feats if f.geometry.intersects(near)]
        if ft.kind == "symbol":
            sightings, orphans = _symbols(view, ft, feats, screen, reference, ink, colour_inks)
            if orphans:
                result.orphans[name] = orphans
        else:
            if poi_ink is None:  # icons and their labels are not line or area names
                poi_ink = ink & ~_poi_boxes(view, result)
            if ft.kind == "line":
                sightings = _lines(view, ft, feats, screen, reference, poi_ink,
                                   dark & poi_ink)
            else:
                sightings = _areas(view, ft, feats, screen, reference, poi_ink)
        result.by_type[name] = sightings
    result.by_type = {name: result.by_type[name] for name in cat}
    _one_feature_per_icon(result)
    # an icon another type's feature explains is not unexplained
    drawn_px = [s.px for ss in result.by_type.values() for s in ss if s.drawn]
    for name in list(result.orphans):
        left = [o for o in result.orphans[name]
                if all(math.hypot(o[0] - x, o[1] - y) > ICON_ATTRIBUTE_PX / 3 for x, y in drawn_px)]
        if left:
            result.orphans[name] = left
        else:
            del result.orphans[name]
    return result


def _one_feature_per_icon(result: ViewFeatures) -> None:
    """Where features of different types claim the same icon, keep the best match.

    OSM-Carto never draws two icons on top of each other, so two claims closer than
    half an icon are one icon: the type whose template fits it better keeps it.
    """
    claims = [(s.score, name, i, s.icon_px) for name, ss in result.by_type.items()
              for i, s in enumerate(ss) if s.drawn and s.icon_px is not None]
    claims.sort(key=lambda c: -c[0])
    kept: list[tuple[float, float]] = []
    for _, name, i, px in claims:
        assert px is not None
        if any(math.hypot(px[0] - x, px[1] - y) < ICON_SAME_PX for x, y in kept):
            old = result.by_type[name][i]
            result.by_type[name][i] = replace(old, drawn=False, name_legible=False,
                                              label_cut=False, icon_px=None)
        else:
            kept.append(px)


def _poi_boxes(view: View, result: ViewFeatures) -> BoolArray:
    """Pixels of the drawn icons found so far and of the labels under them."""
    im = Image.new("L", (view.width, view.height), 0)
    draw = ImageDraw.Draw(im)
    for sightings in result.by_type.values():
        for s in sightings:
            if s.drawn:
                x, y = s.px
                draw.rectangle((x - 14, y - 14, x + 14, y + 14), fill=255)
                draw.rectangle((x - LABEL_HALF_WIDTH_PX, y + 8, x + LABEL_HALF_WIDTH_PX,
                                y + LABEL_BOTTOM_PX), fill=255)
    return np.asarray(im) > 0


def near_view_px(view: View, x: float, y: float) -> bool:
    """Whether an icon at view pixel ``(x, y)`` may show in the view, itself or its label.

    An icon counts up to :data:`EDGE_BAND_PX` beyond the bottom edge, and further beyond
    the others by the reach of its label, which OSM-Carto centres under the icon: up to
    :data:`LABEL_BOTTOM_PX` above the top edge and :data:`LABEL_HALF_WIDTH_PX` beyond the
    sides. Such a feature beyond the edge band is :attr:`Sighting.edge` (its type then
    ambiguous) only when label ink shows in the part of the view its label would take:
    a reader may see the name of a place whose icon is off the map.

    Examples
    --------
    >>> v = View(center=(60.17, 24.94), zoom=19, width=100, height=50)
    >>> near_view_px(v, 50, -20), near_view_px(v, 50, -40), near_view_px(v, -30, 25)
    (True, False, True)
    >>> near_view_px(v, 50, 70), near_view_px(v, 50, 55)
    (False, True)
    """
    m = EDGE_BAND_PX
    side = max(m, LABEL_HALF_WIDTH_PX)
    top = max(m, LABEL_BOTTOM_PX)
    return -side <= x <= view.width + side and -top <= y <= view.height + m


def _within_band(view: View, x: float, y: float) -> bool:
    m = EDGE_BAND_PX
    return -m <= x <= view.width + m and -m <= y <= view.height + m


def _label_peeks_in(label_ink: BoolArray, x: float, y: float) -> bool:
    """Whether label ink lies in the part of the view an icon at ``(x, y)`` labels."""
    h, w = label_ink.shape
    x0, x1 = max(0, int(x - LABEL_HALF_WIDTH_PX)), min(w, int(x + LABEL_HALF_WIDTH_PX) + 1)
    y0, y1 = max(0, int(y + LABEL_TOP_PX)), min(h, int(y + LABEL_BOTTOM_PX) + 1)
    if x0 >= x1 or y0 >= y1:
        return False
    return int(label_ink[y0:y1, x0:x1].sum()) >= LABEL_MIN_PIXELS


def _near_view(view: View, f: Feature) -> bool:
    x, y = view.to_view_px(f.lat, f.lon)
    return near_view_px(view, x, y)


def _reserved() -> tuple[tuple[float, float, float, float], ...]:
    from cartoqa.tasks.rules import RESERVED_BOXES

    return RESERVED_BOXES


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
                ) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def _on_edge(view: View, x: float, y: float) -> bool:
    """Whether an icon at ``(x, y)`` may be cut by the view's edge or a map control."""
    m = EDGE_BAND_PX
    if x < m or y < m or x > view.width - m or y > view.height - m:
        return True
    return any(b[0] - m <= x <= b[2] + m and b[1] - m <= y <= b[3] + m for b in _reserved())


def _symbols(view: View, ft: FeatureType, feats: Sequence[Feature], screen: IntArray,
             reference: IntArray, ink: BoolArray, colour_inks: dict[str, BoolArray]
             ) -> tuple[list[Sighting], list[tuple[float, float]]]:
    template = icon_template(ft.name)
    if ft.color not in colour_inks:
        colour_inks[ft.color] = blend_mask(screen, reference, ft.color, where=ink,
                                           min_alpha=ICON_MIN_ALPHA)
    cink = colour_inks[ft.color]
    label_colour = LABEL_COLOURS.get(ft.color.lower(), ft.color)
    key = "label:" + label_colour
    if key not in colour_inks:
        colour_inks[key] = blend_mask(screen, halo_background(reference), label_colour,
                                      where=ink, min_alpha=LABEL_MIN_ALPHA)
    label_ink = colour_inks[key]
    pts = [view.to_view_px(f.lat, f.lon) for f in feats]
    detections = find_icons(cink, template, centres=pts) if template is not None else []
    # assign detections to features: nearest first, each detection to one feature
    pairs = sorted(
        (math.hypot(dx - x, dy - y), i, j)
        for i, (x, y) in enumerate(pts) for j, (dx, dy, _) in enumerate(detections)
        if math.hypot(dx - x, dy - y) <= ICON_ATTRIBUTE_PX
    )
    owner: dict[int, int] = {}
    used: set[int] = set()
    for dist, i, j in pairs:
        if i in owner or j in used:
            continue
        if dist > ICON_SEARCH_PX * 1.5 and any(
                math.hypot(detections[j][0] - x, detections[j][1] - y) <= ICON_SEARCH_PX * 1.5
                for k, (x, y) in enumerate(pts) if k not in owner and k != i):
            continue  # a closer feature will claim it
        owner[i] = j
        used.add(j)
    # faint icons (OSM-Carto draws features with restricted access at a third of the
    # opacity): looked for only where a feature of the data is
    if template is not None:
        for i, (x, y) in enumerate(pts):
            if i in owner:
                continue
            key = "faint:" + ft.color
            if key not in colour_inks:
                colour_inks[key] = blend_mask(screen, reference, ft.color, where=ink,
                                              min_alpha=ICON_FAINT_ALPHA)
            near = [d for d in find_icons(colour_inks[key], template, centres=[(x, y)])
                    if math.hypot(d[0] - x, d[1] - y) <= ICON_SEARCH_PX * 1.5]
            if near:
                owner[i] = len(detections)
                detections.append(near[0])
                used.add(owner[i])
    sightings: list[Sighting] = []
    for i, f in enumerate(feats):
        x, y = pts[i]
        found = owner.get(i)
        drawn = found is not None
        if found is not None:
            cx, cy, score = detections[found]
        else:
            cx, cy, score = x, y, 0.0
        legible = False
        cut = False
        if drawn and f.name and ft.name not in UNLABELLED_TYPES:
            lx0, lx1 = cx - LABEL_HALF_WIDTH_PX, cx + LABEL_HALF_WIDTH_PX
            ly0, ly1 = cy + LABEL_TOP_PX, cy + LABEL_BOTTOM_PX
            legible = label_under_icon(label_ink, cx, cy)
            cut = (lx0 < 0 or ly0 < 0 or lx1 > view.width or ly1 > view.height
                   or any(_boxes_meet((lx0, ly0, lx1, ly1), r) for r in _reserved()))
        edge = _on_edge(view, x, y)
        if edge and not _within_band(view, x, y):
            # beyond the edge: it matters only when part of its label shows in the view
            edge = _label_peeks_in(label_ink, x, y)
        sightings.append(Sighting(f, (x, y), drawn, legible, edge, cut, score,
                                  (cx, cy) if drawn else None))
    orphans = [(dx, dy) for j, (dx, dy, sc) in enumerate(detections)
               if j not in used and sc >= ORPHAN_MIN_IOU]
    return sightings, orphans


def _lines(view: View, ft: FeatureType, feats: Sequence[Feature], screen: IntArray,
           reference: IntArray, ink: BoolArray, dark: BoolArray) -> list[Sighting]:
    h, w = reference.shape[:2]
    fill = colour_mask(reference, ft.color, 24.0)
    out: list[Sighting] = []
    label_colour = AREA_LABEL_COLOURS.get(ft.name)
    label_ink = dark if label_colour is None else \
        blend_mask(screen, halo_background(reference), label_colour, where=ink,
                   min_alpha=LABEL_MIN_ALPHA)
    vis = _view_box_lonlat(view, -EDGE_BAND_PX)
    for f in feats:
        clipped = f.geometry.intersection(vis)
        lines = _lines_px(view, clipped)
        samples = [p for line in lines for p in _sample(line, 3.0)
                   if 0 <= p[0] < w and 0 <= p[1] < h]
        if not samples:
            out.append(Sighting(f, _anchor_px(view, f), False, False, True, False, 0.0))
            continue
        hits = sum(1 for x, y in samples if count_in_box(fill, x - 2, y - 2, x + 3, y + 3) > 0)
        coverage = hits / len(samples)
        drawn = coverage >= LINE_MIN_COVERAGE
        legible = False
        if drawn and f.name:
            px = text_pixels_along(label_ink, lines)
            legible = name_drawn_along(px, f.name,
                                       per_char=ROAD_TEXT_PIXELS_PER_CHAR
                                       if label_colour is None else AREA_TEXT_PIXELS_PER_CHAR)
        out.append(Sighting(f, _anchor_px(view, f), drawn, legible, False, False, coverage))
    return out


def _areas(view: View, ft: FeatureType, feats: Sequence[Feature], screen: IntArray,
           reference: IntArray, ink: BoolArray) -> list[Sighting]:
    h, w = reference.shape[:2]
    fill = colour_mask(reference, ft.color, 20.0)
    label_colour = AREA_LABEL_COLOURS.get(ft.name, "#000000")
    out: list[Sighting] = []
    for f in feats:
        outer, inner = _rings_px(view, f.geometry)
        inside = polygon_mask((h, w), outer, inner)
        pixels = int((fill & inside).sum())
        drawn = pixels >= AREA_MIN_PIXELS
        legible = False
        cut = False
        if drawn and f.name:
            # OSM-Carto writes an area's name once, at its point on surface (the anchor)
            ax, ay = _anchor_px(view, f)
            half = max(30.0, AREA_LABEL_CHAR_PX * len(f.name) / 2)
            text = blend_mask(screen, halo_background(reference), label_colour,
                              where=ink, min_alpha=LABEL_MIN_ALPHA)
            found = count_in_box(text, ax - half, ay - AREA_LABEL_HALF_HEIGHT_PX,
                                 ax + half, ay + AREA_LABEL_HALF_HEIGHT_PX)
            legible = name_drawn_along(found, f.name, per_char=AREA_TEXT_PIXELS_PER_CHAR)
            box = (ax - half, ay - AREA_LABEL_HALF_HEIGHT_PX, ax + half,
                   ay + AREA_LABEL_HALF_HEIGHT_PX)
            on_screen = box[0] < w and box[2] > 0 and box[1] < h and box[3] > 0
            cut = on_screen and (box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h
                                 or any(_boxes_meet(box, r) for r in _reserved()))
        out.append(Sighting(f, _anchor_px(view, f), drawn, legible, False, cut, float(pixels)))
    return out


def _anchor_px(view: View, f: Feature) -> tuple[float, float]:
    return view.to_view_px(f.lat, f.lon)


def _sample(line: Sequence[tuple[float, float]], step: float) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) // step))
        out.extend((x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(n))
    if line:
        out.append(line[-1])
    return out


def drawn_road_names(view: View, screen: IntArray, reference: IntArray,
                     road_lines: Mapping[str, list[list[tuple[float, float]]]], *,
                     exclude: BoolArray | None = None) -> set[str]:
    """Road names written somewhere along their road in the view.

    Parameters
    ----------
    view : View
        The view.
    screen, reference : array
        Screenshot and label-free reference.
    road_lines : dict
        Road name -> polylines of that road in view pixels.
    exclude : array of bool, optional
        Pixels covered by markers, path and controls.

    Returns
    -------
    set of str
        The names judged drawn.
    """
    dark = dark_ink(screen, ink_mask(screen, reference, exclude=exclude))
    return {name for name, lines in road_lines.items()
            if name_drawn_along(text_pixels_along(dark, lines), name)}


def render_reference(tiles: TileRenderer, view: View) -> bytes:
    """Render a view's pixels with Mapnik, every label and icon layer switched off.

    Parameters
    ----------
    tiles : renderers.tiles.TileRenderer
        The tile pipeline of the extract; :data:`OVERLAY_LAYERS` are left out of this
        one render.
    view : View
        The view; the image lines up pixel for pixel with the view's tiles.

    Returns
    -------
    bytes
        PNG of ``view.width`` x ``view.height`` pixels.
    """
    return tiles.render_image(center=view.center, zoom=view.zoom, width=view.width,
                              height=view.height, exclude_layers=OVERLAY_LAYERS)
