"""A tile source of plain coloured tiles drawn with PIL: tests the page without Mapnik."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PIL import Image

#: Colours of the flat test tiles, chosen far from both pin colours and the path colour.
FLAT_TILE_COLORS: tuple[tuple[int, int, int], ...] = (
    (236, 230, 214),
    (214, 230, 210),
    (226, 222, 232),
    (238, 238, 238),
)


class FlatTiles:
    """Plain 256 px tiles in four colours, drawn on demand.

    Tile ``(z, x, y)`` has colour ``FLAT_TILE_COLORS[(x % 2) + 2 * (y % 2)]``, so tile
    edges are visible in screenshots and markers can be found by colour alone.
    Implements :class:`renderers.map_render.TileSource`.
    """

    style_version = "flat-test-tiles"

    def __init__(self, root: Path) -> None:
        self.root = root
        self.rendered: list[tuple[int, int, int]] = []

    @property
    def url_template(self) -> str:
        """Leaflet URL template of the folder."""
        return self.root.as_uri() + "/{z}/{x}/{y}.png"

    def tile_path(self, z: int, x: int, y: int) -> Path:
        """Path of one tile."""
        return self.root / str(z) / str(x) / f"{y}.png"

    def ensure_tiles(self, tiles: Iterable[tuple[int, int, int]], progress: bool = False) -> None:
        """Draw the tiles that do not exist yet."""
        for z, x, y in tiles:
            path = self.tile_path(z, x, y)
            if path.is_file():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (256, 256), FLAT_TILE_COLORS[(x % 2) + 2 * (y % 2)]).save(path)
            self.rendered.append((z, x, y))
