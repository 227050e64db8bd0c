"""Spatial relations and their margins, with hand-computed answers.

Two sources: ``assets/osm/relations.osm`` (laid out in ground metres, see its header:
the expected areas, lengths, distances and bearings follow from that layout by hand)
and rectangles in metres placed just inside and just outside each margin.
"""

from __future__ import annotations

import math

import pytest
import shapely
from gt_scope import module_scope
from shapely.geometry import LineString, Point, box
from shapely.geometry.base import BaseGeometry

from groundtruth import relations as rel
from groundtruth.assets import asset_path
from groundtruth.named_features import NamedFeature, by_name, load_named_features


@pytest.fixture(scope=module_scope)
def feats() -> list[NamedFeature]:
    return load_named_features(asset_path("osm", "relations.osm"))


@pytest.fixture(scope=module_scope)
def metric(feats: list[NamedFeature]) -> dict[str, BaseGeometry]:
    frame = rel.LocalFrame.around([f.geometry for f in feats])
    return {f.name: frame.to_metric(f.geometry) for f in feats}


# --- the fixture, measured ----------------------------------------------------------

def test_fixture_areas_are_ground_square_metres(metric: dict[str, BaseGeometry]) -> None:
    # 200 m x 200 m, 100 m x 80 m, 100 m x 100 m (to 0.05%: the layout's parallels)
    assert metric["Alpha Park"].area == pytest.approx(40_000, rel=5e-4)
    assert metric["Delta Field"].area == pytest.approx(8_000, rel=5e-4)
    assert metric["Gamma Square"].area == pytest.approx(10_000, rel=5e-4)
    assert metric["Long Avenue"].length == pytest.approx(600, rel=5e-4)


def test_fixture_overlap_alpha_delta(metric: dict[str, BaseGeometry]) -> None:
    o = rel.measure_overlap(metric["Alpha Park"], metric["Delta Field"])
    # overlap 50 m x 80 m = 4000; union 40000 + 8000 - 4000 = 44000
    assert o.overlap == pytest.approx(4_000, rel=1e-3)
    assert o.iou == pytest.approx(4_000 / 44_000, rel=1e-3)
    assert o.fraction_b == pytest.approx(0.5, rel=1e-3)
    assert o.fraction_a == pytest.approx(0.1, rel=1e-3)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Alpha Park", "Epsilon Garden", "equal"),  # same outline
        ("Gamma Square", "Alpha Park", "within"),
        ("Alpha Park", "Gamma Square", "contains"),
        ("Delta Field", "Alpha Park", "intersect"),  # half of Delta inside
        ("Delta Field", "Beta Park", "intersect"),
        ("Alpha Park", "Beta Park", "border"),  # shared 200 m side
        ("Gamma Square", "Delta Field", "border"),  # shared 80 m along x = 150
        ("Beta Park", "Eta Meadow", "disjoint"),  # 50 m apart
        ("Alpha Park", "Zeta Wood", None),  # 10 m gap: neither touching nor clearly apart
        ("Alpha Park", "Theta Lawn", None),  # touch along 10 m only
    ],
)
def test_fixture_area_relations(
    metric: dict[str, BaseGeometry], a: str, b: str, expected: str | None
) -> None:
    assert rel.area_relation(metric[a], metric[b]) == expected


@pytest.mark.parametrize(
    ("line", "area", "expected"),
    [
        ("Main Street", "Alpha Park", "intersect"),  # 200 m inside, 400 m outside
        ("Main Street", "Eta Meadow", "intersect"),  # its last 50 m run inside
        ("Shore Road", "Alpha Park", "border"),  # 8 m south of the park for 200 m
        ("Inner Lane", "Alpha Park", "within"),
        ("Long Avenue", "Alpha Park", "disjoint"),  # 100 m south
        ("Clear Brook", "Beta Park", "disjoint"),
    ],
)
def test_fixture_line_area_relations(
    metric: dict[str, BaseGeometry], line: str, area: str, expected: str
) -> None:
    assert rel.line_area_relation(metric[line], metric[area]) == expected


def test_fixture_distances(feats: list[NamedFeature]) -> None:
    hall = by_name(feats, "Town Hall").geometry
    north = rel.ground_distance(by_name(feats, "North Cafe").geometry, hall)
    east = rel.ground_distance(by_name(feats, "East Shop").geometry, hall)
    assert north.meters == pytest.approx(600, abs=0.1)
    assert east.meters == pytest.approx(800, abs=0.1)
    assert north.extent_fraction == 0.0
    assert north.clear(200.0)  # exactly 3 scale bars (0.1 m of layout rounding aside)
    assert not north.clear(201.0)
    park = rel.ground_distance(hall, by_name(feats, "Alpha Park").geometry)
    # centroid (100, 100) to (1000, 1000): 900 * sqrt 2; radius 100 * sqrt 2
    assert park.meters == pytest.approx(900 * math.sqrt(2), rel=1e-3)
    assert park.radius_b_m == pytest.approx(100 * math.sqrt(2), rel=1e-3)
    assert park.extent_fraction == pytest.approx(1 / 9, rel=1e-3)
    assert not park.clear(50.0)  # 11% > 5%: the park is too big for a distance


@pytest.mark.parametrize(
    ("name", "bearing", "direction", "clear"),
    [
        ("North Cafe", 0.0, "north", True),
        ("East Shop", 90.0, "east", True),
        ("Edge Bar", 20.0, "north", False),  # 20 degrees off north: 2.5 from the edge
        ("Clear Pub", 40.0, "north-east", True),  # 5 degrees off north-east
    ],
)
def test_fixture_orientation(
    feats: list[NamedFeature], name: str, bearing: float, direction: str, clear: bool
) -> None:
    o = rel.orientation(by_name(feats, name).geometry, by_name(feats, "Town Hall").geometry)
    assert o.bearing_deg == pytest.approx(bearing, abs=0.05)
    assert o.direction == direction
    assert o.spread_deg == 0.0
    assert o.clear is clear


def test_fixture_orientation_of_an_area(feats: list[NamedFeature]) -> None:
    o = rel.orientation(by_name(feats, "Town Hall").geometry, by_name(feats, "Alpha Park").geometry)
    assert o.bearing_deg == pytest.approx(45.0, abs=0.05)
    assert o.direction == "north-east"
    # the park's radius over the distance is 1/9: asin(1/9) = 6.38 degrees < 15
    assert o.spread_deg == pytest.approx(math.degrees(math.asin(1 / 9)), abs=0.01)
    assert o.clear


# --- each margin, just inside and just outside ----------------------------------------

SQUARE = box(0, 0, 100, 100)  # 10,000 m2


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        (box(0, 0, 100, 100.5), "equal"),  # IoU 10000 / 10050 = 0.995 >= 0.99
        (box(0, 0, 100, 102), "within"),  # IoU 0.980 < 0.99; all of SQUARE inside
        (box(0.5, 0, 200, 100), "within"),  # 99.5% of SQUARE inside >= 99%
        (box(2, 0, 200, 100), None),  # 98% inside: between intersect and within
        (box(10, 0, 200, 100), "intersect"),  # 90% of the smaller: the upper edge
        (box(50, 0, 200, 100), "intersect"),  # 50%
        (box(90, 0, 200, 100), "intersect"),  # 10%: the lower edge
        (box(95, 0, 200, 100), None),  # 5%: more than touching, less than intersecting
        (box(99.5, 0, 200, 100), "border"),  # overlap 0.5% with a 100 m shared side
        (box(100, 50, 200, 150), "border"),  # shared 50 m (+2 m snap) >= 40
        (box(100, 75, 200, 175), None),  # shared 25 m (+2 m snap) < 40
        (box(100, 100, 200, 200), None),  # corners touch
        (box(101.9, 0, 200, 100), "border"),  # 1.9 m apart: within BORDER_SNAP_M = 2
        (box(102.5, 0, 200, 100), None),  # 2.5 m apart: not shared, not 20 m apart
        (box(110, 0, 200, 100), None),  # 10 m gap < 20
        (box(120, 0, 200, 100), "disjoint"),  # 20 m gap
    ],
)
def test_area_margins(other: BaseGeometry, expected: str | None) -> None:
    assert rel.area_relation(SQUARE, other) == expected


def test_equal_and_unequal_margins() -> None:
    assert rel.areas_clearly_unequal(SQUARE, box(50, 0, 150, 100))  # IoU 1/3
    # IoU = 10000 * 2/3 / (10000 * 4/3) = 0.5: the edge counts as unequal
    assert rel.areas_clearly_unequal(SQUARE, box(100 / 3, 0, 100 + 100 / 3, 100))
    assert not rel.areas_clearly_unequal(SQUARE, box(20, 0, 120, 100))  # IoU 80/120


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (LineString([(10, 50), (104, 50)]), "within"),  # inside the area grown by 5 m
        (LineString([(10, 50), (104.9, 50)]), "within"),  # 4.9 m out: LINE_AREA_TOLERANCE_M
        # 6 m out: not within the grown area, 6 / 96 = 6% outside < 10%: not intersect
        (LineString([(10, 50), (106, 50)]), None),
        (LineString([(10, 50), (130, 50)]), "intersect"),  # 85 m inside, 25 m outside
        (LineString([(-100, 50), (40, 50)]), "intersect"),  # 35 m inside the shrunk area
        (LineString([(-100, 50), (25, 50)]), None),  # only 20 m inside the shrunk area
        (LineString([(0, -8), (100, -8)]), "border"),  # 8 m off the south side
        (LineString([(0, -3), (100, -3)]), "border"),  # on the sidewalk
        # within 15 m of the boundary from x = 75 to 100 + sqrt(15^2 - 8^2) = 112.69
        # (round the corner): 37.7 m < 40
        (LineString([(75, -8), (130, -8)]), None),
        (LineString([(70, -8), (130, -8)]), "border"),  # 42.7 m
        (LineString([(0, -18), (100, -18)]), None),  # 18 m: not along, not clearly apart
        (LineString([(0, -25), (100, -25)]), "disjoint"),
    ],
)
def test_line_area_margins(line: LineString, expected: str | None) -> None:
    assert rel.line_area_relation(line, SQUARE) == expected


@pytest.mark.parametrize(
    ("radius_a", "radius_b", "scale_bar", "clear"),
    [
        (30.0, 20.0, 100.0, True),  # 50 / 1000 = 5%; 1000 m = 10 bars
        (30.0, 21.0, 100.0, False),  # 5.1%
        (0.0, 0.0, 1000 / 3, True),  # exactly 3 bars
        (0.0, 0.0, 334.0, False),  # 2.99 bars
    ],
)
def test_distance_margins(radius_a: float, radius_b: float, scale_bar: float, clear: bool) -> None:
    d = rel.GroundDistance(1000.0, radius_a, radius_b, 60.0, 24.0, 60.0, 24.0)
    assert d.clear(scale_bar) is clear


@pytest.mark.parametrize(
    ("bearing", "spread", "clear"),
    [
        (10.0, 5.0, True),  # 10 + 5 = 15 = 22.5 - 7.5
        (10.0, 5.1, False),
        (-15.0, 0.0, True),  # 345 degrees: 15 off north
        (15.1, 0.0, False),
        (180.0, 14.9, True),
    ],
)
def test_orientation_margin(bearing: float, spread: float, clear: bool) -> None:
    d = rel.GroundDistance(1000.0, 0.0, 0.0, 60.0, 24.0, 60.0, 24.0)
    o = rel.Orientation(bearing % 360.0, rel.direction_name(bearing), spread, d)
    assert o.clear is clear


@pytest.mark.parametrize(
    ("bearing", "name"),
    [(0.0, "north"), (22.49, "north"), (22.5, "north-east"), (67.5, "east"),
     (135.0, "south-east"), (202.5, "south-west"), (292.4, "west"), (337.5, "north"),
     (337.4, "north-west"), (-10.0, "north"), (720.0 + 90.0, "east")],
)
def test_direction_sectors(bearing: float, name: str) -> None:
    assert rel.direction_name(bearing) == name


def test_local_frame_is_ground_metres() -> None:
    frame = rel.LocalFrame(60.0, 24.0)
    # one arc-minute of latitude north of 60 N: M(60.0083) * pi / 10800 = 1856.874 m, with
    # M = a (1 - e^2) / (1 - e^2 sin^2 phi)^1.5 = 6,384,525 m on WGS84 (hand formula)
    p = frame.to_metric(Point(24.0, 60.0 + 1 / 60))
    assert p.y == pytest.approx(1856.874, abs=0.01)
    back = frame.to_lonlat(p)
    assert back.x == pytest.approx(24.0, abs=1e-9)
    assert back.y == pytest.approx(60.0 + 1 / 60, abs=1e-9)


#: Frame centres: round ones, Helsinki's, and ones whose 15-digit rounding by PROJ
#: differs from Python's ``format(x, ".15g")`` (so the pipelines must be PROJ's text).
FRAME_CENTRES = [(60.0, 24.0), (-10.25, -8.0), (0.0, 179.5), (89.0, -179.0),
                 (60.1356486125063, 24.9837202957356), (60.10624560617075, 24.88021521002168),
                 (60.184230425059146, 24.971707277462915), (8.298933284042975, 27.01000674300229)]


def test_local_frame_projects_as_from_crs_did() -> None:
    """:class:`LocalFrame` builds its transformers from :func:`aeqd_pipelines` instead of
    ``Transformer.from_crs`` (10 ms each): same pipelines, same numbers to the bit, both
    ways, at round, Helsinki and seeded random centres."""
    import numpy as np
    from pyproj import CRS, Transformer  # imported here: only this test calls from_crs

    rng = np.random.default_rng(0)
    centres = FRAME_CENTRES + [(float(rng.uniform(-85, 85)), float(rng.uniform(-180, 180)))
                               for _ in range(12)]
    for lat, lon in centres:
        crs = CRS.from_proj4(f"+proj=aeqd +lat_0={lat} +lon_0={lon} +datum=WGS84 +units=m "
                             "+no_defs")
        fwd = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
        inv = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
        frame = rel.LocalFrame(lat, lon)
        assert [" ".join(s.lstrip("+") for s in p.split())
                for p in rel.aeqd_pipelines(lat, lon)] == [fwd.definition, inv.definition]
        pts = box(lon - 0.2, lat - 0.1, lon + 0.2, min(lat + 0.1, 89.9)).segmentize(0.01)
        got = frame.to_metric(pts)
        want = shapely.transform(pts, fwd.transform, interleaved=False)
        assert shapely.get_coordinates(got).tobytes() == \
            shapely.get_coordinates(want).tobytes(), (lat, lon)
        back = shapely.transform(want, inv.transform, interleaved=False)
        assert shapely.get_coordinates(frame.to_lonlat(want)).tobytes() == \
            shapely.get_coordinates(back).tobytes(), (lat, lon)


# --- every clear pair of the fixture ----------------------------------------------------

def test_topological_pairs_of_the_fixture(feats: list[NamedFeature]) -> None:
    from groundtruth.relation_pairs import topological_pairs

    got = {(p.a.name, p.b.name, p.relation) for p in topological_pairs(feats)}
    assert got == {
        ("Epsilon Garden", "Alpha Park", "equal"),
        ("Epsilon Garden", "Beta Park", "border"),
        ("Epsilon Garden", "Delta Field", "intersect"),
        ("Gamma Square", "Epsilon Garden", "within"),
        ("Theta Lawn", "Zeta Wood", "intersect"),  # 10 x 50 of Theta's 25 x 60
        ("Alpha Park", "Beta Park", "border"),
        ("Alpha Park", "Delta Field", "intersect"),
        ("Gamma Square", "Alpha Park", "within"),  # "contains" turned round
        ("Beta Park", "Delta Field", "intersect"),
        ("Delta Field", "Gamma Square", "border"),
        ("Inner Lane", "Epsilon Garden", "within"),
        ("Inner Lane", "Alpha Park", "within"),
        ("Main Street", "Epsilon Garden", "intersect"),
        ("Main Street", "Eta Meadow", "intersect"),
        ("Main Street", "Alpha Park", "intersect"),
        ("Main Street", "Beta Park", "intersect"),
        ("Main Street", "Delta Field", "intersect"),
        ("Main Street", "Gamma Square", "intersect"),
        ("Shore Road", "Epsilon Garden", "border"),
        ("Shore Road", "Alpha Park", "border"),
        ("Shore Road", "Beta Park", "border"),
    }


def test_point_pairs_of_the_fixture(feats: list[NamedFeature]) -> None:
    from groundtruth.relation_pairs import point_pairs

    pairs = point_pairs(feats, scale_bar_m=100.0, max_distance_m=900.0)
    got = {(p.a.name, p.b.name): (round(p.distance.meters), p.orientation.direction,
                                  p.orientation.clear) for p in pairs}
    # Edge Bar - North Cafe: (171, 470) to (0, 600) is 215 m < 3 scale bars: left out;
    # the polygons' radii (>= 70 m) exceed 30 m: left out
    assert len(got) == 14
    assert got[("North Cafe", "Town Hall")] == (600, "north", True)
    assert got[("Town Hall", "East Shop")] == (800, "west", True)
    assert got[("Edge Bar", "Town Hall")] == (500, "north", False)  # distance only
    # Clear Pub (321.4, 383.0) from North Cafe (0, 600): 388 m to the south-east
    assert got[("Clear Pub", "North Cafe")] == (388, "south-east", True)


def test_a_negative_azimuth_is_measured_from_the_nearest_direction() -> None:
    # -158 deg is 202 deg: 22 deg past south (180), 23 deg short of south-west (225)
    assert rel.sector_offset_deg(-158.0) == pytest.approx(22.0)
    assert rel.sector_offset_deg(202.0) == pytest.approx(22.0)
    assert rel.sector_offset_deg(-10.0) == pytest.approx(10.0)


def test_overlapping_objects_have_no_clear_direction() -> None:
    # two circles of 100 m radius whose centres are about 111 m apart overlap: every
    # direction from one to the other is possible
    o = rel.orientation_between((60.001, 24.0, 100.0), (60.0, 24.0, 100.0))
    assert o.direction == "north"
    assert o.spread_deg == 90.0
    assert not o.clear


def test_point_pairs_take_polygons_up_to_30_m_in_radius() -> None:
    from groundtruth.relation_pairs import point_pairs

    # a square of 2 x 21.57 m (half-diagonal 30.5 m by hand) 300 m north of a point:
    # by default too large to stand for a point, admitted when the limit is 31 m
    half = 21.57
    dlat, dlon = half / 111_400, half / 55_800  # metres per degree at 60 N, by hand
    square = box(24.0 - dlon, 60.0027 - dlat, 24.0 + dlon, 60.0027 + dlat)
    pump = NamedFeature("Pump", "point", "fuel", ("n1",), Point(24.0, 60.0))
    park = NamedFeature("Square", "polygon", "park", ("w1",), square)
    frame = rel.LocalFrame.around([square])
    assert rel.centre_and_radius(square, frame)[2] == pytest.approx(30.5, abs=0.05)
    assert point_pairs([pump, park], scale_bar_m=100.0, max_distance_m=900.0) == []
    wider = point_pairs([pump, park], scale_bar_m=100.0, max_distance_m=900.0,
                        max_radius_m=31.0)
    assert {(p.a.name, p.b.name) for p in wider} == {("Pump", "Square"), ("Square", "Pump")}


def test_point_pairs_closer_than_three_scale_bars_are_not_asked() -> None:
    from groundtruth.relation_pairs import point_pairs

    # 0.0025 deg of latitude at 60 N is about 278 m: under 3 scale bars of 100 m
    # (300 m) but over 0.9 of it (270 m), so only the exact distance rule refuses it
    a = NamedFeature("A", "point", "fuel", ("n1",), Point(24.0, 60.0))
    b = NamedFeature("B", "point", "cafe", ("n2",), Point(24.0, 60.0025))
    assert point_pairs([a, b], scale_bar_m=100.0, max_distance_m=900.0) == []
    assert len(point_pairs([a, b], scale_bar_m=90.0, max_distance_m=900.0)) == 2
