"""The planning short cuts of frieda27g give what the slow ways gave: distance rows
against one geodesic call per pair, the ledger's partners against its pairs, the legend
index's statuses against ``point_in_category`` per point (hand-made town)."""

from __future__ import annotations

import random

from shapely.geometry import Point, box

from cartoqa.tasks.frieda.legend_questions import legend_index
from cartoqa.tasks.frieda.questions import (
    PairLedger,
    PointDistances,
    _ranked,
    legend_plans,
)
from groundtruth import relations as rel
from groundtruth.legend_areas import CategoryArea
from groundtruth.named_features import NamedFeature

FRAME = rel.LocalFrame(60.17, 24.94)


def _town() -> tuple[list[NamedFeature], list[CategoryArea]]:
    """Three land-use blocks and 30 cafes on a 6 x 5 grid 70 m apart, some inside."""
    def sq(x0: float, y0: float, x1: float, y1: float):  # (lon, lat) box from metres
        return FRAME.to_lonlat(box(x0, y0, x1, y1))

    areas = [CategoryArea("land use", "grass", "way/1", sq(-30, -30, 100, 100)),
             CategoryArea("land use", "commercial land", "way/2", sq(180, -30, 320, 100)),
             CategoryArea("land use", "residential land", "way/3", sq(-30, 180, 100, 320))]
    points = [NamedFeature(f"Cafe {x}-{y}", "point", "cafe", (f"node/{x}{y}",),
                           FRAME.to_lonlat(Point(x * 70.0, y * 70.0)))
              for x in range(6) for y in range(5)]
    return points, areas


def test_distance_rows_equal_one_call_per_pair() -> None:
    points, _ = _town()
    centres = [rel.centre_and_radius(f.geometry, FRAME) for f in points]
    dist = PointDistances(centres)
    for a in range(len(centres)):
        for b in range(len(centres)):
            assert dist(a, b) == rel.distance_between(centres[a], centres[b]).meters
            assert dist(a, b) == dist(b, a)  # _anchor reads row b for (a, b)
    assert dist.within(0, 60.0, 100.0) == [1, 5, 6]  # 70, 70 and 99 m away


def test_ranked_draws_the_same_with_shared_rows() -> None:
    points, _ = _town()
    centres = [rel.centre_and_radius(f.geometry, FRAME) for f in points]
    shared = PointDistances(centres)
    for seed in range(30):
        alone = _ranked(points, centres, random.Random(seed), "closest", 100.0, 300.0)
        again = _ranked(points, centres, random.Random(seed), "closest", 100.0, 300.0, shared)
        assert alone == again


def test_ledger_partners_follow_its_pairs_both_ways() -> None:
    ledger = PairLedger()
    ledger.take("border", "a", ["b", "c"])
    assert not ledger.free("a", "b") and not ledger.free("b", "a")
    assert ledger.free("b", "c") and ledger.free("x", "a")
    assert ledger.taken_with("c") == {"a"} and not ledger.taken_with("x")
    assert all(ledger.free(*sorted(p)) is False for p in ledger.pairs if len(p) == 2)


def test_legend_plans_with_the_index_statuses_are_the_plans_without() -> None:
    points, areas = _town()
    index = legend_index(points, areas)
    assert index is not None
    statuses = {f: fam.status for f, fam in index.families.items()}
    slow = legend_plans(points, areas, rng=random.Random(3), count=6)
    fast = legend_plans(points, areas, rng=random.Random(3), count=6, statuses=statuses)
    assert slow, "the town gives legend questions"
    assert [(p.question, p.answer, p.meta) for p in fast] == \
        [(p.question, p.answer, p.meta) for p in slow]
