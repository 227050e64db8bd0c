"""Debian's OSM-Carto ``style.xml``, patched to render offline against cartoqa's cluster.

The patches (their version, :data:`PATCH_VERSION`, is part of the tile cache key):

* every PostGIS datasource points at cartoqa's database and unix socket;
* the ``patterns/*.svg`` fills Debian's package lacks are replaced by simple hatch and
  dot patterns drawn here (in OSM-Carto's colours), and the road-ref shields that
  upstream generates at build time are drawn here as rounded boxes;
* labels (text and shields) get ``avoid-edges``, so a label is never cut at the edge
  of a rendered metatile (it is left out there instead);
* fonts come from Debian's ``fonts-noto-core`` (``/usr/share/fonts/truetype/noto``).

The XML rewriting is pure (:func:`patch_style_xml`); loading needs Mapnik.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from renderers.errors import RenderError
from renderers.files import write_atomic

#: Where Debian's ``openstreetmap-carto-common`` installs the style.
CARTO_DIR = Path("/usr/share/openstreetmap-carto-common")
#: Fonts OSM-Carto uses (Debian ``fonts-noto-core``).
FONT_DIRS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/noto"),
    Path("/usr/share/fonts/opentype/noto"),
)
#: Version of cartoqa's patches to the style; bump it when the patched output changes.
PATCH_VERSION = "cq2"

_CARTO_FIX = "install the Debian package openstreetmap-carto-common (bash scripts/install.sh)"

#: Replacement patterns: file stem -> (kind, colour). Colours follow OSM-Carto's.
PATTERNS: dict[str, tuple[str, str]] = {
    "allotments": ("grid", "#a6bd93"),
    "danger_red_hatch": ("hatch", "#e56a6a"),
    "dog_park": ("dots", "#8bb982"),
    "grave_yard_christian": ("cross", "#7f9e7a"),
    "grave_yard_generic": ("dots", "#7f9e7a"),
    "grave_yard_jewish": ("dots", "#7f9e7a"),
    "grave_yard_muslim": ("dots", "#7f9e7a"),
    "grey_vertical_hatch": ("vhatch", "#a8a8a8"),
    "intermittent_water": ("dots", "#aad3df"),
    "military_red_hatch": ("hatch", "#f55a5a"),
    "orchard": ("dots", "#89b478"),
    "plant_nursery": ("dots", "#8fc07a"),
    "vineyard": ("dots", "#94b47a"),
}

#: Road-ref shield colours (fill, stroke) per road class, as OSM-Carto draws them.
SHIELD_COLOURS: dict[str, tuple[str, str]] = {
    "motorway": ("#e892a2", "#c24e6b"),
    "trunk": ("#f9b29c", "#c84e2f"),
    "primary": ("#fcd6a4", "#a06b00"),
    "secondary": ("#f7fabf", "#707d05"),
    "tertiary": ("#ffffff", "#8f8f8f"),
}
#: Sizes upstream generates shields for: width in characters, height in lines.
SHIELD_MAX_CHARS = 11
SHIELD_MAX_LINES = 4


def carto_file(name: str, *, carto_dir: Path = CARTO_DIR) -> Path:
    """Return a file of the OSM-Carto package, or raise a clear error when it is missing.

    Parameters
    ----------
    name : str
        File name relative to the package folder, e.g. ``"style.xml"``.
    carto_dir : pathlib.Path, optional
        The package folder.

    Returns
    -------
    pathlib.Path
        The existing file.

    Raises
    ------
    RenderError
        If the file does not exist.
    """
    path = carto_dir / name
    if not path.is_file():
        raise RenderError(f"the OSM-Carto file {path} is missing", _CARTO_FIX)
    return path


@cache
def package_version(package: str = "openstreetmap-carto-common") -> str:
    """Return a Debian package's version, or ``"unknown"`` when dpkg cannot tell."""
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", package],
            capture_output=True, text=True, check=False, timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else "unknown"


@cache
def style_version(carto_dir: Path = CARTO_DIR) -> str:
    """Return the style's version for cache keys: package version, style checksum, patches.

    Returns
    -------
    str
        Safe as a folder name, e.g. ``"5.7.0-1_785dd384_cq2"``.
    """
    digest = hashlib.sha256(carto_file("style.xml", carto_dir=carto_dir).read_bytes())
    version = re.sub(r"[^A-Za-z0-9.+-]", "-", package_version())
    return f"{version}_{digest.hexdigest()[:8]}_{PATCH_VERSION}"


def pattern_svg(kind: str, colour: str, size: int = 16) -> str:
    """Return the SVG text of a small repeating pattern tile.

    Examples
    --------
    >>> pattern_svg("dots", "#000000").startswith("<svg")
    True
    """
    s = size
    shapes = {
        "hatch": f'<path d="M0,{s} L{s},0 M{-s / 4},{s / 4} L{s / 4},{-s / 4} '
                 f'M{s * 3 / 4},{s * 5 / 4} L{s * 5 / 4},{s * 3 / 4}" '
                 f'stroke="{colour}" stroke-width="1.5" fill="none"/>',
        "vhatch": f'<path d="M{s / 2},0 L{s / 2},{s}" stroke="{colour}" stroke-width="1.5"/>',
        "grid": f'<path d="M0,{s / 2} L{s},{s / 2} M{s / 2},0 L{s / 2},{s}" '
                f'stroke="{colour}" stroke-width="1" fill="none"/>',
        "dots": f'<circle cx="{s / 2}" cy="{s / 2}" r="{s / 8}" fill="{colour}"/>',
        "cross": f'<path d="M{s / 2},{s / 4} L{s / 2},{s * 3 / 4} M{s * 3 / 8},{s * 3 / 8} '
                 f'L{s * 5 / 8},{s * 3 / 8}" stroke="{colour}" stroke-width="1.2"/>',
    }
    if kind not in shapes:
        raise ValueError(f"unknown pattern kind {kind!r}")
    # Mapnik sizes a pattern by the bounding box of what it draws: a see-through
    # rectangle over the whole tile keeps the repeat at ``size`` pixels.
    frame = f'<rect x="0" y="0" width="{s}" height="{s}" fill="#ffffff" fill-opacity="0"/>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{s}" height="{s}" '
            f'viewBox="0 0 {s} {s}">{frame}{shapes[kind]}</svg>\n')


def shield_svg(fill: str, stroke: str, chars: int, lines: int, *, z16: bool = False) -> str:
    """Return the SVG text of a road-ref shield box for ``chars`` x ``lines`` of text.

    Examples
    --------
    >>> 'width="' in shield_svg("#fff", "#000", 3, 1)
    True
    """
    char_w, line_h, pad = (6.5, 12.0, 4.0) if not z16 else (7.5, 14.0, 5.0)
    width = round(chars * char_w + 2 * pad)
    height = round(lines * line_h + 2 * pad - 2)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><rect x="0.5" y="0.5" width="{width - 1}" '
        f'height="{height - 1}" rx="2" ry="2" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="1"/></svg>\n'
    )


#: Asset folders this process (or the builder it was forked from) has written.
_ASSETS_WRITTEN: set[Path] = set()


def write_style_assets(folder: Path) -> Path:
    """Write the replacement pattern and shield SVGs under ``folder`` (idempotent).

    Checked once per process and folder (reading back about 800 SVGs costs 0.17 CPU s,
    and a process that renders loads OSM-Carto twice); a folder written before is
    checked again only when it has gone.

    Returns
    -------
    pathlib.Path
        ``folder``, holding ``patterns/`` and ``shields/``.
    """
    patterns = folder / "patterns"
    shields = folder / "shields"
    if folder in _ASSETS_WRITTEN and patterns.is_dir() and shields.is_dir():
        return folder
    patterns.mkdir(parents=True, exist_ok=True)
    shields.mkdir(parents=True, exist_ok=True)
    files: dict[Path, str] = {}
    for stem, (kind, colour) in PATTERNS.items():
        files[patterns / f"{stem}.svg"] = pattern_svg(kind, colour)
    for road, (fill, stroke) in SHIELD_COLOURS.items():
        for chars in range(1, SHIELD_MAX_CHARS + 1):
            for lines in range(1, SHIELD_MAX_LINES + 1):
                for suffix, big in (("", False), ("_z16", True), ("_z18", True)):
                    name = f"{road}_{chars}x{lines}{suffix}.svg"
                    files[shields / name] = shield_svg(fill, stroke, chars, lines, z16=big)
    for path, text in files.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            # Several processes (build workers, a Dask cluster) may write the same
            # shared cache folder at once: each writes its own temporary file.
            write_atomic(path, text.encode("utf-8"))
    _ASSETS_WRITTEN.add(folder)
    return folder


_DBNAME_RE = re.compile(r'<Parameter name="dbname"><!\[CDATA\[[^\]]*\]\]></Parameter>')
_LABEL_RE = re.compile(r"<(TextSymbolizer|ShieldSymbolizer)(?![^>]*avoid-edges)")


def patch_style_xml(
    xml: str,
    *,
    dbname: str,
    pg_params: dict[str, str],
    assets_dir: Path,
) -> str:
    """Return OSM-Carto's ``style.xml`` text patched for offline rendering.

    Parameters
    ----------
    xml : str
        The original ``style.xml``.
    dbname : str
        Database every PostGIS layer reads.
    pg_params : dict of str to str
        Extra datasource parameters, e.g. ``{"host": ..., "port": ..., "user": ...}``.
    assets_dir : pathlib.Path
        Folder from :func:`write_style_assets`.

    Returns
    -------
    str
        The patched XML.

    Examples
    --------
    >>> src = ('<Map font-directory="fonts"><Parameter name="dbname"><![CDATA[gis]]>'
    ...        '</Parameter><TextSymbolizer size="9"/>'
    ...        '<PolygonPatternSymbolizer file="patterns/orchard.svg"/></Map>')
    >>> out = patch_style_xml(src, dbname="osm_1", pg_params={"port": "5432"},
    ...                       assets_dir=Path("/a"))
    >>> "osm_1" in out and "/a/patterns/orchard.svg" in out and "font-directory" not in out
    True
    >>> '<TextSymbolizer avoid-edges="true" size="9"/>' in out
    True
    """
    params = [("dbname", dbname), *sorted(pg_params.items())]
    replacement = "".join(
        f'<Parameter name="{key}"><![CDATA[{value}]]></Parameter>' for key, value in params
    )
    out = _DBNAME_RE.sub(lambda _m: replacement, xml)
    out = out.replace(' font-directory="fonts"', "")
    out = out.replace('file="patterns/', f'file="{assets_dir}/patterns/')
    out = out.replace('file="symbols/shields/', f'file="{assets_dir}/shields/')
    out = _LABEL_RE.sub(lambda m: f'<{m.group(1)} avoid-edges="true"', out)
    return out


#: A layer's ``<Datasource>`` element (left out of a map that borrows its datasources).
_DATASOURCE_RE = re.compile(r"<Datasource>.*?</Datasource>", re.S)


@cache
def _register_fonts() -> int:
    import mapnik

    count = 0
    for folder in FONT_DIRS:
        if folder.is_dir():
            mapnik.register_fonts(str(folder))
            count += 1
    if count == 0:
        raise RenderError("the Noto fonts OSM-Carto uses are missing",
                          "install the Debian package fonts-noto-core (bash scripts/install.sh)")
    return count


def load_carto_map(
    *,
    dbname: str,
    pg_params: dict[str, str],
    assets_dir: Path,
    width: int = 256,
    height: int = 256,
    carto_dir: Path = CARTO_DIR,
    transform: Callable[[str], str] | None = None,
    datasources_from: Any = None,
) -> Any:
    """Load OSM-Carto into a Mapnik map that reads the given database (about 1 s).

    Parameters
    ----------
    dbname : str
        The imported database.
    pg_params : dict of str to str
        ``host`` (socket folder), ``port`` and ``user`` datasource parameters.
    assets_dir : pathlib.Path
        Where replacement SVGs are written.
    width, height : int, optional
        Initial map size in pixels.
    carto_dir : pathlib.Path, optional
        The OSM-Carto package folder.
    transform : callable, optional
        Applied to the patched XML text before loading (e.g.
        :func:`renderers.label_marks.mark_label_rules`).
    datasources_from : mapnik.Map, optional
        A map loaded before from the same database whose layers (by name) lend theirs
        to this one: its layers then open no connection of their own. Mapnik opens one
        connection per PostGIS layer as it loads a style, runs a query on it and closes
        it (a process may fork after loading), about 9 ms of the server's CPU each; a
        second map of the same layers (another set of styles, see
        :func:`renderers.label_marks.mark_label_rules`) needs none of that. The layers'
        queries must be the same in both (``transform`` changes only styles).

    Returns
    -------
    mapnik.Map
        The loaded map (keep it alive and reuse it).

    Raises
    ------
    RenderError
        If OSM-Carto, the fonts or Mapnik are missing.
    """
    try:
        import mapnik
    except ImportError as exc:  # pragma: no cover - mapnik is a hard dependency
        raise RenderError("the Python package mapnik is not installed",
                          "run bash scripts/install.sh") from exc
    xml = carto_file("style.xml", carto_dir=carto_dir).read_text(encoding="utf-8")
    write_style_assets(assets_dir)
    _register_fonts()
    patched = patch_style_xml(xml, dbname=dbname, pg_params=pg_params, assets_dir=assets_dir)
    if transform is not None:
        patched = transform(patched)
    if datasources_from is not None:
        patched = _DATASOURCE_RE.sub("", patched)
    m = mapnik.Map(width, height)
    try:
        mapnik.load_map_from_string(m, patched, False, str(carto_dir) + "/")
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "unknown error"
        raise RenderError(f"Mapnik could not load OSM-Carto: {first}",
                          "check that the database cluster runs and the import finished") from exc
    if datasources_from is not None:
        lend = {str(layer.name): layer.datasource for layer in datasources_from.layers}
        for layer in m.layers:
            if str(layer.name) not in lend:
                raise RenderError(f"the style's layer {layer.name!r} has no datasource to share",
                                  "report this as a bug in renderers.style")
            layer.datasource = lend[str(layer.name)]
    return m
