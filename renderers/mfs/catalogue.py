"""The rendered MFS catalogue: every symbol, line and area entry with its image.

Symbols are drawn directly with Mapnik, lines and areas through the tile pipeline; both
are cached as PNGs, symbols under ``<cache_dir>/mfs/symbols-<digest>/`` (of the style
version, Mapnik's version, the size and scale and each entry's SVG and colour), lines
and areas under ``<cache_dir>/mfs/images-<digest>/`` (of the swatch file, style
version, zooms and size).
Entries whose image shows (almost) nothing are left out: a question about an empty
square cannot be answered.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from PIL import Image

from renderers.files import write_atomic
from renderers.mfs.catalogue_specs import catalogue_specs
from renderers.mfs.spec import FeatureImage, FeatureSpec
from renderers.mfs.style_rules import load_style_rules
from renderers.mfs.swatches import SWATCH_ZOOMS, layout, render_swatches, swatch_osm_xml
from renderers.mfs.symbols import IMAGE_SIZE, SYMBOL_SCALE, render_symbol
from renderers.style import CARTO_DIR, style_version

#: An entry is kept when at least this share of its pixels differ from the most common
#: colour (the background or the fill) by more than :data:`INK_TOLERANCE`, or when its
#: most common colour is not the land colour (a filled area).
MIN_INK = 0.004
INK_TOLERANCE = 8
LAND_RGB = (0xF2, 0xEF, 0xE9)


def ink_fraction(png: bytes) -> float:
    """Return the share of pixels that differ from the land colour.

    Parameters
    ----------
    png : bytes
        An encoded image.

    Returns
    -------
    float
        Between 0 and 1: pixels whose RGB differs from OSM-Carto's land colour by more
        than :data:`INK_TOLERANCE` (sum of absolute channel differences).
    """
    with Image.open(io.BytesIO(png)) as im:
        rgb = np.asarray(im.convert("RGB"), dtype=np.int64).reshape(-1, 3)
    diff = np.abs(rgb - np.array(LAND_RGB)).sum(axis=1)
    return float((diff > INK_TOLERANCE).mean())


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text)


def _cached_images(
    specs: list[FeatureSpec], *, folder: Path, render: Callable[[], dict[str, bytes]]
) -> dict[str, bytes]:
    """The images of ``specs`` from ``folder`` (one PNG per entry), else ``render()``'s,
    written there for the next time."""
    paths = {s.feature_id: folder / f"{_slug(s.feature_id)}.png" for s in specs}
    if all(p.is_file() for p in paths.values()):
        return {fid: p.read_bytes() for fid, p in paths.items()}
    images = render()
    for fid, png in images.items():
        write_atomic(paths[fid], png)
    return images


def _folder(cache_dir: Path, kind: str, key: str) -> Path:
    return cache_dir / "mfs" / f"{kind}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def _swatch_images(
    specs: list[FeatureSpec], *, cache_dir: Path, size: int, zooms: dict[str, int]
) -> dict[str, bytes]:
    if not specs:
        return {}
    key = f"{swatch_osm_xml(layout(specs))}|{style_version()}|{sorted(zooms.items())}|{size}"
    return _cached_images(
        specs, folder=_folder(cache_dir, "images", key),
        render=lambda: render_swatches(specs, cache_dir=cache_dir, size=size, zooms=zooms))


def _symbol_images(
    specs: list[FeatureSpec], *, cache_dir: Path, carto_dir: Path, size: int
) -> dict[str, bytes]:
    """Each symbol drawn by :func:`render_symbol` (about 7 ms each, 1.4 s for the
    catalogue), cached by what it is drawn from: the style, its folder, Mapnik's version,
    the size and scale, and each entry's SVG and colour."""
    if not specs:
        return {}
    import mapnik

    drawn = "|".join(f"{s.feature_id}={s.symbol}:{s.fill}" for s in specs)
    key = (f"{style_version()}|{carto_dir}|{mapnik.version_string()}|{size}|{SYMBOL_SCALE}"
           f"|{drawn}")
    return _cached_images(
        specs, folder=_folder(cache_dir, "symbols", key),
        render=lambda: {s.feature_id: render_symbol(s, carto_dir=carto_dir, size=size)
                        for s in specs})


def build_catalogue(
    *,
    cache_dir: Path,
    categories: Iterable[str] = ("symbol", "line", "area"),
    carto_dir: Path = CARTO_DIR,
    size: int = IMAGE_SIZE,
) -> list[FeatureImage]:
    """Return the catalogue with images, derived from the installed OSM-Carto.

    Parameters
    ----------
    cache_dir : pathlib.Path
        Cache root (swatch images, the tile pipeline's database cluster).
    categories : iterable of str
        Which of ``symbol``, ``line``, ``area`` to include; lines and areas need
        PostgreSQL/PostGIS and osm2pgsql.
    carto_dir : pathlib.Path
        The OSM-Carto folder.
    size : int
        Image side in pixels.

    Returns
    -------
    list of FeatureImage
        Symbols, lines, areas, each in catalogue order, without near-empty images.

    Raises
    ------
    RenderError
        When OSM-Carto is missing or the tile pipeline fails.
    """
    rules, keys = load_style_rules(carto_dir)
    specs = catalogue_specs(rules, keys, categories=categories)
    images = _swatch_images(
        [s for s in specs if s.category != "symbol"],
        cache_dir=Path(cache_dir),
        size=size,
        zooms=SWATCH_ZOOMS,
    )
    images.update(_symbol_images([s for s in specs if s.category == "symbol"],
                                 cache_dir=Path(cache_dir), carto_dir=carto_dir, size=size))
    out = []
    for spec in specs:
        png = images[spec.feature_id]
        if ink_fraction(png) >= MIN_INK:
            out.append(FeatureImage(spec, png))
    return out
