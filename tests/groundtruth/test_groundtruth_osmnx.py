"""groundtruth functions on graphs built by osmnx: the hand-made extracts loaded both ways.

Each fixture is read by :func:`groundtruth.graph.load_road_graph` (``legal=False``:
osmnx reads no restrictions, barriers or access keys beyond ``access``) and by
``ox.graph_from_xml`` (unsimplified, drivable roads kept, then simplified by osmnx with
one edge per way); the two graphs must give the same nodes, street counts, routes,
lengths and turn-by-turn steps.
"""

from __future__ import annotations

import importlib
import itertools
import re
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from gt_scope import module_scope

from groundtruth.assets import asset_path
from groundtruth.graph import load_road_graph
from groundtruth.junctions import junctions_of, road_names_at, two_road_junctions
from groundtruth.osmnx_graph import drivable_subgraph, ensure_road_graph
from groundtruth.routing import (
    NoRouteError,
    has_route,
    nearest_node,
    route_length_m,
    shortest_route,
)
from groundtruth.turns import route_steps, steps_connect


class _Osmnx:
    """``osmnx``, imported when a test first uses it: the import (with scikit-learn)
    costs seconds, paid at collection by every pytest-xdist worker otherwise.

    Only public names are passed on: pytest's collection looks every module attribute
    up for its own private markers (``_pytestfixturefunction``, ``__test__``...), which
    would otherwise import osmnx at collection after all.
    """

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(importlib.import_module("osmnx"), name)


ox = _Osmnx()


def test_the_lazy_osmnx_answers_no_private_name() -> None:
    """pytest's look-ups at collection (private names) must not import osmnx."""
    for name in ("_pytestfixturefunction", "__pytest_wrapped__", "__test__"):
        with pytest.raises(AttributeError):
            getattr(ox, name)


@pytest.fixture(scope=module_scope)
def unclipped_grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """grid.osm without the references to nodes 98 and 99 outside the file (osmnx
    cannot read a way that runs past the file's nodes)."""
    text = asset_path("osm", "grid.osm").read_text(encoding="utf-8")
    text = re.sub(r'<nd ref="9[89]"/>', "", text)
    path = tmp_path_factory.mktemp("osm") / "grid_unclipped.osm"
    path.write_text(text, encoding="utf-8")
    return path


def _both(path: Path) -> tuple[nx.MultiDiGraph, nx.MultiDiGraph]:
    ours = load_road_graph(path, legal=False)
    raw = ox.graph_from_xml(path, simplify=False, retain_all=True)
    theirs = ox.simplify_graph(drivable_subgraph(raw, access=False),
                               edge_attrs_differ=["osmid"])
    return ours, theirs


def _fixture(name: str, unclipped_grid: Path) -> Path:
    return unclipped_grid if name == "grid" else asset_path("osm", f"{name}.osm")


def test_osmnx_cannot_read_the_clipped_grid_and_pyosmium_can() -> None:
    with pytest.raises(ValueError, match="missing nodes"):
        ox.graph_from_xml(asset_path("osm", "grid.osm"))
    assert load_road_graph(asset_path("osm", "grid.osm")).has_node(24)


@pytest.mark.parametrize("name", ["grid", "roundabout", "legal"])
def test_same_graph_both_ways(name: str, unclipped_grid: Path) -> None:
    ours, theirs = _both(_fixture(name, unclipped_grid))
    ensure_road_graph(theirs)
    assert set(ours.nodes) == set(theirs.nodes)
    assert sorted(ours.edges()) == sorted(theirs.edges())
    assert dict(ours.nodes(data="street_count")) == dict(theirs.nodes(data="street_count"))
    assert two_road_junctions(ours) == two_road_junctions(theirs)
    for n in ours.nodes:
        assert road_names_at(ours, n) == road_names_at(theirs, n)


@pytest.mark.parametrize("name", ["grid", "roundabout", "legal"])
def test_same_routes_and_lengths_both_ways(name: str, unclipped_grid: Path) -> None:
    ours, theirs = _both(_fixture(name, unclipped_grid))
    compared = 0
    for a, b in itertools.permutations(sorted(ours.nodes), 2):
        assert has_route(ours, a, b) == has_route(theirs, a, b)
        if not has_route(ours, a, b):
            with pytest.raises(NoRouteError):
                shortest_route(theirs, a, b)
            continue
        r1, r2 = shortest_route(ours, a, b), shortest_route(theirs, a, b)
        assert r2.length_m == pytest.approx(r1.length_m, rel=1e-9, abs=1e-6)
        assert route_length_m(theirs, r1.nodes) == pytest.approx(r1.length_m, rel=1e-9)
        if r1.nodes == r2.nodes:
            steps = route_steps(ours, r1)
            assert route_steps(theirs, r2) == steps
            assert steps_connect(theirs, steps, a, b) == steps_connect(ours, steps, a, b)
        compared += 1
    assert compared > 10


def test_grid_routes_by_hand_on_an_osmnx_graph(unclipped_grid: Path) -> None:
    _, g = _both(unclipped_grid)
    # Middle Street is one-way eastwards: from 23 to 21 the route goes round by the south
    assert shortest_route(g, 23, 21).nodes == (23, 13, 12, 11, 21)
    assert route_steps(g, shortest_route(g, 23, 21)) == [
        "blue", "make a U-turn and continue straight", "East Avenue", "turn right",
        "South Street", "turn right", "West Avenue", "red"]
    assert junctions_of(g, "north street", "West Avenue") == [31]
    assert nearest_node(g, 60.0011, 24.0031) == 22


def test_osmnx_lengths_are_kept_and_close(unclipped_grid: Path) -> None:
    _, g = _both(unclipped_grid)
    ensure_road_graph(g)
    for _, _, data in g.edges(data=True):
        # osmnx's great-circle length against groundtruth's geodesic one
        assert data["length"] == pytest.approx(data["length_osmnx"], rel=5e-3)


def test_street_count_counts_parallel_roads_twice() -> None:
    # block 8 of legal.osm: Bent Lane 8 and Centre Avenue 8 both join 812 and 822
    path = asset_path("osm", "legal.osm")
    ours = load_road_graph(path, legal=False)
    theirs = ensure_road_graph(ox.graph_from_xml(path, retain_all=True))
    assert ours.nodes[812]["street_count"] == 4  # South Street twice, two parallel roads
    assert theirs.nodes[812]["street_count"] == 4
    assert ours.nodes[712]["street_count"] == 3
    assert ours.nodes[811]["street_count"] == 1  # a dead end


def test_an_osmnx_graph_has_no_restrictions(unclipped_grid: Path) -> None:
    path = asset_path("osm", "legal.osm")
    legal = load_road_graph(path)
    _, plain = _both(path)
    ensure_road_graph(plain)
    assert legal.graph["legal"] and legal.graph["restrictions"]
    assert plain.graph["legal"] is False and plain.graph["restrictions"] == []
    # block 1: no left turn from South Street 1 (eastwards) into Centre Avenue 1
    assert shortest_route(plain, 111, 122).nodes == (111, 112, 122)
    assert shortest_route(legal, 111, 122).nodes != (111, 112, 122)


def test_ensure_road_graph_is_idempotent_and_leaves_ours_alone(unclipped_grid: Path) -> None:
    ours, theirs = _both(unclipped_grid)
    before = {(u, v, k): dict(d) for u, v, k, d in ours.edges(keys=True, data=True)}
    assert ensure_road_graph(ours) is ours
    assert {(u, v, k): dict(d) for u, v, k, d in ours.edges(keys=True, data=True)} == before
    ensure_road_graph(theirs)
    lengths = dict(nx.get_edge_attributes(theirs, "length"))
    ensure_road_graph(theirs)
    assert dict(nx.get_edge_attributes(theirs, "length")) == lengths


def test_a_reader_graph_has_no_destination_only_edge(tmp_path: Path) -> None:
    # block 6 of legal.osm with access=destination (a key osmnx keeps) on Centre Avenue 6
    text = asset_path("osm", "legal.osm").read_text(encoding="utf-8").replace(
        '<tag k="motor_vehicle" v="destination"/>', '<tag k="access" v="destination"/>')
    assert text.count('<tag k="access" v="destination"/>') == 1
    path = tmp_path / "legal_access.osm"
    path.write_text(text, encoding="utf-8")
    raw = ox.graph_from_xml(path, simplify=False, retain_all=True)
    legal_ox = ensure_road_graph(ox.simplify_graph(drivable_subgraph(raw),
                                                   edge_attrs_differ=["osmid"]))
    assert legal_ox.edges[612, 622, 0]["access"] == "destination"
    # through traffic goes round by East Avenue on the legal graph...
    assert shortest_route(legal_ox, 611, 621).nodes == (611, 612, 613, 623, 622, 621)
    for reader in (load_road_graph(path, legal=False), _both(path)[1]):
        ensure_road_graph(reader)
        assert {a for _, _, a in reader.edges(data="access")} == {"yes"}
        # ... and straight up Centre Avenue for a reader who ignores the sign
        assert shortest_route(reader, 611, 621).nodes == (611, 612, 622, 621)


def test_osmnx_lists_and_missing_keys_become_our_edge_attributes() -> None:
    """issue 33 (mutation seed 3305): osmnx keeps a list where it merged ways
    (``ref``, ``oneway``) and leaves out keys a way lacks; the completed graph has one
    value per edge, as :func:`load_road_graph` gives."""
    g = nx.MultiDiGraph()
    g.add_node(1, x=24.0, y=60.0)
    g.add_node(2, x=24.001, y=60.0)
    g.add_node(3, x=24.002, y=60.0)
    g.add_edge(1, 2, name=["Main Street", "Main Street"], ref=["E 12", "E 18", "E 12"],
               oneway=[True, False], highway=["primary", "secondary"], osmid=[7, 8],
               length=55.0)
    g.add_edge(2, 3, name="Main Street", highway="primary", osmid=9, length=55.0)
    ensure_road_graph(g)
    merged, plain = g.edges[1, 2, 0], g.edges[2, 3, 0]
    assert (merged["name"], merged["ref"], merged["oneway"]) == ("Main Street", "E 12;E 18",
                                                                 True)
    assert (merged["highway"], merged["osmid"]) == ("primary", 7)
    assert (plain["ref"], plain["oneway"]) == (None, False)
    assert plain["oneway"] is False and merged["oneway"] is True
    assert merged["length_osmnx"] == 55.0 and merged["length"] == pytest.approx(55.7, abs=0.2)
