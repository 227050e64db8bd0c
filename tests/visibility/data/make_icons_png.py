"""Make icons_on_land.png: two OSM-Carto icons drawn by Mapnik on the land colour.

A 96 x 48 image: the pharmacy icon (#bf0000) centred at (24, 24) and the bank icon
(#734a08) centred at (72, 24), each as renderers.mfs.symbols.draw_symbol draws it at
scale 1 on OSM-Carto's land colour #f2efe9 (the icons' SVGs come from the
openstreetmap-carto-common package, CC0). Run from the repository root:
``python tests/visibility/data/make_icons_png.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from cartoqa.visibility.icons import catalogue_by_name
from renderers.mfs.symbols import LAND_COLOUR, draw_symbol


def main() -> None:
    cat = catalogue_by_name()
    out = np.zeros((48, 96, 3), np.uint8)
    for k, name in enumerate(("pharmacy", "bank")):
        ft = cat[name]
        image = draw_symbol(ft.icon_path(), ft.color, size=48, scale=1.0,
                            background=LAND_COLOUR)
        with Image.open(io.BytesIO(bytes(image.to_string("png32")))) as im:
            out[:, 48 * k:48 * (k + 1)] = np.asarray(im.convert("RGB"))
    Image.fromarray(out).save(Path(__file__).with_name("icons_on_land.png"), optimize=True)


if __name__ == "__main__":
    main()
