"""The shared acceptance rules (cartoqa.tasks.common.rules) at each edge (issue 33).

A build applies these inside each task's ``make_scenario``; here each gets the input
just inside and just outside what it accepts, on every side, with no render.
"""

from __future__ import annotations

import pytest

from cartoqa.tasks.common.rules import (
    EDGE_MARGIN_PX,
    PATH_MARGIN_PX,
    ends_match,
    marker_on_screen,
    markers_overlap,
    names_not_drawn,
    path_doubles_back,
    path_inside,
    path_winding_deg,
)

W, H = 400, 300  # a view with no controls
NO_CONTROLS: tuple[tuple[float, float, float, float], ...] = ()


@pytest.mark.parametrize(("tip", "ok"), [
    ((25.0, 100.0), True), ((24.9, 100.0), False),  # left: the pin is 26 px wide
    ((375.0, 100.0), True), ((375.1, 100.0), False),  # right
    ((200.0, 53.0), True), ((200.0, 52.9), False),  # top: the pin is 41 px tall
    ((200.0, 288.0), True), ((200.0, 288.1), False),  # bottom: the tip
])
def test_a_pin_keeps_the_edge_margin_on_every_side(tip: tuple[float, float], ok: bool) -> None:
    assert EDGE_MARGIN_PX == 12.0
    assert marker_on_screen(tip, width=W, height=H, reserved=NO_CONTROLS) is ok


def test_a_pin_touching_a_control_is_on_screen_one_over_it_is_not() -> None:
    control = ((100.0, 200.0, 200.0, 300.0),)
    assert marker_on_screen((87.0, 250.0), width=W, height=H, reserved=control)
    assert not marker_on_screen((87.1, 250.0), width=W, height=H, reserved=control)


def test_pins_closer_than_six_pixels_overlap() -> None:
    assert not markers_overlap([(100.0, 100.0), (132.0, 100.0)])  # boxes 6 px apart
    assert markers_overlap([(100.0, 100.0), (131.9, 100.0)])
    assert not markers_overlap([(100.0, 100.0)])
    assert markers_overlap([(100.0, 100.0), (300.0, 100.0), (300.0, 120.0)])


@pytest.mark.parametrize(("point", "ok"), [
    ((20.0, 150.0), True), ((19.9, 150.0), False), ((380.0, 150.0), True),
    ((380.1, 150.0), False), ((200.0, 20.0), True), ((200.0, 19.9), False),
    ((200.0, 280.0), True), ((200.0, 280.1), False)])
def test_every_vertex_of_a_path_keeps_the_path_margin(point: tuple[float, float],
                                                      ok: bool) -> None:
    assert PATH_MARGIN_PX == 20.0
    path = [(200.0, 150.0), point, (210.0, 150.0)]
    assert path_inside(path, width=W, height=H, reserved=NO_CONTROLS) is ok


def test_a_path_vertex_on_a_control_is_outside() -> None:
    control = ((100.0, 100.0, 150.0, 150.0),)
    assert not path_inside([(50.0, 50.0), (100.0, 100.0)], width=W, height=H,
                           reserved=control)
    assert path_inside([(50.0, 50.0), (99.9, 100.0)], width=W, height=H, reserved=control)
    # a control's box includes its edges: its bottom edge, and its right edge
    assert not path_inside([(50.0, 50.0), (120.0, 150.0)], width=W, height=H,
                           reserved=control)
    assert not path_inside([(50.0, 50.0), (150.0, 120.0)], width=W, height=H,
                           reserved=control)


def test_names_not_drawn_keep_their_order() -> None:
    assert names_not_drawn(["C", "A", "B"], ["A"]) == ["C", "B"]
    assert names_not_drawn([], ["A"]) == []


def test_a_zigzag_winds_nothing_and_a_loop_half_a_turn() -> None:
    zigzag = [(60.0, 24.0), (60.001, 24.001), (60.002, 24.0), (60.003, 24.001)]
    assert abs(path_winding_deg(zigzag)) < 1.0
    repeated = [(60.0, 24.0), (60.0, 24.0), (60.001, 24.0), (60.001, 24.002)]
    assert round(path_winding_deg(repeated)) == 90  # a repeated vertex adds no bend


def test_a_short_path_cannot_double_back() -> None:
    hairpin = [(100.0, 100.0), (100.0, 124.0), (104.0, 124.0), (104.0, 100.0)]  # 52 px
    assert path_doubles_back(hairpin)
    assert not path_doubles_back(hairpin, along_px=52.0)
    assert not path_doubles_back([(100.0, 100.0)])


def test_ends_match_needs_both_ends_and_some_points() -> None:
    a = [(60.1700, 24.9400), (60.1710, 24.9400)]
    assert not ends_match([], a) and not ends_match(a, [])
    far_end = [(60.1700, 24.9400), (60.1720, 24.9400)]  # 111 m off at the end
    assert not ends_match(a, far_end)
    assert not ends_match(a, far_end, either_way=True)
