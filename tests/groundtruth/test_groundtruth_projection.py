"""Web Mercator pixels, views, ground resolution and tiles against hand computations."""

from __future__ import annotations

import math

import pytest

from groundtruth.distance import geodesic_m
from groundtruth.projection import (
    MAX_LATITUDE,
    View,
    global_px_to_latlon,
    latlon_to_global_px,
    meters_per_pixel,
    path_length_px,
    tile_bounds,
    tiles_for_bounds,
)


def mercator_y_by_hand(lat: float, zoom: int) -> float:
    """y = (1 - ln(tan(phi) + sec(phi)) / pi) / 2 * 256 * 2**zoom (a different formula)."""
    phi = math.radians(lat)
    return (1 - math.log(math.tan(phi) + 1 / math.cos(phi)) / math.pi) / 2 * 256 * 2**zoom


@pytest.mark.parametrize("lat", [-70.0, -12.5, 0.0, 33.3, 60.17, 80.0])
@pytest.mark.parametrize("zoom", [0, 15, 19])
def test_global_px_matches_the_tan_sec_formula(lat: float, zoom: int) -> None:
    x, y = latlon_to_global_px(lat, 24.9425, zoom)
    assert y == pytest.approx(mercator_y_by_hand(lat, zoom), abs=1e-6)
    assert x == pytest.approx((24.9425 + 180) / 360 * 256 * 2**zoom, abs=1e-9)
    back = global_px_to_latlon(x, y, zoom)
    assert back[0] == pytest.approx(lat, abs=1e-9)
    assert back[1] == pytest.approx(24.9425, abs=1e-9)


def test_corners_of_the_world() -> None:
    assert latlon_to_global_px(MAX_LATITUDE, -180.0, 0) == pytest.approx((0.0, 0.0), abs=1e-6)
    assert latlon_to_global_px(90.0, 0.0, 0)[1] == pytest.approx(0.0, abs=1e-6)  # clamped
    assert latlon_to_global_px(-MAX_LATITUDE, 180.0, 2) == pytest.approx((1024, 1024), abs=1e-6)


def test_meters_per_pixel_by_hand() -> None:
    equator_z0 = 2 * math.pi * 6378137 / 256
    assert meters_per_pixel(0.0, 0) == pytest.approx(equator_z0, rel=1e-12)
    assert meters_per_pixel(60.0, 19) == pytest.approx(equator_z0 * 0.5 / 2**19, rel=1e-12)
    # a short north-south path: pixels times resolution is the ground length (to 0.3%)
    zoom, lat = 18, 60.17
    px = path_length_px([(lat, 24.94), (lat + 0.001, 24.94)], zoom)
    ground = geodesic_m(lat, 24.94, lat + 0.001, 24.94)
    assert px * meters_per_pixel(lat + 0.0005, zoom) == pytest.approx(ground, rel=3e-3)


def test_path_length_px() -> None:
    assert path_length_px([(0.0, 0.0), (0.0, 90.0), (0.0, 180.0)], 0) == 128.0
    assert path_length_px([], 10) == 0.0
    # a right angle: 3-4-5 in pixels at zoom 0 (lon 3*360/256 east, then south)
    x0, y0 = latlon_to_global_px(0.0, 0.0, 0)
    lat1, _ = global_px_to_latlon(x0, y0 + 4.0, 0)
    lon1 = 3.0 * 360 / 256
    assert path_length_px([(0.0, 0.0), (0.0, lon1), (lat1, lon1)], 0) == pytest.approx(7.0)


def test_view_is_placed_like_leaflet() -> None:
    view = View(center=(60.1675, 24.9425), zoom=17)
    cx, cy = latlon_to_global_px(60.1675, 24.9425, 17)
    ox, oy = view.origin_px
    assert (ox, oy) == (math.floor(cx - 683 + 0.5), math.floor(cy - 384 + 0.5))
    x, y = view.to_view_px(60.1675, 24.9425)
    assert abs(x - 683) <= 0.5 and abs(y - 384) <= 0.5
    south, west, north, east = view.bounds
    assert south < 60.1675 < north and west < 24.9425 < east
    assert view.contains(60.1675, 24.9425, margin_px=300)
    assert not view.contains(north + 1e-5, 24.9425)
    lat, lon = view.to_latlon(100.0, 200.0)
    assert view.to_view_px(lat, lon) == pytest.approx((100.0, 200.0), abs=1e-6)
    assert view.meters_per_pixel() == meters_per_pixel(60.1675, 17)


def test_view_tiles() -> None:
    view = View(center=(0.0, 0.0), zoom=2, width=256, height=256)
    assert view.origin_px == (384.0, 384.0)
    assert view.tiles() == [(2, 1, 1), (2, 2, 1), (2, 1, 2), (2, 2, 2)]
    assert len(view.tiles(margin_tiles=1)) == 16
    assert View(center=(0.0, 0.0), zoom=0, width=256, height=256).tiles(margin_tiles=3) == [
        (0, 0, 0)]


def test_tile_bounds_and_tiles_for_bounds() -> None:
    south, west, north, east = tile_bounds(1, 0, 0)
    assert (west, east) == (-180.0, 0.0)
    assert south == pytest.approx(0.0, abs=1e-9)
    assert north == pytest.approx(MAX_LATITUDE, abs=1e-6)
    assert tiles_for_bounds((10.0, 10.0, 20.0, 20.0), [0, 1]) == [(0, 0, 0), (1, 1, 0)]
    tiles = tiles_for_bounds((60.16, 24.93, 60.18, 24.96), [15])
    for z, x, y in tiles:
        s, w, n, e = tile_bounds(z, x, y)
        assert s < 60.18 and n > 60.16 and w < 24.96 and e > 24.93


def test_tiles_include_the_one_under_the_last_pixel() -> None:
    # zoom 1 is 512 px wide; a 2x2 view centred on (0, 0) covers pixels 255 and 256 in
    # each direction: its right and bottom pixel lie on tiles x=1 and y=1
    view = View((0.0, 0.0), zoom=1, width=2, height=2)
    assert view.origin_px == pytest.approx((255.0, 255.0))
    assert view.tiles() == [(1, 0, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)]
    # a 1x1 view's origin, 255.5, rounds half up (as Leaflet's): its one pixel is 256
    assert View((0.0, 0.0), zoom=1, width=1, height=1).tiles() == [(1, 1, 1)]


def test_tiles_stop_at_the_row_of_the_last_pixel() -> None:
    # centred on the top edge of the world (global y 0) and 510 px high, the view runs
    # from y = -255 to y = 254: the last pixel is on the top row of tiles, none below
    view = View((MAX_LATITUDE, 0.0), zoom=1, width=2, height=510)
    assert view.origin_px[1] == pytest.approx(-255.0)
    assert view.tiles() == [(1, 0, 0), (1, 1, 0)]


def test_a_point_near_the_bottom_edge_is_inside_only_without_margin() -> None:
    view = View((60.0, 24.0), zoom=16, width=200, height=100)
    near_bottom = view.to_latlon(100.0, 95.0)  # 5 px above the bottom edge
    assert view.contains(*near_bottom)
    assert not view.contains(*near_bottom, margin_px=10.0)
    assert view.contains(*view.to_latlon(100.0, 85.0), margin_px=10.0)
    assert not view.contains(*view.to_latlon(100.0, 5.0), margin_px=10.0)


def test_a_view_wider_than_the_world_asks_only_for_tiles_that_exist() -> None:
    # zoom 1 has 2 x 2 tiles; a 1366 x 768 view near the bottom of the map spans more
    # than the whole world, and asks for those four only
    assert sorted(set(View(center=(-80.0, 0.0), zoom=1).tiles())) == [
        (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]


def test_a_point_exactly_at_the_margin_is_in_the_view() -> None:
    # issue 33 (mutation seed 3306): markers placed at the margin itself are accepted
    view = View(center=(0.0, 0.0), zoom=1, width=256, height=256)
    for x, y in ((10, 128), (246, 128), (128, 10), (128, 246)):
        lat, lon = view.to_latlon(x, y)
        assert view.contains(lat, lon, margin_px=10)
        assert not view.contains(lat, lon, margin_px=10.5)
