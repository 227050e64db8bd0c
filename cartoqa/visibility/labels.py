"""Labels under icons: their colours, where OSM-Carto writes them, whether legible."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from cartoqa.visibility.pixels import BoolArray
from cartoqa.visibility.screen import EDGE_BAND_PX
from groundtruth.projection import View

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
#: Types whose label OSM-Carto never writes (toilets get no label). ATMs are labelled
#: with their ``operator``, which is their name in the ground truth
#: (:attr:`groundtruth.catalogue.FeatureType.label_tag`).
UNLABELLED_TYPES: frozenset[str] = frozenset({"public toilet"})
#: Least coverage of a label pixel.
LABEL_MIN_ALPHA = 0.4
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


def label_peeks_in(label_ink: BoolArray, x: float, y: float) -> bool:
    """Whether label ink lies in the part of the view an icon at ``(x, y)`` labels."""
    h, w = label_ink.shape
    x0, x1 = max(0, int(x - LABEL_HALF_WIDTH_PX)), min(w, int(x + LABEL_HALF_WIDTH_PX) + 1)
    y0, y1 = max(0, int(y + LABEL_TOP_PX)), min(h, int(y + LABEL_BOTTOM_PX) + 1)
    if x0 >= x1 or y0 >= y1:
        return False
    return int(label_ink[y0:y1, x0:x1].sum()) >= LABEL_MIN_PIXELS
