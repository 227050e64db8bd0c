"""Draw one OSM-Carto point symbol in isolation with Mapnik, recoloured as the style does.

OSM-Carto's SVG icons are single-colour; the style paints each with the ``fill`` of its
``MarkersSymbolizer``. Mapnik does the same here: a one-point map with that symbolizer,
on the style's land background colour, rendered at ``scale`` times the icon's size.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr

import mapnik

from renderers.errors import RenderError
from renderers.mfs.spec import IMAGE_SIZE, FeatureSpec
from renderers.style import CARTO_DIR

#: OSM-Carto's land colour (``<Map background-color>`` of style.xml).
LAND_COLOUR = "#f2efe9"
#: Symbols are drawn this many times their 14-pixel design size (about 110 px, the
#: same share of the image as CartoMapQA's symbols).
SYMBOL_SCALE = 8.0

_MERCATOR = (
    "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs"
)


def symbol_map_xml(
    svg_path: Path, fill: str | None, *, background: str | None = LAND_COLOUR
) -> str:
    """Return the Mapnik XML of a map that draws one symbol.

    Parameters
    ----------
    svg_path : pathlib.Path
        Absolute path of the SVG file.
    fill : str or None
        The colour to paint it with, or ``None`` to keep the SVG's own colours.
    background : str or None
        The map background colour, or ``None`` for a transparent background.

    Returns
    -------
    str
        A Mapnik map document with one style named ``symbol``.
    """
    fill_attr = f" fill={quoteattr(fill)}" if fill else ""
    background_attr = f" background-color={quoteattr(background)}" if background else ""
    return (
        f"<Map srs={quoteattr(_MERCATOR)}{background_attr}>"
        '<Style name="symbol"><Rule>'
        f'<MarkersSymbolizer file={quoteattr(str(svg_path))}{fill_attr} clip="false" '
        'allow-overlap="true" ignore-placement="true"/>'
        "</Rule></Style></Map>"
    )


def render_symbol(
    spec: FeatureSpec,
    *,
    carto_dir: Path = CARTO_DIR,
    size: int = IMAGE_SIZE,
    scale: float = SYMBOL_SCALE,
) -> bytes:
    """Return a PNG of one symbol, centred, as OSM-Carto colours it.

    Parameters
    ----------
    spec : FeatureSpec
        A ``symbol`` entry of the catalogue.
    carto_dir : pathlib.Path
        The OSM-Carto folder its ``symbol`` path is relative to.
    size : int
        Width and height of the image in pixels.
    scale : float
        Mapnik scale factor (how many times the design size the icon is drawn).

    Returns
    -------
    bytes
        PNG data.

    Raises
    ------
    RenderError
        When the entry is not a symbol or its SVG file is missing.
    """
    if spec.symbol is None:
        raise RenderError(
            f"{spec.feature_id} is not a symbol", fix="render lines/areas as swatches"
        )
    svg = carto_dir / spec.symbol
    if not svg.is_file():
        raise RenderError(
            f"symbol file {svg} not found",
            fix="install the Debian package openstreetmap-carto-common",
        )
    return bytes(draw_symbol(svg, spec.fill, size=size, scale=scale).to_string("png"))


def draw_symbol(
    svg_path: Path,
    fill: str | None,
    *,
    size: int = IMAGE_SIZE,
    scale: float = SYMBOL_SCALE,
    background: str | None = LAND_COLOUR,
) -> mapnik.Image:
    """Rasterise one SVG symbol with Mapnik, centred on a square image.

    Parameters
    ----------
    svg_path : pathlib.Path
        Absolute path of the SVG file (not checked here).
    fill : str or None
        The colour to paint it with, or ``None`` to keep the SVG's own colours.
    size : int
        Width and height of the image in pixels.
    scale : float
        Mapnik scale factor (how many times the design size the icon is drawn).
    background : str or None
        The map background colour, or ``None`` for a transparent background.

    Returns
    -------
    mapnik.Image
        The RGBA image, for the caller to encode (``image.to_string(...)``).
    """
    m = mapnik.Map(size, size)
    mapnik.load_map_from_string(m, symbol_map_xml(svg_path, fill, background=background))
    source = mapnik.MemoryDatasource()
    feature = mapnik.Feature(mapnik.Context(), 1)
    feature.geometry = mapnik.Geometry.from_wkt("POINT(0 0)")
    source.add_feature(feature)
    layer = mapnik.Layer("symbol")
    layer.srs = m.srs
    layer.datasource = source
    layer.styles.append("symbol")
    m.layers.append(layer)
    half = size / 2.0
    m.zoom_to_box(mapnik.Box2d(-half, -half, half, half))
    image = mapnik.Image(size, size)
    mapnik.render(m, image, scale)
    return image
