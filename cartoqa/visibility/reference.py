"""The Mapnik renders a view is compared with.

* The **reference**: the view drawn with every label and icon layer off. Where the
  screenshot differs from it, something was written on the map (see
  :func:`cartoqa.visibility.pixels.ink_mask`).
* The **marks**: the view's labels placed as on its tiles, with chosen names in
  colours of their own (see :mod:`cartoqa.visibility.written`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cartoqa.visibility.pixels import IntArray, rgba_over_white
from groundtruth.projection import View

if TYPE_CHECKING:
    from renderers.tiles import TileRenderer

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


def render_reference(tiles: TileRenderer, view: View) -> IntArray:
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
    array
        ``(view.height, view.width, 3)`` int16 RGB (alpha over white): what
        :func:`~cartoqa.visibility.pixels.decode_png` makes of the PNG of
        :meth:`~renderers.tiles.TileRenderer.render_image`, taken from Mapnik's pixels
        without encoding and decoding a PNG.
    """
    return rgba_over_white(tiles.render_pixels(center=view.center, zoom=view.zoom,
                                               width=view.width, height=view.height,
                                               exclude_layers=OVERLAY_LAYERS))


def render_marks(tiles: TileRenderer, view: View, names: Sequence[str], *,
                 pad: int) -> IntArray:
    """Where Mapnik writes ``names`` on the view's tiles, ``names[k]`` in mark colour *k*.

    Parameters
    ----------
    tiles : renderers.tiles.TileRenderer
        The tile pipeline of the extract.
    view : View
        The view.
    names : sequence of str
        At most :data:`renderers.label_marks.MARK_SLOTS` names.
    pad : int
        Band drawn around the view, in pixels.

    Returns
    -------
    array
        ``(height + 2 pad, width + 2 pad, 4)`` int16 RGBA; transparent where nothing
        takes part in label placement.
    """
    pixels = tiles.render_label_marks_pixels(center=view.center, zoom=view.zoom,
                                             width=view.width, height=view.height,
                                             names=list(names), pad=pad)
    return pixels.astype(np.int16)
