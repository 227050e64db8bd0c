"""Rejection rules of the samplers: markers off-screen or overlapping, routes leaving
the view, road names not drawn; RLE difficulty. Hand-computed expectations."""

from __future__ import annotations

import pytest

from cartoqa.tasks.rules import (
    COMPLEX_MIN_PATH_PX,
    SIMPLE_MAX_PATH_PX,
    boxes_overlap,
    count_turns,
    marker_box,
    marker_on_screen,
    markers_overlap,
    names_not_drawn,
    path_inside,
    rle_difficulty,
)


def test_marker_box_is_the_pin_above_its_tip() -> None:
    # pin 26 x 41, tip at the bottom centre
    assert marker_box((100.0, 200.0)) == (87.0, 159.0, 113.0, 200.0)


@pytest.mark.parametrize(
    ("px", "ok"),
    [
        ((683.0, 384.0), True),  # centre of the view
        ((683.0, 40.0), False),  # head cut off at the top (needs 41 + 12 px)
        ((683.0, 53.0), True),  # exactly fits: top of pin at 12 px
        ((10.0, 384.0), False),  # cut off on the left
        ((1366.0 - 25.0, 384.0), True),  # right edge: 13 px half width + 12 px margin
        ((1366.0 - 24.0, 384.0), False),
        ((683.0, 768.0 - 11.0), False),  # tip too close to the bottom
        ((60.0, 740.0), False),  # over the scale bar
        ((1300.0, 755.0), False),  # over the attribution
    ],
)
def test_marker_on_screen(px: tuple[float, float], ok: bool) -> None:
    assert marker_on_screen(px) is ok


def test_markers_overlap_by_box_and_gap() -> None:
    assert markers_overlap([(100.0, 100.0), (100.0, 100.0)])
    # boxes 26 wide: 30 px apart leaves a 4 px gap, below the 6 px minimum
    assert markers_overlap([(100.0, 100.0), (130.0, 100.0)])
    # 32 px apart leaves exactly the 6 px gap: allowed
    assert not markers_overlap([(100.0, 100.0), (132.0, 100.0)])
    # one pin well below the other
    assert not markers_overlap([(100.0, 100.0), (100.0, 150.0)])
    assert not markers_overlap([(100.0, 100.0)])


def test_boxes_overlap_touching_is_not_overlap() -> None:
    assert not boxes_overlap((0, 0, 10, 10), (10, 0, 20, 10))
    assert boxes_overlap((0, 0, 10, 10), (9, 9, 20, 20))


def test_path_leaving_the_view_is_rejected() -> None:
    inside = [(100.0, 100.0), (600.0, 400.0), (1300.0, 700.0)]
    assert path_inside(inside)
    assert not path_inside([*inside, (1350.0, 700.0)])  # within 20 px of the right edge
    assert not path_inside([(100.0, 100.0), (100.0, -5.0)])  # above the view
    assert not path_inside([(100.0, 100.0), (50.0, 740.0)])  # under the scale bar


def test_road_name_not_drawn_is_reported() -> None:
    assert names_not_drawn(["Annankatu", "Iso Roobertinkatu"], {"Annankatu"}) == [
        "Iso Roobertinkatu"
    ]
    assert names_not_drawn(["A", "B"], {"A", "B", "C"}) == []


def test_count_turns_ignores_the_first_action() -> None:
    steps = ["blue", "make a U-turn and continue straight", "A", "turn left", "B",
             "continue straight", "C", "turn right", "D", "red"]
    assert count_turns(steps) == 2
    assert count_turns(["blue", "turn left", "A", "red"]) == 0


def test_rle_difficulty_boundaries() -> None:
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX) == "simple"
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX + 1) is None
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX) == "complex"
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX - 1) is None
