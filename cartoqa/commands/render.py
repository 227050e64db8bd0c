"""``cartoqa render``: draw one map view to a PNG plus a JSON of what was drawn where."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cartoqa.dataset.files import write_bytes_atomic
from cartoqa.errors import CartoqaError
from cartoqa.settings import (
    MAX_ZOOM,
    MIN_ZOOM,
    VIEW_HEIGHT,
    VIEW_WIDTH,
    cache_root,
    web_assets_dir,
)

NAME = "render"
HELP = "Draw one map view (OSM-Carto tiles, markers, a path, scale bar) to a PNG and a JSON."

_COLORS = ("blue", "red")


def parse_latlon(text: str, *, what: str = "point") -> tuple[float, float]:
    """Parse ``"LAT,LON"`` in degrees.

    Parameters
    ----------
    text : str
        Two numbers separated by a comma.
    what : str, optional
        What the point is, for the error message.

    Returns
    -------
    tuple of float
        ``(lat, lon)``.

    Raises
    ------
    CartoqaError
        If the text is not two numbers or they are out of range.

    Examples
    --------
    >>> parse_latlon(" 60.17, 24.94 ")
    (60.17, 24.94)
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        lat, lon = float(parts[0]), float(parts[1])
    except ValueError:
        raise CartoqaError(f"{what} {text!r} is not LAT,LON",
                           "write it as two numbers, e.g. 60.1699,24.9384") from None
    if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
        raise CartoqaError(f"{what} {text!r} is not a latitude,longitude in degrees",
                           "latitude first, then longitude")
    return lat, lon


def parse_path(text: str) -> list[tuple[float, float]]:
    """Parse ``"LAT,LON;LAT,LON;..."`` (at least two vertices).

    Examples
    --------
    >>> parse_path("60.17,24.94; 60.171,24.941")
    [(60.17, 24.94), (60.171, 24.941)]
    """
    vertices = [parse_latlon(p, what="path vertex") for p in text.split(";") if p.strip()]
    if len(vertices) < 2:
        raise CartoqaError("a path needs at least two vertices",
                           'give --path "LAT,LON;LAT,LON[;...]"')
    return vertices


def parse_marker(text: str) -> tuple[str, tuple[float, float] | None]:
    """Parse ``COLOR:LAT,LON``, or ``COLOR`` alone for a marker at the view centre.

    Examples
    --------
    >>> parse_marker("red:60.17,24.94")
    ('red', (60.17, 24.94))
    >>> parse_marker("blue")
    ('blue', None)
    """
    color, _, where = text.partition(":")
    color = color.strip().lower()
    if color not in _COLORS:
        raise CartoqaError(f"marker {text!r} has no colour blue or red",
                           "write --marker blue:LAT,LON or --marker red:LAT,LON")
    return color, (parse_latlon(where, what="marker") if where.strip() else None)


def parse_junction(text: str) -> tuple[str, str]:
    """Parse ``"Road A/Road B"``.

    Examples
    --------
    >>> parse_junction("Mikonkatu / Kaivokatu")
    ('Mikonkatu', 'Kaivokatu')
    """
    a, sep, b = text.partition("/")
    if not sep or not a.strip() or not b.strip():
        raise CartoqaError(f"junction {text!r} is not two road names",
                           'write --junction "Road A/Road B"')
    return a.strip(), b.strip()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``cartoqa render``."""
    parser.add_argument("--extract", default="helsinki",
                        help="bundled extract name (helsinki, kotka, liechtenstein) or an "
                             ".osm.pbf/.osm/.osm.bz2 file (default: helsinki)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--center", metavar="LAT,LON", help="view centre in degrees")
    where.add_argument("--junction", metavar='"ROAD A/ROAD B"',
                       help="centre the view on the junction of two named roads")
    parser.add_argument("--zoom", type=int, required=True,
                        help=f"zoom level, {MIN_ZOOM}-{MAX_ZOOM}")
    parser.add_argument("--marker", action="append", default=[],
                        metavar="COLOR[:LAT,LON]",
                        help="a blue or red pin with its tip on the point (the view centre "
                             "when no point is given); repeat for more markers")
    parser.add_argument("--path", metavar='"LAT,LON;LAT,LON;..."',
                        help="a blue polyline through these vertices")
    parser.add_argument("--out", type=Path, required=True,
                        help="PNG to write (1366x768); the JSON goes beside it as .json")
    parser.add_argument("--json", type=Path, default=None,
                        help="where to write the JSON of what was drawn (default: --out "
                             "with .json)")


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa render``; returns the exit status."""
    # imported here, not at start-up: the renderers load folium, pandas, shapely (~5 s)
    from groundtruth.extracts import resolve_extract
    from groundtruth.projection import View
    from renderers.browser import Browser
    from renderers.map_render import MapRenderer, Marker
    from renderers.tiles import TileRenderer

    if not MIN_ZOOM <= args.zoom <= MAX_ZOOM:
        raise CartoqaError(f"zoom {args.zoom} is outside {MIN_ZOOM}-{MAX_ZOOM}",
                           f"choose --zoom from {MIN_ZOOM} to {MAX_ZOOM}")
    marker_specs = [parse_marker(m) for m in args.marker]
    path = parse_path(args.path) if args.path else None
    out_png: Path = args.out
    out_json: Path = args.json or out_png.with_suffix(".json")
    if out_png.suffix.lower() != ".png":
        raise CartoqaError(f"{out_png}: the image is written as PNG", "give --out NAME.png")

    extract = resolve_extract(args.extract)
    junction: dict[str, Any] | None = None
    if args.junction:
        center, junction = _junction_centre(extract, *parse_junction(args.junction))
    else:
        center = parse_latlon(args.center, what="centre")
    if extract.bounds is not None:
        s, w, n, e = extract.bounds
        if not (s <= center[0] <= n and w <= center[1] <= e):
            raise CartoqaError(
                f"the view centre {center[0]:.6f},{center[1]:.6f} lies outside the extract "
                f"{extract.name} (lat {s:.5f}..{n:.5f}, lon {w:.5f}..{e:.5f})",
                "choose a centre inside the extract",
            )
    view = View(center=center, zoom=args.zoom, width=VIEW_WIDTH, height=VIEW_HEIGHT)
    markers = [Marker(*(p if p is not None else center), color) for color, p in marker_specs]

    with Browser(width=VIEW_WIDTH, height=VIEW_HEIGHT) as browser:
        browser.start()  # a missing Chromium is reported before the database starts
        # Not entered as a context manager: the database starts only if tiles are missing.
        tiles = TileRenderer(extract, cache_dir=cache_root())
        try:
            tiles.check_view(view)
            with MapRenderer(tiles, assets_dir=web_assets_dir(), browser=browser) as renderer:
                result = renderer.render(view, markers=markers, path=path)
        finally:
            tiles.close()

    record = {
        "extract": {"name": extract.name, "sha256": extract.sha256},
        **({"junction": junction} if junction else {}),
        **result.drawn,
    }
    write_bytes_atomic(out_json, (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode())
    write_bytes_atomic(out_png, result.png)
    print(f"wrote {out_png} and {out_json}")
    return 0


def _junction_centre(
    extract: Any, road_a: str, road_b: str
) -> tuple[tuple[float, float], dict[str, Any]]:
    """Find where two named roads meet; several meeting nodes give their first (lowest id)."""
    # imported here, not at start-up: loads osmnx, networkx, shapely (~2 s)
    from groundtruth.graph import load_road_graph
    from groundtruth.junctions import junctions_of, road_names_at

    graph = load_road_graph(extract)
    nodes = junctions_of(graph, road_a, road_b)
    if not nodes:
        raise CartoqaError(
            f"{road_a!r} and {road_b!r} do not meet in the extract {extract.name}",
            "check the road names as OSM spells them (case and spacing are ignored)",
        )
    node = nodes[0]
    lat, lon = float(graph.nodes[node]["y"]), float(graph.nodes[node]["x"])
    return (lat, lon), {
        "roads": road_names_at(graph, node),
        "node": int(node),
        "lat": lat,
        "lon": lon,
        "candidates": len(nodes),
    }
