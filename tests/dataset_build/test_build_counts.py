"""Counts as a reader gives them: clear icons, roads and parks grouped, names as written."""

from __future__ import annotations

import numpy as np
from shapely.geometry import LineString, box

from cartoqa.visibility.icons import (
    ICON_CLEAR_IOU,
    ICON_MIN_IOU,
    ICON_RIVAL_MARGIN,
    best_iou_at,
    icon_is_clear,
)
from cartoqa.visibility.sightings import JOIN_DISTANCE_M, Sighting, ViewFeatures
from groundtruth.catalogue import load_catalogue
from groundtruth.features import Feature, load_features

DEG_PER_M = 1 / 111_320.0  # at the equator


def sighting(ftype: str, kind: str, name: str | None, geom, *, score: float = 1.0,
             clear: bool = True) -> Sighting:
    f = Feature(ftype, kind, name, ("way/1",), 0.0, 0.0, geom)
    return Sighting(f, (100.0, 100.0), True, bool(name), False, False, score, None, clear)


def test_an_icon_just_over_the_threshold_is_not_clear() -> None:
    assert ICON_MIN_IOU < ICON_CLEAR_IOU
    # the perfume bottle that matched the clothes icon at 0.60-0.63
    assert not icon_is_clear(0.62, [])
    assert icon_is_clear(0.9, [0.75])  # 0.15 below
    assert not icon_is_clear(0.9, [0.76])  # another type's icon fits nearly as well
    assert ICON_RIVAL_MARGIN == 0.15


def test_an_unclear_icon_makes_its_type_ambiguous() -> None:
    pt = LineString([(0, 0), (0, 0)]).centroid
    vf = ViewFeatures(by_type={"clothes shop": [sighting("clothes shop", "symbol", "L", pt,
                                                         score=0.62, clear=False)]})
    assert vf.ambiguous("clothes shop")
    vf.by_type["clothes shop"] = [sighting("clothes shop", "symbol", "L", pt, score=0.95)]
    assert not vf.ambiguous("clothes shop") and vf.count("clothes shop") == 1


def test_best_iou_at_is_the_best_shift_near_the_spot() -> None:
    t = np.zeros((5, 5), bool)
    t[1:4, 2] = True
    t[2, 1:4] = True  # a plus of 5 pixels
    m = np.zeros((20, 20), bool)
    m[8:13, 4:9] = t
    assert best_iou_at(m, t, 9.5, 11.5) == 1.0  # 3 px off, within the search
    square = np.ones((5, 5), bool)
    assert best_iou_at(m, square, 6.5, 10.5) == 5 / 25
    assert best_iou_at(m, t, 60.0, 60.0) == 0.0


def test_a_road_and_its_unnamed_stubs_are_one_road() -> None:
    m = DEG_PER_M
    road = sighting("primary road", "line", "Mannerheimintie",
                    LineString([(0, 0), (200 * m, 0)]))
    stub = sighting("primary road", "line", None, LineString([(100 * m, 0), (100 * m, 30 * m)]))
    link = sighting("primary road", "line", None,
                    LineString([(100 * m, 31 * m), (100 * m, 60 * m)]))  # touches the stub
    other = sighting("primary road", "line", None,
                     LineString([(0, 100 * m), (200 * m, 100 * m)]))  # 40 m from any
    vf = ViewFeatures(by_type={"primary road": [road, stub, link]},
                      kinds={"primary road": "line"})
    assert vf.count("primary road") == 1
    vf.by_type["primary road"].append(other)
    assert vf.count("primary road") == 2


def test_two_named_roads_meeting_stay_two() -> None:
    m = DEG_PER_M
    a = sighting("primary road", "line", "A", LineString([(0, 0), (100 * m, 0)]))
    b = sighting("primary road", "line", "B", LineString([(100 * m, 0), (100 * m, 90 * m)]))
    # an unnamed link touching both joins one of them, it does not merge them
    link = sighting("primary road", "line", None, LineString([(90 * m, 0), (100 * m, 10 * m)]))
    vf = ViewFeatures(by_type={"primary road": [a, b, link]}, kinds={"primary road": "line"})
    assert vf.count("primary road") == 2


def test_parks_that_touch_or_overlap_are_one_area() -> None:
    m = DEG_PER_M
    p1 = sighting("park", "area", "P", box(0, 0, 50 * m, 50 * m))
    p2 = sighting("park", "area", "Q", box((50 + JOIN_DISTANCE_M / 2) * m, 0, 90 * m, 50 * m))
    p3 = sighting("park", "area", None, box(200 * m, 0, 250 * m, 50 * m))  # 110 m away
    vf = ViewFeatures(by_type={"park": [p1, p2]}, kinds={"park": "area"})
    assert vf.count("park") == 1
    vf.by_type["park"].append(p3)
    assert vf.count("park") == 2


def test_atm_names_are_the_operator_osm_carto_writes() -> None:
    atm = next(ft for ft in load_catalogue() if ft.name == "ATM")
    assert atm.label_tag == "operator"
    names = sorted({f.name for f in load_features("helsinki") if f.feature_type == "ATM"
                    if f.name})
    # "Otto. automaatti" is a name tag OSM-Carto does not write; the operator it writes is
    assert names == ["Otto", "Suomen Automatia Oy"]
