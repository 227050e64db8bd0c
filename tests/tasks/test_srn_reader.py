"""SRN's reader rules on hand-made extracts: what the picture shows, not what the data says.

* A one-way street counts for the reader only where an arrow is seen: with Middle Street
  of ``grid.osm`` (one-way west to east) drawn without arrows, a reader drives 23 -> 21
  straight along it, while the legal route goes round; the scenario must be rejected.
* A route on a destination-only road (``legal.osm`` block 6, Centre Avenue 6,
  ``motor_vehicle=destination``) is legal at its ends but a reader cannot see the tag.
"""

from __future__ import annotations

import numpy as np
import pytest

from cartoqa.tasks.cartomapqa import srn
from cartoqa.tasks.cartomapqa.srn_rules import (
    on_service_road,
    one_way_stretches,
    reader_graph,
    reader_route_differs,
    tag_only_access,
)
from cartoqa.visibility.oneway import ARROW_FILL, arrow_mask, arrow_visible
from groundtruth.assets import asset_path
from groundtruth.graph import load_road_graph
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


def test_a_service_road_is_not_a_readers_through_road(grid) -> None:  # type: ignore[no-untyped-def]
    route = shortest_route(grid, 11, 13)            # South Street, residential
    assert not on_service_road(grid, route.edges)
    u, v, k = route.edges[0]
    grid.edges[u, v, k]["highway"] = "service"      # Aleksanterinkatu at Senaatintori
    try:
        assert on_service_road(grid, route.edges)
    finally:
        grid.edges[u, v, k]["highway"] = "residential"
    assert "service_road" in srn.REJECT_REASONS


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
