"""Overlays, legend, map rotation and the compass rose (pure parts, no browser)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pytest
from flat_tiles import FlatTiles
from PIL import Image
from shapely.geometry import LineString, Point, box

from groundtruth.projection import View
from renderers.compass import BLANK_FILL, compass_box, compose_turned, draw_compass, frame_side
from renderers.errors import RenderError
from renderers.overlays import (
    Overlay,
    overlay_from_geometry,
    rotate_px,
    screen_geometry,
    visible_share,
)
from renderers.page import build_map_html, remote_links

VIEW = View(center=(60.1699, 24.9384), zoom=17)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_overlay_from_polygon_with_hole() -> None:
    outer = box(24.0, 60.0, 24.01, 60.01)
    ring = outer.difference(box(24.004, 60.004, 24.006, 60.006))
    o = overlay_from_geometry("Park", "red", ring)
    assert o.kind == "polygon" and len(o.parts) == 2  # exterior and hole
    assert all(p[0] == p[-1] for p in o.parts)
    assert o.parts[0][0][0] >= 60.0  # (lat, lon)
    assert overlay_from_geometry("Road", "blue", LineString([(24.0, 60.0), (24.1, 60.0)])).kind \
        == "line"
    with pytest.raises(RenderError):
        Overlay("x", "green", "point", (((60.0, 24.0),),))


def test_rotate_px_quarter_turns() -> None:
    # 200 x 100 image, centre (100, 50): the top-centre pixel goes right, left, down
    assert rotate_px(100, 0, angle_deg=90, width=200, height=100) == pytest.approx((150, 50))
    assert rotate_px(100, 0, angle_deg=-90, width=200, height=100) == pytest.approx((50, 50))
    assert rotate_px(100, 0, angle_deg=180, width=200, height=100) == pytest.approx((100, 100))


def test_screen_geometry_and_visible_share() -> None:
    lat, lon = VIEW.center
    x, y = VIEW.to_view_px(lat, lon)
    dot = screen_geometry(VIEW, overlay_from_geometry("P", "red", Point(lon, lat)))
    assert (dot.x, dot.y) == pytest.approx((x, y))
    turned = screen_geometry(VIEW, overlay_from_geometry("P", "red", Point(lon, lat)),
                             angle_deg=37.0)
    assert (turned.x, turned.y) == pytest.approx((683, 384), abs=1)  # the centre stays
    # a 100 x 100 px square half under a blocked box
    sq = box(0, 0, 100, 100)
    assert visible_share(sq, width=1366, height=768) == 1.0
    assert visible_share(sq, width=1366, height=768, blocked=[(50, 0, 200, 200)]) == 0.5
    assert visible_share(LineString([(-100, 10), (100, 10)]), width=1366, height=768) == 0.5
    assert visible_share(Point(5, 5), width=1366, height=768) == 0.0  # the dot is cut


def test_compose_turned_cuts_the_centre_and_keeps_controls_upright() -> None:
    side = frame_side(200, 100)  # hypot(200, 100) = 223.6 -> 224
    assert side == 224
    # left half black, right half white; a grey "legend" in the top-right corner
    arr = np.zeros((side, side, 3), dtype=np.uint8)
    arr[:, side // 2:] = 255
    arr[0:10, 204:224] = 128
    png, boxes = compose_turned(_png(Image.fromarray(arr)), 180.0, width=200, height=100,
                                controls={"legend": (204.0, 0.0, 224.0, 10.0)})
    out = np.asarray(Image.open(io.BytesIO(png)))
    assert out.shape == (100, 200, 3)
    assert (out[50, 20] == 255).all()  # after a half turn the left side is white
    assert (out[50, 180] == 0).all()
    assert boxes == {"legend": (180.0, 0.0, 200.0, 10.0)}  # moved into the image's corner
    assert (out[5, 190] == 128).all()
    # a quarter turn: no blank corners
    quarter = np.asarray(Image.open(io.BytesIO(
        compose_turned(_png(Image.fromarray(arr)), 90.0, width=200, height=100,
                       controls={})[0])))
    assert tuple(quarter[0, 0]) != BLANK_FILL and tuple(quarter[99, 199]) != BLANK_FILL
    with pytest.raises(ValueError):  # a box reaching into the cut would turn into view
        compose_turned(_png(Image.fromarray(arr)), 30.0, width=200, height=100,
                       controls={"legend": (100.0, 0.0, 224.0, 40.0)})


@pytest.mark.parametrize("north", [0.0, 90.0, 225.0])
def test_compass_needle_points_north(north: float) -> None:
    blank = _png(Image.new("RGB", (300, 200), (255, 255, 255)))
    img = np.asarray(Image.open(io.BytesIO(draw_compass(blank, north)))).astype(int)
    x0, y0, x1, y1 = compass_box(300, 200)
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    red = (img[:, :, 0] > 150) & (img[:, :, 1] < 80) & (img[:, :, 2] < 80)
    ys, xs = np.nonzero(red)
    # the red needle and "N" lie on the north side of the rose's centre
    a = math.radians(north)
    along = (xs - cx) * math.sin(a) - (ys - cy) * math.cos(a)
    assert len(xs) > 50
    assert (along > 0).mean() > 0.95
    assert ((xs - cx) ** 2 + (ys - cy) ** 2 <= (r + 1) ** 2).all()


def test_page_draws_overlays_and_legend(web_assets: Path) -> None:
    overlays = [
        overlay_from_geometry("Esplanadi <park>", "red",
                              box(24.94, 60.167, 24.945, 60.168)),
        overlay_from_geometry("Main road", "blue", LineString([(24.93, 60.17), (24.94, 60.17)])),
        overlay_from_geometry("Cafe", "orange", Point(24.938, 60.169)),
    ]
    html = build_map_html(VIEW, tile_url_template="file:///tmp/t/{z}/{x}/{y}.png",
                          assets_dir=web_assets, overlays=overlays)
    assert remote_links(html) == []
    assert html.count("L.polygon(") == 1
    assert html.count("L.polyline(") == 1
    assert html.count("L.circleMarker(") == 1
    assert "cartoqa-legend" in html
    assert "Esplanadi \\u0026lt;park\\u0026gt;" in html or "Esplanadi &lt;park&gt;" in html


@pytest.mark.slow
def test_frieda_map_end_to_end(flat_tiles: FlatTiles, web_assets: Path) -> None:
    """A turned map over flat tiles: size, legend and scale bar upright, overlays seen."""
    from renderers.frieda_map import IMAGE_HEIGHT, IMAGE_WIDTH, FriedaMapRenderer

    lat, lon = 60.1699, 24.9384
    square = box(lon - 0.0008, lat - 0.0004, lon + 0.0008, lat + 0.0004)
    overlays = [overlay_from_geometry("Square", "red", square),
                overlay_from_geometry("Far dot", "blue", Point(lon + 0.02, lat))]
    renderer = FriedaMapRenderer(flat_tiles, assets_dir=web_assets)
    try:
        m = renderer.render((lat, lon), 17, overlays, angle_deg=90.0)
    finally:
        renderer.close()
    img = np.asarray(Image.open(io.BytesIO(m.png)).convert("RGB")).astype(int)
    assert img.shape == (IMAGE_HEIGHT, IMAGE_WIDTH, 3)
    assert set(m.controls) == {"legend", "scale_bar", "attribution", "compass"}
    _, y0, x1, _ = m.controls["legend"]
    assert x1 <= IMAGE_WIDTH and y0 < 20  # top right
    assert m.controls["scale_bar"][0] < 20 and m.controls["scale_bar"][3] > IMAGE_HEIGHT - 20
    assert m.scale_bar["metric"]["meters"] > 0
    assert m.visible == [1.0, 0.0]  # the square is in the middle, the dot 1.1 km away
    # the square's red outline crosses the centre row left and right of the middle;
    # turned a quarter, its 0.0016-degree width (89 m, 149 px at z17) runs up and down
    red = (img[:, :, 0] > 200) & (img[:, :, 1] < 60) & (img[:, :, 2] < 60)
    rows = np.nonzero(red[:, IMAGE_WIDTH // 2])[0]
    assert rows.min() > IMAGE_HEIGHT // 2 - 100 and rows.max() < IMAGE_HEIGHT // 2 + 100
    assert rows.max() - rows.min() > 120
