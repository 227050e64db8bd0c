"""Acceptance rules at the places the fresh mutation sample of seed 3307 found untested
(issue 33): the reader's graph for an edge without bearings, a path that comes back
near itself at its very end, and a path whose first two points coincide.
"""

from __future__ import annotations

import networkx as nx

from cartoqa.tasks.cartomapqa.srn_rules import reader_graph
from cartoqa.tasks.common.rules import OVERLAP_ALONG_PX, OVERLAP_PX, path_doubles_back, path_turns


def test_an_undrawn_one_way_without_bearings_is_reversed_from_north() -> None:
    # an edge with no recorded bearings counts as heading north (0): back is south (180)
    g = nx.MultiDiGraph(restrictions=[])
    g.add_node(1, y=60.0, x=24.0)
    g.add_node(2, y=60.001, x=24.0)
    g.add_edge(1, 2, oneway=True, name="A")
    back = reader_graph(g, [1, 2], [(1, 2, 0)]).edges[2, 1, 0]
    assert (back["start_bearing"], back["end_bearing"]) == (180.0, 180.0)


def _hook(start_x: float, end_gap: float) -> list[tuple[float, float]]:
    """Right from (start_x, 0) to (100, 0), up 60, left to x = 50 and back down, ending
    ``end_gap`` px above the first leg (view pixels; about 260 px long)."""
    return [(start_x, 0.0), (100.0, 0.0), (100.0, 60.0), (50.0, 60.0), (50.0, end_gap)]


def test_a_path_whose_end_comes_back_within_10_px_of_itself_doubles_back() -> None:
    # The path is sampled every 3 px, its end included within half a step: the end
    # 10 px above the first leg, 200 px back along the path, is caught whatever the
    # path's length (its samples fall at every offset as the first leg grows by 1/4 px)
    assert OVERLAP_PX == 12.0 and OVERLAP_ALONG_PX == 48.0
    for k in range(24):
        assert path_doubles_back(_hook(-0.25 * k, 10.0)), k
        # 13 px away it never is
        assert not path_doubles_back(_hook(-0.25 * k, 13.0)), k


def test_a_path_starting_on_a_repeated_point_has_no_turn_at_its_start() -> None:
    # (lat, lon): east along 60 N, its first point given twice (a route starting where
    # two pieces of geometry meet); no turn, as without the repeat
    east = [(60.0, 24.0), (60.0, 24.002)]
    assert path_turns(east[:1] + east) == path_turns(east) == (0, 0)
    # a repeat later on changes nothing either; one real turn stays one
    assert path_turns([(60.0, 24.0), (60.0, 24.001), (60.0, 24.001), (60.0, 24.002)]) == (0, 0)
    north_then_east = [(60.0, 24.0), (60.001, 24.0), (60.001, 24.002)]
    assert path_turns(north_then_east[:1] + north_then_east) == (1, 0)
