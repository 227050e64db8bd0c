"""Views covered by data (cartoqa.tasks.common.views) and MML's one question per road pair."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
from shapely.geometry import LineString

from cartoqa.tasks.cartomapqa.mml import junctions_by_pair, slot_plan
from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.common.views import (
    VIEW_MIN_DATA_COVER,
    data_cover,
    inside_extract,
    unfillable_zooms,
    zoom_can_fill,
)
from groundtruth.extracts import resolve_extract
from groundtruth.projection import View


def test_cover_is_the_share_of_pixels_inside_the_bounds() -> None:
    v = View(center=(0.0, 0.0), zoom=12, width=400, height=200)
    s, w, n, e = v.bounds
    # cut 4 px off the right edge: 396 / 400 of the view is inside
    _, e4 = v.to_latlon(396.0, 100.0)
    assert abs(data_cover(v, (s, w, n, e4)) - 0.99) < 1e-3
    _, e3 = v.to_latlon(395.0, 100.0)
    assert data_cover(v, (s, w, n, e3)) < VIEW_MIN_DATA_COVER
    assert data_cover(v, (s - 1, w - 1, n + 1, e + 1)) == 1.0


def test_helsinki_cannot_fill_zoom_15_or_16(tmp_path: Path) -> None:
    ctx = BuildContext(resolve_extract("helsinki"), seed=0, per_task=1, cache_dir=tmp_path,
                       assets_dir=tmp_path)
    assert unfillable_zooms(ctx, "rle", (15, 16, 17, 18, 19)) == [15, 16]
    assert set(ctx.unfilled_zooms["rle"]) == {15, 16}
    assert "smaller than a 1366 x 768 view" in ctx.unfilled_zooms["rle"][15]
    b = ctx.extract.bounds
    assert b is not None
    assert zoom_can_fill(b, 17) and not zoom_can_fill(b, 16)
    # a zoom-17 view at the extract's corner is mostly outside; at its middle, inside
    s, w, n, e = b
    assert not inside_extract(ctx, View(center=(s, w), zoom=17))
    assert inside_extract(ctx, View(center=((s + n) / 2, (w + e) / 2), zoom=17))


def test_mml_plans_over_the_fillable_zooms() -> None:
    assert [slot_plan(s, (18, 19))[0] for s in range(4)] == [18, 19, 18, 19]
    assert [slot_plan(s, (18, 19))[1] for s in range(4)] == ["blue", "blue", "red", "red"]


def test_mml_groups_junctions_by_road_pair() -> None:
    g = nx.MultiDiGraph()

    def road(u: int, v: int, name: str) -> None:
        for a, b in ((u, v), (v, u)):
            g.add_edge(a, b, name=name, geometry=LineString([(a, 0), (b, 0)]))

    # a dual carriageway A crossed twice by B (nodes 1 and 2), and A meets C at 3
    for node in range(10):
        g.add_node(node, x=float(node), y=0.0)
    road(1, 4, "A"); road(1, 5, "B"); road(1, 6, "B")  # noqa: E702
    road(2, 7, "A"); road(2, 8, "B"); road(2, 9, "A")  # noqa: E702
    road(3, 4, "A"); road(3, 0, "C"); road(3, 7, "C")  # noqa: E702
    assert junctions_by_pair(g, [1, 2, 3]) == [[1, 2], [3]]


def test_mml_rejects_a_pin_near_a_third_named_road() -> None:
    from cartoqa.tasks.cartomapqa.mml_rules import MML_OTHER_ROAD_CLEAR_PX, other_road_near

    pin = (100.0, 100.0)
    # a road 40 px east of the pin (vertical line x = 140): too near at 60 px
    assert other_road_near(pin, [[(140.0, 0.0), (140.0, 300.0)]])
    # Ludviginkatu 54 px from a pin where Erottajankatu becomes Uudenmaankatu (mml-0010
    # of seed 20261130): too near, a reader cannot tell which junction the pin marks
    assert other_road_near(pin, [[(154.0, 0.0), (154.0, 300.0)]])
    # 70 px away: clear; the distance is to the segment, not its end points
    assert not other_road_near(pin, [[(170.0, 0.0), (170.0, 300.0)]])
    assert other_road_near(pin, [[(0.0, 155.0), (300.0, 155.0)]])  # 55 px below
    assert MML_OTHER_ROAD_CLEAR_PX == 60.0
