"""FRIEDA's map styles (label-free tiles) and the overlays' visible share on the pixels."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers.shared_builds import SharedBuilds
from PIL import Image, ImageDraw
from shapely.geometry import LineString, Point, box

from cartoqa.visibility.reference import OVERLAY_LAYERS
from groundtruth.extracts import resolve_extract
from groundtruth.projection import TILE_SIZE, global_px_to_latlon, latlon_to_global_px
from renderers.frieda_map import pixel_visible_share
from renderers.map_styles import LABEL_LAYERS, LAND_RGB, StyledTiles, greyscale, style_pixels
from renderers.overlays import OVERLAY_COLORS

RED = OVERLAY_COLORS["red"]


def test_label_layers_are_the_reference_images_layers() -> None:
    assert LABEL_LAYERS == OVERLAY_LAYERS


def test_grey_style_is_grey_and_keeps_ink_dark() -> None:
    rgba = np.zeros((2, 3, 4), dtype=np.uint8)
    rgba[..., 3] = 255
    rgba[0, 0, :3] = (170, 211, 223)  # water
    rgba[0, 1, :3] = (242, 239, 233)  # land
    rgba[0, 2, :3] = (40, 40, 40)  # ink
    rgba[1, :, 3] = 0  # transparent: white
    out = style_pixels(rgba, "grey")
    assert (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()
    water, land, ink = out[0, :, 0]
    assert ink < 40 < water < land == 255
    assert out[1, 0, 0] == 255
    assert style_pixels(rgba, "plain")[0, 0].tolist() == [170, 211, 223]
    assert greyscale(np.array([[[0, 0, 0]]], dtype=np.uint8))[0, 0, 0] == 0


def test_styled_tiles_refuse_an_unknown_style(tmp_path: Path) -> None:
    class Fake:
        tile_dir = tmp_path / "tiles"

    with pytest.raises(ValueError, match="unknown map style"):
        StyledTiles(Fake(), "sepia")


def _png(draw: object) -> bytes:
    image = Image.new("RGB", (400, 300), (242, 239, 233))
    draw(ImageDraw.Draw(image))  # type: ignore[operator]
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_pixel_share_of_an_outline_covered_in_part() -> None:
    square = box(100, 100, 200, 200)
    ring = [(100, 100), (200, 100), (200, 200), (100, 200), (100, 100)]
    whole = _png(lambda d: d.line(ring, fill=RED, width=4))
    assert pixel_visible_share(whole, square, "polygon", RED) > 0.95
    # the left half under a building (or another feature's opaque drawing)
    half = _png(lambda d: (d.line(ring, fill=RED, width=4),
                           d.rectangle((90, 90, 150, 210), fill=(217, 208, 201))))
    assert 0.4 < pixel_visible_share(half, square, "polygon", RED) < 0.6
    hidden = _png(lambda d: d.rectangle((90, 90, 210, 210), fill=(31, 79, 209)))
    assert pixel_visible_share(hidden, square, "polygon", RED) == 0.0
    # half of it past the image's edge: not visible there
    edge = box(350, 100, 450, 200)
    off = _png(lambda d: d.line([(350, 100), (450, 100), (450, 200), (350, 200), (350, 100)],
                                fill=RED, width=4))
    assert 0.3 < pixel_visible_share(off, edge, "polygon", RED) < 0.6


def test_pixel_share_of_a_dot_and_a_line() -> None:
    dot = _png(lambda d: d.ellipse((92, 92, 108, 108), fill=RED))
    assert pixel_visible_share(dot, Point(100, 100), "point", RED) > 0.95
    assert pixel_visible_share(dot, Point(300, 100), "point", RED) == 0.0
    line = _png(lambda d: d.line([(50, 50), (350, 50)], fill=RED, width=5))
    assert pixel_visible_share(line, LineString([(50, 50), (350, 50)]), "line", RED) > 0.95


@pytest.fixture(scope="module")
def tiles(shared_builds: SharedBuilds) -> Iterator[object]:
    """Helsinki's tiles in the session's shared cache (its import made once)."""
    from renderers.tiles import TileRenderer

    with TileRenderer(resolve_extract("helsinki"), cache_dir=shared_builds.cache) as renderer:
        renderer.start()
        yield renderer


@pytest.mark.slow
def test_plain_and_grey_tiles_write_no_names(tiles: object) -> None:
    """Where OSM-Carto writes names and draws icons (its tile differs from the render
    with every label and icon layer off), the label-free tiles show the map beneath."""
    z = 17
    gx, gy = latlon_to_global_px(60.1700, 24.9430, z)  # by the railway station
    x, y = int(gx // TILE_SIZE), int(gy // TILE_SIZE)
    centre = global_px_to_latlon((x + 0.5) * TILE_SIZE, (y + 0.5) * TILE_SIZE, z)
    reference = tiles.render_pixels(  # type: ignore[attr-defined]
        center=centre, zoom=z, width=TILE_SIZE, height=TILE_SIZE, exclude_layers=LABEL_LAYERS)
    ref_rgb = style_pixels(np.asarray(reference), "plain").astype(int)
    tiles.ensure_tiles([(z, x, y)])  # type: ignore[attr-defined]
    path = tiles.tile_path(z, x, y)  # type: ignore[attr-defined]
    carto = np.asarray(Image.open(path).convert("RGB"), dtype=int)
    written = np.abs(carto - ref_rgb).max(axis=2) > 30
    assert written.sum() > 300  # OSM-Carto writes names and icons on this tile
    for style in ("plain", "grey"):
        styled = StyledTiles(tiles, style)
        styled.ensure_tiles([(z, x, y)])
        got = np.asarray(Image.open(styled.tile_path(z, x, y)).convert("RGB"), dtype=int)
        want = ref_rgb if style == "plain" else greyscale(ref_rgb.astype(np.uint8)).astype(int)
        # the same pixels as the label-free render: nothing written where carto writes
        assert np.abs(got - want).max(axis=2).mean() < 1.0
        assert (np.abs(got - want).max(axis=2)[written] > 30).mean() < 0.01


@pytest.mark.slow
def test_a_block_centred_past_the_extract_keeps_its_data(tiles: object) -> None:
    """At zoom 15 a block of 4 x 4 tiles (about 4.9 km) is centred past the 1.0 x 1.7 km
    extract: its tiles are drawn one by one and the one over the centre has the map."""
    z = 15
    gx, gy = latlon_to_global_px(60.1700, 24.9430, z)
    x, y = int(gx // TILE_SIZE), int(gy // TILE_SIZE)
    styled = StyledTiles(tiles, "plain")
    styled.ensure_tiles([(z, x, y)])
    got = np.asarray(Image.open(styled.tile_path(z, x, y)).convert("RGB"), dtype=int)
    land = np.array(LAND_RGB)
    assert (np.abs(got - land).max(axis=2) > 20).mean() > 0.05  # roads, water, buildings


@pytest.mark.slow
def test_a_tile_across_the_extracts_edge_keeps_its_data(tiles: object) -> None:
    """A tile whose centre lies past the extract's west edge still shows the map east of
    the edge (it was painted land-coloured), as OSM-Carto's own tile does there."""
    south, west, north, _ = tiles.bounds  # type: ignore[attr-defined]
    lat = (south + north) / 2
    for z in (17, 18, 19):
        gx, gy = latlon_to_global_px(lat, west, z)
        x, y = int(gx // TILE_SIZE), int(gy // TILE_SIZE)
        inside_from = int(gx - x * TILE_SIZE) + 2  # first column east of the edge
        if TILE_SIZE / 2 < inside_from < TILE_SIZE - 40:
            break
    else:
        pytest.skip("no zoom puts a tile's centre just past the edge")
    styled = StyledTiles(tiles, "plain")
    styled.ensure_tiles([(z, x, y)])
    tiles.ensure_tiles([(z, x, y)])  # type: ignore[attr-defined]
    got = np.asarray(Image.open(styled.tile_path(z, x, y)).convert("RGB"), dtype=int)
    carto = np.asarray(Image.open(tiles.tile_path(z, x, y)).convert("RGB"),  # type: ignore[attr-defined]
                       dtype=int)
    part, ref = got[:, inside_from:], carto[:, inside_from:]
    drawn = np.abs(ref - np.array(LAND_RGB)).max(axis=2) > 20  # roads, buildings, water
    assert drawn.mean() > 0.05
    # where carto draws something, the label-free tile draws the same (labels aside)
    assert (np.abs(part - ref).max(axis=2)[drawn] <= 30).mean() > 0.7
