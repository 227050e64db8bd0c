"""The whole-view oracles on a small hand-made view: lines, areas, icons together (issue 33).

:func:`cartoqa.visibility.analysis.analyse_view` and the functions under it
(:func:`~cartoqa.visibility.coverage.line_sightings`,
:func:`~cartoqa.visibility.coverage.area_sightings`,
:func:`~cartoqa.visibility.symbols.one_feature_per_icon`, the geometry in view pixels,
the exclusion mask) were reached only by end-to-end builds. Here each gets a 300 x 200
view whose reference is painted by hand in OSM-Carto's colours (a stream, a primary
road, a park) and whose screenshot adds the names and the two icons Mapnik drew in
``data/icons_on_land.png``, so a wrong threshold, box or condition fails in a second.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import LineString, MultiLineString, MultiPolygon, Point, Polygon

from cartoqa.visibility.analysis import analyse_view
from cartoqa.visibility.coverage import area_sightings, line_sightings
from cartoqa.visibility.geometry import lines_px, rings_px
from cartoqa.visibility.icons import catalogue_by_name
from cartoqa.visibility.pixels import decode_png, hex_rgb, ink_mask
from cartoqa.visibility.road_names import dark_ink, drawn_road_names
from cartoqa.visibility.screen import exclusion_mask
from cartoqa.visibility.sightings import Sighting, ViewFeatures
from cartoqa.visibility.symbols import one_feature_per_icon
from groundtruth.features import Feature
from groundtruth.projection import View

DATA = Path(__file__).with_name("data")
VIEW = View(center=(60.17, 24.94), zoom=19, width=300, height=200)
H, W = VIEW.height, VIEW.width
LAND = hex_rgb("#f2efe9")
STREAM = hex_rgb("#aad3df")
ROAD = hex_rgb("#fcd6a4")
PARK = hex_rgb("#c8facc")
STREAM_TEXT = hex_rgb("#4d80b3")
PARK_TEXT = hex_rgb("#0c8416")
BLACK = (0, 0, 0)


def lonlat(x: float, y: float) -> tuple[float, float]:
    lat, lon = VIEW.to_latlon(x, y)
    return (lon, lat)


def line(feature_type: str, name: str | None, *pieces: list[tuple[float, float]],
         anchor: tuple[float, float] | None = None) -> Feature:
    """A line feature through view pixels (several pieces make a MultiLineString)."""
    geoms = [LineString([lonlat(x, y) for x, y in piece]) for piece in pieces]
    geom = geoms[0] if len(geoms) == 1 else MultiLineString(geoms)
    ax, ay = anchor or pieces[0][0]
    lat, lon = VIEW.to_latlon(ax, ay)
    return Feature(feature_type, "line", name, ("way/1",), lat, lon, geom)


def park(name: str | None, x0: float, y0: float, x1: float, y1: float, *,
         anchor: tuple[float, float], holes: list[tuple[float, float, float, float]] = ()
         ) -> Feature:
    ring = [lonlat(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    inner = [[lonlat(x, y) for x, y in ((a, b), (c, b), (c, d), (a, d))]
             for a, b, c, d in holes]
    lat, lon = VIEW.to_latlon(*anchor)
    return Feature("park", "area", name, ("way/2",), lat, lon, Polygon(ring, inner))


def symbol(feature_type: str, name: str | None, x: float, y: float) -> Feature:
    lat, lon = VIEW.to_latlon(x, y)
    return Feature(feature_type, "symbol", name, ("node/3",), lat, lon, Point(lon, lat))


def land() -> np.ndarray:
    image = np.empty((H, W, 3), np.int16)
    image[...] = LAND
    return image


def with_icons(image: np.ndarray) -> np.ndarray:
    """The pharmacy icon at (124, 104) and the bank icon at (172, 104), as Mapnik drew them."""
    out = image.copy()
    out[80:128, 100:196] = decode_png((DATA / "icons_on_land.png").read_bytes())
    return out


def lines_of(feature_type: str, feats: list[Feature], screen: np.ndarray,
             reference: np.ndarray) -> list[Sighting]:
    ink = ink_mask(screen, reference)
    return line_sightings(VIEW, catalogue_by_name()[feature_type], feats, screen, reference,
                          ink, dark_ink(screen, ink))


def areas_of(feats: list[Feature], screen: np.ndarray, reference: np.ndarray, *,
             reserved: tuple[tuple[float, float, float, float], ...] = ()) -> list[Sighting]:
    return area_sightings(VIEW, catalogue_by_name()["park"], feats, screen, reference,
                          ink_mask(screen, reference), reserved=reserved)


# --- lines: is the line drawn ----------------------------------------------------------------

def test_a_stream_painted_along_its_whole_length_is_drawn() -> None:
    reference = land()
    reference[98:104, 20:282] = STREAM
    stream = line("stream", None, [(20.5, 100.5), (280.5, 100.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.drawn and s.score == 1.0 and not s.edge and not s.name_legible
    assert s.px == pytest.approx((20.5, 100.5))


def test_a_stream_not_painted_is_not_drawn_and_a_road_colour_is_not_a_stream() -> None:
    reference = land()
    reference[98:104, 20:282] = ROAD
    stream = line("stream", "Vantaa", [(20.5, 100.5), (280.5, 100.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert not s.drawn and s.score == 0.0 and not s.name_legible
    (r,) = lines_of("primary road", [line("primary road", None, [(20.5, 100.5), (280.5, 100.5)])],
                    reference.copy(), reference)
    assert r.drawn


@pytest.mark.parametrize(("columns", "coverage"), [((98, 105), 0.3), ((98, 104), 0.2)])
def test_a_line_is_drawn_from_thirty_percent_of_its_samples(columns: tuple[int, int],
                                                            coverage: float) -> None:
    # 28.5 px sampled every 3.17 px: 10 samples; each looks 2 px back and 2.5 px on
    reference = land()
    reference[99:103, columns[0]:columns[1]] = STREAM
    stream = line("stream", None, [(100.5, 100.5), (129.0, 100.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.score == pytest.approx(coverage)
    assert s.drawn == (coverage >= 0.3)


@pytest.mark.parametrize(("row", "seen"), [(98, True), (103, True), (97, False), (104, False)])
def test_each_sample_looks_two_to_three_pixels_across_the_line(row: int, seen: bool) -> None:
    reference = land()
    reference[row, 20:282] = STREAM             # one row of stream colour, off the centre line
    stream = line("stream", None, [(20.5, 100.5), (280.5, 100.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.drawn is seen
    assert s.score == (1.0 if seen else 0.0)


@pytest.mark.parametrize(("column", "seen"), [(98, True), (103, True), (97, False), (104, False)])
def test_each_sample_looks_two_to_three_pixels_along_a_vertical_line(column: int,
                                                                     seen: bool) -> None:
    reference = land()
    reference[20:182, column] = STREAM
    stream = line("stream", None, [(100.5, 20.5), (100.5, 180.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.drawn is seen
    assert s.score == (1.0 if seen else 0.0)


@pytest.mark.parametrize(("end", "coverage"), [((180.5, 180.5), 1.0), ((20.5, 180.5), 1.0),
                                               ((180.5, 20.5), 1.0)])
def test_a_line_is_sampled_along_its_own_direction(end: tuple[float, float],
                                                   coverage: float) -> None:
    # only the line's own pixels are painted: a sample off it misses
    reference = land()
    stream = line("stream", None, [(100.5, 100.5), end])
    from cartoqa.visibility.pixels import line_mask

    reference[line_mask((H, W), [[(100.5, 100.5), end]], radius=1)] = STREAM
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.score == coverage


def test_a_line_only_in_the_edge_band_or_outside_is_an_edge_not_a_sighting() -> None:
    reference = land()
    reference[:, :] = STREAM                       # colour everywhere: only geometry decides
    band = line("stream", "Band", [(3.5, 20.5), (3.5, 180.5)])     # 3 px from the left edge
    outside = line("stream", "Out", [(-60.5, 20.5), (-60.5, 180.5)])
    sightings = lines_of("stream", [band, outside], reference.copy(), reference)
    for s in sightings:
        assert s.edge and not s.drawn and not s.name_legible and not s.label_cut
        assert s.score == 0.0
    assert sightings[0].px == pytest.approx((3.5, 20.5))


def test_a_line_crossing_the_edge_band_is_judged_on_its_part_inside() -> None:
    # 30 px inside the view (painted) and 60 px in the band and outside (not painted):
    # only the part inside the edge band is sampled, so all of it shows
    reference = land()
    reference[98:104, 9:60] = STREAM
    stream = line("stream", None, [(-40.5, 100.5), (50.5, 100.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert s.score == 1.0 and s.drawn and not s.edge


def test_the_pieces_of_a_multiline_are_all_sampled() -> None:
    reference = land()
    reference[38:44, 20:282] = STREAM              # only the first piece is painted
    stream = line("stream", None, [(20.5, 40.5), (280.5, 40.5)], [(20.5, 160.5), (280.5, 160.5)])
    (s,) = lines_of("stream", [stream], reference.copy(), reference)
    assert 0.45 < s.score < 0.55 and s.drawn


# --- lines: is the name written along it ---------------------------------------------------

def _stream_with_label(pixels: int, *, offset: int = 3) -> tuple[np.ndarray, np.ndarray]:
    reference = land()
    reference[98:104, 20:282] = STREAM
    screen = reference.copy()
    ys, xs = np.divmod(np.arange(pixels), 20)
    screen[100 - offset - ys, 60 + xs] = STREAM_TEXT  # rows above the centre line
    return screen, reference


@pytest.mark.parametrize(("pixels", "legible"), [(30, True), (29, False)])
def test_a_stream_name_needs_five_label_pixels_per_letter(pixels: int, legible: bool) -> None:
    screen, reference = _stream_with_label(pixels)
    stream = line("stream", "Vantaa", [(20.5, 100.5), (280.5, 100.5)])   # 6 letters
    (s,) = lines_of("stream", [stream], screen, reference)
    assert s.drawn and s.name_legible is legible


def test_a_stream_label_further_than_six_pixels_from_it_is_not_its_name() -> None:
    screen, reference = _stream_with_label(60, offset=7)   # rows 93 and 92: 7.5-8.5 px off
    stream = line("stream", "Vantaa", [(20.5, 100.5), (280.5, 100.5)])
    (s,) = lines_of("stream", [stream], screen, reference)
    assert s.drawn and not s.name_legible
    screen, reference = _stream_with_label(60, offset=4)   # rows 96 and 95: within 6 px
    (s,) = lines_of("stream", [stream], screen, reference)
    assert s.name_legible


def test_an_unnamed_stream_has_no_legible_name_whatever_is_written() -> None:
    screen, reference = _stream_with_label(100)
    (s,) = lines_of("stream", [line("stream", None, [(20.5, 100.5), (280.5, 100.5)])],
                    screen, reference)
    assert s.drawn and not s.name_legible


def test_a_stream_label_in_black_is_not_a_stream_name_but_a_road_name() -> None:
    reference = land()
    reference[98:104, 20:282] = STREAM
    screen = reference.copy()
    screen[94:97, 60:90] = BLACK                         # 90 dark pixels
    (s,) = lines_of("stream", [line("stream", "Vantaa", [(20.5, 100.5), (280.5, 100.5)])],
                    screen, reference)
    assert s.drawn and not s.name_legible
    reference[98:104, 20:282] = ROAD
    screen[98:104, 20:282] = ROAD
    (r,) = lines_of("primary road",
                    [line("primary road", "Mannerheimintie", [(20.5, 100.5), (280.5, 100.5)])],
                    screen, reference)
    assert r.drawn and r.name_legible


@pytest.mark.parametrize(("pixels", "legible"), [(60, True), (59, False)])
def test_a_road_name_needs_four_dark_pixels_per_letter(pixels: int, legible: bool) -> None:
    reference = land()
    reference[98:104, 20:282] = ROAD
    screen = reference.copy()
    ys, xs = np.divmod(np.arange(pixels), 30)
    screen[99 + ys, 60 + xs] = BLACK
    road = line("primary road", "Mannerheimintie", [(20.5, 100.5), (280.5, 100.5)])  # 15
    (r,) = lines_of("primary road", [road], screen, reference)
    assert r.drawn and r.name_legible is legible


# --- areas -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("pixels", "drawn"), [(600, True), (599, False)])
def test_a_park_is_drawn_from_six_hundred_pixels_of_park_colour(pixels: int,
                                                               drawn: bool) -> None:
    reference = land()
    ys, xs = np.divmod(np.arange(pixels), 30)
    reference[60 + ys, 80 + xs] = PARK
    p = park(None, 50.5, 50.5, 150.5, 110.5, anchor=(100.5, 80.5))
    (s,) = areas_of([p], reference.copy(), reference)
    assert s.drawn is drawn and s.score == float(pixels)
    assert not s.name_legible and not s.label_cut and not s.edge
    assert s.px == pytest.approx((100.5, 80.5))


def test_park_colour_outside_the_park_or_in_its_hole_does_not_count() -> None:
    reference = land()
    reference[70:100, 80:120] = PARK                       # 1,200 px inside the hole
    reference[150:190, 200:290] = PARK                     # 3,600 px outside the park
    p = park(None, 50.5, 50.5, 150.5, 110.5, anchor=(60.5, 60.5),
             holes=[(75.5, 65.5, 125.5, 105.5)])
    (s,) = areas_of([p], reference.copy(), reference)
    assert s.score == 0.0 and not s.drawn


def test_the_parts_of_a_multipolygon_park_all_count() -> None:
    reference = land()
    reference[20:40, 20:40] = PARK                         # 400 px in each part
    reference[120:140, 200:220] = PARK
    ring = [(19.5, 19.5), (40.5, 19.5), (40.5, 40.5), (19.5, 40.5)]
    ring2 = [(199.5, 119.5), (220.5, 119.5), (220.5, 140.5), (199.5, 140.5)]
    lat, lon = VIEW.to_latlon(30.0, 30.0)
    geom = MultiPolygon([Polygon([lonlat(*p) for p in ring]),
                         Polygon([lonlat(*p) for p in ring2])])
    f = Feature("park", "area", None, ("relation/4",), lat, lon, geom)
    (s,) = areas_of([f], reference.copy(), reference)
    assert s.score == 800.0 and s.drawn


def _park_with_label(label_rows: slice, label_cols: slice, *, anchor: tuple[float, float],
                     name: str | None = "Esplanadi") -> tuple[Feature, np.ndarray, np.ndarray]:
    reference = land()
    reference[50:110, 40:200] = PARK
    screen = reference.copy()
    screen[label_rows, label_cols] = PARK_TEXT
    return park(name, 39.5, 49.5, 200.5, 110.5, anchor=anchor), screen, reference


@pytest.mark.parametrize(("cols", "legible"), [(slice(96, 105), True), (slice(96, 104), False)])
def test_a_park_name_needs_five_label_pixels_per_letter_at_its_anchor(cols: slice,
                                                                      legible: bool) -> None:
    f, screen, reference = _park_with_label(slice(78, 83), cols, anchor=(100.5, 80.5))
    (s,) = areas_of([f], screen, reference)                 # "Esplanadi": 9 letters, 45 px
    assert s.drawn and s.name_legible is legible and not s.label_cut


@pytest.mark.parametrize(("rows", "col", "legible"), [
    (slice(58, 103), 140, True),     # one column of 45 px: the box's last column
    (slice(58, 103), 60, True),      # its first column
    (slice(59, 104), 140, False),    # one pixel below the box
    (slice(57, 102), 60, False),     # one pixel above it
    (slice(58, 103), 141, False),    # right of it
    (slice(58, 103), 59, False),     # left of it
])
def test_a_park_label_is_sought_in_a_box_as_wide_as_its_name(rows: slice, col: int,
                                                             legible: bool) -> None:
    # anchor (100.5, 80.5), "Esplanadi": 9 letters of 9 px, 40.5 px each side and 22 px
    # up and down: rows 58-102, columns 60-140; 45 label pixels needed
    f, screen, reference = _park_with_label(rows, slice(col, col + 1), anchor=(100.5, 80.5))
    (s,) = areas_of([f], screen, reference)
    assert s.drawn and s.name_legible is legible


def test_a_short_park_name_is_sought_thirty_pixels_each_side() -> None:
    # "Puisto": 6 letters would be 27 px each side; the box is at least 30 px
    f, screen, reference = _park_with_label(slice(70, 80), slice(127, 131),
                                            anchor=(100.5, 80.5), name="Puisto")
    (s,) = areas_of([f], screen, reference)
    assert s.name_legible


def test_a_park_name_in_another_colour_or_on_the_reference_is_not_written() -> None:
    f, screen, reference = _park_with_label(slice(78, 83), slice(96, 110), anchor=(100.5, 80.5))
    (s,) = areas_of([f], reference.copy(), reference)       # not on the screenshot
    assert s.drawn and not s.name_legible
    screen2 = screen.copy()
    screen2[78:83, 96:110] = STREAM_TEXT                    # blue text is not a park's name
    (s,) = areas_of([f], screen2, reference)
    assert s.drawn and not s.name_legible
    (s,) = areas_of([park(None, 39.5, 49.5, 200.5, 110.5, anchor=(100.5, 80.5))],
                    screen, reference)
    assert s.drawn and not s.name_legible


def test_a_park_too_small_to_be_drawn_has_no_name_even_with_label_ink() -> None:
    reference = land()
    reference[60:70, 60:70] = PARK                          # 100 px: not drawn
    screen = reference.copy()
    screen[78:83, 80:120] = PARK_TEXT
    f = park("Esplanadi", 39.5, 49.5, 200.5, 110.5, anchor=(100.5, 80.5))
    (s,) = areas_of([f], screen, reference)
    assert not s.drawn and not s.name_legible and not s.label_cut


@pytest.mark.parametrize(("anchor", "reserved", "cut"), [
    ((100.5, 80.5), (), False),
    ((40.0, 80.5), (), True),              # box from -0.5: runs off the left edge
    ((41.0, 80.5), (), False),             # box from 0.5
    ((260.0, 80.5), (), True),             # box to 300.5: off the right edge
    ((259.0, 80.5), (), False),
    ((100.5, 21.5), (), True),             # box from -0.5: off the top
    ((100.5, 22.5), (), False),
    ((100.5, 178.5), (), True),            # box to 200.5: off the bottom
    ((100.5, 177.5), (), False),
    ((100.5, 80.5), ((0.0, 102.0, 300.0, 200.0),), True),   # a control under the box
    ((100.5, 80.5), ((0.0, 102.5, 300.0, 200.0),), False),  # touching it only
    ((-50.0, 80.5), (), False),            # the whole box outside: nothing of it shows
    ((100.5, -30.0), (), False),
    ((100.5, 230.0), (), False),
    ((350.0, 80.5), (), False),
])
def test_a_park_label_is_cut_by_an_edge_or_a_control(
        anchor: tuple[float, float], reserved: tuple[tuple[float, float, float, float], ...],
        cut: bool) -> None:
    reference = land()
    reference[20:180, 20:280] = PARK
    f = park("Esplanadi", 19.5, 19.5, 280.5, 180.5, anchor=anchor)
    (s,) = areas_of([f], reference.copy(), reference, reserved=reserved)
    assert s.drawn and s.label_cut is cut


# --- geometry in view pixels -------------------------------------------------------------------

def test_lines_and_rings_in_view_pixels() -> None:
    a = [(10.5, 20.5), (50.5, 20.5)]
    b = [(60.5, 70.5), (60.5, 90.5), (80.5, 90.5)]

    def px(lines: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
        return [[(round(x, 6), round(y, 6)) for x, y in ln] for ln in lines]

    geom_a = LineString([lonlat(*p) for p in a])
    geom_b = LineString([lonlat(*p) for p in b])
    assert px(lines_px(VIEW, geom_a)) == [a]
    assert px(lines_px(VIEW, MultiLineString([geom_a, geom_b]))) == [a, b]
    square = [(10.5, 10.5), (30.5, 10.5), (30.5, 30.5), (10.5, 30.5), (10.5, 10.5)]
    hole = [(15.5, 15.5), (20.5, 15.5), (20.5, 20.5), (15.5, 15.5)]
    poly = Polygon([lonlat(*p) for p in square], [[lonlat(*p) for p in hole]])
    assert px(lines_px(VIEW, poly)) == [square]
    far = Polygon([lonlat(x + 100, y) for x, y in square])
    assert px(lines_px(VIEW, MultiPolygon([poly, far]))) == [square,
                                                             [(x + 100, y) for x, y in square]]
    assert lines_px(VIEW, Point(lonlat(1.0, 1.0))) == []
    outer, inner = rings_px(VIEW, poly)
    assert px(outer) == [square]
    assert px(inner) == [hole]
    outer, inner = rings_px(VIEW, MultiPolygon([poly, far]))
    assert len(outer) == 2 and px(inner) == [hole]
    assert rings_px(VIEW, geom_a) == ([], [])


# --- the exclusion mask ---------------------------------------------------------------------

def test_the_exclusion_mask_covers_pins_with_a_margin_controls_and_the_path() -> None:
    view = View(center=(60.17, 24.94), zoom=19, width=120, height=80)
    mask = exclusion_mask(view, marker_px=[(50.0, 50.0)])
    # the pin's box (37, 9)-(63, 50) grown by 3 px, and 5 px below the tip
    ys, xs = np.nonzero(mask)
    assert (xs.min(), ys.min(), xs.max(), ys.max()) == (34, 6, 66, 55)
    assert mask.sum() == (66 - 34 + 1) * (55 - 6 + 1)
    boxed = exclusion_mask(view, boxes=[(80.0, 0.0, 90.0, 10.0)])
    ys, xs = np.nonzero(boxed)
    assert (xs.min(), ys.min(), xs.max(), ys.max()) == (80, 0, 90, 10)
    path = exclusion_mask(view, path_px=[(10.0, 40.0), (110.0, 40.0)])
    assert path[34, 60] and path[46, 60] and not path[32, 60] and not path[48, 60]
    assert not exclusion_mask(view, path_px=[(10.0, 40.0)]).any()  # one point: no path
    assert not exclusion_mask(view).any()
    both = exclusion_mask(view, marker_px=[(50.0, 50.0)], path_px=[(0.0, 75.0), (119.0, 75.0)],
                          boxes=[(80.0, 0.0, 90.0, 10.0)])
    assert both[6, 34] and both[75, 100] and both[5, 85] and not both[30, 100]


# --- road names (feature maps) -------------------------------------------------------------

def test_drawn_road_names_are_the_names_with_dark_text_along_their_road() -> None:
    reference = land()
    screen = reference.copy()
    screen[38:41, 40:80] = BLACK                                       # 120 px along road A
    roads = {"Annankatu": [[(20.5, 40.5), (280.5, 40.5)]],
             "Bulevardi": [[(20.5, 140.5), (280.5, 140.5)]]}
    assert drawn_road_names(VIEW, screen, reference, roads) == {"Annankatu"}
    hidden = np.zeros((H, W), bool)
    hidden[30:50, 40:70] = True                                        # 30 px left: < 36
    assert drawn_road_names(VIEW, screen, reference, roads, exclude=hidden) == set()
    grey = screen.copy()
    grey[38:41, 40:80] = (101, 101, 101)                               # not dark enough
    assert drawn_road_names(VIEW, grey, reference, roads) == set()


# --- one icon, one feature ----------------------------------------------------------------

def _claim(feature_type: str, score: float, icon_px: tuple[float, float] | None,
           drawn: bool = True) -> Sighting:
    f = symbol(feature_type, "X", *(icon_px or (0.0, 0.0)))
    return Sighting(f, icon_px or (0.0, 0.0), drawn, True, False, True, score, icon_px)


@pytest.mark.parametrize(("dx", "both"), [(6.9, False), (7.0, True)])
def test_two_types_claiming_one_icon_leave_it_to_the_better_match(dx: float,
                                                                   both: bool) -> None:
    weak = _claim("pharmacy", 0.75, (100.0 + dx, 50.0))
    strong = _claim("clinic", 0.9, (100.0, 50.0))
    vf = ViewFeatures(by_type={"pharmacy": [weak], "clinic": [strong]})
    one_feature_per_icon(vf)
    assert vf.by_type["clinic"] == [strong]
    if both:
        assert vf.by_type["pharmacy"] == [weak]
    else:
        (lost,) = vf.by_type["pharmacy"]
        assert (lost.drawn, lost.name_legible, lost.label_cut, lost.icon_px) == (
            False, False, False, None)
        assert lost.score == 0.75 and lost.feature is weak.feature and lost.clear


def test_the_better_match_keeps_the_icon_whatever_the_order() -> None:
    strong = _claim("pharmacy", 0.95, (100.0, 50.0))
    weak = _claim("clinic", 0.7, (102.0, 51.0))
    other = _claim("clinic", 0.8, (150.0, 50.0))
    not_drawn = _claim("hospital", 0.99, (100.0, 50.0), drawn=False)
    vf = ViewFeatures(by_type={"clinic": [weak, other], "pharmacy": [strong],
                               "hospital": [not_drawn]})
    one_feature_per_icon(vf)
    assert vf.by_type["pharmacy"][0].drawn
    assert [s.drawn for s in vf.by_type["clinic"]] == [False, True]
    assert vf.by_type["hospital"] == [not_drawn]


def test_an_icon_lost_to_another_type_is_lost_even_to_a_third() -> None:
    a = _claim("pharmacy", 0.9, (100.0, 50.0))
    b = _claim("clinic", 0.8, (104.0, 50.0))
    c = _claim("hospital", 0.7, (108.0, 50.0))   # 8 px from a, 4 from b (which lost)
    vf = ViewFeatures(by_type={"pharmacy": [a], "clinic": [b], "hospital": [c]})
    one_feature_per_icon(vf)
    assert [vf.by_type[t][0].drawn for t in ("pharmacy", "clinic", "hospital")] == [
        True, False, True]


# --- a whole view ---------------------------------------------------------------------------

def _city() -> tuple[np.ndarray, np.ndarray, list[Feature]]:
    """A view with a park, a stream, two primary roads and the two icons."""
    reference = land()
    reference[20:61, 20:91] = PARK                                  # park, 2,911 px
    reference[20:182, 248:254] = STREAM                             # stream x = 250.5
    reference[118:124, 20:240] = ROAD                               # road under the icons
    reference[168:174, 20:240] = ROAD                               # road y = 170.5
    screen = with_icons(reference)
    screen[118:124, 100:196] = ROAD                                 # the icons' image ends
    screen[38:43, 50:60] = PARK_TEXT                                # "Esplanadi", 50 px
    screen[60:80, 255:257] = STREAM_TEXT                            # "Vantaa", 40 px
    screen[117:124, 110:140] = BLACK                                # text under the pharmacy
    screen[166:169, 30:60] = BLACK                                  # "Mannerheimintie", 90 px
    feats = [
        park("Esplanadi", 19.5, 19.5, 90.5, 60.5, anchor=(55.5, 40.5)),
        line("stream", "Vantaa", [(250.5, 20.5), (250.5, 180.5)]),
        line("stream", "Far away", [(250.5, 400.5), (250.5, 600.5)]),
        line("primary road", "Aleksanterinkatu", [(20.5, 120.5), (239.5, 120.5)]),
        line("primary road", "Mannerheimintie", [(20.5, 170.5), (239.5, 170.5)]),
        symbol("pharmacy", None, 124.0, 104.0),
        symbol("bank", None, 172.0, 104.0),
        symbol("bank", None, 172.0, 160.0),           # a bank in the data, not drawn
        symbol("pharmacy", None, 124.0, 400.0),       # far below the view
    ]
    return screen, reference, feats


def test_a_whole_view_reports_every_type_in_catalogue_order() -> None:
    screen, reference, feats = _city()
    vf = analyse_view(VIEW, screen, reference, feats, reserved=())
    cat = catalogue_by_name()
    assert list(vf.by_type) == list(cat)
    assert vf.kinds == {name: ft.kind for name, ft in cat.items()}
    assert vf.count("park") == 1 and vf.names("park") == ["Esplanadi"]
    assert vf.in_data("stream") == 1                      # the far stream is not near
    assert vf.count("stream") == 1 and vf.names("stream") == ["Vantaa"]
    assert vf.in_data("pharmacy") == 1 and vf.count("pharmacy") == 1
    assert vf.in_data("bank") == 2 and vf.count("bank") == 1
    assert [s.drawn for s in vf.by_type["bank"]] == [True, False]
    assert vf.count("primary road") == 2
    assert vf.orphans == {}
    for name in cat:
        if name not in ("park", "stream", "pharmacy", "bank", "primary road"):
            assert vf.by_type[name] == [], name


def test_text_under_an_icon_is_its_label_not_a_road_name() -> None:
    screen, reference, feats = _city()
    vf = analyse_view(VIEW, screen, reference, feats, reserved=())
    # the black text under the pharmacy lies on Aleksanterinkatu, in the pharmacy's
    # label box: it is not the road's name; Mannerheimintie's, away from icons, is
    assert vf.names("primary road") == ["Mannerheimintie"]
    assert vf.unnamed("primary road") == 1
    # without the icons nothing hides that text, and both names are written
    plain = screen.copy()
    plain[80:118, 100:196] = reference[80:118, 100:196]
    vf = analyse_view(VIEW, plain, reference, feats, reserved=())
    assert vf.count("pharmacy") == 0
    assert vf.names("primary road") == ["Aleksanterinkatu", "Mannerheimintie"]


def test_the_label_boxes_of_icons_reach_45_px_either_side() -> None:
    screen, reference, feats = _city()
    screen[117:124, 110:140] = ROAD
    screen[117:124, 222:240] = BLACK             # 126 px from x 222: beyond the bank's box (217)
    vf = analyse_view(VIEW, screen, reference, feats, reserved=())
    assert vf.names("primary road") == ["Aleksanterinkatu", "Mannerheimintie"]
    screen[117:124, 222:240] = ROAD
    screen[117:124, 200:215] = BLACK             # 105 px inside the bank's box
    screen[117:124, 81:88] = BLACK               # 49 px inside the pharmacy's (from 79)
    vf = analyse_view(VIEW, screen, reference, feats, reserved=())
    assert vf.names("primary road") == ["Mannerheimintie"]


def test_excluded_pixels_are_not_ink() -> None:
    screen, reference, feats = _city()
    exclude = np.zeros((H, W), bool)
    exclude[80:128, 148:196] = True                      # a pin over the bank icon
    vf = analyse_view(VIEW, screen, reference, feats, exclude=exclude, reserved=())
    assert vf.count("bank") == 0 and vf.count("pharmacy") == 1


def test_an_icon_next_to_a_control_is_on_an_edge_with_the_zones_given() -> None:
    screen, reference, feats = _city()
    vf = analyse_view(VIEW, screen, reference, feats, reserved=((160.0, 90.0, 200.0, 98.0),))
    assert [s.edge for s in vf.by_type["bank"]] == [True, False]
    assert vf.ambiguous("bank") and not vf.ambiguous("pharmacy")
    vf = analyse_view(VIEW, screen, reference, feats)    # the standard view's zones
    assert not vf.ambiguous("bank")


@pytest.mark.parametrize(("dx", "orphan"), [((8.0, 0.0), False), ((12.0, 0.0), True),
                                           ((0.0, 12.0), True), ((0.0, 8.0), False)])
def test_an_unexplained_icon_is_explained_by_a_feature_drawn_within_ten_pixels(
        dx: tuple[float, float], orphan: bool) -> None:
    screen, reference, feats = _city()
    feats = [f for f in feats if f.feature_type != "pharmacy"]
    # a second park (drawn, its anchor near the pharmacy icon no pharmacy explains)
    reference[140:160, 20:60] = PARK
    screen[140:160, 20:60] = PARK
    feats.append(park(None, 19.5, 139.5, 60.5, 160.5, anchor=(124.0 + dx[0], 104.0 + dx[1])))
    vf = analyse_view(VIEW, screen, reference, feats, reserved=())
    assert vf.count("park") == 2
    if orphan:
        assert list(vf.orphans) == ["pharmacy"]
        (o,) = vf.orphans["pharmacy"]
        assert abs(o[0] - 124.0) <= 1 and abs(o[1] - 104.0) <= 1
        assert vf.ambiguous("pharmacy")
    else:
        assert vf.orphans == {}


# --- what a view's sightings say ---------------------------------------------------------

def _seen(drawn: bool = True, *, edge: bool = False, cut: bool = False,
          clear: bool = True) -> Sighting:
    return Sighting(symbol("pharmacy", "A", 50.0, 50.0), (50.0, 50.0), drawn, True, edge, cut,
                    0.9, (50.0, 50.0) if drawn else None, clear)


@pytest.mark.parametrize(("sightings", "orphans", "names", "ambiguous"), [
    ([_seen()], {}, True, False),
    ([_seen()], {"pharmacy": [(10.0, 10.0)]}, False, True),    # an icon no feature explains
    ([_seen()], {"clinic": [(10.0, 10.0)]}, False, False),     # another type's orphan
    ([_seen()], {"pharmacy": []}, False, False),
    ([_seen(False, edge=True)], {}, False, True),               # on an edge, drawn or not
    ([_seen(clear=False)], {}, False, True),                    # a match not clear
    ([_seen(False, clear=False)], {}, False, False),            # ... of an icon not drawn
    ([_seen(cut=True)], {}, True, True),                        # a label cut, names asked
    ([_seen(cut=True)], {}, False, False),
    ([_seen(False, cut=True)], {}, True, False),
])
def test_a_type_is_ambiguous_on_an_edge_an_orphan_an_unclear_icon_or_a_cut_label(
        sightings: list[Sighting], orphans: dict[str, list[tuple[float, float]]],
        names: bool, ambiguous: bool) -> None:
    vf = ViewFeatures(by_type={"pharmacy": sightings}, orphans=orphans,
                      kinds={"pharmacy": "symbol"})
    assert vf.ambiguous("pharmacy", names=names) is ambiguous


def test_counts_names_and_unnamed_of_a_type() -> None:
    named = _seen()
    unnamed = Sighting(symbol("pharmacy", None, 80.0, 50.0), (80.0, 50.0), True, False, False,
                       False, 0.9, (80.0, 50.0))
    hidden = replace_name(_seen(), legible=False)
    on_edge = _seen(edge=True)
    vf = ViewFeatures(by_type={"pharmacy": [named, unnamed, hidden, on_edge, _seen(False)]},
                      kinds={"pharmacy": "symbol"})
    assert vf.count("pharmacy") == 3 and vf.in_data("pharmacy") == 5
    assert vf.names("pharmacy") == ["A"] and vf.unnamed("pharmacy") == 2
    assert vf.count("clinic") == 0 and vf.in_data("clinic") == 0
    empty = ViewFeatures(kinds={"park": "area", "stream": "line"})
    assert empty.count("park") == 0 and empty.count("stream") == 0
    assert not empty.unlabelled_line_meets_another("stream")
    # a type whose kind is not given is counted icon by icon: two unnamed icons 1 m apart
    # are two, where two unnamed pieces of a line would be one
    a = Sighting(symbol("pharmacy", None, 50.0, 50.0), (50.0, 50.0), True, False, False,
                 False, 0.9, (50.0, 50.0))
    b = Sighting(symbol("pharmacy", None, 54.0, 50.0), (54.0, 50.0), True, False, False,
                 False, 0.9, (54.0, 50.0))
    assert ViewFeatures(by_type={"pharmacy": [a, b]}).count("pharmacy") == 2
    assert ViewFeatures(by_type={"pharmacy": [a, b]},
                        kinds={"pharmacy": "line"}).count("pharmacy") == 1


def replace_name(s: Sighting, *, legible: bool) -> Sighting:
    from dataclasses import replace

    return replace(s, name_legible=legible)


def test_a_line_outside_the_view_does_not_stop_the_lines_after_it() -> None:
    reference = land()
    reference[98:104, 20:282] = STREAM
    outside = line("stream", None, [(-60.5, 20.5), (-60.5, 180.5)])
    inside = line("stream", None, [(20.5, 100.5), (280.5, 100.5)])
    sightings = lines_of("stream", [outside, inside], reference.copy(), reference)
    assert [(s.edge, s.drawn) for s in sightings] == [(True, False), (False, True)]


def test_a_segment_shorter_than_the_step_gives_its_two_ends() -> None:
    from cartoqa.visibility.geometry import sample_line

    assert sample_line([(0.0, 0.0), (4.0, 0.0)], 3.0) == [(0.0, 0.0), (4.0, 0.0)]
    assert sample_line([(0.0, 0.0), (0.0, 7.0)], 3.0) == [(0.0, 0.0), (0.0, 3.5), (0.0, 7.0)]
    assert sample_line([], 3.0) == []
