"""Is a one-way arrow visible on a road stretch of the rendered image?

OSM-Carto draws one-way streets at zoom 16 and more with small arrows (its
``symbols/oneway.svg``, 12 x 5 px) placed along the way every 180 px in the
``roads-text-name`` layer, in a colour of the road's class
(:data:`ARROW_FILL`). Placement is Mapnik's: an arrow that would collide with a
street name already placed, or that does not fit a short or bent piece of way, is
left out, so a one-way street split into short OSM ways can carry no arrow at all
(Lönnrotinkatu at seed 4242: eight ways of 4-50 m, none with an arrow). The data
says one-way; the picture does not.

The oracle reads the picture: the ``roads-text-name`` layer is off in the label-free
reference (:mod:`cartoqa.visibility.reference`), so an arrow is ink (screenshot and
reference differ) of the arrow's colour within :data:`ARROW_SEARCH_PX` of the road's
centre line. Street names are drawn there too, in black or dark grey with
anti-aliased edges whose greys can match an arrow's; pixels within
:data:`TEXT_GUARD_PX` of text ink darker than the arrow are therefore not counted.
An arrow counts as visible when at least :data:`ARROW_MIN_PIXELS` such pixels lie on
the stretch (an arrow head alone has about ten).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from cartoqa.visibility.pixels import BoolArray, IntArray, hex_rgb, ink_mask, line_mask

#: OSM-Carto's one-way arrow fill per ``highway`` class (``roads-text-name-directions``
#: in Debian's ``style.xml``); classes not listed get no arrow.
ARROW_FILL: dict[str, str] = {
    "motorway": "#741334", "motorway_link": "#741334",
    "trunk": "#612617", "trunk_link": "#612617",
    "primary": "#543800", "primary_link": "#543800",
    "secondary": "#444c03", "secondary_link": "#444c03",
    "tertiary": "#434343", "tertiary_link": "#434343",
    "residential": "#555555", "unclassified": "#555555", "road": "#555555",
    "service": "#555555", "living_street": "#6e6e6e", "pedestrian": "#595959",
}
#: Largest channel difference of an arrow pixel from the fill colour.
ARROW_COLOUR_TOL = 24
#: Ink must differ from the reference by more than this (any channel).
ARROW_INK_DIFF = 40
#: Arrow pixels are sought this far (pixels) from the road's centre line.
ARROW_SEARCH_PX = 3.0
#: Text ink (darker than the arrow by :data:`TEXT_DARKER_BY` in mean RGB) spoils
#: arrow-coloured pixels this close (pixels): they are a name's anti-aliasing.
TEXT_GUARD_PX = 2
TEXT_DARKER_BY = 35
#: Least arrow pixels on a stretch for its arrow to count as visible.
ARROW_MIN_PIXELS = 4


def _dilate(mask: BoolArray, r: int) -> BoolArray:
    out = mask.copy()
    h, w = mask.shape
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            src = mask[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)]
            out[max(0, dy):h - max(0, -dy), max(0, dx):w - max(0, -dx)] |= src
    return out


def arrow_mask(screen: IntArray, reference: IntArray, colour: str) -> BoolArray:
    """Pixels that may belong to a one-way arrow of ``colour``.

    Ink of that colour (within :data:`ARROW_COLOUR_TOL`) not within
    :data:`TEXT_GUARD_PX` of darker text ink.

    Examples
    --------
    >>> ref = np.full((9, 9, 3), 255, np.int16); scr = ref.copy()
    >>> scr[4, 2:7] = (85, 85, 85)                     # an arrow's shaft
    >>> int(arrow_mask(scr, ref, "#555555").sum())
    5
    >>> scr[4, 8] = (0, 0, 0)                           # black text next to it
    >>> int(arrow_mask(scr, ref, "#555555").sum())      # its 2 px guard drops one
    4
    """
    return arrow_masks(screen, reference, [colour])[colour]


def arrow_masks(screen: IntArray, reference: IntArray,
                colours: Iterable[str]) -> dict[str, BoolArray]:
    """:func:`arrow_mask` of each colour, with the ink and the brightness of the image,
    which do not depend on the colour, computed once.

    Examples
    --------
    >>> ref = np.full((9, 9, 3), 255, np.int16); scr = ref.copy()
    >>> scr[4, 2:7] = (85, 85, 85); scr[1, 1:3] = (0x54, 0x38, 0)
    >>> {c: int(m.sum()) for c, m in arrow_masks(scr, ref, ["#555555", "#543800"]).items()}
    {'#555555': 5, '#543800': 2}
    """
    wanted = list(colours)
    if not wanted:
        return {}
    # channel by channel (a maximum or mean over the short last axis is several times
    # slower, as ink_mask says): the same booleans and the same mean
    ink = ink_mask(screen, reference, min_diff=ARROW_INK_DIFF)
    brightness = screen[..., 0].astype(np.float64)
    for channel in range(1, screen.shape[2]):
        brightness += screen[..., channel]
    brightness /= screen.shape[2]
    masks: dict[str, BoolArray] = {}
    for colour in wanted:
        fill = np.array(hex_rgb(colour), dtype=np.int16)
        near = np.abs(screen[..., 0] - fill[0]) <= ARROW_COLOUR_TOL
        for channel in range(1, screen.shape[2]):
            near &= np.abs(screen[..., channel] - fill[channel]) <= ARROW_COLOUR_TOL
        text = ink & (brightness < float(fill.mean()) - TEXT_DARKER_BY)
        masks[colour] = np.asarray(ink & near & ~_dilate(text, TEXT_GUARD_PX))
    return masks


def arrow_visible(arrows: BoolArray, lines_px: Iterable[Sequence[tuple[float, float]]], *,
                  radius: float = ARROW_SEARCH_PX, min_pixels: int = ARROW_MIN_PIXELS) -> bool:
    """Whether an arrow is seen along a stretch of road.

    Parameters
    ----------
    arrows : array of bool
        :func:`arrow_mask` of the image, for the stretch's class colour.
    lines_px : iterable of sequences of (x, y)
        The stretch's centre lines in view pixels.

    Examples
    --------
    >>> m = np.zeros((20, 40), bool); m[10, 20:26] = True
    >>> arrow_visible(m, [[(0.0, 10.0), (39.0, 10.0)]])
    True
    >>> arrow_visible(m, [[(0.0, 2.0), (39.0, 2.0)]])
    False
    """
    corridor = line_mask(arrows.shape, lines_px, radius=radius)
    return int((arrows & corridor).sum()) >= min_pixels
