"""Legend templates on a hand-made town (issue 27): ``equal``/``area_category``, the
two-map ``area_count``, ``border``/``area_pick``, ``distance``/``legend_rank``,
``orientation``/``legend_direction`` and ``legend_pick``'s distance windows, with
answers worked out by hand."""

from __future__ import annotations

import random

from shapely.geometry import LineString, Point, box

from cartoqa.tasks.frieda.build import REQUESTS
from cartoqa.tasks.frieda.legend_questions import (
    PICK_DISTANCE_M,
    area_category_plans,
    area_count_plans,
    area_pick_plans,
    legend_index,
    legend_pick_plans,
    legend_rank_plans,
)
from cartoqa.tasks.frieda.questions import PairLedger
from groundtruth.legend_areas import CategoryArea
from groundtruth.named_features import NamedFeature
from groundtruth.relations import LocalFrame

FRAME = LocalFrame(60.17, 24.94)


def _sq(x0: float, y0: float, x1: float, y1: float):  # (lon, lat) box from metres
    return FRAME.to_lonlat(box(x0, y0, x1, y1))


def _poly(name: str, geom) -> NamedFeature:
    return NamedFeature(name, "polygon", "building", (f"way/{name}",), geom)


def _points() -> list[NamedFeature]:
    # legend_index needs four named places; far from every area (no answer rests on them)
    return [NamedFeature(n, "point", "cafe", (f"node/{n}",), FRAME.to_lonlat(Point(x, -400)))
            for n, x in (("P1", 0), ("P2", 80), ("P3", 160), ("P4", 240))]


def _area(family: str, category: str, ref: str, geom) -> CategoryArea:
    return CategoryArea(family, category, ref, geom)


def test_area_category_names_the_fill_of_the_same_outline() -> None:
    """Town hall's outline is a public building's, Shop's a commercial building's;
    Mixed equals a commercial building but a residential one covers 10% of it (its
    ground shows two fills: not asked); Yard equals no area. The legend around each
    lists the three categories (alphabetical); commercial comes first in turn."""
    hall, shop, mixed, yard = (_sq(0, 0, 40, 40), _sq(60, 0, 100, 40), _sq(0, 60, 40, 100),
                               _sq(200, 0, 240, 40))
    fam = "building use"
    areas = [
        _area(fam, "public building", "way/1", hall),
        _area(fam, "commercial building", "way/2", shop),
        _area(fam, "commercial building", "way/3", mixed),
        _area(fam, "residential building", "way/4", _sq(0, 60, 40, 64)),  # 10% of Mixed
        _area(fam, "residential building", "way/5", _sq(120, 0, 160, 40)),
    ]
    feats = [_poly("Town hall", hall), _poly("Shop", shop), _poly("Mixed", mixed),
             _poly("Yard", yard), *_points()]
    index = legend_index(feats, areas)
    assert index is not None
    plans = area_category_plans(feats, index, rng=random.Random(0), count=5,
                                ledger=PairLedger())
    assert [(p.maps[0].features[0].name, p.answer["names"]) for p in plans] == [
        ("Shop", ["commercial building"]), ("Town hall", ["public building"])]
    for p in plans:
        first, second = p.maps
        assert p.relation == "equal" and p.meta["template"] == "area_category"
        assert [c for c, _ in second.categories] == [
            "commercial building", "public building", "residential building"]
        ci = [c for c, _ in second.categories].index(p.answer["names"][0])
        assert second.area_checks == ((ci, first.features[0].geometry),)
        assert second.features == () and second.context == first.features
        assert not first.categories


def test_area_count_on_two_maps_counts_merged_areas() -> None:
    """Block (100 m square) has grass on its east side (touching) and on its north side
    (touching; 20 m from the east one, so a separate area) and a grass area 200 m away:
    two grass areas border it. On two maps the block is outlined on map 1 only."""
    block = _sq(0, 0, 100, 100)
    fam = "land use"
    areas = [
        _area(fam, "grass", "way/1", _sq(100, 0, 150, 100)),
        _area(fam, "grass", "way/2", _sq(0, 100, 80, 150)),
        _area(fam, "grass", "way/3", _sq(300, 0, 350, 100)),
        _area(fam, "commercial land", "way/4", _sq(0, -200, 100, -120)),
    ]
    feats = [_poly("Block", block), *_points()]
    index = legend_index(feats, areas)
    assert index is not None
    plans = area_count_plans(feats, index, "border", rng=random.Random(0), count=3,
                             ledger=PairLedger(), multi=True)
    got = [p for p in plans if p.meta["category"] == "grass"]
    assert len(got) == 1
    (p,) = got
    assert p.answer == {"type": "count", "count": 2}
    first, second = p.maps
    assert first.features[0].name == "Block" and not first.categories
    assert second.features == () and second.context == first.features
    assert len(second.area_checks) == 2 and "Map 1 outlines Block" in p.question


def _pt(name: str, x: float, y: float) -> NamedFeature:
    return NamedFeature(name, "point", "cafe", (f"node/{name}",), FRAME.to_lonlat(Point(x, y)))


def _around(x: float, y: float, r: float = 25.0):  # a square area around a spot
    return _sq(x - r, y - r, x + r, y + r)


def test_legend_rank_names_the_closest_dot_within_the_category() -> None:
    """X at the origin; Park cafe (100 m east) and Lawn kiosk (200 m north) lie in grass,
    Shop corner (70 m west) in commercial land: of the dots within grass the closest
    to X is Park cafe, though Shop corner is closer still (a reader who skips the
    legend names it). No other point can be X (it would need two grass dots at
    distances 1.35 apart and a closer non-grass one), so the one plan is X's."""
    fam = "land use"
    areas = [_area(fam, "grass", "way/1", _around(100, 0)),
             _area(fam, "grass", "way/2", _around(0, 200)),
             _area(fam, "commercial land", "way/3", _around(-70, 0))]
    feats = [_pt("X", 0, 0), _pt("Park cafe", 100, 0), _pt("Lawn kiosk", 0, 200),
             _pt("Shop corner", -70, 0)]
    index = legend_index(feats, areas)
    assert index is not None
    for seed in range(6):  # whichever way round the dots are drawn
        got = legend_rank_plans(index, "distance", rng=random.Random(seed), count=2,
                                ledger=PairLedger())
        assert [q.answer["names"] for q in got] == [["Park cafe"]]
    plans = legend_rank_plans(index, "distance", rng=random.Random(0), count=2,
                              ledger=PairLedger())
    (p,) = plans
    assert p.relation == "distance" and p.meta["template"] == "legend_rank"
    assert p.answer["type"] in REQUESTS["distance"]
    assert p.meta["rank"] == "closest" and p.meta["answer_type"] == "text"
    assert p.answer == {"type": "textual", "names": ["Park cafe"]}
    (m,) = p.maps
    assert m.features[0].name == "X" and m.colors[0] == "red"
    assert [c for c, _ in m.categories] == ["commercial land", "grass"]
    inside = {f.name: ok for f, (_, ci, ok) in zip(m.features[1:], m.category_checks,
                                                     strict=True)
              if m.categories[ci][0] == "grass"}
    assert inside == {"Park cafe": True, "Lawn kiosk": True, "Shop corner": False}
    assert "closest to X (red dot)" in p.question and "within an area shown as grass" \
        in p.question


def test_legend_direction_names_the_dot_within_the_category_in_that_direction() -> None:
    """X at the origin; Park cafe 150 m north and Lawn kiosk 150 m east lie in grass,
    Shop corner 80 m north in commercial land: the dot within grass to the north of X
    is Park cafe (Shop corner is north too, but not in grass)."""
    fam = "land use"
    areas = [_area(fam, "grass", "way/1", _around(0, 150)),
             _area(fam, "grass", "way/2", _around(150, 0)),
             _area(fam, "commercial land", "way/3", _around(0, 80, 20))]
    feats = [_pt("X", 0, 0), _pt("Park cafe", 0, 150), _pt("Lawn kiosk", 150, 0),
             _pt("Shop corner", 0, 80)]
    index = legend_index(feats, areas)
    assert index is not None
    for seed in range(6):
        got = legend_rank_plans(index, "orientation", rng=random.Random(seed), count=2,
                                ledger=PairLedger())
        assert [q.answer["names"] for q in got] == [["Park cafe"]]
    plans = legend_rank_plans(index, "orientation", rng=random.Random(0), count=2,
                              ledger=PairLedger())
    (p,) = plans
    assert p.relation == "orientation" and p.meta["template"] == "legend_direction"
    # a request of the orientation task (frieda27f's first build refused to write its
    # legend_direction items: the task's schema allowed cardinal answers only)
    assert p.answer["type"] in REQUESTS["orientation"]
    assert p.meta["direction"] == "north"
    assert p.answer == {"type": "textual", "names": ["Park cafe"]}
    assert "to the north of X (red dot)" in p.question and "use its compass" in p.question


def test_legend_pick_asks_distances_past_the_old_window() -> None:
    """The grass dot lies 400 m from X (past frieda27e's 150-320 m window: one learned
    distance scored 80%), its decoys 250 m from X: a plan asks 400 m."""
    fam = "land use"
    areas = [_area(fam, "grass", "way/1", _around(400, 0)),
             _area(fam, "commercial land", "way/2", _around(250, 0)),
             _area(fam, "commercial land", "way/3", _around(200, 150))]
    feats = [_pt("X", 0, 0), _pt("Park cafe", 400, 0), _pt("Shop A", 250, 0),
             _pt("Shop B", 200, 150)]
    index = legend_index(feats, areas)
    assert index is not None
    plans = legend_pick_plans(index, "distance", rng=random.Random(0), count=3,
                              ledger=PairLedger(), multi=False)
    (p,) = plans
    assert p.maps[0].features[0].name == "X" and p.meta["answer_key"] == feats[1].key
    assert abs(p.answer["meters"] - 400.0) < 1.0 and p.answer["meters"] > PICK_DISTANCE_M[1]


def test_area_pick_names_the_street_along_the_category() -> None:
    """A grass square (100 m); Edge street runs along its south side 8 m off, Far street
    100 m south, Far hall 100 m east: which of the three borders an area shown as
    grass? Edge street (drawn as a line, the hall as an outline). Asked as "partly
    overlaps", none does: no plan."""
    fam = "land use"
    areas = [_area(fam, "grass", "way/1", _sq(0, 0, 100, 100))]
    edge = NamedFeature("Edge street", "line", "street", ("way/e",),
                        FRAME.to_lonlat(LineString([(0, -8), (100, -8)])))
    far = NamedFeature("Far street", "line", "street", ("way/f",),
                       FRAME.to_lonlat(LineString([(0, -100), (100, -100)])))
    feats = [edge, far, _poly("Far hall", _sq(200, 0, 240, 40)), *_points()]
    index = legend_index(feats, areas)
    assert index is not None
    plans = area_pick_plans(feats, index, "border", rng=random.Random(0), count=3,
                            ledger=PairLedger())
    assert len(plans) == 1
    (p,) = plans
    assert p.relation == "border" and p.meta["template"] == "area_pick"
    assert p.answer["type"] in REQUESTS["border"] and p.answer["type"] in REQUESTS["intersect"]
    assert p.answer == {"type": "textual", "names": ["Edge street"]}
    (m,) = p.maps
    assert {f.name for f in m.features} == {"Edge street", "Far street", "Far hall"}
    assert m.features[0].name == "Edge street"  # the first plan's answer is blue
    assert [c for c, _ in m.categories] == ["grass"] and m.keep_categories == (0,)
    assert len(m.area_checks) == 1 and m.area_checks[0][0] == 0
    assert "Edge street (blue line)" in p.question and "Far hall (" in p.question
    assert "outline)" in p.question and "borders an area shown as grass" in p.question
    assert area_pick_plans(feats, index, "intersect", rng=random.Random(0), count=3,
                           ledger=PairLedger()) == []
