"""The visibility oracles at their edges, on small hand-made pixel arrays (issue 33).

Each test gives one oracle an input just inside and just outside the rule it applies
(a name written or cut, hidden, missing from the screenshot or off its road; a label
centred under its icon or beside it; an icon found within its search distance or not;
ink, blends and masks), so that a wrong threshold, a swapped comparison or a dropped
condition fails here, without rendering a map.
"""

from __future__ import annotations

import numpy as np
import pytest

from cartoqa.visibility.icons import ICON_SEARCH_PX, best_iou_at, find_icons, icon_is_clear
from cartoqa.visibility.labels import (
    LABEL_MAX_OFFSET_PX,
    LABEL_MIN_PIXELS,
    label_peeks_in,
    label_under_icon,
)
from cartoqa.visibility.pixels import (
    blend_mask,
    colour_mask,
    count_in_box,
    halo_background,
    hex_rgb,
    ink_mask,
    polygon_mask,
)
from cartoqa.visibility.road_names import dark_ink, name_drawn_along, text_pixels_along
from cartoqa.visibility.screen import boxes_overlap, marker_box, near_edge
from cartoqa.visibility.written import (
    MARK_MAX_HIDDEN,
    Instance,
    judge_instance,
    label_instances,
    mark_mask,
    written_names,
)

H, W, PAD = 40, 100, 10


def label_part(x0: int, x1: int, y0: int, y1: int) -> np.ndarray:
    """A label instance over the padded render covering view pixels [x0, x1) x [y0, y1)."""
    part = np.zeros((H + 2 * PAD, W + 2 * PAD), bool)
    part[PAD + y0:PAD + y1, PAD + x0:PAD + x1] = True
    return part


def judged(part: np.ndarray, *, ink: np.ndarray | None = None,
           exclude: np.ndarray | None = None, near_line: np.ndarray | None = None) -> Instance:
    return judge_instance(part, pad=PAD,
                          ink=np.ones((H, W), bool) if ink is None else ink,
                          exclude=np.zeros((H, W), bool) if exclude is None else exclude,
                          near_line=near_line)


# --- is a name written ------------------------------------------------------------------


def test_a_label_wholly_inside_the_view_is_written_with_its_box() -> None:
    got = judged(label_part(20, 60, 10, 20))
    assert got == Instance((20, 10, 60, 20), 400, None)


@pytest.mark.parametrize(("x0", "x1", "y0", "y1"), [
    (0, 40, 10, 20), (60, 100, 10, 20), (20, 60, 0, 10), (20, 60, 30, 40)])
def test_a_label_touching_each_edge_from_inside_is_written(x0: int, x1: int, y0: int,
                                                            y1: int) -> None:
    assert judged(label_part(x0, x1, y0, y1)).reason is None


@pytest.mark.parametrize(("x0", "x1", "y0", "y1"), [
    (-1, 40, 10, 20), (61, 101, 10, 20), (20, 60, -1, 10), (20, 60, 31, 41)])
def test_a_label_one_pixel_past_any_edge_is_cut(x0: int, x1: int, y0: int, y1: int) -> None:
    assert judged(label_part(x0, x1, y0, y1)).reason == "cut"


def test_a_label_is_hidden_when_more_than_five_percent_lies_under_a_marker() -> None:
    part = label_part(0, 100, 10, 20)  # 1000 pixels
    exclude = np.zeros((H, W), bool)
    exclude[10:20, 0:5] = True  # 50 pixels: exactly 5 %, still written
    assert MARK_MAX_HIDDEN == 0.05
    assert judged(part, exclude=exclude).reason is None
    exclude[10, 5] = True  # 51 pixels
    assert judged(part, exclude=exclude).reason == "hidden"


def test_a_label_must_be_ink_on_the_screenshot_for_seventy_percent_of_what_shows() -> None:
    part = label_part(0, 100, 10, 20)  # 1000 visible pixels
    ink = np.zeros((H, W), bool)
    ink[10:17, :] = True  # 700 seen: enough
    assert judged(part, ink=ink).reason is None
    ink[16, 0] = False  # 699
    assert judged(part, ink=ink).reason == "not on the screenshot"


def test_pixels_under_a_marker_do_not_count_against_the_screenshot_agreement() -> None:
    part = label_part(0, 100, 10, 20)
    exclude = np.zeros((H, W), bool)
    exclude[10:20, 0:5] = True  # 50 hidden (5 %), 950 visible
    ink = np.zeros((H, W), bool)
    ink[10:20, 5:72] = True  # 670 of the visible 950 (70.5 %)
    assert judged(part, ink=ink, exclude=exclude).reason is None
    ink[10:20, 71] = False  # 660 of 950 (69.5 %)
    assert judged(part, ink=ink, exclude=exclude).reason == "not on the screenshot"


def test_a_road_label_needs_half_its_pixels_near_the_road() -> None:
    part = label_part(0, 100, 10, 20)
    near = np.zeros((H, W), bool)
    near[10:15, :] = True  # 500 of 1000: half, written
    assert judged(part, near_line=near).reason is None
    near[14, 0] = False  # 499
    assert judged(part, near_line=near).reason == "off the road"
    assert judged(part, near_line=None).reason is None  # not a road: no such test


def test_the_first_failing_rule_names_the_reason() -> None:
    part = label_part(0, 100, 10, 20)
    exclude = np.zeros((H, W), bool)
    exclude[10:20, 0:10] = True
    ink = np.zeros((H, W), bool)
    assert judged(part, ink=ink, exclude=exclude).reason == "hidden"
    assert judged(label_part(-5, 20, 10, 20), ink=ink).reason == "cut"


def test_a_name_is_written_when_one_of_its_labels_is() -> None:
    cut, ok = Instance((0, 0, 5, 5), 20, "cut"), Instance((9, 0, 20, 5), 30, None)
    assert written_names({"A": [cut, ok], "B": [cut], "C": []}) == {"A"}


def test_labels_join_within_four_pixels_and_specks_are_ignored() -> None:
    mask = np.zeros((10, 80), bool)
    mask[5, 0:12] = True
    mask[5, 16:28] = True  # a gap of 4 columns: the same label
    mask[5, 33:45] = True  # a gap of 5: another label
    mask[5, 60:71] = True  # 11 pixels: a speck
    sizes = sorted(int(p.sum()) for p in label_instances(mask))
    assert sizes == [12, 24]


def test_the_mark_colour_blended_to_white_is_an_edge_but_the_halo_is_not() -> None:
    marks = np.zeros((1, 5, 4), np.int16)
    marks[..., 3] = 255
    marks[0, 0, :3] = (255, 0, 255)  # the mark colour of slot 0
    marks[0, 1, :3] = (255, 128, 255)  # half-way to white: the letter's edge
    marks[0, 2, :3] = (255, 129, 255)  # further: the halo
    marks[0, 3, :3] = (255, 100, 140)  # empty channels 40 apart: not a blend of magenta
    marks[0, 4, :3] = (229, 100, 229)  # full channels below 230, and 142 away
    assert mark_mask(marks, 0).tolist() == [[True, True, False, False, False]]
    marks[..., 3] = 199  # not opaque
    assert not mark_mask(marks, 0).any()


# --- labels under icons -------------------------------------------------------------------


def test_a_label_must_hold_twelve_pixels_in_its_first_line() -> None:
    ink = np.zeros((60, 200), bool)
    ink[25, 94:94 + LABEL_MIN_PIXELS] = True  # 12 pixels centred at x = 99.5
    assert label_under_icon(ink, 100.0, 12.0)
    ink[25, 94 + LABEL_MIN_PIXELS - 1] = False
    assert not label_under_icon(ink, 100.0, 12.0)


def test_a_label_may_be_off_centre_by_nine_pixels_not_ten() -> None:
    ink = np.zeros((60, 200), bool)
    ink[25, 90:111] = True  # centred at x = 100
    assert LABEL_MAX_OFFSET_PX == 9.0
    assert label_under_icon(ink, 109.0, 12.0)
    assert label_under_icon(ink, 91.0, 12.0)
    assert not label_under_icon(ink, 110.0, 12.0)
    assert not label_under_icon(ink, 90.0, 12.0)


def test_the_first_line_is_8_to_22_pixels_below_the_icon() -> None:
    ink = np.zeros((60, 200), bool)
    ink[20, 90:111] = True  # 8 below an icon at y = 12
    assert label_under_icon(ink, 100.0, 12.0)
    assert not label_under_icon(ink, 100.0, 13.0)  # 7 below
    assert label_under_icon(ink, 100.0, -2.0)  # 22 below
    assert not label_under_icon(ink, 100.0, -3.0)  # 23 below


def test_a_label_with_a_word_gap_is_one_label_and_a_wider_gap_two() -> None:
    ink = np.zeros((60, 300), bool)
    ink[25, 80:100] = True
    ink[25, 105:125] = True  # 5 blank columns: one label centred at 102
    assert label_under_icon(ink, 102.0, 12.0)
    wide = np.zeros((60, 300), bool)
    wide[25, 80:100] = True
    wide[25, 106:126] = True  # 6 blank columns: two labels of 20 pixels, at 89.5 and 115.5
    assert not label_under_icon(wide, 102.5, 12.0)
    assert label_under_icon(wide, 115.5, 12.0) and label_under_icon(wide, 89.5, 12.0)


def test_a_label_peeking_in_needs_twelve_pixels_in_its_box() -> None:
    ink = np.zeros((100, 200), bool)
    ink[2, 94:94 + LABEL_MIN_PIXELS] = True
    assert label_peeks_in(ink, 100.0, -20.0)
    ink[2, 94] = False
    assert not label_peeks_in(ink, 100.0, -20.0)


# --- icons --------------------------------------------------------------------------------


def plus(size: int = 7) -> np.ndarray:
    t = np.zeros((size, size), bool)
    t[:, size // 2] = True
    t[size // 2, :] = True
    return t


def test_an_icon_is_found_within_the_search_distance_of_a_given_centre() -> None:
    t = plus()
    mask = np.zeros((40, 40), bool)
    mask[10:17, 10:17] = t  # centre (13.5, 13.5)
    assert ICON_SEARCH_PX == 4
    assert best_iou_at(mask, t, 13.5 + 4, 13.5) == 1.0
    assert best_iou_at(mask, t, 13.5 + 6, 13.5) < 1.0
    found = find_icons(mask, t, centres=[(17.5, 13.5)])
    assert [(x, y) for x, y, _ in found] == [(13.5, 13.5)]


def test_two_icons_half_an_icon_apart_are_both_found() -> None:
    t = plus()
    mask = np.zeros((30, 60), bool)
    mask[10:17, 10:17] = t
    mask[10:17, 30:37] = t
    found = find_icons(mask, t)
    assert sorted((x, y) for x, y, _ in found) == [(13.5, 13.5), (33.5, 13.5)]


def test_an_icon_below_the_least_iou_is_not_found() -> None:
    t = plus()
    mask = np.zeros((30, 30), bool)
    mask[10:17, 10:17] = t
    mask[10:12, 10:13] = True  # 6 extra pixels: IoU 13/19 = 0.684
    assert find_icons(mask, t, min_iou=0.68)
    assert not find_icons(mask, t, min_iou=0.69)


def test_an_icon_is_clear_only_above_0_7_and_0_15_above_every_rival() -> None:
    assert icon_is_clear(0.7, [])
    assert not icon_is_clear(0.69, [])
    assert icon_is_clear(0.9, [0.75, 0.1])
    assert not icon_is_clear(0.9, [0.1, 0.76])


# --- ink, colours, road text -----------------------------------------------------------------


def test_ink_is_a_channel_difference_over_forty() -> None:
    ref = np.full((1, 3, 3), 200, np.int16)
    screen = ref.copy()
    screen[0, 0] = (240, 200, 200)  # 40: the same
    screen[0, 1] = (200, 159, 200)  # 41 lower: ink
    screen[0, 2] = (200, 200, 241)  # 41 higher: ink
    assert ink_mask(screen, ref).tolist() == [[False, True, True]]


def test_dark_ink_is_ink_dark_in_every_channel() -> None:
    screen = np.array([[[100, 100, 100], [101, 0, 0], [0, 0, 0]]], np.int16)
    ink = np.array([[True, True, False]])
    assert dark_ink(screen, ink).tolist() == [[True, False, False]]


def test_a_road_name_needs_four_dark_pixels_per_letter_and_at_least_twelve() -> None:
    assert name_drawn_along(36, "Annankatu")  # 9 letters
    assert not name_drawn_along(35, "Annankatu")
    assert name_drawn_along(12, "Ku")  # short names need 3 letters' worth
    assert not name_drawn_along(11, "Ku")
    assert name_drawn_along(16, "A  B C D")  # spaces are not letters
    assert not name_drawn_along(15, "A  B C D")


def test_text_pixels_count_within_six_pixels_of_the_road() -> None:
    dark = np.zeros((40, 40), bool)
    dark[26, 10] = True  # 6 below the road at y = 20
    dark[28, 12] = True  # 8 below
    assert text_pixels_along(dark, [[(0.0, 20.0), (39.0, 20.0)]]) == 1


def test_colour_mask_uses_the_euclidean_distance() -> None:
    im = np.array([[[3, 4, 0], [3, 5, 0]]], np.int16)
    assert colour_mask(im, "#000000", 5).tolist() == [[True, False]]
    assert hex_rgb("#ac39ac") == (172, 57, 172)


def test_a_blend_is_paint_over_background_with_enough_coverage() -> None:
    bg = np.full((1, 4, 3), 240, np.int16)
    sc = bg.copy()
    sc[0, 0] = (240 - 33, 240 - 70, 240 - 120)  # #ae6500 at 50 %
    sc[0, 1] = (240 - 20, 240 - 42, 240 - 72)  # 30 %: too faint
    sc[0, 2] = (30, 30, 30)  # black text: not this colour
    sc[0, 3] = (174, 101, 0)  # full paint
    where = np.ones((1, 4), bool)
    assert blend_mask(sc, bg, "#ae6500", where=where, min_alpha=0.4).tolist() == \
        [[True, False, False, True]]
    where[0, 3] = False
    assert not blend_mask(sc, bg, "#ae6500", where=where, min_alpha=0.4)[0, 3]


def test_the_halo_is_sixty_percent_white() -> None:
    ref = np.array([[[0, 100, 255]]], np.int16)
    assert halo_background(ref).tolist() == [[[153, 193, 255]]]


def test_count_in_box_clips_to_the_image() -> None:
    mask = np.ones((10, 10), bool)
    assert count_in_box(mask, -5, -5, 2.5, 2) == 6
    assert count_in_box(mask, 8, 8, 20, 20) == 4
    assert count_in_box(mask, 12, 0, 20, 5) == 0


def test_polygon_mask_leaves_holes_empty() -> None:
    m = polygon_mask((20, 20), [[(0, 0), (19, 0), (19, 19), (0, 19)]],
                     holes=[[(5, 5), (14, 5), (14, 14), (5, 14)]])
    assert m[2, 2] and not m[10, 10]


# --- the screen -----------------------------------------------------------------------------


def test_a_symbol_within_the_margin_of_an_edge_or_a_control_is_near_it() -> None:
    kw = {"width": 100, "height": 50, "margin": 9.0, "boxes": ()}
    assert not near_edge(9.0, 9.0, **kw) and not near_edge(91.0, 41.0, **kw)
    assert near_edge(8.9, 20.0, **kw) and near_edge(20.0, 8.9, **kw)
    assert near_edge(91.1, 20.0, **kw) and near_edge(20.0, 41.1, **kw)
    box = {"width": 100, "height": 50, "margin": 9.0, "boxes": [(40.0, 20.0, 50.0, 30.0)]}
    assert near_edge(31.0, 25.0, **box) and near_edge(59.0, 25.0, **box)
    assert near_edge(45.0, 11.0, **box) and near_edge(45.0, 39.0, **box)
    assert not near_edge(30.9, 25.0, **box) and not near_edge(59.1, 25.0, **box)
    assert not near_edge(45.0, 10.9, **box) and not near_edge(45.0, 39.1, **box)


def test_boxes_closer_than_the_gap_overlap_on_every_side() -> None:
    a = (10.0, 10.0, 20.0, 20.0)
    for b in [(23.0, 10.0, 30.0, 20.0), (0.0, 10.0, 7.0, 20.0),
              (10.0, 23.0, 20.0, 30.0), (10.0, 0.0, 20.0, 7.0)]:
        assert not boxes_overlap(a, b, gap=3.0)
        assert boxes_overlap(a, b, gap=3.1)
    assert marker_box((0.0, 0.0)) == (-13.0, -41.0, 13.0, 0.0)


def test_two_icons_ten_pixels_apart_on_either_axis_are_two_icons() -> None:
    t = plus()
    for dx, dy in ((10, 0), (0, 10)):
        mask = np.zeros((40, 40), bool)
        mask[10:17, 10:17] |= t
        mask[10 + dy:17 + dy, 10 + dx:17 + dx] |= t
        found = find_icons(mask, t, min_iou=0.5, centres=[(13.5, 13.5),
                                                          (13.5 + dx, 13.5 + dy)])
        assert sorted((x, y) for x, y, _ in found) == [(13.5, 13.5), (13.5 + dx, 13.5 + dy)]


def test_an_icon_whose_label_line_is_below_the_image_has_no_label() -> None:
    ink = np.ones((60, 200), bool)
    assert label_under_icon(ink, 100.0, 30.0)
    assert not label_under_icon(ink, 100.0, 60.0)  # its first text line starts at row 68


def test_the_band_includes_its_outer_edge_on_every_side() -> None:
    from cartoqa.visibility.screen import within_band

    for x, y in ((109.0, 25.0), (-9.0, 25.0), (50.0, 59.0), (50.0, -9.0)):
        assert within_band(x, y, width=100, height=50, margin=9.0)
    for x, y in ((109.5, 25.0), (-9.5, 25.0), (50.0, 59.5), (50.0, -9.5)):
        assert not within_band(x, y, width=100, height=50, margin=9.0)


def test_a_sparse_colour_mask_is_boolean_like_the_full_one() -> None:
    im = np.zeros((3, 4, 3), np.int16)
    where = np.zeros((3, 4), bool)
    where[1, 2] = True
    sparse = colour_mask(im, "#000000", 1.0, where=where)
    assert sparse.dtype == np.bool_ and colour_mask(im, "#000000", 1.0).dtype == np.bool_
    assert sparse.tolist() == where.tolist()


def test_a_single_ink_pixel_of_the_paint_is_a_blend() -> None:
    bg = np.full((2, 2, 3), 240, np.int16)
    sc = bg.copy()
    sc[1, 0] = (174, 101, 0)
    where = np.zeros((2, 2), bool)
    where[1, 0] = True
    assert blend_mask(sc, bg, "#ae6500", where=where, min_alpha=0.4).tolist() == [
        [False, False], [True, False]]
    assert not blend_mask(sc, bg, "#ae6500", where=~where, min_alpha=0.4).any()
