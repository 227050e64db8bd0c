"""The reference render: a view drawn by Mapnik with every label and icon layer off.

Where the screenshot differs from it, something was written on the map (see
:func:`cartoqa.visibility.pixels.ink_mask`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def render_reference(tiles: TileRenderer, view: View) -> bytes:
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
    bytes
        PNG of ``view.width`` x ``view.height`` pixels.
    """
    return tiles.render_image(center=view.center, zoom=view.zoom, width=view.width,
                              height=view.height, exclude_layers=OVERLAY_LAYERS)
