"""MapWise's name counterfactuals: invented names and shuffled real names."""

from __future__ import annotations

import pytest

from groundtruth.thematic.counterfactual_names import (
    imaginary_regions,
    relabelled,
    shuffled_regions,
)
from groundtruth.thematic.countries import COUNTRIES, region_table
from groundtruth.thematic.region_names import RegionNames, fold_name


def _every_real() -> tuple[set[str], set[str]]:
    names, codes = set(), set()
    for country in COUNTRIES:
        for code, r in region_table(country).items():
            codes |= {code, r.code}
            names |= {fold_name(n) for n in (r.name, *r.aliases)}
    return names, codes


@pytest.mark.parametrize("country", COUNTRIES)
def test_imaginary_names_are_unique_and_never_real(country: str) -> None:
    table = region_table(country)
    avoid = {f"{c}:{k}": r for c in COUNTRIES for k, r in region_table(c).items()}
    shown = imaginary_regions(table, seed=4, avoid=avoid)
    assert set(shown) == set(table)
    names = [r.name for r in shown.values()]
    codes = [r.code for r in shown.values()]
    assert len(set(names)) == len(names) and len(set(codes)) == len(codes)
    real_names, real_codes = _every_real()
    assert not {fold_name(n) for n in names} & real_names
    assert not set(codes) & real_codes
    assert all(len(c) == 2 and c.isalpha() and c.isupper() for c in codes)
    # no invented name or code is read as a real region of the country
    real = RegionNames(country, table)
    assert [n for n in names + codes if real.resolve(n) is not None] == []
    assert imaginary_regions(table, seed=4, avoid=avoid) == shown  # seeded
    assert imaginary_regions(table, seed=5, avoid=avoid) != shown


@pytest.mark.parametrize("country", COUNTRIES)
def test_shuffled_names_are_a_derangement_of_the_real_ones(country: str) -> None:
    table = region_table(country)
    shown = shuffled_regions(table, seed=1)
    assert sorted(r.code for r in shown.values()) == sorted(r.code for r in table.values())
    assert [c for c, r in shown.items() if r.code == c] == []
    assert shuffled_regions(table, seed=1) == shown


def test_relabelled_refuses_a_value_mode() -> None:
    with pytest.raises(ValueError, match="not a name counterfactual"):
        relabelled("jumbled", region_table("usa"))
