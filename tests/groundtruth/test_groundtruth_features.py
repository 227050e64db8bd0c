"""Map features of the hand-made extract, and what a view shows of them."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString, Point, Polygon

from groundtruth._osm_reader import RawObject
from groundtruth.catalogue import feature_type_names, load_catalogue
from groundtruth.errors import GroundTruthError
from groundtruth.features import (
    Feature,
    build_features,
    features_in_view,
    features_in_view_by_type,
)

#: (type, kind, name, source objects, anchor lat, anchor lon) for assets/osm/features.osm,
#: in catalogue order, then name (unnamed first), then source ids.
EXPECTED = [
    ("supermarket", "symbol", "Far Market", ("node/7",), 60.03, 24.03),
    ("pharmacy", "symbol", "Apteekki", ("node/4",), 60.0116, 24.004),
    ("restaurant", "symbol", None, ("node/2",), 60.0112, 24.002),
    ("restaurant", "symbol", "Ravintola Testi", ("node/1",), 60.011, 24.001),
    ("restaurant", "symbol", "Ravintola Testi", ("node/10",), 60.0126, 24.009),
    ("coffee shop", "symbol", "Kahvila Kuppi", ("node/3",), 60.0114, 24.003),
    ("ATM", "symbol", None, ("node/5",), 60.0118, 24.005),
    # a bank mapped as a building: its icon sits inside the square
    ("bank", "symbol", "Pankki", ("way/2001",), 60.0131, 24.0102),
    ("park", "area", "Iso Puisto", ("relation/3001",), 60.01925, 24.0105),
    ("park", "area", "Puisto", ("way/2002",), 60.0145, 24.002),
    ("clothes shop", "symbol", "Muoti", ("node/9",), 60.0124, 24.008),  # shop=fashion
    # two touching unnamed streams are one stream; the third lies apart
    ("stream", "line", None, ("way/2005", "way/2006"), 60.0172, 24.002),
    ("stream", "line", None, ("way/2007",), 60.0177, 24.0105),
    # a river mapped as two ways is one river; anchor: the middle of the merged line
    # (half of the line in degrees lies 0.000003 degrees past the first way's end)
    ("river", "line", "Joki", ("way/2003", "way/2004"), 60.0162, 24.005003),
    ("bus stop", "symbol", "Testikatu", ("node/6",), 60.012, 24.006),
    ("primary road", "line", "Päätie", ("way/2008",), 60.018, 24.0075),
    ("parking", "symbol", None, ("way/2009",), 60.0186, 24.0052),
    ("public toilet", "symbol", None, ("node/8",), 60.0122, 24.007),
]

WHOLE = (60.0100, 24.0000, 60.0200, 24.0200)  # (south, west, north, east)
SMALL = (60.0105, 24.0000, 60.0121, 24.0065)


def test_features_of_the_fixture(fixture_features: list[Feature]) -> None:
    got = [(f.feature_type, f.kind, f.name, f.osm_ids) for f in fixture_features]
    assert got == [e[:4] for e in EXPECTED]
    for feature, expected in zip(fixture_features, EXPECTED, strict=True):
        assert feature.lat == pytest.approx(expected[4], abs=2e-6)
        assert feature.lon == pytest.approx(expected[5], abs=2e-6)


def test_geometries(fixture_features: list[Feature]) -> None:
    by_ids = {f.osm_ids: f for f in fixture_features}
    assert by_ids[("node/1",)].geometry.geom_type == "Point"
    assert by_ids[("way/2002",)].geometry.geom_type in {"Polygon", "MultiPolygon"}
    assert by_ids[("way/2002",)].geometry.area == pytest.approx(0.001 * 0.004)
    river = by_ids[("way/2003", "way/2004")].geometry
    assert list(river.coords) == [(23.995, 60.016), (24.005, 60.0162), (24.01, 60.0164),
                                  (24.015, 60.0166)]


def test_features_in_a_small_view(fixture_features: list[Feature]) -> None:
    restaurants = features_in_view(fixture_features, SMALL, "restaurant")
    assert restaurants.names == ("Ravintola Testi",)
    assert (restaurants.unnamed, restaurants.count, restaurants.present) == (1, 2, True)
    assert [f.osm_ids for f in restaurants.features] == [("node/2",), ("node/1",)]
    assert features_in_view(fixture_features, SMALL, "bus stop").names == ("Testikatu",)
    assert features_in_view(fixture_features, SMALL, "ATM").unnamed == 1
    toilets = features_in_view(fixture_features, SMALL, "public toilet")  # 60.0122: north
    assert (toilets.count, toilets.present, toilets.names) == (0, False, ())
    assert features_in_view(fixture_features, SMALL, "river").count == 0


def test_features_in_the_whole_view(fixture_features: list[Feature]) -> None:
    got = features_in_view_by_type(fixture_features, WHOLE)
    assert list(got) == feature_type_names()
    counts = {name: v.count for name, v in got.items() if v.count}
    assert counts == {
        "pharmacy": 1, "restaurant": 3, "coffee shop": 1, "ATM": 1, "bank": 1, "park": 2,
        "clothes shop": 1, "stream": 2, "river": 1, "bus stop": 1, "primary road": 1,
        "parking": 1, "public toilet": 1,
    }
    assert got["restaurant"].names == ("Ravintola Testi",)  # two of that name, listed once
    assert got["park"].names == ("Iso Puisto", "Puisto")
    assert got["stream"].unnamed == 2
    assert got["supermarket"].count == 0  # far outside


def test_lines_and_areas_count_when_they_cross_the_view(fixture_features: list[Feature]) -> None:
    # no vertex of the river lies in this view, but its line crosses it
    assert features_in_view(fixture_features, (60.0150, 24.0120, 60.0170, 24.0140),
                            "river").names == ("Joki",)
    # a corner of the park is enough
    assert features_in_view(fixture_features, (60.0145, 24.0030, 60.0160, 24.0060),
                            "park").names == ("Puisto",)
    # a symbol counts by its anchor: a corner of the car park without its icon is not
    assert features_in_view(fixture_features, (60.0184, 24.0049, 60.01855, 24.0051),
                            "parking").count == 0


def test_zoom_follows_osm_carto(fixture_features: list[Feature]) -> None:
    # OSM-Carto draws restaurant icons from zoom 18, pharmacies from 17
    assert features_in_view(fixture_features, WHOLE, "restaurant", zoom=17).count == 0
    assert features_in_view(fixture_features, WHOLE, "restaurant", zoom=18).count == 3
    assert features_in_view(fixture_features, WHOLE, "pharmacy", zoom=17).count == 1
    assert features_in_view(fixture_features, WHOLE, "Pharmacy", zoom=16).count == 0


def test_unknown_feature_type(fixture_features: list[Feature]) -> None:
    with pytest.raises(GroundTruthError, match="unknown feature type"):
        features_in_view(fixture_features, WHOLE, "bakery")


def test_build_features_from_raw_objects() -> None:
    square = Polygon([(24.0, 60.0), (24.001, 60.0), (24.001, 60.001), (24.0, 60.001)])
    same_square = Polygon([(24.001, 60.001), (24.0, 60.001), (24.0, 60.0), (24.001, 60.0)])
    objects = [
        # an old-style multipolygon: the relation and its outer way both carry the tags
        RawObject("area", 5, {"leisure": "park", "name": "P"}, square, "relation/5"),
        RawObject("area", 6, {"leisure": "park", "name": "P"}, same_square, "way/6"),
        # an open way tagged as a shop draws no icon; a node does
        RawObject("way", 7, {"shop": "beauty"}, LineString([(24.0, 60.0), (24.1, 60.0)]),
                  "way/7"),
        RawObject("node", 8, {"shop": "beauty", "amenity": "atm"}, Point(24.2, 60.2),
                  "node/8"),
    ]
    features = build_features(objects, load_catalogue())
    assert [(f.feature_type, f.osm_ids) for f in features] == [
        ("ATM", ("node/8",)), ("park", ("relation/5", "way/6")), ("beauty shop", ("node/8",))]
    assert (features[0].lat, features[0].lon) == (60.2, 24.2)
    assert square.contains(Point(features[1].lon, features[1].lat))


def test_features_by_type_of_a_catalogue_given(fixture_features: list[Feature]) -> None:
    # a catalogue of two types: only they are counted, in the catalogue's order
    cat = [t for t in load_catalogue() if t.name in ("park", "pharmacy")]
    got = features_in_view_by_type(fixture_features, WHOLE, catalogue=cat)
    assert list(got) == [t.name for t in cat]
    assert {name: v.count for name, v in got.items()} == {"pharmacy": 1, "park": 2}


def test_a_catalogue_given_decides_the_zooms_a_type_is_drawn_at(
        fixture_features: list[Feature]) -> None:
    import dataclasses

    # the shipped catalogue draws restaurants at zooms 18 and 19; one drawing them at 19
    # only has none at zoom 18
    assert features_in_view(fixture_features, SMALL, "restaurant", zoom=18).count == 2
    own = tuple(dataclasses.replace(t, zooms=(19,)) if t.name == "restaurant" else t
                for t in load_catalogue())
    assert features_in_view(fixture_features, SMALL, "restaurant", zoom=18,
                            catalogue=own).count == 0
