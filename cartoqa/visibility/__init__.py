"""Which map features a rendered view actually shows, decided from its pixels.

OSM-Carto hides icons and labels by zoom rules and by collisions, so the features in
the data are not the features on the image. This package compares two renderings of
the same view:

* the **screenshot** the item uses (tiles, markers, path, controls), and
* a **reference** drawn by Mapnik for the same pixels with every label and icon layer
  switched off (:mod:`~cartoqa.visibility.reference`).

Where the two differ, something was written on the map: the *ink mask*. Then

* a **symbol** (icon) is drawn when the OSM-Carto icon, rasterised by Mapnik from
  ``symbols/*.svg`` in its style colour, matches the ink of that colour around the
  feature's pixel (intersection over union of the shapes, best over a few pixels of
  shift, at least :data:`~cartoqa.visibility.icons.ICON_MIN_IOU`). Icons of the type
  found anywhere else in the view (no feature of the data explains them) make the
  type *ambiguous* (:mod:`~cartoqa.visibility.icons`, :mod:`~cartoqa.visibility.symbols`);
* its **name** is legible when ink of the style's label colour lies under the icon
  (:mod:`~cartoqa.visibility.labels`);
* a **road name** asked by MML and SRN is written when Mapnik, asked to draw it in a
  colour of its own on the view's tiles, puts it wholly inside the view, clear of
  markers and controls, along the road (:mod:`~cartoqa.visibility.written`); dark ink
  along a road (traffic-signal icons) is never taken for a name. The names of lines
  and areas on the feature maps are still judged from dark ink along them
  (:mod:`~cartoqa.visibility.road_names`);
* a **line** (stream, river, primary road) or **area** (park) is drawn when its style
  colour covers enough of its geometry in the reference image
  (:mod:`~cartoqa.visibility.coverage`).

:func:`~cartoqa.visibility.analysis.analyse_view` puts these together for one view.
The modules, lowest first: ``pixels`` (array primitives), ``screen`` (boxes of pins
and map controls, the edge band), ``geometry`` (feature geometry in view pixels),
``sightings`` (the results), ``icons``, ``labels``, ``road_names``, ``symbols``,
``coverage``, ``analysis``, ``reference`` (the Mapnik renders) and ``written``. The pixel tests are
pure functions of arrays; only ``reference`` and the icon templates touch Mapnik.
Nothing here imports :mod:`cartoqa.tasks`: the tasks hand in the control zones.
"""

from cartoqa.visibility.analysis import analyse_view
from cartoqa.visibility.coverage import (
    AREA_LABEL_CHAR_PX,
    AREA_LABEL_HALF_HEIGHT_PX,
    AREA_MIN_PIXELS,
    AREA_TEXT_PIXELS_PER_CHAR,
    LINE_MIN_COVERAGE,
)
from cartoqa.visibility.icons import (
    ICON_ATTRIBUTE_PX,
    ICON_FAINT_ALPHA,
    ICON_MIN_ALPHA,
    ICON_MIN_IOU,
    ICON_SAME_PX,
    ICON_SEARCH_PX,
    ORPHAN_MIN_IOU,
    find_icons,
    icon_template,
)
from cartoqa.visibility.labels import (
    AREA_LABEL_COLOURS,
    LABEL_BOTTOM_PX,
    LABEL_COLOURS,
    LABEL_HALF_WIDTH_PX,
    LABEL_LINE_PX,
    LABEL_MAX_GAP_PX,
    LABEL_MAX_OFFSET_PX,
    LABEL_MIN_ALPHA,
    LABEL_MIN_PIXELS,
    LABEL_TOP_PX,
    UNLABELLED_TYPES,
    label_peeks_in,
    label_under_icon,
    near_view_px,
)
from cartoqa.visibility.pixels import (
    BLEND_MAX_RESIDUAL,
    INK_MIN_DIFF,
    BoolArray,
    IntArray,
    blend_mask,
    colour_mask,
    count_in_box,
    decode_png,
    halo_background,
    hex_rgb,
    ink_mask,
    iou_map,
    line_mask,
    polygon_mask,
)
from cartoqa.visibility.reference import OVERLAY_LAYERS, render_marks, render_reference
from cartoqa.visibility.road_names import (
    ROAD_TEXT_MAX_CHANNEL,
    ROAD_TEXT_PIXELS_PER_CHAR,
    ROAD_TEXT_RADIUS_PX,
    dark_ink,
    drawn_road_names,
    name_drawn_along,
    text_pixels_along,
)
from cartoqa.visibility.screen import (
    CONTROL_ZONES,
    EDGE_BAND_PX,
    RESERVED_BOXES,
    Box,
    boxes_overlap,
    exclusion_mask,
    marker_box,
    near_edge,
    reserved_zones,
    within_band,
)
from cartoqa.visibility.sightings import Sighting, ViewFeatures

__all__ = [
    "AREA_LABEL_CHAR_PX",
    "AREA_LABEL_COLOURS",
    "AREA_LABEL_HALF_HEIGHT_PX",
    "AREA_MIN_PIXELS",
    "AREA_TEXT_PIXELS_PER_CHAR",
    "BLEND_MAX_RESIDUAL",
    "CONTROL_ZONES",
    "EDGE_BAND_PX",
    "ICON_ATTRIBUTE_PX",
    "ICON_FAINT_ALPHA",
    "ICON_MIN_ALPHA",
    "ICON_MIN_IOU",
    "ICON_SAME_PX",
    "ICON_SEARCH_PX",
    "INK_MIN_DIFF",
    "LABEL_BOTTOM_PX",
    "LABEL_COLOURS",
    "LABEL_HALF_WIDTH_PX",
    "LABEL_LINE_PX",
    "LABEL_MAX_GAP_PX",
    "LABEL_MAX_OFFSET_PX",
    "LABEL_MIN_ALPHA",
    "LABEL_MIN_PIXELS",
    "LABEL_TOP_PX",
    "LINE_MIN_COVERAGE",
    "ORPHAN_MIN_IOU",
    "OVERLAY_LAYERS",
    "RESERVED_BOXES",
    "ROAD_TEXT_MAX_CHANNEL",
    "ROAD_TEXT_PIXELS_PER_CHAR",
    "ROAD_TEXT_RADIUS_PX",
    "UNLABELLED_TYPES",
    "BoolArray",
    "Box",
    "IntArray",
    "Sighting",
    "ViewFeatures",
    "analyse_view",
    "blend_mask",
    "boxes_overlap",
    "colour_mask",
    "count_in_box",
    "dark_ink",
    "decode_png",
    "drawn_road_names",
    "exclusion_mask",
    "find_icons",
    "halo_background",
    "hex_rgb",
    "icon_template",
    "ink_mask",
    "iou_map",
    "label_peeks_in",
    "label_under_icon",
    "line_mask",
    "marker_box",
    "name_drawn_along",
    "near_edge",
    "near_view_px",
    "polygon_mask",
    "render_marks",
    "render_reference",
    "reserved_zones",
    "text_pixels_along",
    "within_band",
]
