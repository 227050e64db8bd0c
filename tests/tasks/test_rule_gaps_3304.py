"""Acceptance rules at the limits the fresh mutation sample of seed 3304 found untested
(issue 33): the SRN dual-carriageway test and reader's graph, MML's other road near the
marker, the shared end match and the merging of bends into one turn.

Small hand-made graphs and geometries; each expectation is worked out in the comments.
"""

from __future__ import annotations

import math

import networkx as nx
from shapely.geometry import LineString

from cartoqa.tasks.cartomapqa.mml_rules import MML_OTHER_ROAD_CLEAR_PX, other_road_near
from cartoqa.tasks.cartomapqa.srn_rules import (
    DUAL_CARRIAGEWAY_M,
    on_dual_carriageway,
    reader_graph,
)
from cartoqa.tasks.common.rules import (
    NEAR_DUPLICATE_M,
    PATH_TURN_MERGE_M,
    PATH_UTURN_MIN_DEG,
    ends_match,
    path_turns,
)
from groundtruth.distance import geodesic_m

# -- SRN: a junction on one carriageway of a dual carriageway ------------------------------


def _carriageways(here: tuple[float, float], other_u: tuple[float, float],
                  other_v: tuple[float, float], *, bearing_mine: float = 0.0,
                  bearing_other: float = 180.0, name_other: str = "Mannerheimintie"
                  ) -> nx.MultiDiGraph:
    """Node 1 (at ``here``, lat/lon) starts a one-way edge 1 -> 2 of Mannerheimintie
    heading ``bearing_mine``; the edge 3 -> 4 (from ``other_u`` to ``other_v``) is a
    one-way edge named ``name_other`` heading ``bearing_other``."""
    g = nx.MultiDiGraph()
    g.add_node(1, y=here[0], x=here[1])
    g.add_node(2, y=here[0] + 0.001, x=here[1])
    g.add_node(3, y=other_u[0], x=other_u[1])
    g.add_node(4, y=other_v[0], x=other_v[1])
    g.add_edge(1, 2, name="Mannerheimintie", oneway=True, start_bearing=bearing_mine,
               end_bearing=bearing_mine)
    g.add_edge(3, 4, name=name_other, oneway=True, start_bearing=bearing_other,
               end_bearing=bearing_other)
    return g


def test_the_other_carriageway_at_the_latitude_edge_of_the_search_box_is_found() -> None:
    # The search box is within_m / 111,000 degrees of latitude each way. On the equator a
    # degree of latitude is 110,574 m, so a node exactly that many degrees north is
    # 45 * 110,574 / 111,000 = 44.8 m away: within 45 m, a twin carriageway.
    pad = DUAL_CARRIAGEWAY_M / 111_000.0
    assert 44.5 < geodesic_m(0.0, 0.0, pad, 0.0) < DUAL_CARRIAGEWAY_M
    g = _carriageways((0.0, 0.0), (pad, 0.0), (pad + 0.001, 0.0), bearing_other=180.0)
    assert on_dual_carriageway(g, 1)
    # one more metre north and it is not
    far = (DUAL_CARRIAGEWAY_M + 1.0) / 110_574.0
    g = _carriageways((0.0, 0.0), (far, 0.0), (far + 0.001, 0.0))
    assert not on_dual_carriageway(g, 1)


def test_the_other_carriageway_at_the_longitude_edge_of_the_search_box_is_found() -> None:
    # Near the pole the box's longitude pad is capped at ten times the latitude pad
    # (cos 89 degrees = 0.017 < 0.1): a node exactly that far east at 89 N is about
    # 10 * 45 / 111,000 degrees * 111,700 m * 0.0175 = 7.9 m away, a twin carriageway.
    lat = 89.0
    pad = DUAL_CARRIAGEWAY_M / 111_000.0 / 0.1
    assert geodesic_m(lat, 0.0, lat, pad) < 10.0
    g = _carriageways((lat, 0.0), (lat + 0.0001, pad), (lat - 0.0003, pad))
    assert on_dual_carriageway(g, 1)


def test_a_carriageway_whose_start_is_too_far_is_still_found_by_its_end() -> None:
    # The southbound edge 3 -> 4 starts 40 m north and 40 m west of node 1 (inside the
    # search box, 45 m each way, but 57 m away: too far) and ends 22 m east of node 1
    # (near): its end decides.
    dlat, dlon = 40.0 / 111_400.0, 40.0 / 55_800.0  # metres per degree at 60 N
    start = (60.0 + dlat, 24.0 - dlon)
    pad = DUAL_CARRIAGEWAY_M / 111_000.0
    assert dlat < pad and dlon < pad / math.cos(math.radians(60.0))
    assert geodesic_m(60.0, 24.0, *start) > DUAL_CARRIAGEWAY_M
    g = _carriageways((60.0, 24.0), start, (60.0, 24.0004))
    assert on_dual_carriageway(g, 1)
    # ... and with both ends far, it is not a twin
    g = _carriageways((60.0, 24.0), start, (60.0 + dlat, 24.0 + dlon))
    assert not on_dual_carriageway(g, 1)


def test_twin_carriageways_head_more_than_135_degrees_apart() -> None:
    # mine heads north (0); the other one 22 m east heads 135.5 or 134.5 degrees away
    near = ((60.0005, 24.0004), (60.0, 24.0004))

    def twin(**kw: object) -> bool:
        return on_dual_carriageway(_carriageways((60.0, 24.0), *near, **kw), 1)  # type: ignore[arg-type]

    assert twin(bearing_other=135.5) and twin(bearing_other=224.5)
    assert not twin(bearing_other=134.5) and not twin(bearing_other=225.5)
    # the same heading, or another road's name, is not a twin either
    assert not twin(bearing_other=0.0)
    assert not twin(name_other="Runeberginkatu")


# -- SRN: the graph a reader of the picture sees -------------------------------------------


def _one_way(**extra: object) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph(restrictions=[])
    g.add_node(1, y=60.0, x=24.0)
    g.add_node(2, y=60.001, x=24.001)
    g.add_node(3, y=60.002, x=24.001)
    g.add_edge(1, 2, oneway=True, name="A", start_bearing=20.0, end_bearing=30.0,
               geometry=LineString([(24.0, 60.0), (24.0005, 60.0008), (24.001, 60.001)]),
               **extra)
    g.add_edge(2, 3, oneway=True, name="B", start_bearing=0.0, end_bearing=0.0)
    return g


def test_an_undrawn_one_way_is_open_both_ways_with_its_geometry_reversed() -> None:
    r = reader_graph(_one_way(), [1, 2, 3], [(1, 2, 0)])
    fwd, back = r.edges[1, 2, 0], r.edges[2, 1, 0]
    # both directions are two-way (a bool, as OSMnx writes the tag), the other edge not
    assert fwd["oneway"] is False and back["oneway"] is False
    assert r.edges[2, 3, 0]["oneway"] is True and not r.has_edge(3, 2)
    # driving 2 -> 1 starts heading 30 + 180 and ends heading 20 + 180
    assert (back["start_bearing"], back["end_bearing"]) == (210.0, 200.0)
    # its geometry runs from 2 to 1, through the same middle vertex
    assert list(back["geometry"].coords) == [(24.001, 60.001), (24.0005, 60.0008), (24.0, 60.0)]
    assert fwd["geometry"].coords[0] == (24.0, 60.0)
    # the reversed edge is marked reversed; the forward edge keeps its own mark
    assert back["reversed"] is True and "reversed" not in fwd


def test_reversing_an_edge_osmnx_already_reversed_gives_the_original_direction() -> None:
    r = reader_graph(_one_way(reversed=True), [1, 2, 3], [(1, 2, 0)])
    assert r.edges[2, 1, 0]["reversed"] is False


def test_reversed_bearings_stay_below_360() -> None:
    # a bearing a hair under 180: + 180 rounds to 360, which is 0 once wrapped
    g = _one_way()
    just_under = math.nextafter(180.0, 0.0)
    g.edges[1, 2, 0]["end_bearing"] = just_under
    g.edges[1, 2, 0]["start_bearing"] = just_under
    back = reader_graph(g, [1, 2, 3], [(1, 2, 0)]).edges[2, 1, 0]
    assert 0.0 <= back["start_bearing"] < 360.0 and 0.0 <= back["end_bearing"] < 360.0


# -- MML: another named road near the marker -----------------------------------------------


def test_another_road_exactly_at_the_clear_distance_is_near() -> None:
    # a horizontal road 60 px below the marker, as a line and as a single point
    clear = MML_OTHER_ROAD_CLEAR_PX
    assert other_road_near((100.0, 100.0), [[(0.0, 100.0 + clear), (300.0, 100.0 + clear)]])
    assert other_road_near((100.0, 100.0), [[(100.0, 100.0 + clear)]])
    assert not other_road_near((100.0, 100.0),
                               [[(0.0, 100.0 + clear + 0.01), (300.0, 100.0 + clear + 0.01)]])


# -- shared: the ends of two routes -------------------------------------------------------


def test_ends_exactly_within_m_apart_match() -> None:
    a = [(60.17, 24.94), (60.171, 24.94)]
    b = [(60.1705, 24.94), (60.1714, 24.94)]
    first, last = geodesic_m(*a[0], *b[0]), geodesic_m(*a[-1], *b[-1])
    assert first > last  # 55.7 m and 44.5 m
    assert first < NEAR_DUPLICATE_M and ends_match(a, b)
    assert ends_match(a, b, within_m=first)
    assert not ends_match(a, b, within_m=math.nextafter(first, 0.0))


# -- shared: bends close together are one turn ---------------------------------------------


def _walk(start: tuple[float, float], legs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A path of (lat, lon) from ``start`` along ``legs`` of (bearing, metres) near 60 N."""
    pts = [start]
    for bearing, metres in legs:
        lat, lon = pts[-1]
        b = math.radians(bearing)
        pts.append((lat + metres * math.cos(b) / 111_412.0,
                    lon + metres * math.sin(b) / 55_800.0))
    return pts


def test_a_u_turn_drawn_as_three_close_bends_is_one_u_turn() -> None:
    # north 100 m, then 20 m at 60 degrees, 20 m at 120, then south 100 m: three bends of
    # 60 degrees, 20 m apart (under the 30 m merge), one turn from north to south
    assert PATH_TURN_MERGE_M == 30.0 and PATH_UTURN_MIN_DEG == 150.0
    path = _walk((60.0, 24.0), [(0.0, 100.0), (60.0, 20.0), (120.0, 20.0), (180.0, 100.0)])
    assert path_turns(path) == (1, 1)
    # with 40 m legs the bends are apart: three turns of 60 degrees, no U-turn
    path = _walk((60.0, 24.0), [(0.0, 100.0), (60.0, 40.0), (120.0, 40.0), (180.0, 100.0)])
    assert path_turns(path) == (3, 0)
