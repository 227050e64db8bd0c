"""Line and area swatches: each feature drawn alone by the real OSM-Carto tile pipeline.

A synthetic ``.osm`` file puts one feature per catalogue entry in its own square cell of
a grid, far enough apart that nothing of one cell reaches the next. Lines are a
straight east-west way through the cell centre; areas are a square polygon, and the
image shows its north-east corner (fill, outline and a little land around it) away
from the centre, where OSM-Carto puts area icons. No feature has a name, so no label is
drawn. :func:`render_swatches` imports the file with osm2pgsql and draws each cell with
:class:`renderers.tiles.TileRenderer`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

from groundtruth.extracts import resolve_extract
from renderers.files import write_atomic
from renderers.mfs.spec import FeatureSpec
from renderers.tiles import TileRenderer

#: South-west corner of the grid (an arbitrary inland spot; the data are synthetic).
GRID_ORIGIN = (45.0, 10.0)
#: Side of one grid cell in metres.
CELL_M = 500.0
#: Half the side of an area polygon (and half the length of a line), metres.
HALF_M = 160.0
#: Offset of an area image's centre from the polygon centre, metres east and north.
AREA_VIEW_OFFSET_M = 120.0
#: Zoom each category is drawn at: lines at 19, OSM-Carto's widest, where a path, a
#: power line and a border differ in width, dashes and colour over many pixels; areas
#: at 18, where the 256-px image shows a corner of the polygon (its outline and fill
#: pattern) and some land around it.
SWATCH_ZOOMS: dict[str, int] = {"line": 19, "area": 18}
#: Metres per degree of latitude (spherical approximation; the data are synthetic).
_M_PER_DEG = 111_320.0


@dataclass(frozen=True)
class SwatchCell:
    """Where one feature lies in the swatch grid.

    Parameters
    ----------
    spec : FeatureSpec
        The feature.
    centre : tuple of float
        ``(lat, lon)`` of the cell centre (the line's midpoint / polygon's centre).
    view : tuple of float
        ``(lat, lon)`` the image of the feature is centred on.
    """

    spec: FeatureSpec
    centre: tuple[float, float]
    view: tuple[float, float]


def _offset(lat: float, lon: float, east_m: float, north_m: float) -> tuple[float, float]:
    return (
        lat + north_m / _M_PER_DEG,
        lon + east_m / (_M_PER_DEG * math.cos(math.radians(lat))),
    )


def layout(
    specs: Sequence[FeatureSpec], *, origin: tuple[float, float] = GRID_ORIGIN
) -> list[SwatchCell]:
    """Place each line or area entry in its own cell of a square grid.

    Parameters
    ----------
    specs : sequence of FeatureSpec
        Entries of category ``line`` or ``area``.
    origin : tuple of float
        ``(lat, lon)`` of the grid's south-west corner.

    Returns
    -------
    list of SwatchCell
        In the order of ``specs``; cells fill rows west to east, south to north.

    Raises
    ------
    ValueError
        For a symbol entry (symbols are not drawn as swatches).
    """
    cols = max(1, math.ceil(math.sqrt(len(specs))))
    cells = []
    for i, spec in enumerate(specs):
        if spec.category not in ("line", "area"):
            raise ValueError(f"{spec.feature_id} is a {spec.category}, not a line or area")
        row, col = divmod(i, cols)
        centre = _offset(*origin, (col + 0.5) * CELL_M, (row + 0.5) * CELL_M)
        if spec.category == "area":
            view = _offset(*centre, AREA_VIEW_OFFSET_M, AREA_VIEW_OFFSET_M)
        else:
            view = centre
        cells.append(SwatchCell(spec, centre, view))
    return cells


def grid_bounds(cells: Sequence[SwatchCell]) -> tuple[float, float, float, float]:
    """Return ``(south, west, north, east)`` covering every cell with one cell of margin."""
    lats = [c.centre[0] for c in cells]
    lons = [c.centre[1] for c in cells]
    s, w = _offset(min(lats), min(lons), -CELL_M, -CELL_M)
    n, e = _offset(max(lats), max(lons), CELL_M, CELL_M)
    return s, w, n, e


def swatch_osm_xml(cells: Sequence[SwatchCell]) -> str:
    """Return the OSM XML of the swatch grid.

    Parameters
    ----------
    cells : sequence of SwatchCell
        From :func:`layout`.

    Returns
    -------
    str
        An ``<osm version="0.6">`` document: nodes, then ways, then relations (for
        administrative boundaries, which OSM-Carto draws only from relations).
    """
    nodes: list[str] = []
    ways: list[str] = []
    relations: list[str] = []

    def node(lat: float, lon: float) -> int:
        nid = len(nodes) + 1
        nodes.append(f'  <node id="{nid}" version="1" lat="{lat:.7f}" lon="{lon:.7f}"/>')
        return nid

    def tags_xml(tags: Sequence[tuple[str, str]]) -> str:
        return "".join(f"\n    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags)

    for cell in cells:
        lat, lon = cell.centre
        tags = cell.spec.tags
        if cell.spec.category == "line" and tags[0] != ("boundary", "administrative"):
            ids = [node(*_offset(lat, lon, dx, 0.0)) for dx in (-HALF_M, 0.0, HALF_M)]
            ring = False
        else:
            corners = [(-HALF_M, -HALF_M), (HALF_M, -HALF_M), (HALF_M, HALF_M), (-HALF_M, HALF_M)]
            if cell.spec.category == "line":  # boundary: its southern edge runs through the centre
                corners = [(dx, dy + HALF_M) for dx, dy in corners]
            ids = [node(*_offset(lat, lon, dx, dy)) for dx, dy in corners]
            ids.append(ids[0])
            ring = True
        wid = len(ways) + 1
        refs = "".join(f'\n    <nd ref="{i}"/>' for i in ids)
        if ring and cell.spec.category == "line":
            ways.append(f'  <way id="{wid}" version="1">{refs}\n  </way>')
            rid = len(relations) + 1
            rel_tags = (("type", "boundary"), *tags)
            relations.append(
                f'  <relation id="{rid}" version="1">\n'
                f'    <member type="way" ref="{wid}" role="outer"/>{tags_xml(rel_tags)}\n'
                "  </relation>"
            )
        else:
            ways.append(f'  <way id="{wid}" version="1">{refs}{tags_xml(tags)}\n  </way>')
    s, w, n, e = grid_bounds(cells)
    head = (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<osm version="0.6" generator="cartoqa mfs swatches">\n'
        f'  <bounds minlat="{s:.7f}" minlon="{w:.7f}" maxlat="{n:.7f}" maxlon="{e:.7f}"/>\n'
    )
    return head + "\n".join(nodes + ways + relations) + "\n</osm>\n"


def render_swatches(
    specs: Sequence[FeatureSpec],
    *,
    cache_dir: Path,
    size: int = 128,
    zooms: dict[str, int] | None = None,
) -> dict[str, bytes]:
    """Draw every line and area entry with the OSM-Carto tile pipeline.

    Parameters
    ----------
    specs : sequence of FeatureSpec
        Line and area entries.
    cache_dir : pathlib.Path
        Cache root: the generated ``.osm`` goes to ``<cache_dir>/mfs/``, and the
        tile pipeline keeps its database cluster there.
    size : int
        Width and height of each image, pixels.
    zooms : dict, optional
        Zoom per category; :data:`SWATCH_ZOOMS` when omitted.

    Returns
    -------
    dict
        ``feature_id -> PNG bytes``.

    Raises
    ------
    RenderError
        When the database cluster, the import or Mapnik fails.
    """
    if not specs:
        return {}
    zoom_of = dict(SWATCH_ZOOMS if zooms is None else zooms)
    cells = layout(specs)
    xml = swatch_osm_xml(cells)
    digest = hashlib.sha256(xml.encode()).hexdigest()[:12]
    path = Path(cache_dir) / "mfs" / f"swatches-{digest}.osm"
    if not path.is_file():
        write_atomic(path, xml.encode("utf-8"))
    out: dict[str, bytes] = {}
    with TileRenderer(resolve_extract(path), cache_dir=Path(cache_dir)) as tiles:
        for cell in cells:
            out[cell.spec.feature_id] = tiles.render_image(
                center=cell.view, zoom=zoom_of[cell.spec.category], width=size, height=size
            )
    return out
