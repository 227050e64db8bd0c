"""Distances: haversine (Leaflet), geodesic (WGS84), polylines, feet."""

from __future__ import annotations

import math

import pytest
from gt_handcalc import meridian_m, parallel_m

from groundtruth.distance import (
    LEAFLET_EARTH_RADIUS_M,
    geodesic_m,
    haversine_m,
    meters_to_feet,
    polyline_length_m,
)


def test_haversine_by_hand() -> None:
    one_degree = LEAFLET_EARTH_RADIUS_M * math.pi / 180
    assert haversine_m(0.0, 0.0, 0.0, 1.0) == pytest.approx(one_degree, rel=1e-12)
    assert haversine_m(60.0, 24.0, 61.0, 24.0) == pytest.approx(one_degree, rel=1e-12)
    assert haversine_m(0.0, 0.0, 0.0, 180.0) == pytest.approx(math.pi * 6371000.0)
    assert haversine_m(1.0, 2.0, 1.0, 2.0) == 0.0
    assert haversine_m(0.0, 0.0, 0.0, 1.0, radius_m=1.0) == pytest.approx(math.pi / 180)


def test_geodesic_by_hand() -> None:
    # along the equator the geodesic is the equator: a * dlambda
    assert geodesic_m(0.0, 0.0, 0.0, 1.0) == pytest.approx(6378137 * math.pi / 180, abs=1e-6)
    # short meridian and parallel stretches against the M and N cos(phi) formulas
    assert geodesic_m(60.0, 24.0, 60.001, 24.0) == pytest.approx(meridian_m(60.0, 60.001),
                                                                 abs=0.001)
    assert geodesic_m(60.0, 24.0, 60.0, 24.003) == pytest.approx(parallel_m(60.0, 24.0, 24.003),
                                                                 abs=0.001)
    assert geodesic_m(60.0, 24.0, 60.001, 24.0) == geodesic_m(60.001, 24.0, 60.0, 24.0)


def test_leaflet_sphere_against_wgs84_at_helsinki() -> None:
    # short stretches: the ratio is R over the ellipsoid's radius of curvature
    east = haversine_m(60.0, 24.0, 60.0, 24.01) / geodesic_m(60.0, 24.0, 60.0, 24.01)
    north = haversine_m(60.0, 24.0, 60.01, 24.0) / geodesic_m(60.0, 24.0, 60.01, 24.0)
    ellipsoid_n = parallel_m(60.0, 0.0, 1.0) / (math.cos(math.radians(60.0)) * math.pi / 180)
    ellipsoid_m = meridian_m(59.5, 60.5) / (math.pi / 180)
    assert east == pytest.approx(LEAFLET_EARTH_RADIUS_M / ellipsoid_n, abs=1e-5)  # 0.36% short
    assert north == pytest.approx(LEAFLET_EARTH_RADIUS_M / ellipsoid_m, abs=1e-5)  # 0.20% short


def test_polyline_length() -> None:
    pts = [(60.0, 24.0), (60.001, 24.0), (60.001, 24.003)]
    hand = meridian_m(60.0, 60.001) + parallel_m(60.001, 24.0, 24.003)
    assert polyline_length_m(pts) == pytest.approx(hand, abs=0.01)
    assert polyline_length_m(pts) == pytest.approx(
        geodesic_m(*pts[0], *pts[1]) + geodesic_m(*pts[1], *pts[2]), abs=1e-6)
    assert polyline_length_m(pts[:1]) == 0.0
    assert polyline_length_m([]) == 0.0


def test_feet() -> None:
    assert meters_to_feet(0.3048) == pytest.approx(1.0)
    assert meters_to_feet(1609.344) == pytest.approx(5280.0)
