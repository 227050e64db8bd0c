"""Coastal regions derived from Natural Earth's land (groundtruth.thematic.coast),
checked against official lists the rule was not built from."""

from __future__ import annotations

import pytest
from shapely.geometry import box

from groundtruth.thematic.coast import coastal_lengths, coastal_regions
from groundtruth.thematic.countries import load_country
from groundtruth.thematic.parts import coast_parts

#: The contiguous states on the Atlantic, the Gulf of Mexico and the Pacific (NOAA's
#: ocean coastline states less Alaska and Hawaii).
US_COASTAL = sorted([
    "ME", "NH", "MA", "RI", "CT", "NY", "NJ", "DE", "MD", "VA", "NC", "SC", "GA", "FL", "AL",
    "MS", "LA", "TX", "CA", "OR", "WA",
])
#: India's nine coastal states and four coastal union territories (Ministry of Home
#: Affairs / Coast Guard).
INDIA_COASTAL = sorted([
    "GJ", "MH", "GA", "KA", "KL", "TN", "AP", "OD", "WB", "DD", "PY", "LD", "AN",
])
#: China's eleven coastal provincial units (State Oceanic Administration).
CHINA_COASTAL = sorted(["LN", "HE", "TJ", "SD", "JS", "SH", "ZJ", "FJ", "GD", "GX", "HI"])


@pytest.mark.parametrize(("country", "edition", "expected"), [
    ("usa", None, US_COASTAL), ("india", "2014", INDIA_COASTAL),
    ("india", "pre2014", INDIA_COASTAL), ("china", None, CHINA_COASTAL)])
def test_coastal_regions_match_the_official_lists(country: str, edition: str | None,
                                                  expected: list[str]) -> None:
    assert coastal_regions(load_country(country, edition).lonlat) == expected


def test_great_lakes_shores_tidal_rivers_and_near_misses_are_not_coast() -> None:
    """Lake shores are land in Natural Earth (IL, OH, MI, WI have no coast); DC on the
    tidal Potomac and Pennsylvania on the Delaware touch Natural Earth's sea only where
    it is a river narrower than 10 km (without the opening they had 53 and 63 km);
    Dadra and Nagar Haveli, a few km from the Arabian Sea, and Jilin, near the Tumen's
    mouth, have none."""
    us = coastal_lengths(load_country("usa").lonlat)
    assert all(us[c] == 0.0 for c in ("IL", "OH", "MI", "WI", "MN", "IN", "DC", "PA"))
    assert us["FL"] > 1000 and us["NH"] > 20
    without_opening = coastal_lengths({c: load_country("usa").lonlat[c] for c in ("DC", "PA")},
                                      narrow_km=0.0)
    assert without_opening["DC"] > 20 and without_opening["PA"] > 20
    india = coastal_lengths(load_country("india").lonlat)
    assert india["DN"] == 0.0 and india["TS"] == 0.0 and india["DD"] > 20
    assert coastal_lengths(load_country("china").lonlat)["JL"] == 0.0


def test_alaska_and_hawaii_on_the_insets_edition_are_coastal() -> None:
    coastal = coastal_regions(load_country("usa", "insets").lonlat)
    assert {"AK", "HI"} <= set(coastal)


def test_a_square_inland_has_no_coast_and_one_at_sea_is_all_coast() -> None:
    """Hand-made regions: 2°x2° in the Sahara (24-26°N, 10-12°E) has no sea within reach;
    1°x1° in the open Atlantic (30-31°N, 29-30°W) is coast all round: its perimeter,
    2 x 111.0 km of meridian plus 2 x 111.3 km x cos(30.5°) of parallel, about 414 km
    (measured along the projected straight edges, within 1%)."""
    lengths = coastal_lengths({"in": box(10, 24, 12, 26), "sea": box(-30, 30, -29, 31)})
    assert lengths["in"] == 0.0
    assert lengths["sea"] == pytest.approx(2 * 111.0 + 2 * 111.3 * 0.8616, rel=0.01)


def test_the_coast_parts_are_the_drawn_coastal_regions_and_the_rest() -> None:
    """issue 33 (mutation seed 3306): a coastal region not drawn on the map is in
    neither part; members are named as the map's table names them."""
    parts = coast_parts("china", ["SH", "ZJ", "GD"], ["AH", "SH", "ZJ"])
    coastal, sea = parts["coast_coastal"]
    inland, land = parts["coast_inland"]
    assert (sea, land) == (["SH", "ZJ"], ["AH"])
    assert coastal.members == ("Shanghai", "Zhejiang") and inland.members == ("Anhui",)
    assert coastal.phrase == "the group of coastal provinces (touching the sea)"
    assert inland.phrase == "the group of provinces without a sea coast"
    assert coastal.kind == inland.kind == "coast"
    usa = coast_parts("usa", ["CA", "AK"], ["CA", "NV", "AK"])
    assert usa["coast_coastal"][0].members == ("Alaska", "California")
    assert usa["coast_inland"][0].phrase == "the group of states without a sea coast"
