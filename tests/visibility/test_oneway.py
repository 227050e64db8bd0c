"""The one-way arrow oracle at its edges, on hand-made pixels (issue 33).

:mod:`cartoqa.visibility.oneway` decides whether a reader can see that a street is
one-way: arrow-coloured ink near the road, not the grey edge of a black street name.
Each rule gets an input just inside and just outside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from cartoqa.visibility.oneway import (
    ARROW_COLOUR_TOL,
    ARROW_FILL,
    ARROW_INK_DIFF,
    ARROW_MIN_PIXELS,
    TEXT_DARKER_BY,
    TEXT_GUARD_PX,
    _dilate,
    arrow_mask,
    arrow_visible,
)
from cartoqa.visibility.pixels import hex_rgb

GREY = hex_rgb(ARROW_FILL["residential"])          # (85, 85, 85)


def white(h: int = 20, w: int = 30) -> np.ndarray:
    return np.full((h, w, 3), 255, np.int16)


def test_the_fill_colours_are_osm_cartos_per_road_class() -> None:
    assert ARROW_FILL["primary"] == "#543800" and ARROW_FILL["residential"] == "#555555"
    assert "footway" not in ARROW_FILL


@pytest.mark.parametrize(("delta", "arrow"), [(ARROW_COLOUR_TOL, True),
                                              (ARROW_COLOUR_TOL + 1, False),
                                              (-ARROW_COLOUR_TOL, True),
                                              (-ARROW_COLOUR_TOL - 1, False)])
@pytest.mark.parametrize("channel", [0, 1, 2])
def test_an_arrow_pixel_is_within_24_of_the_fill_in_every_channel(delta: int, arrow: bool,
                                                                  channel: int) -> None:
    reference = white()
    screen = reference.copy()
    colour = list(GREY)
    colour[channel] += delta
    screen[10, 10] = colour
    assert bool(arrow_mask(screen, reference, "#555555")[10, 10]) is arrow


@pytest.mark.parametrize(("level", "ink"), [(85 + ARROW_INK_DIFF + 1, True),
                                            (85 + ARROW_INK_DIFF, False),
                                            (85 - ARROW_INK_DIFF - 1, True),
                                            (85 - ARROW_INK_DIFF, False)])
@pytest.mark.parametrize("channel", [0, 2])
def test_an_arrow_must_differ_from_the_reference_by_more_than_forty(level: int, ink: bool,
                                                                    channel: int) -> None:
    reference = white()
    reference[10, 10] = GREY
    reference[10, 10, channel] = level               # the largest channel difference decides
    screen = white()
    screen[10, 10] = GREY
    assert bool(arrow_mask(screen, reference, "#555555")[10, 10]) is ink


@pytest.mark.parametrize(("gap", "kept"), [(TEXT_GUARD_PX, False), (TEXT_GUARD_PX + 1, True)])
@pytest.mark.parametrize(("dy", "dx"), [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1),
                                        (1, -1), (-1, 1)])
def test_pixels_within_two_of_darker_text_are_its_edges_in_any_direction(
        gap: int, kept: bool, dy: int, dx: int) -> None:
    reference = white()
    screen = reference.copy()
    screen[10, 15] = GREY
    screen[10 + dy * gap, 15 + dx * gap] = (0, 0, 0)
    assert bool(arrow_mask(screen, reference, "#555555")[10, 15]) is kept


@pytest.mark.parametrize(("level", "text"), [(85 - TEXT_DARKER_BY - 1, True),
                                             (85 - TEXT_DARKER_BY, False)])
def test_text_is_ink_darker_than_the_arrow_by_35(level: int, text: bool) -> None:
    reference = white()
    screen = reference.copy()
    screen[10, 15] = GREY
    screen[10, 16] = (level, level, level)
    assert bool(arrow_mask(screen, reference, "#555555")[10, 15]) is not text


def test_dark_pixels_on_the_reference_are_not_text() -> None:
    # a dark pixel that is the same on the reference (a road casing) spoils nothing
    reference = white()
    reference[10, 16] = (0, 0, 0)
    screen = reference.copy()
    screen[10, 15] = GREY
    assert arrow_mask(screen, reference, "#555555")[10, 15]


def test_dilate_grows_a_mask_by_r_in_every_direction_and_no_further() -> None:
    mask = np.zeros((9, 9), bool)
    mask[4, 4] = True
    grown = _dilate(mask, 2)
    assert grown[2:7, 2:7].all() and grown.sum() == 25
    corner = np.zeros((5, 5), bool)
    corner[0, 0] = True
    assert _dilate(corner, 1).sum() == 4
    assert _dilate(corner, 0).sum() == 1
    edge = np.zeros((5, 5), bool)
    edge[4, 4] = True
    assert _dilate(edge, 1).sum() == 4 and _dilate(edge, 1)[3:, 3:].all()


@pytest.mark.parametrize(("pixels", "visible"), [(ARROW_MIN_PIXELS, True),
                                                 (ARROW_MIN_PIXELS - 1, False)])
def test_an_arrow_needs_four_pixels_on_the_stretch(pixels: int, visible: bool) -> None:
    arrows = np.zeros((20, 40), bool)
    arrows[10, 20:20 + pixels] = True
    assert arrow_visible(arrows, [[(0.0, 10.0), (39.0, 10.0)]]) is visible


@pytest.mark.parametrize(("row", "visible"), [(13, True), (7, True), (15, False), (5, False)])
def test_arrow_pixels_count_within_three_pixels_of_the_centre_line(row: int,
                                                                   visible: bool) -> None:
    arrows = np.zeros((20, 40), bool)
    arrows[row, 18:26] = True
    assert arrow_visible(arrows, [[(0.0, 10.0), (39.0, 10.0)]]) is visible


def test_a_stretch_of_several_pieces_counts_the_arrows_on_any() -> None:
    arrows = np.zeros((20, 40), bool)
    arrows[3, 30:36] = True
    pieces = [[(0.0, 15.0), (39.0, 15.0)], [(0.0, 3.0), (39.0, 3.0)]]
    assert arrow_visible(arrows, pieces)
    assert not arrow_visible(arrows, pieces[:1])
    assert arrow_visible(arrows, pieces[:1], radius=13.0)
    assert not arrow_visible(arrows, pieces, min_pixels=7)
