"""A thematic layer drawn on a finished FRIEDA map: category fills with hatches, and a
legend box naming each category by its swatch (FRIEDA's legend-read layers).

:func:`draw_categories` fills each category's areas (already in image pixels) in its
colour with its hatch, draws the question's dots again on top (the layer would cover
Leaflet's), and draws the legend box at the bottom right, above the attribution.
:func:`ring_share` measures on the finished pixels how much of the ring around a dot
shows a category's fill or hatch: whether a reader sees the dot inside (or outside) an
area of that category.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from renderers.overlays import OVERLAY_WEIGHT, POINT_RADIUS
from renderers.png_pixels import near_colour, rgb_pixels

Box = tuple[float, float, float, float]

#: ``(fill, hatch colour, hatch)`` per category, in the order a map lists its
#: categories: hues far from the overlays' red, blue, purple and orange.
CATEGORY_STYLES: tuple[tuple[str, str, str], ...] = (
    ("#66c2a5", "#1b7a5a", "diagonal"),
    ("#e5d84a", "#8a7d00", "cross"),
    ("#b3a18a", "#5e4b33", "horizontal"),
    ("#9fd4f0", "#2b7fa8", "dots"),
    ("#c7e59a", "#5f8a1e", "vertical"),
)
#: Fill opacity of the layer (0-255): the streets stay faintly visible underneath.
FILL_ALPHA = 200
#: Spacing of hatch lines and dots, pixels.
HATCH_STEP = 9
#: Legend box: row height, swatch side, width, pixels.
ROW_PX = 26
SWATCH_PX = 20
LEGEND_WIDTH = 270
#: Largest RGB distance of a pixel that shows a category's fill or hatch.
CATEGORY_TOLERANCE = 75.0


@dataclass(frozen=True)
class DrawnCategory:
    """A category's areas on the image.

    Attributes
    ----------
    category : str
        The legend's words.
    polygons : tuple of shapely geometry
        Its areas in image pixels.
    """

    category: str
    polygons: tuple[BaseGeometry, ...]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def _hatch(size: tuple[int, int], kind: str, colour: str) -> Image.Image:
    """A transparent image covered with a hatch pattern."""
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = (*_rgb(colour), 255)
    s = HATCH_STEP
    if kind in ("diagonal", "cross"):
        for k in range(-h, w + h, s):
            d.line((k, 0, k + h, h), fill=c, width=2)
    if kind == "cross":
        for k in range(-h, w + h, s):
            d.line((k + h, 0, k, h), fill=c, width=2)
    if kind == "horizontal":
        for y in range(0, h, s):
            d.line((0, y, w, y), fill=c, width=2)
    if kind == "vertical":
        for x in range(0, w, s):
            d.line((x, 0, x, h), fill=c, width=2)
    if kind == "dots":
        for y in range(0, h, s):
            for x in range((y // s % 2) * s // 2, w, s):
                d.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=c)
    return img


def _mask(size: tuple[int, int], polygons: Sequence[BaseGeometry]) -> Image.Image:
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    for g in polygons:
        parts = [g] if isinstance(g, Polygon) else list(getattr(g, "geoms", []))
        for p in parts:
            if not isinstance(p, Polygon) or p.is_empty:
                continue
            d.polygon(list(p.exterior.coords), fill=255)
            for ring in p.interiors:
                d.polygon(list(ring.coords), fill=0)
    return mask


def legend_box(width: int, height: int, n: int, bottom: float) -> Box:
    """Where the category legend lies: bottom right, its foot at ``bottom``.

    Examples
    --------
    >>> legend_box(1366, 768, 2, 740.0)
    (1086.0, 668.0, 1356.0, 732.0)
    """
    h = 10.0 + ROW_PX * n
    return (width - 10.0 - LEGEND_WIDTH, bottom - 8.0 - h - 2.0, width - 10.0, bottom - 8.0)


def draw_categories(png: bytes, categories: Sequence[DrawnCategory],
                    dots: Sequence[tuple[float, float, str]], *, bottom: float,
                    keep: Sequence[Box] = (),
                    lines: Sequence[tuple[BaseGeometry, str]] = (),
                    compress_level: int = -1) -> tuple[bytes, Box]:
    """Draw the thematic layer, the overlays again and the legend box.

    Parameters
    ----------
    png : bytes
        The turned map.
    categories : sequence of DrawnCategory
        In legend order (style ``i`` of :data:`CATEGORY_STYLES` for the ``i``-th).
    dots : sequence of (x, y, hex colour)
        Point overlays to draw again on top.
    bottom : float
        The legend box's foot (the attribution's top).
    keep : sequence of box, optional
        Boxes left as they were (the map's own legend, scale bar, attribution).
    lines : sequence of (geometry, hex colour), optional
        Polygon overlays (their outline) and line overlays in image pixels, drawn again
        on top at :data:`renderers.overlays.OVERLAY_WEIGHT`.
    compress_level : int, optional
        The PNG's zlib level (-1: zlib's default; an image another step decodes at
        once may take 0, its pixels being the same).

    Returns
    -------
    (bytes, box)
        The new PNG and the legend box.
    """
    if len(categories) > len(CATEGORY_STYLES):
        raise ValueError(f"at most {len(CATEGORY_STYLES)} categories on a map")
    base = Image.open(io.BytesIO(png)).convert("RGBA")
    original = base.copy()
    size = base.size
    for i, cat in enumerate(categories):
        fill, hatch_colour, hatch = CATEGORY_STYLES[i]
        mask = _mask(size, cat.polygons)
        layer = Image.new("RGBA", size, (*_rgb(fill), FILL_ALPHA))
        base.paste(layer, (0, 0), Image.fromarray(
            (np.asarray(mask, dtype=np.uint16) * FILL_ALPHA // 255).astype(np.uint8)))
        pattern = _hatch(size, hatch, hatch_colour)
        pmask = Image.fromarray(np.minimum(np.asarray(mask), np.asarray(pattern)[:, :, 3]))
        base.paste(pattern, (0, 0), pmask)
    for b in keep:
        kx0, ky0, kx1, ky1 = (round(v) for v in b)
        base.paste(original.crop((kx0, ky0, kx1, ky1)), (kx0, ky0))
    d = ImageDraw.Draw(base)
    for geom, colour in lines:
        outline = geom.boundary if geom.geom_type in ("Polygon", "MultiPolygon") else geom
        for part in getattr(outline, "geoms", [outline]):
            coords = list(getattr(part, "coords", []))
            if len(coords) >= 2:
                d.line(coords, fill=(*_rgb(colour), 255), width=OVERLAY_WEIGHT, joint="curve")
    r = POINT_RADIUS
    for x, y, colour in dots:
        d.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=(255, 255, 255, 255))
        d.ellipse((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=(*_rgb(colour), 255))
    box = legend_box(size[0], size[1], len(categories), bottom)
    x0, y0 = box[0], box[1]
    d.rectangle(box, fill=(255, 255, 255, 235), outline=(90, 90, 90, 255), width=1)
    font = ImageFont.load_default(size=15)
    for i, cat in enumerate(categories):
        fill, hatch_colour, hatch = CATEGORY_STYLES[i]
        sy = int(y0 + 8 + ROW_PX * i)
        sw = (int(x0) + 10, sy, int(x0) + 10 + SWATCH_PX, sy + SWATCH_PX)
        d.rectangle(sw, fill=(*_rgb(fill), 255))
        pattern = _hatch((SWATCH_PX, SWATCH_PX), hatch, hatch_colour)
        base.paste(pattern, sw[:2], pattern)
        d.rectangle(sw, outline=(60, 60, 60, 255), width=1)
        d.text((x0 + 20 + SWATCH_PX, sy + 2), cat.category, fill=(20, 20, 20, 255), font=font)
    out = io.BytesIO()
    base.convert("RGB").save(out, format="PNG", compress_level=compress_level)
    return out.getvalue(), box


def ring_share(png: bytes, x: float, y: float, index: int, *, inner: float | None = None,
               outer: float | None = None) -> float:
    """The share of the ring around ``(x, y)`` that shows category ``index``'s fill or
    hatch (within :data:`CATEGORY_TOLERANCE`) on the finished image.

    Parameters
    ----------
    png : bytes
        The finished map.
    x, y : float
        The dot's centre, pixels.
    index : int
        The category's place in the map's legend.
    inner, outer : float, optional
        The ring's radii (default: 4 and 16 pixels beyond the dot).

    Returns
    -------
    float
        In ``[0, 1]`` (pixels off the image count as not showing it).

    Examples
    --------
    >>> img = Image.new("RGB", (100, 100), CATEGORY_STYLES[0][0])
    >>> buf = io.BytesIO(); img.save(buf, format="PNG")
    >>> ring_share(buf.getvalue(), 50, 50, 0), ring_share(buf.getvalue(), 50, 50, 1)
    (1.0, 0.0)
    """
    inner = POINT_RADIUS + 4 if inner is None else inner
    outer = POINT_RADIUS + 16 if outer is None else outer
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64)
    h, w = rgb.shape[:2]
    yy, xx = np.mgrid[-int(outer):int(outer) + 1, -int(outer):int(outer) + 1]
    dist = np.hypot(xx, yy)
    ring = (dist >= inner) & (dist <= outer)
    px = (xx[ring] + round(x)).astype(int)
    py = (yy[ring] + round(y)).astype(int)
    on = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    if not ring.sum():
        return 0.0
    colours = rgb[py[on], px[on]]
    fill, hatch_colour, _ = CATEGORY_STYLES[index]
    near = np.zeros(len(colours), dtype=bool)
    for c in (fill, hatch_colour):
        near |= np.linalg.norm(colours - np.array(_rgb(c), dtype=np.float64), axis=1) \
            <= CATEGORY_TOLERANCE
    return float(near.sum() / ring.sum())


def category_pixels(png: bytes, index: int, skip: Sequence[Box] = (),
                    within: BaseGeometry | None = None) -> int:
    """How many pixels of the image show category ``index``'s fill or hatch (within
    :data:`CATEGORY_TOLERANCE`), outside the ``skip`` boxes (the legend's swatches) and,
    with ``within``, inside that polygon (image pixels).

    Examples
    --------
    >>> img = Image.new("RGB", (40, 10), "white")
    >>> img.paste(CATEGORY_STYLES[1][0], (0, 0, 10, 10))
    >>> buf = io.BytesIO(); img.save(buf, format="PNG")
    >>> category_pixels(buf.getvalue(), 1), category_pixels(buf.getvalue(), 1, [(0, 0, 5, 10)])
    (100, 50)
    >>> category_pixels(buf.getvalue(), 0)
    0
    >>> from shapely.geometry import box
    >>> category_pixels(buf.getvalue(), 1, within=box(0, 0, 4, 10))
    50
    """
    rgb = rgb_pixels(png)  # decoded once per finished map
    fill, hatch_colour, _ = CATEGORY_STYLES[index]
    near = np.zeros(rgb.shape[:2], dtype=bool)
    for c in (fill, hatch_colour):
        near |= near_colour(rgb, _rgb(c), CATEGORY_TOLERANCE)
    for x0, y0, x1, y1 in skip:
        near[max(0, int(y0)):max(0, int(y1)), max(0, int(x0)):max(0, int(x1))] = False
    if within is not None:
        size = (rgb.shape[1], rgb.shape[0])
        near &= np.asarray(_mask(size, [within]), dtype=bool)
    return int(near.sum())
