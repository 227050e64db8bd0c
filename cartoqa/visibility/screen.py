"""Boxes on the screen: what the pins and the map controls cover, and the edge band.

All positions are view pixels (``x`` right, ``y`` down, origin at the top-left corner);
a box is ``(x0, y0, x1, y1)``.

The map controls (Leaflet's scale bar and attribution) are measured by the renderer
on every render (:attr:`renderers.map_render.RenderResult.controls`);
:func:`reserved_zones` turns that measurement into the zones kept clear of what a
question points at. :data:`CONTROL_ZONES` are the zones for the standard view before
anything is rendered (where a sampler places markers and paths) and the least zones
afterwards, so that what was checked before the render still holds after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.visibility.pixels import BoolArray, line_mask
from groundtruth.projection import View
from renderers.markers import PIN_HEIGHT, PIN_WIDTH

Box = tuple[float, float, float, float]
Point = tuple[float, float]

#: Features whose pixel is this close to an edge (inside or out) may be cut off.
EDGE_BAND_PX = 9.0

#: Zones kept clear around the map controls of the standard 1366x768 view, by the
#: control's name in :attr:`renderers.map_render.RenderResult.controls`: the scale bar
#: (bottom left) and the attribution (bottom right). They hold what Leaflet draws
#: there with some room to spare (checked against the renderer's measurement by
#: ``tests/renderers/test_map_render.py``).
CONTROL_ZONES: dict[str, Box] = {
    "scale_bar": (0.0, VIEW_HEIGHT - 50.0, 140.0, float(VIEW_HEIGHT)),
    "attribution": (VIEW_WIDTH - 330.0, VIEW_HEIGHT - 22.0, float(VIEW_WIDTH),
                    float(VIEW_HEIGHT)),
}
#: The control zones of the standard view, as a sequence (before any render).
RESERVED_BOXES: tuple[Box, ...] = tuple(CONTROL_ZONES.values())


def boxes_overlap(a: Box, b: Box, *, gap: float = 0.0) -> bool:
    """Whether two boxes overlap or come closer than ``gap`` pixels.

    Examples
    --------
    >>> boxes_overlap((0, 0, 10, 10), (12, 0, 20, 10))
    False
    >>> boxes_overlap((0, 0, 10, 10), (12, 0, 20, 10), gap=3)
    True
    """
    return not (a[2] + gap <= b[0] or b[2] + gap <= a[0]
                or a[3] + gap <= b[1] or b[3] + gap <= a[1])


def marker_box(px: Point) -> Box:
    """Screen box covered by a pin whose tip is at ``px``.

    Examples
    --------
    >>> marker_box((100.0, 200.0))
    (87.0, 159.0, 113.0, 200.0)
    """
    x, y = px
    return (x - PIN_WIDTH / 2, y - PIN_HEIGHT, x + PIN_WIDTH / 2, y)


def reserved_zones(controls: Mapping[str, Box],
                   fallback: Mapping[str, Box] = CONTROL_ZONES) -> tuple[Box, ...]:
    """The zones kept clear around the controls a render measured.

    A measured box is first taken to whole pixels, each side rounded to the nearest
    (the pixels the control covers at least half: Leaflet places the attribution at a
    fraction of a pixel). Each control's zone is then the smallest box holding both
    that box and its zone in ``fallback`` (a control measured bigger than its zone
    grows it; one without a zone, such as the zoom buttons, keeps its own box).
    Controls not measured keep their ``fallback`` zone.

    Parameters
    ----------
    controls : mapping
        Control name -> measured box (:attr:`renderers.map_render.RenderResult.controls`).
    fallback : mapping
        Control name -> zone known before rendering (:data:`CONTROL_ZONES`).

    Returns
    -------
    tuple of box
        Fallback controls first, in their order, then the others in theirs.

    Examples
    --------
    >>> reserved_zones({}) == RESERVED_BOXES
    True
    >>> reserved_zones({"scale_bar": (10.0, 722.0, 110.0, 758.0)}) == RESERVED_BOXES
    True
    >>> reserved_zones({"attribution": (900.0, 746.0, 1366.0, 768.0)},
    ...                {"attribution": (1036.0, 746.0, 1366.0, 768.0)})
    ((900.0, 746.0, 1366.0, 768.0),)
    >>> reserved_zones({"attribution": (1053.9, 745.6, 1366.0, 768.0)}) == RESERVED_BOXES
    True
    >>> reserved_zones({"zoom": (10.0, 10.2, 44.0, 75.0)}, {})
    ((10.0, 10.0, 44.0, 75.0),)
    """
    whole = {name: _whole_pixels(box) for name, box in controls.items()}
    out: list[Box] = []
    for name, zone in fallback.items():
        seen = whole.get(name)
        if seen is None:
            out.append(zone)
        else:
            out.append((min(zone[0], seen[0]), min(zone[1], seen[1]),
                        max(zone[2], seen[2]), max(zone[3], seen[3])))
    out.extend(box for name, box in whole.items() if name not in fallback)
    return tuple(out)


def _whole_pixels(box: Sequence[float]) -> Box:
    """A box with each side rounded to the nearest pixel boundary."""
    return (float(round(box[0])), float(round(box[1])), float(round(box[2])),
            float(round(box[3])))


def within_band(x: float, y: float, *, width: int, height: int, margin: float) -> bool:
    """Whether ``(x, y)`` lies in the view or at most ``margin`` pixels outside it.

    Examples
    --------
    >>> within_band(-5.0, 10.0, width=100, height=50, margin=9.0)
    True
    >>> within_band(-10.0, 10.0, width=100, height=50, margin=9.0)
    False
    """
    return -margin <= x <= width + margin and -margin <= y <= height + margin


def near_edge(x: float, y: float, *, width: int, height: int, margin: float,
              boxes: Sequence[Box]) -> bool:
    """Whether ``(x, y)`` lies within ``margin`` of the view's edges or of a box.

    A symbol there may be cut by the edge or hidden by a map control.

    Examples
    --------
    >>> near_edge(50.0, 25.0, width=100, height=50, margin=9.0, boxes=())
    False
    >>> near_edge(95.0, 25.0, width=100, height=50, margin=9.0, boxes=())
    True
    >>> near_edge(50.0, 25.0, width=100, height=50, margin=9.0,
    ...           boxes=[(55.0, 0.0, 70.0, 20.0)])
    True
    """
    if x < margin or y < margin or x > width - margin or y > height - margin:
        return True
    return any(b[0] - margin <= x <= b[2] + margin and b[1] - margin <= y <= b[3] + margin
               for b in boxes)


def exclusion_mask(view: View, *, marker_px: Sequence[Point] = (),
                   path_px: Sequence[Point] = (), boxes: Sequence[Box] = ()) -> BoolArray:
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
        Control zones (:func:`reserved_zones`).
    """
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
