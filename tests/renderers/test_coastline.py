"""Sea polygons from directed coastline ways (land on the left, water on the right)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from shapely.geometry import LineString, MultiLineString, Polygon, box

from renderers.coastline import extend_to_box, sea_polygons

BOX = box(0, 0, 10, 10)


def _sea_area(lines: list[LineString]) -> float:
    return sum(p.area for p in sea_polygons(lines, BOX))


def test_coastline_heading_east_has_sea_to_the_south() -> None:
    sea = sea_polygons([LineString([(-1, 4), (11, 4)])], BOX)
    assert len(sea) == 1
    assert sea[0].equals(box(0, 0, 10, 4))


def test_coastline_heading_west_has_sea_to_the_north() -> None:
    sea = sea_polygons([LineString([(11, 4), (-1, 4)])], BOX)
    assert len(sea) == 1
    assert sea[0].equals(box(0, 4, 10, 10))


def test_island_ring_counterclockwise_is_land_in_the_sea() -> None:
    island = LineString([(4, 4), (6, 4), (6, 6), (4, 6), (4, 4)])  # anticlockwise: land inside
    sea = sea_polygons([island], BOX)
    assert len(sea) == 1
    assert sea[0].area == pytest.approx(100 - 4)
    assert not sea[0].contains(box(4.5, 4.5, 5.5, 5.5))


def test_lake_like_ring_clockwise_is_sea_inside() -> None:
    ring = LineString([(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)])  # clockwise: water inside
    assert _sea_area([ring]) == pytest.approx(4)


def test_ways_split_in_pieces_are_joined_in_their_direction() -> None:
    pieces = [LineString([(-1, 5), (5, 5)]), LineString([(5, 5), (5, 11)])]
    # heading east then north: land on the left (north-west), sea south and east of the bend
    assert _sea_area(pieces) == pytest.approx(100 - 25)


def test_coastline_stopping_short_of_the_box_is_extended() -> None:
    # a clipped extract: the way ends 1 unit inside the box on both sides
    assert _sea_area([LineString([(1, 3), (9, 3)])]) == pytest.approx(30)


def test_no_coastline_in_the_box_means_no_sea() -> None:
    assert sea_polygons([LineString([(20, 20), (30, 20)])], BOX) == []
    assert sea_polygons([], BOX) == []


def test_multilinestring_input() -> None:
    lines = MultiLineString([[(-1, 4), (5, 4)], [(5, 4), (11, 4)]])
    assert _sea_area([lines]) == pytest.approx(40)


def test_extend_to_box_leaves_rings_and_outside_ends_alone() -> None:
    ring = LineString([(1, 1), (2, 1), (2, 2), (1, 1)])
    assert extend_to_box(ring, BOX).equals(ring)
    line = LineString([(-5, 5), (5, 5)])
    extended = extend_to_box(line, BOX)
    assert extended.coords[0] == (-5.0, 5.0)
    assert extended.coords[-1][0] > 10


def test_result_is_polygons_inside_the_box() -> None:
    sea = sea_polygons([LineString([(-1, 2), (11, 8)])], BOX)
    assert all(isinstance(p, Polygon) and BOX.buffer(1e-9).contains(p) for p in sea)
    assert sum(p.area for p in sea) == pytest.approx(50)


@pytest.mark.parametrize(
    "module",
    ["renderers.coastline", "renderers.style", "renderers.tiles", "renderers.postgis",
     "renderers.osm_import"],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
