"""The road graph of hand-made extracts: nodes, one-way rules, geometry, lengths, clipping."""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest
from gt_handcalc import flat_m, meridian_m, parallel_m

from groundtruth._osm_reader import RawWay, RoadData, located_runs
from groundtruth.assets import asset_path
from groundtruth.errors import GroundTruthError
from groundtruth.extracts import resolve_extract
from groundtruth.graph import (
    build_road_graph,
    is_drivable,
    load_road_graph,
    oneway_direction,
    street_counts,
)


def test_grid_nodes_are_junctions_and_ends_only(grid: nx.MultiDiGraph) -> None:
    # 41 is a shape node inside Curve Road; 98/99 are missing from the file
    assert sorted(grid.nodes) == [11, 12, 13, 21, 22, 23, 24, 25, 31, 32, 33, 40, 42]
    assert grid.nodes[22] == {"y": 60.001, "x": 24.003, "street_count": 4}
    assert grid.nodes[40]["street_count"] == 1


def test_grid_edges_respect_oneway_and_skip_footways(grid: nx.MultiDiGraph) -> None:
    two_way = [(11, 12), (12, 13), (31, 32), (32, 33), (11, 21), (21, 31), (12, 22),
               (22, 32), (13, 23), (23, 33), (32, 40), (33, 42), (23, 24), (24, 25)]
    expected = set(two_way) | {(v, u) for u, v in two_way} | {(21, 22), (22, 23)}
    assert set(grid.edges()) == expected
    assert grid.number_of_edges() == len(expected)  # no parallel edges here
    assert not grid.has_edge(11, 22)  # Diagonal Path is a footway


def test_edge_attributes(grid: nx.MultiDiGraph) -> None:
    fwd = grid.edges[21, 22, 0]
    assert (fwd["osmid"], fwd["name"], fwd["highway"], fwd["oneway"], fwd["reversed"]) == (
        1002, "Middle Street", "residential", True, False)
    back = grid.edges[13, 12, 0]
    assert (back["name"], back["oneway"], back["reversed"]) == ("South Street", False, True)
    assert list(back["geometry"].coords) == [(24.006, 60.0), (24.003, 60.0)]
    assert grid.edges[23, 24, 0]["name"] is None
    assert grid.edges[23, 24, 0]["highway"] == "unclassified"
    assert not any(t for _, _, t in grid.edges(data="tunnel"))   # no tunnel in grid.osm
    assert grid.graph["crs"] == "epsg:4326"
    assert grid.graph["extract_sha256"] == resolve_extract(asset_path("osm", "grid.osm")).sha256


def test_curved_edge_keeps_its_shape_node(grid: nx.MultiDiGraph) -> None:
    geom = grid.edges[33, 42, 0]["geometry"]
    assert list(geom.coords) == [(24.006, 60.0025), (24.006, 60.003), (24.014, 60.0032)]
    expected = meridian_m(60.0025, 60.003) + flat_m(60.003, 24.006, 60.0032, 24.014)
    assert grid.edges[33, 42, 0]["length"] == pytest.approx(expected, abs=0.01)
    assert grid.edges[42, 33, 0]["length"] == grid.edges[33, 42, 0]["length"]


@pytest.mark.parametrize(
    ("u", "v", "hand"),
    [
        (11, 12, parallel_m(60.0, 24.000, 24.003)),
        (21, 22, parallel_m(60.001, 24.000, 24.003)),
        (31, 32, parallel_m(60.0025, 24.000, 24.003)),
        (11, 21, meridian_m(60.0, 60.001)),
        (21, 31, meridian_m(60.001, 60.0025)),
        (32, 40, meridian_m(60.0025, 60.0035)),
    ],
)
def test_edge_lengths_match_hand_formulas(grid: nx.MultiDiGraph, u: int, v: int,
                                          hand: float) -> None:
    assert grid.edges[u, v, 0]["length"] == pytest.approx(hand, abs=0.01)


def test_clipped_way_keeps_only_its_located_stretch(grid: nx.MultiDiGraph) -> None:
    border = [(u, v) for u, v, name in grid.edges(data="name") if name == "Border Road"]
    assert sorted(border) == [(24, 25), (25, 24)]
    assert 98 not in grid and 99 not in grid


def test_roundabout_is_one_way_and_oneway_minus_one_is_backwards(
    roundabout: nx.MultiDiGraph,
) -> None:
    ring = {(u, v) for u, v, n in roundabout.edges(data="name") if n == "Market Circle"}
    assert ring == {(1, 2), (2, 3), (3, 4), (4, 1)}  # anticlockwise only
    assert roundabout.has_edge(2, 12) and not roundabout.has_edge(12, 2)
    assert roundabout.edges[2, 12, 0]["reversed"] is True
    assert roundabout.out_degree(12) == 0


@pytest.mark.parametrize(
    ("tags", "drivable"),
    [
        ({"highway": "residential"}, True),
        ({"highway": "primary_link"}, True),
        ({"highway": "service"}, True),
        ({"highway": "service", "service": "driveway"}, False),
        ({"highway": "footway"}, False),
        ({"highway": "cycleway"}, False),
        ({"highway": "pedestrian"}, False),
        ({"highway": "residential", "access": "private"}, False),
        ({"highway": "residential", "access": "no", "motor_vehicle": "yes"}, True),
        ({"highway": "residential", "area": "yes"}, False),
        ({"highway": "tertiary", "oneway": "reversible"}, False),
        ({"building": "yes"}, False),
    ],
)
def test_is_drivable(tags: dict[str, str], drivable: bool) -> None:
    assert is_drivable(tags) is drivable


@pytest.mark.parametrize(
    ("tags", "direction"),
    [
        ({"highway": "residential"}, 0),
        ({"highway": "residential", "oneway": "yes"}, 1),
        ({"highway": "residential", "oneway": "1"}, 1),
        ({"highway": "residential", "oneway": "-1"}, -1),
        ({"highway": "residential", "oneway": "no"}, 0),
        ({"highway": "primary", "junction": "roundabout"}, 1),
        ({"highway": "primary", "junction": "circular"}, 1),
        ({"highway": "primary", "junction": "roundabout", "oneway": "no"}, 0),
        ({"highway": "motorway"}, 1),
        ({"highway": "motorway", "oneway": "no"}, 0),
    ],
)
def test_oneway_direction(tags: dict[str, str], direction: int) -> None:
    assert oneway_direction(tags) == direction


def test_located_runs_split_at_missing_nodes() -> None:
    p = (0.0, 0.0)
    assert located_runs([(1, p), (2, None), (3, p), (4, p), (5, None), (6, p)]) == ((3, 4),)
    assert located_runs([(1, p), (2, p), (3, p)]) == ((1, 2, 3),)
    assert located_runs([(1, None), (2, None)]) == ()


def test_build_road_graph_splits_a_way_with_a_gap() -> None:
    # way 7 runs 1-2, leaves the extract (node 3 missing), and comes back as 4-5
    data = RoadData(
        ways=[RawWay(7, {"highway": "residential", "name": "Gap"}, ((1, 2), (4, 5)))],
        coords={1: (0.0, 0.0), 2: (0.0, 0.001), 4: (0.0, 0.003), 5: (0.0, 0.004)},
    )
    g = build_road_graph(data)
    assert sorted(g.edges()) == [(1, 2), (2, 1), (4, 5), (5, 4)]


def test_loop_way_splits_at_its_repeated_node() -> None:
    # a lollipop: 1-2-3-4-2, node 2 is used twice so it becomes a junction
    data = RoadData(
        ways=[RawWay(8, {"highway": "residential", "oneway": "yes"}, ((1, 2, 3, 4, 2),))],
        coords={1: (0.0, 0.0), 2: (0.0, 0.001), 3: (0.001, 0.002), 4: (0.0, 0.002)},
    )
    g = build_road_graph(data)
    assert sorted(g.edges()) == [(1, 2), (2, 2)]
    assert len(g.edges[2, 2, 0]["geometry"].coords) == 4


def test_missing_and_corrupt_files_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(GroundTruthError, match="not found"):
        load_road_graph(tmp_path / "nowhere.osm.pbf")
    bad = tmp_path / "bad.osm"
    bad.write_text("<osm><node id='1' lat='x'", encoding="utf-8")
    with pytest.raises(GroundTruthError):
        load_road_graph(bad)


def test_bundled_helsinki_loads(helsinki: nx.MultiDiGraph) -> None:
    names = {n for _, _, n in helsinki.edges(data="name") if n}
    assert helsinki.number_of_nodes() > 500
    assert len(names) > 60
    assert "Mannerheimintie" in names
    assert all(d["length"] > 0 for _, _, d in helsinki.edges(data=True))


def test_bearings_of_a_short_edge_follow_its_way() -> None:
    # way 9 heads 3.3 m north from 1 to junction 2, then 33 m east to 3; way 10 meets at 2
    coords = {1: (0.0, 0.0), 2: (0.00003, 0.0), 3: (0.00003, 0.0003), 4: (0.001, 0.0)}
    data = RoadData(
        ways=[RawWay(9, {"highway": "residential"}, ((1, 2, 3),)),
              RawWay(10, {"highway": "residential"}, ((2, 4),))],
        coords=coords,
    )
    g = build_road_graph(data)
    short = g.edges[1, 2, 0]
    assert short["length"] == pytest.approx(meridian_m(0.0, 0.00003), abs=0.001)
    # over 15 m the road runs 3.32 m north and 11.68 m east: atan2(11.68, 3.32)
    north = meridian_m(0.0, 0.00003)
    assert short["start_bearing"] == pytest.approx(
        math.degrees(math.atan2(15.0 - north, north)), abs=0.05)
    assert short["end_bearing"] == pytest.approx(0.0, abs=1e-6)  # it arrives heading north
    back = g.edges[2, 1, 0]
    assert back["start_bearing"] == pytest.approx(180.0, abs=1e-6)
    assert back["end_bearing"] == pytest.approx((short["start_bearing"] + 180.0) % 360.0,
                                                abs=0.01)
    assert g.edges[2, 3, 0]["start_bearing"] == pytest.approx(90.0, abs=0.01)


def test_osmnx_reads_the_graph(grid: nx.MultiDiGraph) -> None:
    ox = pytest.importorskip("osmnx")
    nodes, edges = ox.convert.graph_to_gdfs(grid)
    assert len(nodes) == grid.number_of_nodes() and len(edges) == grid.number_of_edges()
    assert ox.routing.shortest_path(grid, 23, 21, weight="length") == [23, 13, 12, 11, 21]
    stats = ox.stats.basic_stats(grid)
    assert stats["n"] == 13


def test_unsorted_file_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "unsorted.osm"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n'
        '<way id="1" version="1"><nd ref="1"/><nd ref="2"/>'
        '<tag k="highway" v="residential"/></way>\n'
        '<node id="1" version="1" lat="60.0" lon="24.0"/>\n'
        '<node id="2" version="1" lat="60.001" lon="24.0"/>\n</osm>\n',
        encoding="utf-8",
    )
    with pytest.raises(GroundTruthError, match="node locations") as info:
        load_road_graph(path)
    assert info.value.fix is not None and "osmium sort" in info.value.fix


def test_extract_without_roads_gives_an_empty_graph(tmp_path: Path) -> None:
    path = tmp_path / "pois.osm"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n'
        '<node id="1" version="1" lat="60.0" lon="24.0"><tag k="amenity" v="cafe"/></node>\n'
        '</osm>\n',
        encoding="utf-8",
    )
    assert load_road_graph(path).number_of_nodes() == 0


def test_an_extract_already_resolved_is_loaded_as_is() -> None:
    extract = resolve_extract(asset_path("osm", "grid.osm"))
    graph = load_road_graph(extract)
    by_path = load_road_graph(asset_path("osm", "grid.osm"))
    assert graph.graph["extract_sha256"] == extract.sha256
    assert sorted(graph.edges(keys=True)) == sorted(by_path.edges(keys=True))


def test_a_loaded_graph_carries_its_extracts_name_and_checksum() -> None:
    # issue 33 (mutation seed 3305): the name and checksum recorded in a dataset's
    # provenance come from here
    extract = resolve_extract(asset_path("osm", "grid.osm"))
    g = load_road_graph(extract)
    assert g.graph["name"] == extract.name == "grid.osm"
    assert g.graph["extract_sha256"] == extract.sha256
    assert load_road_graph(asset_path("osm", "grid.osm")).graph["name"] == "grid.osm"


def _osmnx_street_counts(graph: nx.MultiDiGraph) -> dict[int, int]:
    # imported here: osmnx (with scikit-learn and matplotlib) is the oracle, not a need
    from osmnx.stats import count_streets_per_node

    return dict(count_streets_per_node(graph))


@pytest.mark.parametrize("name", ["grid.osm", "roundabout.osm", "legal.osm", "relations.osm"])
def test_street_counts_equal_osmnx_on_the_hand_made_extracts(name: str) -> None:
    graph = load_road_graph(asset_path("osm", name))
    counts = street_counts(graph)
    assert list(counts) == list(graph.nodes)
    assert counts == _osmnx_street_counts(graph)
    assert dict(graph.nodes(data="street_count")) == counts


def test_street_counts_equal_osmnx_on_helsinki_and_kotka(helsinki: nx.MultiDiGraph) -> None:
    for graph in (helsinki, load_road_graph("kotka"), load_road_graph("helsinki", legal=False)):
        assert street_counts(graph) == _osmnx_street_counts(graph)


def test_street_counts_of_parallels_loops_and_lone_nodes() -> None:
    # hand-counted: 1-2 two-way (one segment), 2->3 twice (two), 3->2 key 1 joins the
    # second of them, loops at 3 in both directions count once (two ends), 4 alone
    g = nx.MultiDiGraph()
    g.add_edge(1, 2)
    g.add_edge(2, 1)
    g.add_edge(2, 3)
    g.add_edge(2, 3)
    g.add_edge(3, 2, key=1)
    g.add_edge(3, 3)
    g.add_edge(3, 3)
    g.add_node(4)
    g.add_edge(5, 6, key=7)
    expected = {1: 1, 2: 3, 3: 4, 4: 0, 5: 1, 6: 1}
    assert street_counts(g) == expected
    assert _osmnx_street_counts(g) == expected
