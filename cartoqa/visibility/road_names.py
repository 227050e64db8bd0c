"""Dark ink along a line: the names of lines and areas on the feature maps.

Road names that MML and SRN ask for are judged by :mod:`cartoqa.visibility.written`
(asked of Mapnik), which icons cannot fool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from cartoqa.visibility.pixels import BoolArray, IntArray, ink_mask, line_mask
from groundtruth.projection import View

#: Road labels: dark ink (every channel below this) within this distance of the line.
ROAD_TEXT_MAX_CHANNEL = 100
ROAD_TEXT_RADIUS_PX = 6
#: Dark ink pixels per character of the name needed to call a road name drawn.
ROAD_TEXT_PIXELS_PER_CHAR = 4.0


def dark_ink(screen: IntArray, ink: BoolArray) -> BoolArray:
    """Ink pixels dark in every channel (black and dark-grey text such as road names)."""
    out = np.zeros(ink.shape, dtype=bool)
    ys, xs = np.nonzero(ink)
    out[ys, xs] = screen[ys, xs].max(axis=1) <= ROAD_TEXT_MAX_CHANNEL
    return out


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
