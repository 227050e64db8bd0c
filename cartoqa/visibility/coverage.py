"""Lines and areas: whether their style colour covers their geometry, and their names."""

from __future__ import annotations

from collections.abc import Sequence

from cartoqa.visibility.geometry import (
    anchor_px,
    lines_px,
    rings_px,
    sample_line,
    view_box_lonlat,
)
from cartoqa.visibility.labels import AREA_LABEL_COLOURS, LABEL_MIN_ALPHA
from cartoqa.visibility.pixels import (
    BoolArray,
    IntArray,
    colour_mask,
    count_in_box,
    halo_blend_mask,
    polygon_mask,
)
from cartoqa.visibility.road_names import (
    ROAD_TEXT_PIXELS_PER_CHAR,
    name_drawn_along,
    text_pixels_along,
)
from cartoqa.visibility.screen import EDGE_BAND_PX, Box, boxes_overlap
from cartoqa.visibility.sightings import Sighting
from groundtruth.catalogue import FeatureType
from groundtruth.features import Feature
from groundtruth.projection import View

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


def line_sightings(view: View, ft: FeatureType, feats: Sequence[Feature], screen: IntArray,
                   reference: IntArray, ink: BoolArray, dark: BoolArray) -> list[Sighting]:
    """Sightings of a line type's features (streams, rivers, primary roads).

    A line is drawn when its colour shows at :data:`LINE_MIN_COVERAGE` of the points
    sampled along it inside the view (less the edge band); its name is legible when
    enough label ink (``dark`` for roads) lies along it.

    Parameters
    ----------
    view : View
        The view.
    ft : FeatureType
        The line type.
    feats : sequence of Feature
        Its features that come near the view.
    screen, reference : array
        Screenshot and label-free reference.
    ink : array of bool
        The ink mask, icons and their labels left out.
    dark : array of bool
        Dark ink within ``ink`` (road names).

    Returns
    -------
    list of Sighting
        One per feature, in order.
    """
    h, w = reference.shape[:2]
    fill = colour_mask(reference, ft.color, 24.0)
    out: list[Sighting] = []
    label_colour = AREA_LABEL_COLOURS.get(ft.name)
    label_ink = dark if label_colour is None else \
        halo_blend_mask(screen, reference, label_colour, where=ink, min_alpha=LABEL_MIN_ALPHA)
    vis = view_box_lonlat(view, -EDGE_BAND_PX)
    for f in feats:
        clipped = f.geometry.intersection(vis)
        lines = lines_px(view, clipped)
        samples = [p for line in lines for p in sample_line(line, 3.0)
                   if 0 <= p[0] < w and 0 <= p[1] < h]
        if not samples:
            out.append(Sighting(f, anchor_px(view, f), False, False, True, False, 0.0))
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
        out.append(Sighting(f, anchor_px(view, f), drawn, legible, False, False, coverage))
    return out


def area_sightings(view: View, ft: FeatureType, feats: Sequence[Feature], screen: IntArray,
                   reference: IntArray, ink: BoolArray, *,
                   reserved: Sequence[Box]) -> list[Sighting]:
    """Sightings of an area type's features (parks).

    An area is drawn when :data:`AREA_MIN_PIXELS` of its inside show its colour in the
    reference; its name is legible when enough label ink lies around its anchor, and
    cut when that box runs over an edge or a control zone. The parameters are those of
    :func:`line_sightings` (with ``ft`` an area type, and no ``dark``) and ``reserved``,
    the zones of the map controls (:func:`cartoqa.visibility.screen.reserved_zones`).
    """
    h, w = reference.shape[:2]
    fill = colour_mask(reference, ft.color, 20.0)
    label_colour = AREA_LABEL_COLOURS.get(ft.name, "#000000")
    out: list[Sighting] = []
    text: BoolArray | None = None
    for f in feats:
        outer, inner = rings_px(view, f.geometry)
        inside = polygon_mask((h, w), outer, inner)
        pixels = int((fill & inside).sum())
        drawn = pixels >= AREA_MIN_PIXELS
        legible = False
        cut = False
        if drawn and f.name:
            # OSM-Carto writes an area's name once, at its point on surface (the anchor)
            ax, ay = anchor_px(view, f)
            half = max(30.0, AREA_LABEL_CHAR_PX * len(f.name) / 2)
            if text is None:  # the same for every area of the type: made once
                text = halo_blend_mask(screen, reference, label_colour, where=ink,
                                       min_alpha=LABEL_MIN_ALPHA)
            found = count_in_box(text, ax - half, ay - AREA_LABEL_HALF_HEIGHT_PX,
                                 ax + half, ay + AREA_LABEL_HALF_HEIGHT_PX)
            legible = name_drawn_along(found, f.name, per_char=AREA_TEXT_PIXELS_PER_CHAR)
            box = (ax - half, ay - AREA_LABEL_HALF_HEIGHT_PX, ax + half,
                   ay + AREA_LABEL_HALF_HEIGHT_PX)
            on_screen = box[0] < w and box[2] > 0 and box[1] < h and box[3] > 0
            cut = on_screen and (box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h
                                 or any(boxes_overlap(box, r) for r in reserved))
        out.append(Sighting(f, anchor_px(view, f), drawn, legible, False, cut, float(pixels)))
    return out
