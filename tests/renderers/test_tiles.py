"""OSM-Carto tiles of Helsinki from the real cluster and Mapnik, and the pure tile maths."""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from groundtruth.extracts import Extract, resolve_extract
from groundtruth.projection import View, latlon_to_global_px
from renderers.errors import RenderError
from renderers.label_marks import MARK_COLOURS
from renderers.postgis import PostgisCluster
from renderers.style import carto_file, patch_style_xml, style_version
from renderers.tiles import (
    _LOADED_MAPS,
    MAPS_KEPT,
    TILE_PNG_FORMAT,
    TileRenderer,
    _keep_maps,
    box_overlaps,
    check_zoom,
    forget_loaded_maps,
    global_px_to_mercator,
    metatile_of,
    metatile_tiles,
    write_atomic,
)

#: OSM-Carto colours (RGB).
LAND = (0xF2, 0xEF, 0xE9)
WATER = (0xAA, 0xD3, 0xDF)
BUILDING = (0xD9, 0xD0, 0xC9)
#: Road fills: primary, secondary, tertiary/residential (white), pedestrian.
ROADS = ((0xFC, 0xD6, 0xA4), (0xF7, 0xFA, 0xBF), (0xFF, 0xFF, 0xFF), (0xDD, 0xDD, 0xE8))
#: Central Helsinki (near the railway station) and the Kaisaniemenlahti bay.
CITY = (60.1700, 24.9430)
BAY = (60.17772, 24.94308)


@pytest.fixture(scope="module")
def helsinki() -> Extract:
    return resolve_extract("helsinki")


@pytest.fixture(scope="module")
def renderer(helsinki: Extract) -> Iterator[TileRenderer]:
    """One started renderer over a fresh cache (pytest's own tmp is private to root)."""
    cache = Path(tempfile.mkdtemp(prefix="cartoqa-test-tiles-"))
    cache.chmod(0o755)  # the unprivileged postgres user must reach its cluster folder
    tiles = TileRenderer(helsinki, cache_dir=cache)
    try:
        with tiles:
            tiles.start()
            yield tiles
        tiles.cluster.destroy()
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _tile_at(lat: float, lon: float, zoom: int) -> tuple[int, int, int]:
    x, y = latlon_to_global_px(lat, lon, zoom)
    return zoom, int(x // 256), int(y // 256)


def _pixels(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        assert image.size == (256, 256)
        return np.asarray(image.convert("RGB")).reshape(-1, 3)


def _share(pixels: np.ndarray, colour: tuple[int, int, int]) -> float:
    return float((pixels == np.array(colour)).all(axis=1).mean())


@pytest.mark.slow
@pytest.mark.parametrize("zoom", [15, 16, 17, 18, 19])
def test_tile_at_each_zoom_carries_osm_carto_colours(renderer: TileRenderer, zoom: int) -> None:
    tile = _tile_at(*CITY, zoom)
    renderer.ensure_tiles([tile])
    path = renderer.tile_path(*tile)
    assert path.is_file()
    pixels = _pixels(path)
    assert len(np.unique(pixels, axis=0)) > 50, "tile looks blank"
    assert _share(pixels, BUILDING) > 0.02
    assert sum(_share(pixels, road) for road in ROADS) > 0.01
    # the whole metatile was cut into tiles, and no temporary file is left
    neighbours = metatile_tiles(metatile_of(tile, renderer.metatile), renderer.metatile)
    assert all(renderer.tile_path(*t).is_file() for t in neighbours)
    assert not list(renderer.tile_dir.rglob("*.tmp"))


@pytest.mark.slow
def test_bay_is_water_not_land(renderer: TileRenderer) -> None:
    tile = _tile_at(*BAY, 17)
    renderer.ensure_tiles([tile])
    pixels = _pixels(renderer.tile_path(*tile))
    assert _share(pixels, WATER) > 0.6
    assert _share(pixels, LAND) < 0.2


@pytest.mark.slow
def test_second_ensure_renders_nothing(renderer: TileRenderer) -> None:
    tiles = View(center=CITY, zoom=18).tiles()
    renderer.ensure_tiles(tiles)
    before = renderer.tiles_rendered
    stamps = {t: renderer.tile_path(*t).stat().st_mtime_ns for t in tiles}
    renderer.ensure_tiles(tiles)
    assert renderer.tiles_rendered == before
    assert stamps == {t: renderer.tile_path(*t).stat().st_mtime_ns for t in tiles}


@pytest.mark.slow
def test_cached_tiles_need_no_database(renderer: TileRenderer, helsinki: Extract) -> None:
    tiles = View(center=CITY, zoom=18).tiles()
    renderer.ensure_tiles(tiles)
    with TileRenderer(helsinki, cache_dir=renderer.cache_dir) as fresh:
        fresh.ensure_tiles(tiles)
        assert fresh.tiles_rendered == 0 and not fresh.cluster.started
        assert fresh.url_template == renderer.url_template


@pytest.mark.slow
def test_url_template_names_the_cached_files(renderer: TileRenderer) -> None:
    z, x, y = _tile_at(*CITY, 16)
    url = renderer.url_template.format(z=z, x=x, y=y)
    assert url == renderer.tile_path(z, x, y).as_uri()
    assert url.startswith("file:///")
    assert f"/{renderer.extract.short_id}/{renderer.style_version}/" in url


@pytest.mark.slow
def test_render_image_any_box(renderer: TileRenderer) -> None:
    png = renderer.render_image(center=CITY, zoom=17, width=300, height=200)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (300, 200)
        pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    assert _share(pixels, BUILDING) > 0.02


@pytest.mark.slow
def test_render_image_can_leave_layers_out(renderer: TileRenderer) -> None:
    assert "buildings" in renderer.layer_names and "text-point" in renderer.layer_names

    def shot(exclude: set[str]) -> np.ndarray:
        png = renderer.render_image(center=CITY, zoom=18, width=256, height=256,
                                    exclude_layers=exclude)
        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB")).reshape(-1, 3)

    full, bare, again = shot(set()), shot({"buildings"}), shot(set())
    assert _share(full, BUILDING) > 0.05 and _share(bare, BUILDING) < 0.01
    assert (again == full).all()  # the layers are switched back on


@pytest.mark.slow
def test_marked_labels_show_where_mapnik_writes_the_name(renderer: TileRenderer) -> None:
    """Mannerheimintie, asked in slot 0, is drawn in magenta; a name not on the map in
    slot 1 leaves no cyan; a 10 px band is drawn around the view."""
    png = renderer.render_label_marks(center=(60.1675, 24.9425), zoom=18, width=600,
                                      height=400, names=["Mannerheimintie", "No Such Street"],
                                      pad=10)
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (620, 420)
        rgba = np.asarray(image.convert("RGBA")).astype(int)
    opaque = rgba[..., 3] > 200
    magenta = (np.abs(rgba[..., :3] - (255, 0, 255)).sum(axis=2) < 90) & opaque
    cyan = (np.abs(rgba[..., :3] - (0, 255, 255)).sum(axis=2) < 90) & opaque
    assert magenta.sum() > 100 and cyan.sum() == 0
    # labels and icons are drawn on the land colour, not the map under them
    assert _share(rgba[..., :3].reshape(-1, 3), BUILDING) < 0.01
    again = renderer.render_label_marks(center=(60.1675, 24.9425), zoom=18, width=600,
                                        height=400, names=["No Such Street"], pad=10)
    with Image.open(io.BytesIO(again)) as image:
        rgba2 = np.asarray(image.convert("RGBA")).astype(int)
    # not asked for, the name is drawn in its ordinary black at the same place
    assert ((np.abs(rgba2[..., :3] - (255, 0, 255)).sum(axis=2) < 90)
            & (rgba2[..., 3] > 200)).sum() == 0
    assert (rgba2[magenta][:, :3].max(axis=1) < 100).mean() > 0.8


def _sessions(renderer: TileRenderer) -> int:
    """Connections made to the renderer's database so far (each psql call is one)."""
    from renderers.osm_import import psql

    database = renderer._database or ""
    return int(psql(renderer.cluster, database, "SELECT sessions FROM pg_stat_database "
                                                "WHERE datname = current_database();"))


@pytest.mark.slow
def test_the_marked_map_reads_through_the_full_maps_datasources(
        renderer: TileRenderer) -> None:
    """Loading the road-name map opens no connection per layer (Mapnik does for each
    layer that brings a datasource of its own): its layers borrow the full map's."""
    renderer.start()
    renderer._marked_map = None
    before = _sessions(renderer)
    renderer.render_label_marks_pixels(center=CITY, zoom=18, width=64, height=64,
                                       names=["Kaivokatu"])
    # the first psql call, perhaps a connection for the render (the pool's last one
    # was closed after loading), the second psql call: 35 more were each layer its own
    assert _sessions(renderer) - before <= 3
    full = {str(layer.name): layer for layer in renderer._map.layers}
    marked = list(renderer._marked_map.layers)
    assert len(marked) > 30
    for layer in marked:
        params = layer.datasource.parameters()
        assert params["table"] and params == full[str(layer.name)].datasource.parameters()


@pytest.mark.slow
def test_a_later_renderer_of_the_same_server_run_takes_the_loaded_maps(
        renderer: TileRenderer) -> None:
    """The maps a renderer loaded serve the next renderer of the same database in this
    process (no connection per layer); after the process forgets them they are loaded
    again; the key they are kept by names the server run (a restarted server is
    another key)."""
    renderer._load_marked_map()
    before = _sessions(renderer)
    with TileRenderer(renderer.extract, cache_dir=renderer.cache_dir) as later:
        later._load_marked_map()  # the full map, then the road-name map
        assert later._map is renderer._map and later._marked_map is renderer._marked_map
    # the psql calls (ours, the import check's): 78 more had it loaded OSM-Carto itself
    assert _sessions(renderer) - before <= 4
    forget_loaded_maps()
    with TileRenderer(renderer.extract, cache_dir=renderer.cache_dir) as fresh:
        fresh.start()
        assert fresh._map is not renderer._map
    assert _sessions(renderer) - before > 70
    key = renderer._maps_key(renderer._pg_params())
    run = next(part for part in key if part.startswith("connect_timeout="))
    assert f"connect_timeout={60 + renderer.cluster.server_run_id() % 100_000}" == run


def test_the_process_keeps_the_maps_of_its_last_two_databases() -> None:
    forget_loaded_maps()
    try:
        for name in ("a", "b", "c"):
            _keep_maps((name,), f"map {name}", None)
        assert list(_LOADED_MAPS) == [("b",), ("c",)]
        _keep_maps(("b",), "map b", "marked b")  # used again: kept longest
        _keep_maps(("d",), "map d", None)
        assert list(_LOADED_MAPS) == [("b",), ("d",)]
        assert _LOADED_MAPS[("b",)] == ["map b", "marked b"]
        assert MAPS_KEPT == 2
    finally:
        forget_loaded_maps()


#: A process that loads its maps ahead and forks (as a ``--workers`` builder does, before
#: any render): the child's renderer takes the maps, both render the same pixels.
FORK_AFTER_LOADING = """
import hashlib, os, sys
from pathlib import Path
from groundtruth.extracts import resolve_extract
from renderers.tiles import TileRenderer

extract, cache = resolve_extract("helsinki"), Path(sys.argv[1])

def draw(tiles):
    pixels = tiles.render_pixels(center=(60.1700, 24.9430), zoom=18, width=96, height=64)
    marks = tiles.render_label_marks_pixels(center=(60.1700, 24.9430), zoom=18, width=96,
                                            height=64, names=["Kaivokatu"])
    return hashlib.sha256(pixels.tobytes() + marks.tobytes()).hexdigest()

with TileRenderer(extract, cache_dir=cache) as parent:
    parent.load_ahead()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        with TileRenderer(extract, cache_dir=cache) as child:
            child.start()
            inherited = child._map is parent._map and child._marked_map is parent._marked_map
            os.write(write, f"{inherited} {draw(child)}".encode())
        os._exit(0)
    os.close(write)
    said = os.fdopen(read).read()
    os.waitpid(pid, 0)
    print(said, draw(parent))
"""


@pytest.mark.slow
def test_maps_loaded_ahead_serve_a_forked_process(renderer: TileRenderer) -> None:
    """A renderer in a process forked after load_ahead loads no map (no connection per
    layer: OSM-Carto's 78 once, in the parent) and renders, with its own connection,
    the pixels its parent renders."""
    import subprocess
    import sys

    before = _sessions(renderer)
    out = subprocess.run([sys.executable, "-c", FORK_AFTER_LOADING, str(renderer.cache_dir)],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    inherited, child, parent = out.split()
    assert inherited == "True"
    assert child == parent
    # 78 for the parent's load, a render connection each, psql's own: 78 more if the
    # child loaded the map itself
    assert _sessions(renderer) - before < 100


@pytest.mark.slow
def test_pixels_undecoded_equal_the_pngs(renderer: TileRenderer) -> None:
    """render_pixels and render_label_marks_pixels give the pixels their PNGs hold (the
    reference and marks renders of the build use them), at three zooms, with and
    without layers left out, and with a band around the view."""
    names = ["Mannerheimintie", "Kaivokatu", "Keskuskatu", "Aleksanterinkatu",
             "Rautatientori", "No Such Street"]
    marked = 0
    for zoom, centre in ((17, CITY), (18, (60.1675, 24.9425)), (19, (60.1690, 24.9445))):
        for exclude in ((), ("text-point", "roads-text-name", "amenity-points")):
            png = renderer.render_image(center=centre, zoom=zoom, width=400, height=300,
                                        exclude_layers=exclude)
            with Image.open(io.BytesIO(png)) as image:
                decoded = np.asarray(image.convert("RGBA"))
            pixels = renderer.render_pixels(center=centre, zoom=zoom, width=400, height=300,
                                            exclude_layers=exclude)
            assert pixels.dtype == np.uint8 and pixels.shape == (300, 400, 4)
            assert np.array_equal(pixels, decoded)
        png = renderer.render_label_marks(center=centre, zoom=zoom, width=400, height=300,
                                          names=names, pad=48)
        with Image.open(io.BytesIO(png)) as image:
            decoded = np.asarray(image.convert("RGBA"))
        pixels = renderer.render_label_marks_pixels(center=centre, zoom=zoom, width=400,
                                                    height=300, names=names, pad=48)
        assert pixels.shape == (396, 496, 4)
        for colour in MARK_COLOURS:
            marked += int(((np.abs(pixels[..., :3].astype(int) - colour).sum(axis=2) < 90)
                           & (pixels[..., 3] > 200)).sum())
        assert np.array_equal(pixels, decoded)
    assert marked > 300  # asked names were drawn: the marks compared are not empty


@pytest.mark.slow
def test_render_image_lines_up_with_tiles(renderer: TileRenderer) -> None:
    z, x, y = _tile_at(*CITY, 18)
    renderer.ensure_tiles([(z, x, y)])
    from groundtruth.projection import global_px_to_latlon

    centre = global_px_to_latlon((x + 0.5) * 256, (y + 0.5) * 256, z)
    png = renderer.render_image(center=centre, zoom=z, width=256, height=256)
    with Image.open(io.BytesIO(png)) as image:
        box = np.asarray(image.convert("RGB")).astype(int)
    tile = _pixels(renderer.tile_path(z, x, y)).reshape(256, 256, 3).astype(int)
    # same geometry; only labels may differ (they avoid the edges of each render)
    assert (np.abs(box - tile).sum(axis=2) == 0).mean() > 0.8


@pytest.mark.slow
def test_worker_processes_render_the_same_tiles(
    renderer: TileRenderer, helsinki: Extract
) -> None:
    # four z19 metatiles in the south of the extract that no other test renders
    z, x, y = _tile_at(60.1655, 24.9420, 19)
    mx, my = x // 8 * 8, y // 8 * 8
    tiles = [(z, mx + dx, my + dy) for dx in (0, 8) for dy in (0, 8)]
    parallel = TileRenderer(helsinki, cache_dir=renderer.cache_dir, workers=2)
    parallel.ensure_tiles(tiles)
    assert parallel._map is None  # the style was loaded in the workers, not here
    assert parallel.tiles_rendered == 4 * 64
    assert all(parallel.tile_path(*t).is_file() for t in tiles)
    # rendering is deterministic: the same metatile rendered here gives the same bytes
    first = renderer.tile_path(*tiles[0])
    before = first.read_bytes()
    first.unlink()
    renderer.ensure_tiles([tiles[0]])
    assert first.read_bytes() == before
    parallel.close()


@pytest.mark.slow
def test_bad_views_are_clear_errors(renderer: TileRenderer) -> None:
    with pytest.raises(RenderError, match="zoom 14 is outside 15-19"):
        renderer.ensure_tiles([_tile_at(*CITY, 14)])
    with pytest.raises(RenderError, match="outside the extract"):
        renderer.ensure_tiles([_tile_at(48.85, 2.35, 17)])  # Paris
    with pytest.raises(RenderError, match="outside the extract"):
        renderer.check_view(View(center=(48.85, 2.35), zoom=17))
    with pytest.raises(RenderError, match="outside 15-19"):
        renderer.check_view(View(center=CITY, zoom=20))
    with pytest.raises(RenderError, match="outside the extract"):
        renderer.render_image(center=(48.85, 2.35), zoom=17, width=10, height=10)
    with pytest.raises(RenderError, match="does not exist"):
        renderer.ensure_tiles([(15, 2**15, 0)])
    renderer.check_view(View(center=CITY, zoom=17))


def _square_areas_osm(tags: list[tuple[str, str]], path: Path) -> Path:
    """Write a small .osm file with one 280 x 145 m square area per tag, side by side."""
    nodes: list[str] = []
    ways: list[str] = []
    for i, (key, value) in enumerate(tags):
        west, south = 24.0 + i * 0.006, 60.0
        refs = []
        for dlon, dlat in ((0, 0), (0.005, 0), (0.005, 0.0013), (0, 0.0013)):
            node_id = len(nodes) + 1
            nodes.append(f'<node id="{node_id}" version="1" lat="{south + dlat:.7f}" '
                         f'lon="{west + dlon:.7f}"/>')
            refs.append(node_id)
        nds = "".join(f'<nd ref="{r}"/>' for r in [*refs, refs[0]])
        ways.append(f'<way id="{i + 1}" version="1">{nds}<tag k="{key}" v="{value}"/></way>')
    path.write_text('<?xml version="1.0"?>\n<osm version="0.6">' + "".join(nodes)
                    + "".join(ways) + "</osm>\n", encoding="utf-8")
    return path


@pytest.mark.slow
def test_pattern_fills_keep_osm_carto_base_colours(
    renderer: TileRenderer, tmp_path: Path
) -> None:
    """Debian lacks patterns/*.svg: the replacements draw sparse marks over the base fill."""
    osm = _square_areas_osm([("landuse", "orchard"), ("landuse", "military")],
                            tmp_path / "patterns.osm")
    with TileRenderer(resolve_extract(osm), cache_dir=renderer.cache_dir) as areas:
        assert areas.bounds[0] == pytest.approx(60.0)  # a file without <bounds>: from the data
        png = areas.render_image(center=(60.00065, 24.0025), zoom=18, width=200, height=120)
    with Image.open(io.BytesIO(png)) as image:
        pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    orchard = (0xAE, 0xDF, 0xA3)
    assert _share(pixels, orchard) > 0.7  # mostly the base fill, dots every 16 px
    assert _share(pixels, orchard) < 0.99  # and the dots are there


@pytest.mark.slow
def test_renderer_works_again_after_the_server_restarted(tmp_path: Path) -> None:
    """Mapnik pools connections per process: a restarted server must not get stale ones."""
    osm = resolve_extract(_square_areas_osm([("landuse", "grass")], tmp_path / "grass.osm"))
    cache = Path(tempfile.mkdtemp(prefix="cartoqa-test-restart-"))
    cache.chmod(0o755)
    runs = []
    try:
        for _ in range(2):
            with TileRenderer(osm, cache_dir=cache) as tiles:  # stops the server on exit
                tiles.start()
                runs.append(tiles.cluster.server_run_id())
                png = tiles.render_image(center=(60.00065, 24.0025), zoom=18, width=64,
                                         height=64)
                assert png.startswith(b"\x89PNG")
            assert not tiles.cluster._server_alive()
        assert runs[0] != runs[1]
    finally:
        PostgisCluster(cache).destroy()
        shutil.rmtree(cache, ignore_errors=True)


# -- pure functions -------------------------------------------------------------------


def test_global_px_to_mercator_corners() -> None:
    half = 20037508.342789244
    assert global_px_to_mercator(0, 0, 0) == pytest.approx((-half, half))
    assert global_px_to_mercator(512, 512, 1) == pytest.approx((half, -half))
    assert global_px_to_mercator(256, 256, 1) == pytest.approx((0.0, 0.0))


def test_metatiles() -> None:
    assert metatile_of((19, 298470, 151735), 8) == (19, 37308, 18966)
    tiles = metatile_tiles((19, 37308, 18966), 8)
    assert len(tiles) == 64 and tiles[0] == (19, 298464, 151728) and tiles[-1][1:] == (
        298471, 151735)
    assert metatile_tiles((0, 0, 0), 8) == [(0, 0, 0)]


def test_cached_tiles_are_encoded_without_loss() -> None:
    """The tiles' fast PNG encoding keeps every pixel (many colours, opaque and clear)."""
    import mapnik

    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (64, 64, 4), dtype=np.uint8)
    pixels[..., 3] = np.where(pixels[..., 3] >= 128, 255, 0)
    pixels[pixels[..., 3] == 0] = 0
    source = io.BytesIO()
    Image.fromarray(pixels, "RGBA").save(source, "PNG")
    image = mapnik.Image.from_string(source.getvalue())
    encoded = bytes(image.to_string(TILE_PNG_FORMAT))
    with Image.open(io.BytesIO(encoded)) as decoded:
        assert np.array_equal(np.asarray(decoded.convert("RGBA")), pixels)


def test_box_overlaps_and_zoom_check() -> None:
    assert box_overlaps((60.0, 24.0, 60.1, 24.1), (60.05, 24.05, 60.2, 24.2))
    assert not box_overlaps((60.0, 24.0, 60.1, 24.1), (60.2, 24.0, 60.3, 24.1))
    for zoom in (15, 19):
        check_zoom(zoom)
    for bad in (14, 20, True):
        with pytest.raises(RenderError):
            check_zoom(bad)


def test_write_atomic_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.png"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["b.png"]


def test_patched_style_points_at_our_database(tmp_path: Path) -> None:
    xml = carto_file("style.xml").read_text(encoding="utf-8")
    out = patch_style_xml(xml, dbname="osm_test", assets_dir=tmp_path,
                          pg_params={"host": "/sock", "port": "5432", "user": "cartoqa"})
    assert "<![CDATA[gis]]>" not in out
    assert out.count("<![CDATA[osm_test]]>") == xml.count('name="dbname"')
    assert 'file="patterns/' not in out and 'file="symbols/shields/' not in out
    assert "<TextSymbolizer " in out and "<TextSymbolizer avoid-edges" in out
    assert out.count("<TextSymbolizer avoid-edges") == out.count("<TextSymbolizer ")


def test_missing_osm_carto_names_the_package(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match=r"style\.xml is missing") as info:
        carto_file("style.xml", carto_dir=tmp_path)
    assert info.value.fix and "openstreetmap-carto-common" in info.value.fix


def test_style_version_names_package_and_patches() -> None:
    version = style_version()
    assert version.endswith("_cq2")
    assert "/" not in version and " " not in version
