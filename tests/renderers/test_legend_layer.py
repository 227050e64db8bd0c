"""The thematic layer drawn on a map: fills, hatches, dots on top, legend (issue 27)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image
from shapely.geometry import box

from renderers.legend_layer import (
    CATEGORY_STYLES,
    DrawnCategory,
    draw_categories,
    legend_box,
    ring_share,
)
from renderers.overlays import OVERLAY_COLORS


def _blank(w: int = 600, h: int = 400, colour: str = "#f2efe9") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, format="PNG")
    return buf.getvalue()


def test_layer_dots_and_legend() -> None:
    cats = [DrawnCategory("grass", (box(0, 0, 200, 300),)),
            DrawnCategory("commercial land", (box(250, 0, 450, 300),))]
    dots = [(100.0, 150.0, OVERLAY_COLORS["blue"]), (350.0, 150.0, OVERLAY_COLORS["orange"])]
    png, lbox = draw_categories(_blank(), cats, dots, bottom=380.0, keep=[(0, 0, 40, 30)])
    assert lbox == legend_box(600, 400, 2, 380.0)
    # each dot's ring shows its own area's category, not the other's
    assert ring_share(png, 100, 150, 0) > 0.9 and ring_share(png, 100, 150, 1) == 0.0
    assert ring_share(png, 350, 150, 1) > 0.9 and ring_share(png, 350, 150, 0) == 0.0
    # a dot outside every area: neither
    assert ring_share(png, 225, 350, 0) == 0.0 and ring_share(png, 225, 350, 1) == 0.0
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    # a kept box (the map's own legend) is left as it was
    paper = (0xf2, 0xef, 0xe9)
    assert (rgb[0:30, 0:40] == paper).all() and tuple(rgb[40, 20]) != paper
    # the dots are drawn over the layer in their colours
    assert tuple(rgb[150, 100]) == (0x1f, 0x4f, 0xd1)
    assert tuple(rgb[150, 350]) == (0xff, 0x7f, 0x00)
    # the hatches differ: diagonal in the first, cross in the second (more hatch pixels)
    hatch = [np.linalg.norm(rgb[20:120, x0:x0 + 100] - np.array(
        [int(CATEGORY_STYLES[i][1][k:k + 2], 16) for k in (1, 3, 5)]), axis=2) < 40
        for i, x0 in ((0, 20), (1, 270))]
    assert 0.1 < hatch[0].mean() < hatch[1].mean() < 0.6
    # the legend's swatches are drawn in the categories' fills, in order
    x0, y0 = int(lbox[0]), int(lbox[1])
    for i in range(2):
        sw = rgb[y0 + 8 + 26 * i: y0 + 28 + 26 * i, x0 + 10: x0 + 30]
        fill = np.array([int(CATEGORY_STYLES[i][0][k:k + 2], 16) for k in (1, 3, 5)])
        assert (np.linalg.norm(sw - fill, axis=2) < 10).mean() > 0.3


def test_ring_share_off_the_image_counts_as_hidden() -> None:
    png = _blank(colour=CATEGORY_STYLES[0][0])
    assert ring_share(png, 300, 200, 0) == 1.0
    assert 0.2 < ring_share(png, 0, 200, 0) < 0.6


def test_outlines_drawn_over_the_layer_and_category_pixels() -> None:
    """A polygon overlay's outline is drawn again on top of the fills (a count question's
    subject stays visible); ``category_pixels`` counts a category's fill and hatch,
    outside skipped boxes and inside a polygon."""
    from renderers.legend_layer import category_pixels

    cats = [DrawnCategory("grass", (box(0, 0, 300, 300),))]
    red = OVERLAY_COLORS["red"]
    png, _ = draw_categories(_blank(), cats, [], bottom=380.0,
                                lines=[(box(100, 100, 200, 200), red)])
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    assert tuple(rgb[150, 100]) == (0xe4, 0x1a, 0x1c)  # on the outline: red
    assert tuple(rgb[150, 150]) != (0xe4, 0x1a, 0x1c)  # inside: the layer
    whole = category_pixels(png, 0)
    assert 300 * 300 * 0.9 < whole <= 301 * 301
    assert category_pixels(png, 0, within=box(0, 0, 50, 50)) > 2000
    assert category_pixels(png, 0, skip=[(0, 0, 600, 400)]) == 0
    assert category_pixels(png, 1) < 50  # the second style is not drawn (its swatch is not)
