"""Pure parts of the samplers: seeded choices, slot plans, STMF type choice, ids."""

from __future__ import annotations

import pytest

from cartoqa.declarations.suites import DEFAULT_TASKS, extract_tasks, parse_tasks
from cartoqa.errors import CartoqaError
from cartoqa.tasks.cartomapqa.mml import slot_plan as mml_plan
from cartoqa.tasks.cartomapqa.rle import slot_plan as rle_plan
from cartoqa.tasks.cartomapqa.stmf import choose_type, plural
from cartoqa.tasks.common.base import item_id, slot_rng
from cartoqa.tasks.common.sampling import permuted, pick


def test_slot_rng_is_stable_across_processes() -> None:
    # sha256-derived: a fixed value, not Python's randomised hash
    assert slot_rng(0, "mml", 3).randrange(10**6) == slot_rng(0, "mml", 3).randrange(10**6)
    assert slot_rng(0, "mml", 3).random() != slot_rng(1, "mml", 3).random()


def test_permutation_depends_on_seed_only() -> None:
    a = permuted(range(50), 7, "srn")
    assert a == permuted(range(50), 7, "srn")
    assert sorted(a) == list(range(50))
    assert a != permuted(range(50), 8, "srn")


def test_pick_gives_slots_disjoint_candidates() -> None:
    cands = list(range(40))
    taken = {pick(cands, s, a, 10) for s in range(10) for a in range(4)}
    assert pick(cands, 0, 4, 10) is None  # run out: the slot cannot be filled
    assert len(taken) == 40  # 10 slots x 4 attempts, no candidate twice


def test_balance_over_zooms_colours_and_difficulty() -> None:
    plans = [rle_plan(s) for s in range(20)]
    assert sorted({z for z, _ in plans}) == [15, 16, 17, 18, 19]
    assert sum(1 for _, d in plans if d == "simple") == 10
    mml = [mml_plan(s) for s in range(12)]
    assert sum(1 for _, c in mml if c == "red") == 6
    assert {z for z, _ in mml} == {17, 18, 19}


def test_stmf_type_choice_alternates_presence_and_rotates() -> None:
    types = ["a", "b", "c", "d", "e"]
    counts = {"a": 2, "b": 0, "c": 1, "d": 0, "e": 0}
    in_data = {"a": 2, "b": 0, "c": 1, "d": 1, "e": 0}  # d is in the data but not drawn
    picked = [choose_type(types, s, counts=counts, in_data=in_data, ambiguous=set())
              for s in range(6)]
    # even slots: shown types [a, c], index (s // 2) * 5 mod 2 -> a, c, a
    # odd slots: absent from the data [b, e], same index -> b, e, b
    assert picked == ["a", "b", "c", "e", "a", "b"]
    assert choose_type(types, 0, counts=counts, in_data=in_data, ambiguous={"a", "c"}) is None


def test_plural() -> None:
    assert plural("pharmacy") == "pharmacies"
    assert plural("fast food") == "fast food restaurants"


def test_item_ids_sort_by_slot() -> None:
    ids = [item_id("rle", s, u) for s in (10, 2) for u in ("m", "ft")]
    assert sorted(ids) == ["rle-0002-ft", "rle-0002-m", "rle-0010-ft", "rle-0010-m"]


def test_parse_tasks() -> None:
    assert parse_tasks("srn,stmf") == ["stmf", "srn"]
    assert parse_tasks("all") == extract_tasks()
    assert "mfs" not in DEFAULT_TASKS
    with pytest.raises(CartoqaError, match="unknown task 'maps'"):
        parse_tasks("stmf,maps")


def test_srn_pair_pool_holds_only_pairs_in_the_distance_window() -> None:
    import networkx as nx

    from cartoqa.tasks.cartomapqa.srn import pair_pool, route_window_m
    from groundtruth.assets import asset_path
    from groundtruth.graph import load_road_graph

    graph = load_road_graph(asset_path("osm", "grid.osm"))
    junctions = sorted(graph.nodes)[::2]
    zoom = 19
    pool = pair_pool(graph, junctions, zoom)
    expected = []
    for origin in junctions:
        low, high = route_window_m(graph, origin, zoom)
        for dest in junctions:
            try:
                d = nx.shortest_path_length(graph, origin, dest, weight="length")
            except nx.NetworkXNoPath:
                continue
            if dest != origin and low <= d <= high:
                expected.append((origin, dest))
    assert pool == sorted(expected)
    # the window excludes some pairs, so the filter is not a no-op
    assert 0 < len(pool) < len(junctions) * (len(junctions) - 1)


def test_srn_slots_start_on_disjoint_pairs_of_their_zoom_then_take_the_others() -> None:
    import networkx as nx

    from cartoqa.tasks.cartomapqa.srn import MAX_ATTEMPTS, State, slot_pairs

    pools = {17: [(0, i) for i in range(500)], 18: [(1, i) for i in range(7)]}
    state = State(nx.MultiDiGraph(), [], None, 10, nx.MultiDiGraph(), (17, 18), pools)  # type: ignore[arg-type]
    own: list[tuple[int, int]] = []
    for slot in range(10):
        zoom, pairs = slot_pairs(state, slot)
        assert zoom == (17, 18)[slot % 2]
        assert all(p in pools[zoom] for p in pairs)
        assert len(pairs) <= MAX_ATTEMPTS and len(pairs) == len(set(pairs))
        # stride 5 per zoom: a slot's own pairs are every 5th of its zoom's pool
        k = slot // 2
        mine = pools[zoom][k::5]
        assert pairs[:len(mine)] == mine[:MAX_ATTEMPTS]
        own.extend(mine)
    # the own slices are disjoint and cover both pools
    assert len(own) == len(set(own)) == 507
    # a thin slice does not end the slot: slot 1 (zoom 18) tries its own 0, 5, then the
    # next slices from their ends (6, 1; 2; 3; 4): every pair of the small pool once
    assert [b for _, b in slot_pairs(state, 1)[1]] == [0, 5, 6, 1, 2, 3, 4]
    # a large pool: 100 own pairs, then 20 of the next slice's, from its end
    pairs = slot_pairs(state, 0)[1]
    assert len(pairs) == MAX_ATTEMPTS and pairs[100] == (0, 496)
