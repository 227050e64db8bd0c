"""Map styles for FRIEDA maps: OSM-Carto, and two label-free looks drawn from its layers.

FRIEDA's maps come from many documents in many cartographic styles; a benchmark drawn
in one style lets its style tell question maps from distractor maps, and OSM-Carto
writes the names of streets, buildings and areas, so a two-map question could be
answered from one map's labels. :class:`StyledTiles` is a tile source
(:class:`renderers.map_render.TileSource`) for one of :data:`STYLES`:

* ``carto``: OSM-Carto as the other tasks draw it (the extract's own tiles);
* ``plain``: OSM-Carto's colours with every label and icon layer switched off
  (:data:`LABEL_LAYERS`, the layers :mod:`cartoqa.visibility.reference` leaves out of
  its reference image): nothing is named on the basemap, only the legend names what is
  drawn;
* ``grey``: the same label-free map in shades of grey with darker lines (a print
  look);
* ``print``: not tiles at all: a planning-document map drawn with geopandas and
  matplotlib from the extract's PostGIS tables (:mod:`renderers.print_map`), label-free.

The label-free tiles are rendered by Mapnik block by block (:data:`BLOCK` tiles a side)
and cached beside the extract's tiles (``<tile_dir>-<style>``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from groundtruth.projection import TILE_SIZE, global_px_to_latlon, latlon_to_global_px
from renderers.errors import RenderError
from renderers.files import write_atomic

#: The styles drawn from tiles (:class:`StyledTiles`).
TILE_STYLES: tuple[str, ...] = ("carto", "plain", "grey")
#: The styles, in the order plans draw them (``print``: :mod:`renderers.print_map`).
STYLES: tuple[str, ...] = (*TILE_STYLES, "print")
#: Styles whose basemap writes no name (labels and icons off).
UNLABELLED: frozenset[str] = frozenset({"plain", "grey", "print"})
#: Tiles a side rendered by one Mapnik call.
BLOCK = 4
#: Colour of a tile outside the extract (OSM-Carto's land colour).
LAND_RGB: tuple[int, int, int] = (242, 239, 233)
#: OSM-Carto layers that hold labels and icons (the same set as
#: ``cartoqa.visibility.reference.OVERLAY_LAYERS``; a test keeps them equal).
LABEL_LAYERS: frozenset[str] = frozenset({
    "country-names", "capital-names", "state-names", "placenames-medium",
    "placenames-small", "stations", "junctions", "bridge-text", "county-names",
    "amenity-points", "amenity-line", "roads-text-ref-low-zoom", "roads-text-ref",
    "roads-area-text-name", "roads-text-name", "paths-text-name", "railways-text-name",
    "roads-text-ref-minor", "text-poly-low-zoom", "text-line", "text-point",
    "building-text", "addresses", "water-lines-text", "ferry-routes-text", "admin-text",
    "protected-areas-text", "amenity-low-priority", "text-low-priority",
})
#: Version of the transforms below (part of the cache path): 3 draws the blocks at the
#: extract's edge tile by tile, each from a view centred inside the extract (1 painted a
#: whole block land-coloured, 2 a tile whose centre lay past the edge).
STYLE_REVISION = "3"


def greyscale(rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A print look: luminance with its contrast stretched (dark lines, pale ground).

    Parameters
    ----------
    rgb : array
        ``(h, w, 3)`` uint8.

    Returns
    -------
    array
        ``(h, w, 3)`` uint8, the three channels equal.

    Examples
    --------
    >>> px = np.array([[[242, 239, 233], [0, 0, 0]]], dtype=np.uint8)
    >>> greyscale(px)[0, :, 0].tolist()
    [255, 0]
    """
    lum = rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114
    # OSM-Carto's ground (about 239) to white, its darkest ink to black
    stretched = np.clip((lum - 20.0) * 255.0 / (238.0 - 20.0), 0.0, 255.0)
    grey = stretched.round().astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=2)


def style_pixels(rgba: NDArray[np.uint8], style: str) -> NDArray[np.uint8]:
    """Apply a style's colour transform to label-free RGBA pixels (alpha over white).

    Parameters
    ----------
    rgba : array
        ``(h, w, 4)`` uint8 straight alpha, as Mapnik rendered it.
    style : str
        ``plain`` or ``grey``.

    Returns
    -------
    array
        ``(h, w, 3)`` uint8 RGB.
    """
    alpha = rgba[..., 3:4].astype(np.float64) / 255.0
    rgb = (rgba[..., :3].astype(np.float64) * alpha + 255.0 * (1.0 - alpha)).round()
    out = rgb.astype(np.uint8)
    return greyscale(out) if style == "grey" else out


class StyledTiles:
    """A tile source drawing one of :data:`STYLES` from an extract's tile pipeline.

    Parameters
    ----------
    tiles : renderers.tiles.TileRenderer
        The extract's OSM-Carto pipeline (the ``carto`` style is its own tiles).
    style : str
        One of :data:`TILE_STYLES`.
    """

    def __init__(self, tiles: object, style: str) -> None:
        if style not in TILE_STYLES:
            raise ValueError(f"unknown map style {style!r}; choose one of "
                             f"{', '.join(TILE_STYLES)}")
        self.tiles = tiles
        self.style = style
        base: Path = tiles.tile_dir  # type: ignore[attr-defined]
        self.tile_dir = base.parent / f"{base.name}-{style}{STYLE_REVISION}"

    @property
    def url_template(self) -> str:
        """A ``file:///…/{z}/{x}/{y}.png`` template Leaflet can load."""
        if self.style == "carto":
            return str(self.tiles.url_template)  # type: ignore[attr-defined]
        return self.tile_dir.as_uri() + "/{z}/{x}/{y}.png"

    @property
    def style_version(self) -> str:
        """The base pipeline's style version and this style."""
        return f"{self.tiles.style_version}-{self.style}{STYLE_REVISION}"  # type: ignore[attr-defined]

    def tile_path(self, z: int, x: int, y: int) -> Path:
        """Where tile ``z/x/y`` of this style is cached."""
        return self.tile_dir / str(z) / str(x) / f"{y}.png"

    def ensure_tiles(self, tiles: Iterable[tuple[int, int, int]], progress: bool = False) -> None:
        """Render the tiles of this style that are not cached yet.

        Parameters
        ----------
        tiles : iterable of (z, x, y)
            Tiles wanted.
        progress : bool, optional
            Passed to the base pipeline for the ``carto`` style.
        """
        wanted = sorted(set(tiles))
        if self.style == "carto":
            self.tiles.ensure_tiles(wanted, progress)  # type: ignore[attr-defined]
            return
        blocks: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
        for z, x, y in wanted:
            if not self.tile_path(z, x, y).is_file():
                blocks.setdefault((z, x // BLOCK, y // BLOCK), []).append((z, x, y))
        for (z, bx, by), members in sorted(blocks.items()):
            self._render_block(z, bx, by, members)

    def _render_block(self, z: int, bx: int, by: int,
                      members: list[tuple[int, int, int]]) -> None:
        side = BLOCK * TILE_SIZE
        x0, y0 = bx * side, by * side
        center = global_px_to_latlon(x0 + side / 2, y0 + side / 2, z)
        try:
            rgb = self._draw(center, z, side)
        except RenderError:
            # a block centred past the extract's edge: tile by tile, so that the tiles
            # whose centres lie inside it keep their data (the rest: land colour)
            for tile in members:
                self._render_tile(*tile)
            return
        for _, x, y in members:
            px, py = (x - bx * BLOCK) * TILE_SIZE, (y - by * BLOCK) * TILE_SIZE
            self._write(z, x, y, rgb[py:py + TILE_SIZE, px:px + TILE_SIZE])

    def _render_tile(self, z: int, x: int, y: int) -> None:
        """One tile, drawn as part of a view centred inside the extract (Mapnik's views
        must be) and cut out: a tile at the edge keeps the data it holds."""
        x0, y0 = x * TILE_SIZE, y * TILE_SIZE
        south, west, north, east = self.tiles.bounds  # type: ignore[attr-defined]
        left, top = latlon_to_global_px(north, west, z)
        right, bottom = latlon_to_global_px(south, east, z)
        # the pixel nearest the tile's centre that lies inside the extract
        cx = round(min(max(x0 + TILE_SIZE / 2, left + 1), right - 1))
        cy = round(min(max(y0 + TILE_SIZE / 2, top + 1), bottom - 1))
        half = int(max(abs(cx - x0), abs(cx - x0 - TILE_SIZE),
                       abs(cy - y0), abs(cy - y0 - TILE_SIZE))) + 1
        try:
            if half > 4 * TILE_SIZE:
                raise RenderError("the tile lies far past the extract")
            big = self._draw(global_px_to_latlon(cx, cy, z), z, 2 * half)
            ox, oy = x0 - (cx - half), y0 - (cy - half)
            rgb = big[oy:oy + TILE_SIZE, ox:ox + TILE_SIZE]
        except RenderError:  # far past the extract: land colour
            rgb = np.empty((TILE_SIZE, TILE_SIZE, 3), dtype=np.uint8)
            rgb[...] = LAND_RGB
            if self.style == "grey":
                rgb = greyscale(rgb)
        self._write(z, x, y, rgb)

    def _draw(self, center: tuple[float, float], z: int, side: int) -> NDArray[np.uint8]:
        rgba = self.tiles.render_pixels(  # type: ignore[attr-defined]
            center=center, zoom=z, width=side, height=side, exclude_layers=LABEL_LAYERS)
        return style_pixels(np.asarray(rgba), self.style)

    def _write(self, z: int, x: int, y: int, rgb: NDArray[np.uint8]) -> None:
        buf = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(rgb)).save(buf, format="PNG")
        path = self.tile_path(z, x, y)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, buf.getvalue())
