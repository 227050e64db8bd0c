"""Legend templates on a hand-made town (issue 27): ``equal``/``area_category`` and the
two-map ``area_count``, with answers worked out by hand."""

from __future__ import annotations

import random

from shapely.geometry import Point, box

from cartoqa.tasks.frieda.legend_questions import (
    area_category_plans,
    area_count_plans,
    legend_index,
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
