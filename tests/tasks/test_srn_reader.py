"""SRN's reader rules on hand-made extracts: what the picture shows, not what the data says.

* A one-way street counts for the reader only where an arrow is seen: with Middle Street
  of ``grid.osm`` (one-way west to east) drawn without arrows, a reader drives 23 -> 21
  straight along it, while the legal route goes round; the scenario must be rejected.
* A route on a destination-only road (``legal.osm`` block 6, Centre Avenue 6,
  ``motor_vehicle=destination``) is legal at its ends but a reader cannot see the tag.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from shapely.geometry import LineString, box

from cartoqa.tasks.cartomapqa import srn
from cartoqa.tasks.cartomapqa.srn_rules import (
    in_pedestrian_area,
    one_way_stretches,
    reader_graph,
    reader_route_differs,
    tag_only_access,
)
from cartoqa.visibility.oneway import ARROW_FILL, arrow_mask, arrow_visible
from groundtruth.assets import asset_path
from groundtruth.extracts import resolve_extract
from groundtruth.graph import load_road_graph
from groundtruth.pedestrian_areas import edges_inside, pedestrian_areas
from groundtruth.routing import shortest_route
from groundtruth.turns import route_steps


@pytest.fixture(scope="module")
def grid():  # type: ignore[no-untyped-def]
    return load_road_graph(asset_path("osm", "grid.osm"), legal=False)


def _oneways(graph):  # type: ignore[no-untyped-def]
    return [(u, v, k) for u, v, k, one in graph.edges(keys=True, data="oneway") if one]


def test_an_undrawn_one_way_changes_the_readers_answer(grid) -> None:  # type: ignore[no-untyped-def]
    legal = shortest_route(grid, 23, 21)
    assert 22 not in legal.nodes[1:2]          # the data: round the block, not along Middle
    steps = route_steps(grid, legal)
    everything = list(grid.nodes)
    # arrows seen on Middle Street: the reader agrees with the data
    drawn = reader_graph(grid, everything, [])
    seen = shortest_route(drawn, 23, 21)
    assert not reader_route_differs(steps, legal.length_m, route_steps(drawn, seen),
                                    seen.length_m)
    # no arrow: the reader drives straight back along Middle Street; rejected
    undrawn = reader_graph(grid, everything, _oneways(grid))
    seen = shortest_route(undrawn, 23, 21)
    assert seen.nodes == (23, 22, 21)
    assert reader_route_differs(steps, legal.length_m, route_steps(undrawn, seen), seen.length_m)
    # the graph the build keeps is untouched
    assert not grid.has_edge(22, 21)


def test_stretches_join_only_at_plain_way_joints(grid) -> None:  # type: ignore[no-untyped-def]
    # Middle Street 21 -> 22 -> 23: 22 is a junction (Centre Avenue): two stretches
    stretches = one_way_stretches(grid, _oneways(grid))
    assert sorted(sorted((u, v) for u, v, _ in s) for s in stretches) == [
        [(21, 22)], [(22, 23)]]


def test_a_destination_only_road_is_a_tag_the_reader_cannot_see() -> None:
    legal = load_road_graph(asset_path("osm", "legal.osm"))
    # block 6: 612 -> 622 straight up Centre Avenue 6 (destination-only, legal at the end)
    up = shortest_route(legal, 612, 622)
    assert tag_only_access(legal, up.edges)
    # along South Street 6 only: open roads
    assert not tag_only_access(legal, shortest_route(legal, 611, 613).edges)
    assert "tag_only_access" in srn.REJECT_REASONS and "undrawn_oneway" in srn.REJECT_REASONS


#: Pedestrian ground on ``grid.osm``: a square filled as pedestrian (``area=yes``) around
#: South Street's west block 11-12; a closed way without ``area=yes`` (a pedestrian
#: street ring, not an area) around its east block 12-13; two strips 3-11 m either side
#: of North Street's west block 31-32 (as the pedestrian Aleksanterinkatu's strips flank
#: the service road); one strip along the east side of West Avenue 21-31 only.
SQUARES = """
  <node id="901" version="1" lat="59.9995" lon="24.0003"/>
  <node id="902" version="1" lat="59.9995" lon="24.0027"/>
  <node id="903" version="1" lat="60.0005" lon="24.0027"/>
  <node id="904" version="1" lat="60.0005" lon="24.0003"/>
  <node id="905" version="1" lat="59.9995" lon="24.0035"/>
  <node id="906" version="1" lat="59.9995" lon="24.0055"/>
  <node id="907" version="1" lat="60.0005" lon="24.0055"/>
  <node id="908" version="1" lat="60.0005" lon="24.0035"/>
  <way id="9001" version="1">
    <nd ref="901"/><nd ref="902"/><nd ref="903"/><nd ref="904"/><nd ref="901"/>
    <tag k="highway" v="pedestrian"/><tag k="area" v="yes"/><tag k="name" v="Square"/>
  </way>
  <way id="9002" version="1">
    <nd ref="905"/><nd ref="906"/><nd ref="907"/><nd ref="908"/><nd ref="905"/>
    <tag k="highway" v="pedestrian"/><tag k="name" v="Ring"/>
  </way>
  <node id="911" version="1" lat="60.00253" lon="24.000"/>
  <node id="912" version="1" lat="60.00253" lon="24.003"/>
  <node id="913" version="1" lat="60.0026" lon="24.003"/>
  <node id="914" version="1" lat="60.0026" lon="24.000"/>
  <node id="915" version="1" lat="60.00247" lon="24.000"/>
  <node id="916" version="1" lat="60.00247" lon="24.003"/>
  <node id="917" version="1" lat="60.0024" lon="24.003"/>
  <node id="918" version="1" lat="60.0024" lon="24.000"/>
  <node id="921" version="1" lat="60.0010" lon="24.00006"/>
  <node id="922" version="1" lat="60.0025" lon="24.00006"/>
  <node id="923" version="1" lat="60.0025" lon="24.0002"/>
  <node id="924" version="1" lat="60.0010" lon="24.0002"/>
  <way id="9003" version="1">
    <nd ref="911"/><nd ref="912"/><nd ref="913"/><nd ref="914"/><nd ref="911"/>
    <tag k="highway" v="pedestrian"/><tag k="area" v="yes"/>
  </way>
  <way id="9004" version="1">
    <nd ref="915"/><nd ref="916"/><nd ref="917"/><nd ref="918"/><nd ref="915"/>
    <tag k="highway" v="pedestrian"/><tag k="area" v="yes"/>
  </way>
  <way id="9005" version="1">
    <nd ref="921"/><nd ref="922"/><nd ref="923"/><nd ref="924"/><nd ref="921"/>
    <tag k="highway" v="footway"/><tag k="area" v="yes"/>
  </way>
"""


def test_a_road_drawn_inside_a_pedestrian_area_is_not_a_readers_road(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = asset_path("osm", "grid.osm").read_text("utf-8")
    path = tmp_path / "squares.osm"
    path.write_text(text.replace("</osm>", SQUARES + "</osm>"), "utf-8")
    areas = pedestrian_areas(resolve_extract(path))
    assert len(areas) == 4                           # the ring without area=yes is a line
    graph = load_road_graph(path)
    inside = edges_inside(graph, areas)
    # inside the square, and between the two strips; not beside one strip only
    assert {(u, v) for u, v, _ in inside} == {(11, 12), (12, 11), (31, 32), (32, 31)}
    assert in_pedestrian_area(shortest_route(graph, 11, 13).edges, inside)
    assert in_pedestrian_area(shortest_route(graph, 33, 31).edges, inside)
    assert not in_pedestrian_area(shortest_route(graph, 12, 13).edges, inside)
    assert not in_pedestrian_area(shortest_route(graph, 21, 31).edges, inside)
    assert "pedestrian_area" in srn.REJECT_REASONS


def _arrow(image: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """OSM-Carto's oneway.svg (12 x 5 px) pointing east with its tail at (x, y)."""
    image[y, x:x + 7] = colour                     # shaft, 1 px
    for i in range(5):                             # head: a triangle 5 px wide
        image[y - 2 + i, x + 7:x + 7 + (5 - abs(2 - i) * 2)] = colour


def test_the_arrow_oracle_reads_arrows_not_names() -> None:
    reference = np.full((40, 120, 3), 255, np.int16)    # a white residential road
    screen = reference.copy()
    grey = (0x55, 0x55, 0x55)
    _arrow(screen, 10, 20, grey)
    mask = arrow_mask(screen, reference, ARROW_FILL["residential"])
    road = [[(0.0, 20.0), (119.0, 20.0)]]
    assert arrow_visible(mask, [[(0.0, 20.0), (40.0, 20.0)]])
    assert not arrow_visible(mask, [[(60.0, 20.0), (119.0, 20.0)]])   # the arrow is elsewhere
    # a street name: black glyphs with anti-aliased grey edges of the arrow's colour
    name = reference.copy()
    for x0 in range(10, 100, 8):
        name[16:24, x0:x0 + 3] = (0, 0, 0)
        name[16:24, x0 + 3] = grey
    assert not arrow_visible(arrow_mask(name, reference, ARROW_FILL["residential"]), road)
    # another class's colour is not this road's arrow
    assert not arrow_visible(arrow_mask(screen, reference, ARROW_FILL["secondary"]), road)


def test_a_road_between_two_pedestrian_strips_it_does_not_touch_is_inside() -> None:
    """issue 33 (mutation seed 3305): Aleksanterinkatu runs between the two strips of
    its pedestrian street, touching neither; OSM-Carto draws one lilac band, so the road
    is inside (the strips are found within twice the flank distance of the road)."""
    lat = 1e-4  # 11 m: strips 4-11 m north and south of the road at latitude 0
    g = nx.MultiDiGraph()
    g.add_edge(1, 2, geometry=LineString([(0.0, 0.0), (0.001, 0.0)]))  # 111 m
    strips = [box(0, 0.36 * lat, 0.001, lat), box(0, -lat, 0.001, -0.36 * lat)]
    assert edges_inside(g, strips) == {(1, 2, 0)}
    assert edges_inside(g, strips[:1]) == set()  # on one side only: beside, not inside


def test_a_diagonal_road_between_two_strips_is_inside() -> None:
    """issue 33 (mutation seed 3306): the flanks are looked for square to the road, also
    for a road running north-east (a road between two strips along it)."""
    lat = 1e-4
    road = LineString([(0.0, 0.0), (0.0007, 0.0007)])  # about 110 m, north-east
    # strips 4-11 m either side of the road, square to it
    left = LineString([(-0.36 * lat, 0.36 * lat), (0.0007 - 0.36 * lat, 0.0007 + 0.36 * lat)])
    right = LineString([(0.36 * lat, -0.36 * lat), (0.0007 + 0.36 * lat, 0.0007 - 0.36 * lat)])
    strips = [left.buffer(0.25 * lat, cap_style="flat"), right.buffer(0.25 * lat, cap_style="flat")]
    g = nx.MultiDiGraph()
    g.add_edge(1, 2, geometry=road)
    assert edges_inside(g, strips) == {(1, 2, 0)}
