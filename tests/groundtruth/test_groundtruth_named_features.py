"""Named features for spatial relations, read from the hand-made extract."""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely.geometry import LineString, Point, box

from groundtruth._osm_reader import RawObject
from groundtruth.assets import asset_path
from groundtruth.named_features import (
    build_named_features,
    by_name,
    load_named_features,
    point_category,
    polygon_category,
)


def test_loader_reads_every_named_feature_once() -> None:
    feats = load_named_features(asset_path("osm", "relations.osm"))
    got = [(f.kind, f.category, f.name) for f in feats]
    assert got == [
        ("polygon", "garden", "Epsilon Garden"),
        ("polygon", "grass area", "Theta Lawn"),
        ("polygon", "meadow area", "Eta Meadow"),
        ("polygon", "park", "Alpha Park"),
        ("polygon", "park", "Beta Park"),
        ("polygon", "sports ground", "Delta Field"),
        ("polygon", "square", "Gamma Square"),
        ("polygon", "wood", "Zeta Wood"),
        ("line", "road", "Inner Lane"),
        ("line", "road", "Long Avenue"),
        ("line", "road", "Main Street"),
        ("line", "road", "Shore Road"),
        ("line", "waterway", "Clear Brook"),
        ("point", "bakery", "East Shop"),
        ("point", "bar", "Edge Bar"),
        ("point", "cafe", "North Cafe"),
        ("point", "pub", "Clear Pub"),
        ("point", "townhall", "Town Hall"),
    ]  # no footway, no unnamed bench
    avenue = by_name(feats, "Long Avenue")
    assert avenue.osm_ids == ("way/112", "way/113")
    assert avenue.geometry.geom_type == "LineString"  # the two ways merged
    assert not any(f.at_edge for f in feats)
    assert by_name(feats, "Alpha Park").key == "polygon:park:Alpha Park"


def test_first_rule_wins_and_duplicates_merge() -> None:
    square = box(24.0, 60.0, 24.001, 60.001)
    objs = [
        RawObject("area", 1, {"leisure": "park", "landuse": "grass", "name": "P"}, square,
                  "way/1"),
        RawObject("area", 2, {"leisure": "park", "name": "P"}, square, "relation/2"),
        RawObject("area", 3, {"leisure": "park"}, square, "way/3"),  # unnamed
        # mapped twice, 60% of the smaller overlapping: merged into one
        RawObject("area", 6, {"building": "yes", "name": "H"},
                  box(24.01, 60.0, 24.011, 60.001), "way/6"),
        RawObject("area", 7, {"building": "yes", "name": "H"},
                  box(24.0104, 60.0, 24.0114, 60.001), "relation/7"),
        # same name, 40% overlap: two buildings
        RawObject("area", 8, {"building": "yes", "name": "K"},
                  box(24.02, 60.0, 24.021, 60.001), "way/8"),
        RawObject("area", 9, {"building": "yes", "name": "K"},
                  box(24.0206, 60.0, 24.0216, 60.001), "way/9"),
        RawObject("node", 4, {"amenity": "cafe", "name": "C"}, Point(24.0, 60.0), "node/4"),
        RawObject("way", 5, {"highway": "footway", "name": "F"},
                  LineString([(24.0, 60.0), (24.001, 60.0)]), "way/5"),
    ]
    feats = build_named_features(objs)
    assert [(f.kind, f.category, f.name, f.osm_ids) for f in feats] == [
        ("polygon", "building", "H", ("relation/7", "way/6")),
        ("polygon", "building", "K", ("way/8",)),
        ("polygon", "building", "K", ("way/9",)),
        ("polygon", "park", "P", ("relation/2", "way/1")),
        ("point", "cafe", "C", ("node/4",)),
    ]


@pytest.mark.parametrize(("lon", "at_edge"), [(24.0005, False), (24.00009, True)])
def test_at_edge(lon: float, at_edge: bool) -> None:
    # bounds start at 24.0 E; 10 m at 60 N is about 0.00018 degrees of longitude
    objs = [RawObject("node", 1, {"shop": "bakery", "name": "B"}, Point(lon, 60.005), "node/1")]
    (feat,) = build_named_features(objs, (60.0, 24.0, 60.01, 24.01))
    assert feat.at_edge is at_edge


def test_a_yes_or_no_tag_names_no_category() -> None:
    # amenity=no / shop=yes say nothing about what the place is: the next key decides
    assert point_category({"amenity": "no", "shop": "bakery"}) == "bakery"
    assert point_category({"amenity": "yes", "tourism": "hotel"}) == "hotel"
    assert point_category({"amenity": "no"}) is None
    # also for keys whose every value is a category: building=no is no building
    assert polygon_category({"building": "no", "leisure": "park"}) == "park"
    assert polygon_category({"landuse": "no"}) is None


def test_an_area_of_no_category_does_not_hide_the_areas_after_it() -> None:
    square = box(24.0, 60.0, 24.001, 60.001)
    objs = [
        RawObject("area", 1, {"name": "Plot", "area": "yes"}, square, "way/1"),
        RawObject("area", 2, {"leisure": "park", "name": "Park"}, square, "way/2"),
    ]
    feats = build_named_features(objs)
    assert [(f.name, f.kind, f.category) for f in feats] == [("Park", "polygon", "park")]


_EDGE_OSM = """<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="hand">
  <bounds minlat="60.0000" minlon="24.0000" maxlat="60.0100" maxlon="24.0100"/>
  <node id="1" version="1" lat="60.0050" lon="24.00009">
    <tag k="shop" v="bakery"/><tag k="name" v="Edge Bakery"/></node>
  <node id="2" version="1" lat="60.0050" lon="24.0050">
    <tag k="shop" v="bakery"/><tag k="name" v="Middle Bakery"/></node>
</osm>
"""


def test_a_loaded_extract_flags_what_lies_at_its_edge(tmp_path: Path) -> None:
    # the extract's own <bounds> decide: 10 m from its west edge is at the edge
    (tmp_path / "edge.osm").write_text(_EDGE_OSM, encoding="utf-8")
    at_edge = {f.name: f.at_edge for f in load_named_features(tmp_path / "edge.osm")}
    assert at_edge == {"Edge Bakery": True, "Middle Bakery": False}
