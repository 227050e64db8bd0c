"""Bearings of road geometry: vectorised per-run bearings equal the scalar definitions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundtruth.bearings import (
    arriving_bearing,
    bearing_deg,
    leaving_bearing,
    piece_bearings,
    point_along,
    run_profile,
)
from groundtruth.distance import polyline_length_m
from groundtruth.turns import turn_angle

offsets = st.lists(
    st.tuples(st.floats(-0.0004, 0.0004), st.floats(-0.0008, 0.0008)), min_size=2,
    max_size=8,
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(offsets=offsets, data=st.data())
def test_piece_bearings_match_the_scalar_functions(offsets: list[tuple[float, float]],
                                                   data: st.DataObject) -> None:
    lats = [60.0 + dy for dy, _ in offsets]
    lons = [24.0 + dx for _, dx in offsets]
    coords = list(zip(lons, lats, strict=True))
    n = len(coords)
    i = data.draw(st.integers(0, n - 2))
    j = data.draw(st.integers(i + 1, n - 1))
    cum = run_profile(lons, lats)
    assert float(cum[-1]) == pytest.approx(polyline_length_m(list(zip(lats, lons,
                                                                       strict=True))), abs=1e-6)
    out, arr, back_out, back_arr = (float(b[0]) for b in piece_bearings(lons, lats, cum, [i], [j]))
    ahead, behind = coords[i:], coords[: j + 1]
    # (bearings over less than half a metre are numerically meaningless)
    if float(cum[-1]) - float(cum[i]) > 0.5 and float(cum[j]) > 0.5:
        assert turn_angle(out, leaving_bearing(ahead)) == pytest.approx(0.0, abs=1e-6)
        assert turn_angle(arr, arriving_bearing(behind)) == pytest.approx(0.0, abs=1e-6)
        assert turn_angle(back_out, leaving_bearing(behind[::-1])) == pytest.approx(0.0,
                                                                                      abs=1e-6)
        assert turn_angle(back_arr, arriving_bearing(ahead[::-1])) == pytest.approx(0.0,
                                                                                     abs=1e-6)


def test_point_along_interpolates_within_a_segment() -> None:
    line = [(24.0, 60.0), (24.0, 60.001), (24.002, 60.001)]
    first = polyline_length_m([(60.0, 24.0), (60.001, 24.0)])
    lon, lat = point_along(line, first / 2)
    assert (lon, lat) == pytest.approx((24.0, 60.0005), abs=1e-9)
    lon, lat = point_along(line, first + 1e-9)
    assert (lon, lat) == pytest.approx((24.0, 60.001), abs=1e-9)
    assert point_along(line, 0.0) == (24.0, 60.0)


def test_bearing_of_a_zero_length_line_is_the_default() -> None:
    assert leaving_bearing([(24.0, 60.0), (24.0, 60.0)], default=42.0) == 42.0
    assert arriving_bearing([(24.0, 60.0)], default=7.0) == 7.0
    assert bearing_deg(60.0, 24.0, 60.0, 24.001) == pytest.approx(90.0, abs=0.001)
