"""Which catalogue features a rendered view shows: the analysis of one view.

:func:`analyse_view` runs the symbol types first (:mod:`cartoqa.visibility.symbols`),
then the lines and areas (:mod:`cartoqa.visibility.coverage`) with the ink of the
icons found and their labels left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from cartoqa.visibility.coverage import area_sightings, line_sightings
from cartoqa.visibility.geometry import view_box_lonlat
from cartoqa.visibility.icons import ICON_ATTRIBUTE_PX, catalogue_by_name
from cartoqa.visibility.labels import LABEL_BOTTOM_PX, LABEL_HALF_WIDTH_PX
from cartoqa.visibility.pixels import BoolArray, IntArray, ink_mask
from cartoqa.visibility.road_names import dark_ink
from cartoqa.visibility.screen import EDGE_BAND_PX, RESERVED_BOXES, Box
from cartoqa.visibility.sightings import ViewFeatures
from cartoqa.visibility.symbols import near_view, one_feature_per_icon, symbol_sightings
from groundtruth.features import Feature
from groundtruth.projection import View


def analyse_view(view: View, screen: IntArray, reference: IntArray,
                 features: Sequence[Feature], *, exclude: BoolArray | None = None,
                 reserved: Sequence[Box] = RESERVED_BOXES) -> ViewFeatures:
    """Decide which catalogue features of a view the rendering shows.

    Parameters
    ----------
    view : View
        The view both images show.
    screen, reference : array
        ``(h, w, 3)`` screenshot and label-free reference
        (see :func:`cartoqa.visibility.pixels.decode_png`).
    features : sequence of Feature
        All catalogue features of the extract.
    exclude : array of bool, optional
        Pixels covered by markers, path and controls
        (:func:`cartoqa.visibility.screen.exclusion_mask`).
    reserved : sequence of box, optional
        Zones of the map controls: a symbol near one is on an edge, a label running
        into one is cut (:func:`cartoqa.visibility.screen.reserved_zones` of what the
        render measured; by default the zones of the standard view).

    Returns
    -------
    ViewFeatures
        Sightings per type, and unexplained icons.
    """
    ink = ink_mask(screen, reference, exclude=exclude)
    dark = dark_ink(screen, ink)
    near = view_box_lonlat(view, EDGE_BAND_PX + 2)
    cat = catalogue_by_name()
    result = ViewFeatures()
    colour_inks: dict[str, BoolArray] = {}
    symbols_first = sorted(cat.items(), key=lambda kv: kv[1].kind != "symbol")
    poi_ink: BoolArray | None = None
    for name, ft in symbols_first:
        feats = [f for f in features if f.feature_type == name]
        if ft.kind == "symbol":
            feats = [f for f in feats if near_view(view, f)]
        else:
            feats = [f for f in feats if f.geometry.intersects(near)]
        if ft.kind == "symbol":
            sightings, orphans = symbol_sightings(view, ft, feats, screen, reference, ink,
                                                  colour_inks, reserved=reserved)
            if orphans:
                result.orphans[name] = orphans
        else:
            if poi_ink is None:  # icons and their labels are not line or area names
                poi_ink = ink & ~_poi_boxes(view, result)
            if ft.kind == "line":
                sightings = line_sightings(view, ft, feats, screen, reference, poi_ink,
                                           dark & poi_ink)
            else:
                sightings = area_sightings(view, ft, feats, screen, reference, poi_ink,
                                           reserved=reserved)
        result.by_type[name] = sightings
        result.kinds[name] = ft.kind
    result.by_type = {name: result.by_type[name] for name in cat}
    one_feature_per_icon(result)
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
