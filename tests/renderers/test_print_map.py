"""The print-style FRIEDA map (geopandas/matplotlib): its geometry re-measured from the
pixels, its furniture, and the checks every FRIEDA map passes."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyproj
import pytest
from helpers.shared_builds import SharedBuilds
from PIL import Image
from shapely import affinity
from shapely.geometry import LineString, Point, box

from cartoqa.tasks.frieda import questions
from cartoqa.tasks.frieda.maps import (
    MIN_PIXEL_VISIBLE,
    RenderedMap,
    blocked_boxes,
    compass_readable,
    legend_whole,
    render_map,
)
from cartoqa.tasks.frieda.questions import MapPlan
from groundtruth.named_features import NamedFeature
from groundtruth.projection import View
from renderers.frieda_map import IMAGE_HEIGHT, IMAGE_WIDTH, FriedaMapRenderer
from renderers.map_styles import STYLES, TILE_STYLES, UNLABELLED
from renderers.overlays import OVERLAY_COLORS, overlay_from_geometry, screen_geometry
from renderers.print_map import (
    AREA_CLASSES,
    BUILDING_FILL,
    PRINT_STYLE,
    TITLE_PAD_PX,
    TITLES,
    PrintLayers,
    classify_area,
    draw_print_map,
    draw_title,
    line_class,
    title_box,
    view_affine,
)

TO_3857 = pyproj.Transformer.from_crs(4326, 3857, always_xy=True)
GEOD = pyproj.Geod(ellps="WGS84")
CENTRE = (60.1700, 24.9440)  # lat, lon: central Helsinki


def _m(lon: float, lat: float) -> tuple[float, float]:
    x, y = TO_3857.transform(lon, lat)
    return float(x), float(y)


def _fixture_layers() -> PrintLayers:
    """A park, a commercial block, a building, water and two roads around CENTRE."""
    cx, cy = _m(CENTRE[1], CENTRE[0])
    park = box(cx - 400, cy + 150, cx - 150, cy + 400)
    shops = box(cx + 150, cy - 400, cx + 420, cy - 150)
    building = box(cx + 200, cy - 350, cx + 260, cy - 290)
    water = box(cx - 900, cy - 900, cx - 500, cy + 900)
    roads = [LineString([(cx - 1500, cy), (cx + 1500, cy)]),
             LineString([(cx, cy - 1500), (cx, cy + 1500)])]
    return PrintLayers(areas={"green": [park], "commercial": [shops], "water": [water],
                              "building": [building]},
                       lines={"major": roads[:1], "minor": roads[1:]})


def _feature(name: str, lat: float, lon: float) -> NamedFeature:
    return NamedFeature(name, "point", "cafe", (f"node/{abs(hash(name)) % 1000}",),
                        Point(lon, lat))


def _png_rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64)


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)


def _dot_centre(rgb: np.ndarray, hex_colour: str, exclude: list[tuple[float, ...]]
                ) -> tuple[float, float]:
    """The centre of a dot found by its colour on the pixels (legend swatches left out)."""
    mask = np.linalg.norm(rgb - _rgb(hex_colour), axis=2) < 40
    for x0, y0, x1, y1 in exclude:
        mask[int(y0):int(y1) + 1, int(x0):int(x1) + 1] = False
    ys, xs = np.nonzero(mask)
    assert 80 < len(xs) < 400, len(xs)  # one dot of radius 7
    return float(xs.mean()) + 0.5, float(ys.mean()) + 0.5


@pytest.fixture(scope="module")
def renderer() -> Iterator[FriedaMapRenderer]:
    r = FriedaMapRenderer(None, assets_dir=Path("."),  # type: ignore[arg-type]
                          print_layers=_fixture_layers())
    yield r
    r.close()


def test_styles_registered_for_plans_and_renderers() -> None:
    assert set(questions.STYLES) == set(STYLES) and PRINT_STYLE in STYLES
    assert PRINT_STYLE not in TILE_STYLES
    assert set(questions.UNLABELLED_STYLES) == set(UNLABELLED) and PRINT_STYLE in UNLABELLED


def test_classes() -> None:
    assert classify_area({"landuse": "industrial"}) == "industrial"
    assert classify_area({"landuse": "residential"}) == "residential"
    assert classify_area({"leisure": "park", "building": "yes"}) == "building"
    assert classify_area({"building": "no", "landuse": "grass"}) == "green"
    assert line_class({"highway": "secondary_link"}) == "secondary"
    assert line_class({"railway": "rail"}) == "rail"
    assert line_class({"waterway": "stream"}) == "waterway"
    assert line_class({"building": "yes"}) is None


@pytest.mark.parametrize("angle", [0.0, 75.0, 210.0, 330.0])
@pytest.mark.parametrize("zoom", [15, 17, 19])
def test_affine_is_the_overlays_geometry(angle: float, zoom: int) -> None:
    """EPSG:3857 through :func:`view_affine` lands where :func:`screen_geometry` puts an
    overlay at the same place (the base map and the overlays share one geometry)."""
    view = View(center=CENTRE, zoom=zoom, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
    for dlat, dlon in ((0.0, 0.0), (0.0011, -0.0023), (-0.0007, 0.0031)):
        lat, lon = CENTRE[0] + dlat, CENTRE[1] + dlon
        want = screen_geometry(view, overlay_from_geometry("p", "red", Point(lon, lat)),
                               angle_deg=angle)
        got = affinity.affine_transform(Point(*_m(lon, lat)), list(view_affine(view, angle)))
        assert got.distance(want) < 1e-6


def test_distances_and_bearings_re_measured_from_the_image(renderer: FriedaMapRenderer
                                                           ) -> None:
    """Two dots drawn on a turned print map at zoom 17: their distance (pixels times the
    scale bar measured on the image) and bearing (pixel direction minus the turn) agree
    with the geodesic ground truth; the map passes the build's checks."""
    a = _feature("Kahvila A", CENTRE[0] + 0.0012, CENTRE[1] - 0.0030)
    b = _feature("Kahvila B", CENTRE[0] - 0.0009, CENTRE[1] + 0.0027)
    angle = 75.0
    plan = MapPlan((a, b), (a.name, b.name), angle_deg=angle, zoom=17, style=PRINT_STYLE,
                   scale_unit="ft", north="arrow")
    got = render_map(renderer, plan, None, [])
    assert isinstance(got, RenderedMap), got
    m = got.map
    assert m.style == PRINT_STYLE and m.scale_bar["bar"]["unit"] == "ft"
    assert min(m.visible) == 1.0 and min(m.pixel_visible) >= MIN_PIXEL_VISIBLE
    assert legend_whole(m, 2) and compass_readable(m.png, angle)
    assert not compass_readable(m.png, angle + 180.0)
    rgb = _png_rgb(m.png)
    legend = [m.controls["legend"], m.controls["compass"]]
    ax, ay = _dot_centre(rgb, OVERLAY_COLORS["red"], legend)
    bx, by = _dot_centre(rgb, OVERLAY_COLORS["blue"], legend)
    fwd, _, true_m = GEOD.inv(a.geometry.x, a.geometry.y, b.geometry.x, b.geometry.y)
    px = math.hypot(bx - ax, by - ay)
    # the scale bar as drawn: its dark line measured on the pixels
    x0, _, x1, y1 = (int(v) for v in m.controls["scale_bar"])
    line_y = int(y1) - 8
    dark = np.nonzero(rgb[line_y, x0:x1].max(axis=1) < 80)[0]
    bar_px = float(dark.max() - dark.min())
    bar_m = float(m.scale_bar["bar"]["meters"])
    assert bar_px == pytest.approx(float(m.scale_bar["bar"]["width_px"]), abs=2.5)
    assert px * bar_m / bar_px == pytest.approx(true_m, rel=0.025)
    # with the view's ground resolution: within 0.4% (Web Mercator's sphere against
    # the ellipsoid at 60 degrees north)
    assert px * m.view.meters_per_pixel() == pytest.approx(true_m, rel=0.004)
    screen_bearing = math.degrees(math.atan2(bx - ax, -(by - ay)))
    measured = (screen_bearing - angle) % 360.0
    assert abs((measured - fwd % 360.0 + 180.0) % 360.0 - 180.0) < 0.2


def test_base_layers_land_where_the_ground_puts_them(renderer: FriedaMapRenderer) -> None:
    """The fixture's park, commercial block and building show their fills at the pixels
    their ground position maps to, on a turned map; open ground is paper."""
    view = View(center=CENTRE, zoom=16, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
    png, boxes = draw_print_map(renderer._print(), view, 120.0, [])
    rgb = _png_rgb(png)
    aff = list(view_affine(view, 120.0))
    cx, cy = _m(CENTRE[1], CENTRE[0])
    fills = {k: fill for k, _, fill, _, _ in AREA_CLASSES}
    hatches = {k: hc for k, _, _, _, hc in AREA_CLASSES}

    def share(x: float, y: float, colours: list[str]) -> float:
        p = affinity.affine_transform(Point(x, y), aff)
        patch = rgb[int(p.y) - 4:int(p.y) + 5, int(p.x) - 4:int(p.x) + 5].reshape(-1, 3)
        near = np.zeros(len(patch), dtype=bool)
        for c in colours:
            near |= np.linalg.norm(patch - _rgb(c), axis=1) < 30
        return float(near.mean())

    # hatched fills: the antialiased edges of the hatch lines are neither colour
    assert share(cx - 275, cy + 275, [fills["green"], hatches["green"]]) > 0.75
    assert share(cx + 330, cy - 200, [fills["commercial"], hatches["commercial"]]) > 0.75
    assert share(cx + 330, cy - 200, [fills["green"]]) == 0.0
    assert share(cx + 230, cy - 320, [BUILDING_FILL]) > 0.9
    assert share(cx - 700, cy + 200, [fills["water"]]) > 0.9
    assert share(cx + 300, cy + 300, ["#ffffff"]) > 0.9
    # the furniture: neat line, title, base legend, attribution
    assert {"title", "base_legend", "attribution", "frame_top"} <= set(boxes)
    assert rgb[7, 600].max() < 60  # the neat line
    assert rgb[2, 600].min() > 250  # the margin outside it


def test_furniture_is_in_the_blocked_estimate(renderer: FriedaMapRenderer) -> None:
    """Every box a print map draws lies inside the estimate views are chosen with."""
    a = _feature("Kahvila A", CENTRE[0] + 0.0004, CENTRE[1] - 0.001)
    b = _feature("Pitkä nimi kahvila B", CENTRE[0] - 0.0004, CENTRE[1] + 0.001)
    ovs = [overlay_from_geometry(f.name, c, f.geometry) for f, c in ((a, "red"), (b, "blue"))]
    m = renderer.render(CENTRE, 18, ovs, angle_deg=30.0, style=PRINT_STYLE)
    estimate = [box(*b_) for b_ in blocked_boxes(2, 0, PRINT_STYLE)]
    for name, drawn in m.controls.items():
        assert any(e.buffer(0.5).contains(box(*drawn)) for e in estimate), name
    # a print map always carries one bar (metres when the question asks no unit)
    assert m.scale_bar["bar"]["unit"] == "m"


def test_a_category_layer_replaces_the_base_legend(renderer: FriedaMapRenderer) -> None:
    a = _feature("Kahvila A", CENTRE[0] + 0.0004, CENTRE[1] - 0.001)
    ring = box(CENTRE[1] - 0.002, CENTRE[0], CENTRE[1], CENTRE[0] + 0.001)
    ovs = [overlay_from_geometry(a.name, "blue", a.geometry)]
    m = renderer.render(CENTRE, 17, ovs, style=PRINT_STYLE,
                        categories=[("park or garden", (ring,))])
    assert "category_legend" in m.controls and "base_legend" not in m.controls


def test_an_over_wide_legend_is_refused(renderer: FriedaMapRenderer) -> None:
    a = _feature("X" * 60, CENTRE[0], CENTRE[1])
    plan = MapPlan((a,), (a.name,), zoom=17, style=PRINT_STYLE)
    assert render_map(renderer, plan, None, []) == "legend"


@pytest.fixture(scope="module")
def tiles(shared_builds: SharedBuilds) -> Iterator[object]:
    """Helsinki in the session's shared cache (its import made once)."""
    from groundtruth.extracts import resolve_extract
    from renderers.tiles import TileRenderer

    with TileRenderer(resolve_extract("helsinki"), cache_dir=shared_builds.cache) as renderer:
        yield renderer


@pytest.mark.slow
def test_helsinki_print_map_from_postgis(tiles: object) -> None:
    """The layers read from the imported extract (buildings, land use, sea, roads) and a
    turned print map of the station area that passes the build's checks."""
    from renderers.print_map import load_print_layers

    layers = load_print_layers(tiles)
    assert len(layers.areas["building"]) > 300  # 461: central blocks are few, large buildings
    assert layers.areas.get("water") and layers.areas.get("green")
    assert layers.lines.get("major") and layers.lines.get("minor")
    r = FriedaMapRenderer(tiles, assets_dir=Path("."), print_layers=layers)  # type: ignore[arg-type]
    a = _feature("Kahvila A", 60.1712, 24.9405)
    b = _feature("Kahvila B", 60.1690, 24.9460)
    plan = MapPlan((a, b), (a.name, b.name), angle_deg=210.0, style=PRINT_STYLE,
                   scale_unit="mi", north="star")
    got = render_map(r, plan, None, [], tiles.bounds)  # type: ignore[attr-defined]
    r.close()
    assert isinstance(got, RenderedMap), got
    rgb = _png_rgb(got.map.png)
    ink = (np.abs(rgb - 255.0).max(axis=2) > 20).mean()
    assert ink > 0.3  # drawn: buildings, land use, streets (not a blank sheet)


def test_print_base_stays_clear_of_the_category_colours() -> None:
    """On a map with a legend-category layer the print base keeps its paper, buildings
    and road fills: none of these large areas may read as a category's fill on the pixels
    (``ring_share``; water is the exception, light blue like the fourth category, as on
    the plain style)."""
    from renderers.legend_layer import CATEGORY_STYLES, CATEGORY_TOLERANCE
    from renderers.print_map import BUILDING_FILL_UNDER_CATEGORIES, LINE_CLASSES, PAPER

    base = [PAPER, BUILDING_FILL_UNDER_CATEGORIES] + [c for _, cw, _, c in LINE_CLASSES if cw]
    for colour in base:
        for fill, _, _ in CATEGORY_STYLES:
            assert np.linalg.norm(_rgb(colour) - _rgb(fill)) > CATEGORY_TOLERANCE, (colour, fill)


def test_drawing_a_print_map_leaves_matplotlib_settings_alone(
        renderer: FriedaMapRenderer) -> None:
    """matplotlib's settings are global to a process: the print map's thin hatches once
    stayed set after it, and a MapWise hatched map drawn later in the same process no
    longer matched its own hatch check (seen as an order-dependent test failure)."""
    import matplotlib

    before = dict(matplotlib.rcParams)
    view = View(center=CENTRE, zoom=16, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
    draw_print_map(renderer._print(), view, 0.0, [])
    assert dict(matplotlib.rcParams) == before


@pytest.mark.parametrize("title", TITLES)
def test_the_title_is_drawn_inside_its_box(title: str) -> None:
    """Each title drawn in its box on a blank sheet: the ink outside the box is none,
    and the title's ink (the box's inner rows, its frame left out) keeps
    ``TITLE_PAD_PX - 2`` pixels clear of each side. ("PLANNING MAP: LAND AND
    BUILDINGS" at 19 px ran about 10 px past both sides: frieda27e's by-eye review.)"""
    from PIL import ImageDraw

    image = Image.new("RGB", (IMAGE_WIDTH, 120), "white")
    tb = title_box(IMAGE_WIDTH)
    draw_title(ImageDraw.Draw(image), tb, title)
    ink = np.asarray(image.convert("L")) < 160
    x0, y0, x1, y1 = (round(v) for v in tb)
    outside = ink.copy()
    outside[y0:y1 + 1, x0:x1 + 1] = False
    assert not outside.any()
    inner = ink[y0 + 3:y1 - 2, x0 + 3:x1 - 2]  # inside the 2 px frame
    cols = np.flatnonzero(inner.any(axis=0))
    assert cols.size, "no title drawn"
    margin = TITLE_PAD_PX - 2
    assert cols.min() >= margin and cols.max() <= inner.shape[1] - 1 - margin
