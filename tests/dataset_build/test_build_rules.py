"""Rejection rules of the samplers: markers off-screen or overlapping, routes leaving
the view, road names not drawn; SRN fairness (reader's route, short legs, steps under
markers, dual carriageways); RLE difficulty from geometry and doubling back.
Hand-computed expectations."""

from __future__ import annotations

import networkx as nx
import pytest

from cartoqa.tasks import rle
from cartoqa.tasks.rules import (
    COMPLEX_MIN_PATH_PX,
    MIN_LEG_PX,
    OVERLAP_PX,
    SIMPLE_MAX_PATH_PX,
    boxes_overlap,
    makes_u_turn,
    marker_box,
    marker_on_screen,
    markers_overlap,
    names_not_drawn,
    on_dual_carriageway,
    path_doubles_back,
    path_inside,
    path_turns,
    path_winding_deg,
    reader_route_differs,
    rle_difficulty,
    short_legs,
    steps_under_markers,
)
from groundtruth._osm_reader import RawWay, RoadData
from groundtruth.assets import asset_path
from groundtruth.graph import build_road_graph, load_road_graph
from groundtruth.projection import latlon_to_global_px
from groundtruth.routing import shortest_route
from groundtruth.turns import route_steps


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


M_LAT = 1 / 111_412.0  # degrees of latitude per metre at 60 N (meridian radius)
M_LON = 1 / 55_800.0  # degrees of longitude per metre at 60 N (parallel radius)


def walk(*moves: tuple[float, float]) -> list[tuple[float, float]]:
    """A path from (60 N, 24 E) by ``(east_m, north_m)`` moves, as ``(lat, lon)``."""
    lat, lon = 60.0, 24.0
    out = [(lat, lon)]
    for east, north in moves:
        lat, lon = lat + north * M_LAT, lon + east * M_LON
        out.append((lat, lon))
    return out


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        (((0, 200),), (0, 0)),  # straight
        (((0, 100), (100, 0)), (1, 0)),  # north then east: one right turn
        (((0, 100), (100, 0), (0, 100)), (2, 0)),  # a Z: two turns
        (((0, 100), (-100, 0), (0, -80)), (2, 0)),  # round a block: two turns 100 m apart
        # up one carriageway, across a 15 m crossover, back down: one U-turn
        (((0, 100), (15, 0), (0, -100)), (1, 1)),
        # a 10 m jog between two offset stretches keeps the heading: no turn
        (((0, 100), (10, 0), (0, 100)), (0, 0)),
        # a gentle curve, 15 degrees every 50 m (90 degrees in all): no turn
        (((0, 50), (12.94, 48.30), (25.0, 43.30), (35.36, 35.36), (43.30, 25.0),
          (48.30, 12.94), (50, 0)), (0, 0)),
    ],
)
def test_path_turns_by_geometry(moves: tuple[tuple[float, float], ...],
                                expected: tuple[int, int]) -> None:
    assert path_turns(walk(*moves)) == expected


def test_rle_rejects_a_u_turn_beyond_the_overlap_test() -> None:
    # up Kaivokatu's north carriageway and back along the south one, 25 m apart (42 px
    # at zoom 17, farther than OVERLAP_PX): not an overlap, still a U-turn (rle-0003 of
    # seed 20261130)
    loop = walk((0, 120), (25, 0), (0, -120))
    pts = [latlon_to_global_px(lat, lon, 17) for lat, lon in loop]
    assert not path_doubles_back(pts)
    assert makes_u_turn(loop)
    # round a block and on (two right angles 100 m apart), or a Z: no U-turn
    assert not makes_u_turn(walk((0, 100), (-100, 0), (0, -80)))
    assert not makes_u_turn(walk((0, 100), (100, 0), (0, 100)))
    assert rle.REJECT_REASONS["u_turn"].startswith("path makes a U-turn")


def test_turns_do_not_come_from_road_names() -> None:
    # a straight path whose road changes name twice has no turn
    assert path_turns(walk((0, 100), (0, 100), (0, 100))) == (0, 0)


def test_path_doubling_back_is_rejected() -> None:
    # up and back down 8 px to the side (two carriageways at z15): overlaps
    assert path_doubles_back([(100.0, 500.0), (100.0, 200.0), (108.0, 200.0),
                              (108.0, 500.0)])
    # the same with the carriageways 3 * OVERLAP_PX apart reads as a hairpin: kept
    gap = 3 * OVERLAP_PX
    assert not path_doubles_back([(100.0, 500.0), (100.0, 200.0), (100.0 + gap, 200.0),
                                  (100.0 + gap, 500.0)])
    # a path crossing itself
    assert path_doubles_back([(100.0, 100.0), (300.0, 300.0), (300.0, 100.0),
                              (100.0, 300.0)])
    # a right-angle corner and a square U round a block are fine
    assert not path_doubles_back([(100.0, 500.0), (100.0, 200.0), (400.0, 200.0)])
    assert not path_doubles_back([(100.0, 500.0), (100.0, 200.0), (300.0, 200.0),
                                  (300.0, 500.0)])


def test_reader_route_rule_on_the_legal_fixture() -> None:
    legal = load_road_graph(asset_path("osm", "legal.osm"))
    naive = load_road_graph(asset_path("osm", "legal.osm"), legal=False)

    def differs(o: int, d: int) -> bool:
        a, b = shortest_route(legal, o, d), shortest_route(naive, o, d)
        return reader_route_differs(route_steps(legal, a), a.length_m,
                                    route_steps(naive, b), b.length_m)

    # a no_left_turn, a bus-only road, a bollard: the reader would turn left
    assert differs(111, 122) and differs(511, 522) and differs(711, 722)
    # no rule on the way: the reader's route is the answer
    assert not differs(811, 822) and not differs(122, 111)
    assert reader_route_differs(["blue", "red"], 10.0, None, None)


def test_a_leg_that_loops_back_winds_half_a_turn() -> None:
    # a loop: north 30 m, then four 45-degree bends 50 m apart to head south
    loop = walk((0, 30), (35.36, 35.36), (50, 0), (35.36, -35.36), (0, -50))
    assert path_winding_deg(loop) == pytest.approx(180.0, abs=1.0)
    assert path_turns(loop) == (4, 0)  # no single sharp U-turn: only the winding shows it
    # zigzags cancel out; a plain right turn winds a quarter
    assert path_winding_deg(walk((0, 50), (20, 20), (-20, 20), (0, 50))) == pytest.approx(
        0.0, abs=1.0)
    assert path_winding_deg(walk((0, 50), (50, 0))) == pytest.approx(90.0, abs=1.0)


def test_short_legs_and_steps_under_markers() -> None:
    assert short_legs([300.0, MIN_LEG_PX - 0.1, MIN_LEG_PX]) == [1]
    # a pin is 26 x 41 px above its tip: a junction 20 px above the tip is hidden,
    # one 10 px beside the pin's edge is not
    tip = (500.0, 400.0)
    assert steps_under_markers([(500.0, 380.0)], [tip]) == [0]
    assert steps_under_markers([(500.0 + 13 + 10, 380.0)], [tip]) == []
    assert steps_under_markers([(700.0, 300.0), (505.0, 395.0)], [(100.0, 100.0), tip]) == [1]


def _dual_carriageway() -> nx.MultiDiGraph:
    """Main Road as two one-way carriageways 22 m apart (ways 1 north, 2 south), crossed
    by Side Street (way 3) at nodes 12 and 22; a one-way Lone Lane (way 4) elsewhere."""
    east = 22 * M_LON
    coords = {11: (60.0, 24.0), 12: (60.0005, 24.0), 13: (60.001, 24.0),
              21: (60.001, 24.0 + east), 22: (60.0005, 24.0 + east), 23: (60.0, 24.0 + east),
              30: (60.0005, 23.998), 31: (60.0005, 24.002),
              41: (60.003, 24.0), 42: (60.004, 24.0), 43: (60.0035, 23.999),
              44: (60.0035, 24.001)}
    main = {"highway": "primary", "name": "Main Road", "oneway": "yes"}
    side = {"highway": "residential", "name": "Side Street"}
    lone = {"highway": "residential", "name": "Lone Lane", "oneway": "yes"}
    ways = [RawWay(1, main, ((11, 12, 13),)), RawWay(2, main, ((21, 22, 23),)),
            RawWay(3, side, ((30, 12, 22, 31),)), RawWay(4, lone, ((41, 42),)),
            RawWay(5, side, ((43, 41, 44),))]
    return build_road_graph(RoadData(ways=ways, coords=coords))


def test_markers_on_a_dual_carriageway_are_refused() -> None:
    g = _dual_carriageway()
    assert on_dual_carriageway(g, 12) and on_dual_carriageway(g, 22)
    assert not on_dual_carriageway(g, 30)  # Side Street only
    assert not on_dual_carriageway(g, 41)  # a one-way street without a twin
    assert not on_dual_carriageway(g, 12, within_m=15.0)


def test_rle_difficulty_boundaries() -> None:
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX) == "simple"
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX + 1) is None
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX) == "complex"
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX - 1) is None
