"""Rejection rules of the samplers: markers off-screen or overlapping, routes leaving
the view, road names not drawn; SRN fairness (reader's route, short legs, steps under
markers, dual carriageways); RLE difficulty from geometry and doubling back.
Hand-computed expectations."""

from __future__ import annotations

import networkx as nx
import pytest

from cartoqa.tasks.cartomapqa import rle
from cartoqa.tasks.cartomapqa.mml_rules import other_road_near
from cartoqa.tasks.cartomapqa.rle_rules import (
    COMPLEX_MIN_PATH_PX,
    SIMPLE_MAX_PATH_PX,
    rle_difficulty,
    through_tunnel,
)
from cartoqa.tasks.cartomapqa.srn_rules import (
    MIN_LEG_PX,
    on_dual_carriageway,
    reader_route_differs,
    short_legs,
    steps_under_markers,
)
from cartoqa.tasks.common.rules import (
    OVERLAP_PX,
    boxes_overlap,
    makes_u_turn,
    marker_box,
    marker_on_screen,
    markers_overlap,
    names_not_drawn,
    path_doubles_back,
    path_inside,
    path_turns,
    path_winding_deg,
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
        # a vertex on the straight stretch before the turn changes nothing
        (((0, 100), (0, 100), (100, 0)), (1, 0)),
        # ... nor does a vertex repeated there (OSM ways have them), or at the corner
        (((0, 50), (0, 0), (0, 50), (100, 0)), (1, 0)),
        (((0, 100), (0, 0), (0, 0), (100, 0)), (1, 0)),
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


def test_rle_rejects_a_path_through_a_tunnel(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # grid.osm with Centre Avenue (12-22-32) a tunnel and West Avenue's north half a
    # building passage: OSM-Carto draws both in its tunnels layer, and a blue path
    # drawn over them hides the road it follows (rle-0007 of seed 2718, the Kluuvi
    # parking tunnel); the way round by East Avenue is a road the reader sees
    text = asset_path("osm", "grid.osm").read_text("utf-8")
    text = text.replace('<tag k="name" v="Centre Avenue"/>',
                        '<tag k="name" v="Centre Avenue"/><tag k="tunnel" v="yes"/>')
    text = text.replace("</osm>", """  <way id="1099" version="1">
    <nd ref="21"/><nd ref="31"/>
    <tag k="highway" v="service"/><tag k="tunnel" v="building_passage"/>
  </way>
</osm>""")
    path = tmp_path / "tunnels.osm"
    path.write_text(text, "utf-8")
    g = load_road_graph(path)
    tunnels = {(u, v) for u, v, t in g.edges(data="tunnel") if t}
    assert tunnels == {(12, 22), (22, 12), (22, 32), (32, 22), (21, 31), (31, 21)}
    through = shortest_route(g, 12, 32)
    assert through.nodes == (12, 22, 32)
    assert through_tunnel(g, through.edges)
    assert not through_tunnel(g, shortest_route(g, 13, 33).edges)
    assert not through_tunnel(g, shortest_route(g, 11, 13).edges)
    assert rle.REJECT_REASONS["tunnel"].startswith("path runs through a tunnel")


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


def test_the_srn_state_asks_each_node_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from cartoqa.tasks.cartomapqa import srn

    g = _dual_carriageway()
    asked: list[int] = []

    def counted(graph: nx.MultiDiGraph, node: int) -> bool:
        asked.append(node)
        return on_dual_carriageway(graph, node)

    monkeypatch.setattr(srn, "on_dual_carriageway", counted)
    state = srn.State(g, [], srn.RoadIndex(g), 1, g)
    answers = [state.on_dual_carriageway(n) for n in (12, 30, 12, 30, 22, 41, 41)]
    assert answers == [True, False, True, False, True, False, False]
    assert asked == [12, 30, 22, 41]


def test_rle_difficulty_boundaries() -> None:
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX) == "simple"
    assert rle_difficulty(1, SIMPLE_MAX_PATH_PX + 1) is None
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX) == "complex"
    assert rle_difficulty(2, COMPLEX_MIN_PATH_PX - 1) is None


@pytest.mark.parametrize(
    ("turns", "path_px", "difficulty"),
    [
        # docs/build.md: simple is at most 1 turn and at most 900 px on screen ...
        (0, 300.0, "simple"), (1, 900.0, "simple"), (1, 901.0, None), (0, 1200.0, None),
        # ... complex at least 2 turns and at least 500 px
        (2, 500.0, "complex"), (2, 499.0, None), (4, 2000.0, "complex"),
        # neither: 2 turns on a short path, 1 turn on a long one
        (3, 300.0, None), (1, 1000.0, None),
    ],
)
def test_rle_difficulty_by_the_documented_limits(turns: int, path_px: float,
                                                 difficulty: str | None) -> None:
    assert rle_difficulty(turns, path_px) == difficulty


def _carriageway(g: nx.MultiDiGraph, u: int, v: int, a: tuple[float, float],
                 b: tuple[float, float], *, name: str = "A", oneway: bool = True,
                 bearing: float | None = None) -> None:
    """A straight edge u -> v from (lat, lon) a to b; bearings only when given."""
    g.add_node(u, y=a[0], x=a[1])
    g.add_node(v, y=b[0], x=b[1])
    extra = {} if bearing is None else {"start_bearing": bearing, "end_bearing": bearing}
    g.add_edge(u, v, name=name, oneway=oneway, **extra)


def test_a_pin_at_the_end_of_a_carriageway_is_on_a_dual_carriageway() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 1, 2, (60.0, 24.0), (60.0, 24.002), name="B", oneway=False)  # unrelated
    _carriageway(g, 10, 11, (60.002, 24.0), (60.001, 24.0), bearing=180.0)  # southbound
    # northbound twin 22 m east: it starts 67 m away but ends next to the pin; no bearings
    # in the data (read as 0, north)
    _carriageway(g, 12, 13, (60.0004, 24.0004), (60.001, 24.0004))
    assert on_dual_carriageway(g, 11)  # only an edge into the pin
    assert not on_dual_carriageway(g, 11, within_m=15.0)


def test_a_pin_at_the_start_of_a_carriageway_compares_its_own_heading() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=180.0)  # southbound
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004), bearing=0.0)  # northbound
    _carriageway(g, 14, 15, (60.001, 24.0008), (60.0, 24.0008), bearing=180.0)  # 3rd lane
    assert on_dual_carriageway(g, 10)
    # the same-named carriageway heading the same way is no twin
    g2 = nx.MultiDiGraph()
    _carriageway(g2, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=180.0)
    _carriageway(g2, 14, 15, (60.001, 24.0004), (60.0, 24.0004), bearing=180.0)
    assert not on_dual_carriageway(g2, 10)


def test_exactly_135_degrees_apart_is_not_the_other_way() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=225.0)
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004))  # read as 0 (north)
    assert not on_dual_carriageway(g, 10)


def test_a_pin_on_a_two_way_road_beside_a_dual_carriageway_is_fine() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=180.0)
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004), bearing=0.0)
    _carriageway(g, 20, 21, (60.0005, 24.0002), (60.0005, 24.001), name="A", oneway=False)
    _carriageway(g, 22, 20, (60.0005, 23.999), (60.0005, 24.0002), name="A", oneway=False)
    assert not on_dual_carriageway(g, 20)
    # unnamed one-way links do not count either
    g3 = nx.MultiDiGraph()
    _carriageway(g3, 10, 11, (60.001, 24.0), (60.0, 24.0), name="", bearing=180.0)
    _carriageway(g3, 12, 13, (60.0, 24.0004), (60.001, 24.0004), name="", bearing=0.0)
    assert not on_dual_carriageway(g3, 10)


@pytest.mark.parametrize(
    ("lines", "near"),
    [
        ([[(50.0, 0.0)]], True),  # a lone point exactly 50 px away
        ([[(100.0, 0.0)]], False),  # a lone point far away
        ([[(-100.0, 40.0), (100.0, 40.0)]], True),  # passes 40 px away, ends far
        ([[(-200.0, 10.0), (-100.0, 10.0)]], False),  # ends 100 px before the pin
    ],
)
def test_another_road_near_the_pin(lines: list[list[tuple[float, float]]], near: bool) -> None:
    assert other_road_near((0.0, 0.0), lines) is near


def test_pins_and_paths_may_touch_the_margins_exactly() -> None:
    assert marker_on_screen((683.0, 768.0 - 12.0))  # the tip 12 px above the bottom
    assert path_inside([(683.0, 768.0 - 20.0), (20.0, 300.0)])


def test_steps_beside_a_pin_are_not_under_it() -> None:
    pin = (100.0, 100.0)  # box 87..113 x 59..100
    assert steps_under_markers([(70.0, 80.0)], [pin]) == []  # 17 px left of the box
    assert steps_under_markers([(100.0, 53.0)], [pin]) == [0]  # 6 px above its head
    assert steps_under_markers([(100.0, 52.0)], [pin]) == []


def test_a_horizontal_hairpin_doubles_back() -> None:
    assert path_doubles_back([(100.0, 200.0), (500.0, 200.0), (500.0, 208.0), (100.0, 208.0)])


def test_arms_12_px_apart_do_not_double_back_11_px_do() -> None:
    # docs/build.md: parts 48 px apart along the path must stay 12 px apart on screen
    assert not path_doubles_back([(100.0, 500.0), (100.0, 200.0), (112.0, 200.0),
                                  (112.0, 500.0)])
    assert path_doubles_back([(100.0, 500.0), (100.0, 200.0), (111.0, 200.0),
                              (111.0, 500.0)])


def test_two_u_turns_are_counted_as_two() -> None:
    # north 111 m, back south, north again: two U-turns (each also a turn)
    path = [(60.0, 24.0), (60.001, 24.0), (60.0, 24.00002), (60.001, 24.00004)]
    assert path_turns(path) == (2, 2)


def test_a_reader_route_half_a_metre_longer_is_the_same_route() -> None:
    steps = ["blue", "turn left", "A", "red"]
    assert not reader_route_differs(steps, 300.0, steps, 300.5)
    assert reader_route_differs(steps, 300.0, steps, 300.6)


def test_a_pin_between_the_ends_of_two_carriageways_on_a_two_way_road_is_fine() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=180.0)
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004), bearing=0.0)
    # a two-way road of the same name through a pin 11 m from both carriageways' ends
    _carriageway(g, 20, 21, (60.0, 24.0002), (59.999, 24.0002), name="A", oneway=False)
    assert not on_dual_carriageway(g, 20)


@pytest.mark.parametrize("pin_at_start", [True, False])
def test_a_pin_on_a_carriageway_without_bearings_reads_them_as_north(pin_at_start: bool) -> None:
    g = nx.MultiDiGraph()
    # the pin's carriageway has no bearings in the data (read as 0); its twin heads south
    _carriageway(g, 10, 11, (60.0, 24.0), (60.001, 24.0))
    _carriageway(g, 12, 13, (60.001, 24.0004), (60.0, 24.0004), bearing=180.0)
    _carriageway(g, 14, 15, (60.0, 24.0004), (59.999, 24.0004), bearing=180.0)
    assert on_dual_carriageway(g, 10 if pin_at_start else 11)


def test_the_twins_start_near_the_pin_counts_with_its_own_heading() -> None:
    g = nx.MultiDiGraph()
    _carriageway(g, 1, 2, (60.0, 24.0), (60.0, 24.0001), name="C", bearing=90.0)  # other name
    _carriageway(g, 10, 11, (60.0, 24.0), (60.001, 24.0), bearing=225.0)
    # twin starting 22 m from the pin, ending far; no bearings (read as 0): 135 degrees
    # apart is not heading the other way
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004))
    assert not on_dual_carriageway(g, 10)
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004), bearing=20.0)
    g.remove_edge(12, 13, key=0)
    assert on_dual_carriageway(g, 10)  # 205 degrees apart, after a road of another name


def test_a_pin_without_bearings_and_a_twin_135_degrees_off_is_fine() -> None:
    # the pin's own carriageway has no bearings (read as 0, north); the same-named
    # one-way road 22 m east heads 225 degrees: 135 apart is not the other way
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.0, 24.0), (60.001, 24.0))
    _carriageway(g, 12, 13, (60.001, 24.0004), (60.0, 24.0004), bearing=225.0)
    assert not on_dual_carriageway(g, 10)


def test_a_two_way_road_of_the_same_name_beside_a_one_way_pin_is_no_twin() -> None:
    # the pin is on a one-way street; 22 m east runs a two-way road of the same name
    # (one edge each way): a reader sees one road each, not a dual carriageway
    g = nx.MultiDiGraph()
    _carriageway(g, 10, 11, (60.001, 24.0), (60.0, 24.0), bearing=180.0)
    _carriageway(g, 12, 13, (60.0, 24.0004), (60.001, 24.0004), oneway=False, bearing=0.0)
    _carriageway(g, 13, 12, (60.001, 24.0004), (60.0, 24.0004), oneway=False, bearing=180.0)
    assert not on_dual_carriageway(g, 10)


def test_another_road_is_measured_along_its_drawn_lines() -> None:
    # a vertical road 50 px right of the pin, drawn top to bottom: 50 px, not its end
    assert other_road_near((0.0, 0.0), [[(50.0, -100.0), (50.0, 100.0)]])
    assert not other_road_near((0.0, 0.0), [[(50.0, -100.0), (50.0, 100.0)]], clear=49.0)
    # a line with a repeated vertex (OSM ways have them) is measured, not refused
    assert other_road_near((0.0, 0.0), [[(30.0, 0.0), (30.0, 0.0), (30.0, 300.0)]])
    assert not other_road_near((0.0, 0.0), [[(90.0, 0.0), (90.0, 0.0), (90.0, 300.0)]])


def test_short_paths_and_hooks_that_do_not_come_back_far_along() -> None:
    # a path no longer than 48 px has no two parts 48 px apart along it
    assert not path_doubles_back([(100.0, 100.0), (148.0, 100.0)])
    assert not path_doubles_back([(100.0, 100.0), (110.0, 100.0), (100.0, 101.0)])
    # a hook (30 px down, 20 on, 10 across, 15 back): its tip comes 11.2 px from the
    # corner (0, 0), but only 45 px along the path from it, under 48: no doubling back
    hook = [(0.0, 30.0), (0.0, 0.0), (0.0, -20.0), (10.0, -20.0), (10.0, -5.0)]
    assert not path_doubles_back([(x + 200.0, y + 200.0) for x, y in hook])
    # its tip 3 px further on is 10.2 px from that corner, 48 px back along: doubles back
    hook[-1] = (10.0, -2.0)
    assert path_doubles_back([(x + 200.0, y + 200.0) for x, y in hook])


def test_a_step_within_6_px_of_a_pin_on_any_side_is_under_it() -> None:
    pin = (100.0, 100.0)  # box 87..113 x 59..100
    for step, under in (((81.0, 80.0), True), ((80.9, 80.0), False),  # left
                        ((119.0, 80.0), True), ((119.1, 80.0), False),  # right
                        ((100.0, 106.0), True), ((100.0, 106.1), False)):  # below the tip
        assert (steps_under_markers([step], [pin]) == [0]) is under, step


def test_near_duplicate_ends_are_compared_end_to_end() -> None:
    from cartoqa.tasks.cartomapqa.rle_rules import rle_near_duplicate
    from cartoqa.tasks.common.rules import ends_match

    path = [(60.1700, 24.9400), (60.1710, 24.9400)]
    assert not ends_match([], path) and not ends_match(path, [])
    # crosswise: a's last point (not its second) must lie near b's first
    a = [(60.1700, 24.9400), (60.1750, 24.9500), (60.1710, 24.9400)]
    b = [(60.1710, 24.9400), (60.1800, 24.9600), (60.1700, 24.9400)]
    assert ends_match(a, b, either_way=True) and not ends_match(a, b)
    # the separation asked for is the one used: ends 33 m apart are near within 60 m,
    # not within 20 m
    c = [(60.1703, 24.9400), (60.1713, 24.9400)]
    assert rle_near_duplicate(111.0, path, 111.0, c)
    assert not rle_near_duplicate(111.0, path, 111.0, c, within_m=20.0)
